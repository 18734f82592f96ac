import Foundation
import ReceiptModel

/// The store on an SQL engine: one SQLite file (the default: embedded, one host) or a
/// PostgreSQL database (many processes on many machines). Holds inventory items, receipts,
/// their line items, the links between them, corrections and batch claims. Safe to use from
/// several threads and from several processes at once: every method is one transaction
/// (SQLite: WAL, busy timeout, BEGIN IMMEDIATE; PostgreSQL: SERIALIZABLE, run again when
/// another transaction made it fail).
///
/// The SQL is the same for both engines but where `SQLDialect` says otherwise; this type
/// (with the two schemas and connections) is the only place with SQL in the package.
public final class SQLReceiptStore: ReceiptStore {
    enum Backend: Sendable {
        case sqlite(Database<SQLiteConnection>)
        case postgres(Database<PostgresConnection>)
    }
    let backend: Backend
    /// The SQLite file's path, or the PostgreSQL URL without its password.
    public let path: String
    public var location: String { path }
    /// The schema version this object opened the store at (older only in SQLite upgrade tests).
    let schema: Int
    /// Read-only: SQLite opened a file it may not write (no error of its own), or PostgreSQL
    /// is a standby, or the role may not write the tables.
    public let isReadOnly: Bool

    /// Opens (creating if needed) the SQLite store at `path` and upgrades it to the latest schema.
    /// Without `create`, a missing file is a `StoreError` coded `.missing` and nothing is created (no file, no folder).
    public convenience init(path: String, create: Bool = true) throws {
        try self.init(path: path, schemaVersion: Schema.latest, create: create)
    }

    /// Opens the SQLite store and migrates it only up to `schemaVersion`: for tests that
    /// need an older store to upgrade.
    public init(path: String, schemaVersion: Int, create: Bool = true) throws {
        if !create, !FileManager.default.fileExists(atPath: path) { throw StoreError.missing(location: path) }
        let dir = (path as NSString).deletingLastPathComponent
        if create, !dir.isEmpty, !FileManager.default.fileExists(atPath: dir) {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw StoreError(.filesystem, "cannot create the folder for the store: \((error as NSError).localizedDescription)", location: dir)
            }
        }
        self.path = path
        let db = Database(try SQLiteConnection(path: path, create: create))
        schema = min(schemaVersion, Schema.latest)
        try Schema.migrate(db, to: schema)
        isReadOnly = (try? db.locked { $0.isReadOnly }) ?? false
        backend = .sqlite(db)
    }

    /// Connects to the PostgreSQL database at `conninfo` (`postgres://user@host:port/db`, or
    /// libpq's `key=value` form; libpq's PG* environment variables fill in the rest) and
    /// upgrades its schema. The database must exist; without `create` it must hold a store already.
    public init(postgres conninfo: String, create: Bool = true) throws {
        let db = Database(try PostgresConnection(conninfo: conninfo))
        path = db.path
        try PostgresSchema.migrate(db, create: create)
        schema = Schema.latest
        isReadOnly = try PostgresSchema.isReadOnly(db)
        backend = .postgres(db)
    }

    /// The newest schema version this build knows (both engines).
    public static var latestSchemaVersion: Int { Schema.latest }

    /// The schema version of the open store.
    public func schemaVersion() throws -> Int {
        switch backend {
        case let .sqlite(db): try Schema.version(db)
        case let .postgres(db): try PostgresSchema.version(db)
        }
    }

    /// "SQLite" or "PostgreSQL", for messages and `store info`.
    public var engineName: String {
        switch backend {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    /// A read transaction on whichever engine: one snapshot.
    func read<T: Sendable>(_ body: sending (any SQLConnection) throws -> T) throws -> T {
        switch backend {
        case let .sqlite(db): try db.read { try body($0) }
        case let .postgres(db): try db.read { try body($0) }
        }
    }

    /// A write transaction on whichever engine: all or nothing, run again on a collision.
    func write<T: Sendable>(_ body: sending (any SQLConnection) throws -> T) throws -> T {
        switch backend {
        case let .sqlite(db): try db.write { try body($0) }
        case let .postgres(db): try db.write { try body($0) }
        }
    }

    static func now() -> String { Date().formatted(.iso8601) }
    static func timestamp(_ d: Date) -> String { d.formatted(.iso8601) }

    // MARK: - Receipts

    public func containsReceipt(contentHash: String) throws -> Bool {
        try read { try $0.scalarInt("SELECT 1 FROM receipts WHERE content_hash = ?", [.text(contentHash)]) != nil }
    }

    /// Several receipts in one transaction: all are stored or none.
    @discardableResult
    public func saveReceipts(_ receipts: [StoredReceiptInput]) throws -> [ReceiptID] {
        let withReading = schema >= 3
        let rows = try receipts.map { try ReceiptRow($0, withReading: withReading) }
        let now = Self.now()
        let clearFailures = schema >= 2
        let withCorrections = schema >= 4
        let withClaims = schema >= 5
        let withShops = schema >= 7
        let withSerials = schema >= 8
        let sql = withReading ? Self.receiptSQL : Self.receiptSQLBeforeReading
        return try write { db in
            try rows.map { try Self.save($0, db, sql, now, clearFailures: clearFailures, withCorrections: withCorrections, withClaims: withClaims,
                                         withShops: withShops, withSerials: withSerials) }
        }
    }

    /// The columns that hold a receipt's fields as the user sees them (corrections applied).
    static let fieldColumns = [
        "vendor", "vendor_confidence", "date", "date_day", "date_confidence", "time", "time_confidence",
        "total", "total_cents", "total_confidence", "subtotal", "subtotal_confidence",
        "tax", "tax_confidence", "currency", "currency_confidence",
        "receipt_number", "receipt_number_confidence", "payment_method", "payment_method_confidence",
        "card_last4", "card_last4_confidence",
    ]

    /// The receipt columns a save writes, in `ReceiptRow.fields` order.
    static let receiptColumns = ["status", "ocr_text"] + fieldColumns + ["parsed_json", "engine_version", "parser_version", "processed_at"]

    /// `fieldColumns`' values for a parsed receipt.
    static func fieldValues(_ p: ParsedReceipt) -> [SQLValue] {
        func conf<T>(_ f: Field<T>?) -> SQLValue { f.map { .real($0.confidence) } ?? .null }
        return [
            .of(p.vendor?.value), conf(p.vendor),
            .of(p.date?.value.iso), .of(p.date.map { $0.value.dayNumber }), conf(p.date),
            .of(p.time?.value.description), conf(p.time),
            .of(p.total?.value.description), .of(p.total?.value.cents), conf(p.total),
            .of(p.subtotal?.value.description), conf(p.subtotal),
            .of(p.tax?.value.description), conf(p.tax),
            .of(p.currency?.value), conf(p.currency),
            .of(p.receiptNumber?.value), conf(p.receiptNumber),
            .of(p.paymentMethod?.value), conf(p.paymentMethod),
            .of(p.cardLast4?.value), conf(p.cardLast4),
        ]
    }

    /// `line_items` rows (after the receipt id) for a parsed receipt.
    /// (The serials last: a store below version 8 has no column for them, `insertLines`.)
    static func lineRows(_ p: ParsedReceipt) throws -> [[SQLValue]] {
        try p.lineItems.enumerated().map { (i, l) -> [SQLValue] in
            [.int(Int64(i)), .text(l.description), .of(l.quantity.map { "\($0)" }), .of(l.unitPrice?.description),
             .text(l.amount.description), .int(l.amount.cents), .text(try SQLReceiptStore.encodeJSON(l.evidence)),
             .of(l.serials.map { $0.joined(separator: "\n") })]
        }
    }

    /// `rows` from `lineRows`, their serials last: left out for a store below version 8 (`serials` false).
    static func insertLines(_ id: Int64, _ rows: [[SQLValue]], _ db: any SQLConnection, serials: Bool) throws {
        let sql = serials ? insertLineSQL : insertLineSQLBeforeSerials
        for row in rows { try db.run(sql, [.int(id)] + (serials ? row : Array(row.dropLast()))) }
    }
    static let lineColumns = "receipt_id, position, description, quantity, unit_price, amount, amount_cents, evidence_json"
    static let insertLineSQL = "INSERT INTO line_items (\(lineColumns), serials) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertLineSQLBeforeSerials = "INSERT INTO line_items (\(lineColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

    /// The store's `line_items` has the serials column (version 8): a PostgreSQL store is always at the latest version;
    /// a SQLite one opened at an older version (upgrade tests) may not be. (For the static paths that have no `schema`
    /// at hand; a batch's saves are told by it.)
    static func hasSerials(_ db: any SQLConnection) throws -> Bool {
        if db.dialect == .postgres { return true }
        return try (db.scalarInt("PRAGMA user_version") ?? 0) >= 8
    }

    struct ReceiptSQL {
        var insert: String
        var update: String
        init(_ columns: [String]) {
            insert = "INSERT INTO receipts (content_hash, \(columns.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: columns.count))) RETURNING id"
            update = "UPDATE receipts SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
        }
    }
    static let receiptSQL = ReceiptSQL(receiptColumns + ["ocr_reading"])
    /// For a store opened below schema version 3 (upgrade tests), which has no `ocr_reading`.
    static let receiptSQLBeforeReading = ReceiptSQL(receiptColumns)

    /// A receipt turned into column values before the transaction starts.
    struct ReceiptRow {
        var hash: String
        var path: String
        var fields: [SQLValue]
        var lines: [[SQLValue]]
        /// What a shop set, and `fields` as they are without it (the shop may be forgotten before the write).
        var learned: (shop: Int64, json: String)?
        var fieldsWithoutLearned: [SQLValue]

        init(_ r: StoredReceiptInput, withReading: Bool) throws {
            let p = r.parsed
            hash = r.contentHash
            path = r.sourcePath
            // The parse and the reading (the largest JSON a receipt has) are encoded once; only the
            // shown values differ between the two rows.
            let head: [SQLValue] = [.text(r.status.rawValue), .of(r.ocrText)]
            var tail: [SQLValue] = [.text(try SQLReceiptStore.encodeJSON(p)), .text(r.engineVersion), .text(r.parserVersion),
                                    .text(SQLReceiptStore.timestamp(r.processedAt))]
            if withReading { tail.append(.of(try r.reading.map(SQLReceiptStore.encodeJSON))) }
            self.fields = head + SQLReceiptStore.fieldValues(p.applying(r.learned)) + tail
            fieldsWithoutLearned = r.learned == nil ? self.fields : head + SQLReceiptStore.fieldValues(p) + tail
            learned = try r.learned.map { ($0.shop, try SQLReceiptStore.encodeJSON($0)) }
            lines = try SQLReceiptStore.lineRows(p)
        }
    }

    static func save(_ r: ReceiptRow, _ db: any SQLConnection, _ sql: ReceiptSQL, _ now: String, clearFailures: Bool, withCorrections: Bool,
                     withClaims: Bool, withShops: Bool, withSerials: Bool) throws -> ReceiptID {
        let id: Int64
        // A shop forgotten since the batch read the directory sets nothing.
        var learned = withShops ? r.learned : nil
        if let l = learned, try db.scalarInt("SELECT 1 FROM shops WHERE id = ?", [.int(l.shop)]) == nil { learned = nil }
        let fields = learned == nil ? r.fieldsWithoutLearned : r.fields
        if let existing = try db.scalarInt("SELECT id FROM receipts WHERE content_hash = ?", [.text(r.hash)]) {
            id = existing
            try db.run(sql.update, fields + [.int(id)])
            try db.run("DELETE FROM line_items WHERE receipt_id = ?", [.int(id)])
        } else {
            id = try db.scalarInt(sql.insert, [.text(r.hash)] + fields) ?? 0
        }
        if withShops {
            try db.run("UPDATE receipts SET shop_id = ?, learned_json = ? WHERE id = ?", [.of(learned?.shop), .of(learned?.json), .int(id)])
        }
        try insertLines(id, r.lines, db, serials: withSerials)
        // A re-read (batch --force, --reparse) replaced the parser's reading; the user's corrections hold over it.
        if withCorrections, try db.scalarInt("SELECT 1 FROM corrections WHERE receipt_id = ? AND undone_at IS NULL", [.int(id)]) != nil {
            try writeEffective(id, db)
        }
        try db.run("INSERT INTO receipt_sources (receipt_id, path, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                   [.int(id), .text(r.path), .text(now)])
        if clearFailures {
            try db.run("DELETE FROM failures WHERE path = ? OR content_hash = ?", [.text(r.path), .text(r.hash)])
        }
        // The image is done: whoever claimed it (this worker, or one whose lease ran out) holds it no more.
        if withClaims { try db.run("DELETE FROM claims WHERE content_hash = ?", [.text(r.hash)]) }
        return ReceiptID(id)
    }

    /// Notes that the image with `contentHash` also sits at `path` (a batch that skips an image
    /// it already has can still record the new copy). False when no receipt has that hash.
    @discardableResult
    public func addSourcePath(contentHash: String, path: String) throws -> Bool {
        // Usually the path is known already (a re-run over the same folder): answer from a read, no write.
        let known = try read { db in
            try db.scalarInt("""
                SELECT 1 FROM receipt_sources s JOIN receipts r ON r.id = s.receipt_id
                WHERE r.content_hash = ? AND s.path = ?
                """, [.text(contentHash), .text(path)]) != nil
        }
        if known { return true }
        let now = Self.now()
        return try write { db in
            guard let id = try db.scalarInt("SELECT id FROM receipts WHERE content_hash = ?", [.text(contentHash)]) else { return false }
            try db.run("INSERT INTO receipt_sources (receipt_id, path, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [.int(id), .text(path), .text(now)])
            return true
        }
    }

    /// Records that `path` could not be read or parsed (replacing an earlier failure of the same file).
    public func recordFailure(contentHash: String?, path: String, code: String, message: String) throws {
        try write { db in
            try db.run("""
                INSERT INTO failures (path, content_hash, code, message, failed_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET content_hash = excluded.content_hash, code = excluded.code,
                  message = excluded.message, failed_at = excluded.failed_at
                """, [.text(path), .of(contentHash), .text(code), .text(message), .text(Self.now())])
            if schema >= 5, let contentHash { try db.run("DELETE FROM claims WHERE content_hash = ?", [.text(contentHash)]) }
        }
    }

    public func failures() throws -> [StoredFailure] {
        try read { db in
            try db.query("SELECT path, content_hash, code, message, failed_at FROM failures ORDER BY path") {
                StoredFailure(path: $0.text(0), contentHash: $0.textOrNil(1), code: $0.text(2), message: $0.text(3), failedAt: $0.text(4))
            }
        }
    }

    /// Full receipts (fields with evidence), oldest first; optionally only one status.
    public func receipts(status: ReceiptStatus?) throws -> [StoredReceipt] {
        try read { db in
            let sources = try Self.sourcePaths(db)
            var sql = """
                SELECT id, content_hash, status, parsed_json, ocr_text, engine_version, parser_version, processed_at,
                  duplicate_of, duplicate_reason FROM receipts
                """
            var params: [SQLValue] = []
            if let status { sql += " WHERE status = ?"; params.append(.text(status.rawValue)) }
            sql += " ORDER BY id"
            return try db.query(sql, params) { row in
                let id = row.int(0)
                let parsed = try JSONDecoder().decode(ParsedReceipt.self, from: Data(row.text(3).utf8))
                return StoredReceipt(id: ReceiptID(id), contentHash: row.text(1), sourcePaths: sources[id] ?? [],
                                     status: ReceiptStatus(rawValue: row.text(2)) ?? .needsReview, parsed: parsed,
                                     ocrText: row.textOrNil(4), engineVersion: row.text(5), parserVersion: row.text(6),
                                     processedAt: row.text(7), duplicateOf: row.intOrNil(8).map { ReceiptID($0) },
                                     duplicateReason: row.textOrNil(9))
            }
        }
    }

    /// What OCR read of each receipt that has it, optionally only of those parsed by another
    /// parser version (`batch --reparse` parses them again without running OCR).
    public func readings(parserVersionOtherThan version: String?) throws -> [StoredReading] {
        try read { db in
            let sources = try Self.sourcePaths(db)
            let reading = schema >= 3 ? "ocr_reading" : "NULL"
            var sql = """
                SELECT id, content_hash, \(reading), ocr_text, engine_version, parser_version FROM receipts
                WHERE (ocr_text IS NOT NULL OR \(reading) IS NOT NULL)
                """
            var params: [SQLValue] = []
            if let version { sql += " AND parser_version <> ?"; params.append(.text(version)) }
            return try db.query(sql + " ORDER BY id", params) { row in
                let id = row.int(0)
                let reading: OCRReading?
                do { reading = try row.textOrNil(2).map { try JSONDecoder().decode(OCRReading.self, from: Data($0.utf8)) } } catch {
                    throw StoreError(.unreadable, "the stored OCR reading cannot be read: \(error)", location: db.path, context: "receipt #\(id)")
                }
                return StoredReading(id: ReceiptID(id), contentHash: row.text(1), sourcePaths: sources[id] ?? [],
                                     reading: reading, ocrText: row.textOrNil(3), engineVersion: row.text(4), parserVersion: row.text(5))
            }
        }
    }

    static func sourcePaths(_ db: any SQLConnection) throws -> [Int64: [String]] {
        var out: [Int64: [String]] = [:]
        for (id, path) in try db.query("SELECT receipt_id, path FROM receipt_sources ORDER BY receipt_id, added_at, path", [], { ($0.int(0), $0.text(1)) }) {
            out[id, default: []].append(path)
        }
        return out
    }

    /// What the reconciler needs of every receipt, from columns only (fast).
    public func receiptSummaries() throws -> [ReceiptSummary] {
        try read { db in try Self.summaries(db) }
    }

    static func summaries(_ db: any SQLConnection) throws -> [ReceiptSummary] {
        var lines: [Int64: [ReceiptSummary.Line]] = [:]
        let serials = try hasSerials(db) ? "serials" : "NULL"
        for (rid, line) in try db.query("""
            SELECT receipt_id, position, description, quantity, unit_price, amount, \(serials) FROM line_items ORDER BY receipt_id, position
            """, [], { row -> (Int64, ReceiptSummary.Line) in
                (row.int(0), ReceiptSummary.Line(position: Int(row.int(1)), description: row.text(2),
                                                 quantity: row.textOrNil(3).flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) },
                                                 unitPrice: row.textOrNil(4).flatMap(Amount.init), amount: Amount(row.text(5)) ?? Amount(0),
                                                 serials: row.textOrNil(6).map { $0.split(separator: "\n").map(String.init) } ?? []))
            }) {
            lines[rid, default: []].append(line)
        }
        var firstSource: [Int64: String] = [:]
        for (id, path) in try db.query("SELECT receipt_id, path FROM receipt_sources ORDER BY receipt_id DESC, added_at DESC, path DESC", [], { ($0.int(0), $0.text(1)) }) {
            firstSource[id] = path
        }
        return try db.query("""
            SELECT id, vendor, date, time, total, subtotal, tax, currency, receipt_number, duplicate_of FROM receipts ORDER BY id
            """) { row in
            let id = row.int(0)
            return ReceiptSummary(id: ReceiptID(id), vendor: row.textOrNil(1), date: row.textOrNil(2).flatMap { CalendarDate(iso: $0) },
                                  time: row.textOrNil(3), total: row.textOrNil(4).flatMap(Amount.init),
                                  subtotal: row.textOrNil(5).flatMap(Amount.init), tax: row.textOrNil(6).flatMap(Amount.init),
                                  currency: row.textOrNil(7), receiptNumber: row.textOrNil(8), lines: lines[id] ?? [],
                                  sourcePath: firstSource[id], duplicateOf: row.intOrNil(9).map { ReceiptID($0) })
        }
    }

    // MARK: - Items

    /// Inserts or updates items in one transaction. An item matches a stored one by
    /// external id, else (when it has none) by name (case-insensitive) + purchase date + price.
    @discardableResult
    public func upsertItems(_ items: [InventoryItem]) throws -> ItemUpsertSummary {
        let now = Self.now()
        return try write { db in
            var summary = ItemUpsertSummary()
            for item in items {
                let values: [SQLValue] = [
                    .of(item.externalID), .text(item.source), .text(item.name), .of(item.brand), .of(item.model), .of(item.serial),
                    .of(item.category), .of(item.room), .int(Int64(item.quantity)), .of(item.price?.description), .of(item.price?.cents),
                    .of(item.currency), .of(item.purchaseDate?.iso), .of(item.purchaseDate?.dayNumber), .of(item.vendor), .of(item.notes),
                ]
                let existing: Int64?
                if let ext = item.externalID {
                    existing = try db.scalarInt("SELECT id FROM items WHERE external_id = ?", [.text(ext)])
                } else {
                    existing = try db.scalarInt("""
                        SELECT id FROM items WHERE external_id IS NULL AND \(db.dialect.equalsIgnoringCase("name"))
                          AND \(db.dialect.isSame("purchase_date")) AND \(db.dialect.isSame("price_cents")) ORDER BY id LIMIT 1
                        """, [.text(item.name), .of(item.purchaseDate?.iso), .of(item.price?.cents)])
                }
                if let id = existing {
                    let old = try db.query("SELECT \(Self.itemColumns) FROM items WHERE id = ?", [.int(id)], Self.storedItem).first
                    if old?.item == item { summary.unchanged += 1; continue }
                    try db.run("""
                        UPDATE items SET external_id = ?, source = ?, name = ?, brand = ?, model = ?, serial = ?, category = ?, room = ?,
                          quantity = ?, price = ?, price_cents = ?, currency = ?, purchase_date = ?, purchase_day = ?, vendor = ?, notes = ?,
                          updated_at = ? WHERE id = ?
                        """, values + [.text(now), .int(id)])
                    summary.updated += 1
                } else {
                    try db.run("""
                        INSERT INTO items (external_id, source, name, brand, model, serial, category, room, quantity, price, price_cents,
                          currency, purchase_date, purchase_day, vendor, notes, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, values + [.text(now), .text(now)])
                    summary.inserted += 1
                }
            }
            return summary
        }
    }

    static let itemColumns = """
        id, external_id, source, name, brand, model, serial, category, room, quantity, price, currency, purchase_date, vendor, notes, created_at, updated_at
        """

    static func storedItem(_ row: Row) -> StoredItem {
        let item = InventoryItem(name: row.text(3), externalID: row.textOrNil(1), source: row.text(2), brand: row.textOrNil(4),
                                 model: row.textOrNil(5), serial: row.textOrNil(6), category: row.textOrNil(7), room: row.textOrNil(8),
                                 quantity: Int(row.int(9)), price: row.textOrNil(10).flatMap(Amount.init), currency: row.textOrNil(11),
                                 purchaseDate: row.textOrNil(12).flatMap { CalendarDate(iso: $0) }, vendor: row.textOrNil(13),
                                 notes: row.textOrNil(14))
        return StoredItem(id: ItemID(row.int(0)), item: item, createdAt: row.text(15), updatedAt: row.text(16))
    }

    public func items() throws -> [StoredItem] {
        try read { db in try db.query("SELECT \(Self.itemColumns) FROM items ORDER BY id", [], Self.storedItem) }
    }

    // MARK: - Links

    static let linkColumns = """
        id, receipt_id, item_id, line_item_position, score, reasons, status, ambiguous, decided_by, decided_at, created_at, updated_at
        """

    static func link(_ row: Row) throws -> Link {
        Link(id: LinkID(row.int(0)), receiptID: ReceiptID(row.int(1)), itemID: ItemID(row.int(2)),
             linePosition: row.intOrNil(3).map { Int($0) }, score: row.double(4),
             reasons: try JSONDecoder().decode([String].self, from: Data(row.text(5).utf8)),
             status: LinkStatus(rawValue: row.text(6)) ?? .proposed, ambiguous: row.int(7) != 0,
             decidedBy: row.textOrNil(8), decidedAt: row.textOrNil(9), createdAt: row.text(10), updatedAt: row.text(11))
    }

    /// Links, best score first within each status; optionally only one status.
    public func links(status: LinkStatus?) throws -> [Link] {
        try read { db in
            var sql = "SELECT \(Self.linkColumns) FROM links"
            var params: [SQLValue] = []
            if let status { sql += " WHERE status = ?"; params.append(.text(status.rawValue)) }
            return try db.query(sql + " ORDER BY id", params, Self.link)
        }
    }

    /// Confirms or rejects a link (or puts it back to proposed), recording who and when.
    /// Confirming a link does not touch other links of the item: they stay for the user to reject.
    @discardableResult
    public func decideLink(_ id: LinkID, status: LinkStatus, by who: String) throws -> Link {
        let now = Self.now()
        return try write { db in
            guard try db.scalarInt("SELECT 1 FROM links WHERE id = ?", [.int(id.rawValue)]) != nil else {
                throw StoreError(.notFound, "no link \(id)")
            }
            if status == .proposed {
                try db.run("UPDATE links SET status = 'proposed', decided_by = NULL, decided_at = NULL, updated_at = ? WHERE id = ?",
                           [.text(now), .int(id.rawValue)])
            } else {
                try db.run("UPDATE links SET status = ?, decided_by = ?, decided_at = ?, updated_at = ? WHERE id = ?",
                           [.text(status.rawValue), .text(who), .text(now), .text(now), .int(id.rawValue)])
            }
            return try db.query("SELECT \(Self.linkColumns) FROM links WHERE id = ?", [.int(id.rawValue)], Self.link)[0]
        }
    }

    /// Everything the reconciler reads, from one consistent snapshot.
    public func reconcileInput() throws -> ReconcileInput {
        try read { db in
            ReconcileInput(receipts: try Self.summaries(db),
                           items: try db.query("SELECT \(Self.itemColumns) FROM items ORDER BY id", [], Self.storedItem),
                           links: try db.query("SELECT \(Self.linkColumns) FROM links ORDER BY id", [], Self.link))
        }
    }

    /// Writes one reconciliation in one transaction: reads the links and duplicate marks as
    /// they are inside it, makes the `LinkWritePlan` and applies its steps.
    public func applyReconciliation(_ proposals: [LinkProposal], duplicates: [DuplicateMark]) throws -> ReconcileWriteSummary {
        let now = Self.now()
        return try write { db in
            let currentDuplicates = try db.query("SELECT id, duplicate_of, duplicate_reason FROM receipts WHERE duplicate_of IS NOT NULL ORDER BY id") {
                DuplicateMark(id: ReceiptID($0.int(0)), original: ReceiptID($0.int(1)), reason: $0.text(2))
            }
            let links = try db.query("SELECT id, receipt_id, item_id, status FROM links ORDER BY id") {
                LinkWritePlan.CurrentLink(id: LinkID($0.int(0)), receiptID: ReceiptID($0.int(1)), itemID: ItemID($0.int(2)),
                                          status: LinkStatus(rawValue: $0.text(3)) ?? .proposed)
            }
            let plan = LinkWritePlan(links: links, currentDuplicates: currentDuplicates, proposals: proposals, duplicates: duplicates)
            // New links go in many rows per statement: one round trip per 500 on PostgreSQL, not one each.
            var inserts: [LinkProposal] = []
            for step in plan.steps where step.writes {
                if case let .insert(p) = step { inserts.append(p); continue }
                try Self.apply(step, db, now)
            }
            for chunk in stride(from: 0, to: inserts.count, by: Self.insertChunk) {
                try Self.insertLinks(inserts[chunk..<min(chunk + Self.insertChunk, inserts.count)], db, now)
            }
            return plan.summary
        }
    }

    /// Rows per multi-row INSERT of links (11 parameters each: well under both engines' limits).
    static let insertChunk = 500

    /// Inserts new links, all in one statement.
    static func insertLinks(_ ps: ArraySlice<LinkProposal>, _ db: any SQLConnection, _ now: String) throws {
        guard !ps.isEmpty else { return }
        var params: [SQLValue] = []
        params.reserveCapacity(ps.count * 11)
        for p in ps {
            let auto = p.autoConfirm
            params += [.int(p.receiptID.rawValue), .int(p.itemID.rawValue), .of(p.linePosition), .real(p.score), .text(try encodeJSON(p.reasons)),
                       .text(auto ? "confirmed" : "proposed"), .int(p.ambiguous ? 1 : 0),
                       auto ? .text("auto") : .null, auto ? .text(now) : .null, .text(now), .text(now)]
        }
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        try db.run("""
            INSERT INTO links (receipt_id, item_id, line_item_position, score, reasons, status, ambiguous, decided_by, decided_at,
              created_at, updated_at) VALUES \(Array(repeating: row, count: ps.count).joined(separator: ", "))
            """, params)
    }

    static func apply(_ step: LinkWritePlan.Step, _ db: any SQLConnection, _ now: String) throws {
        switch step {
        case let .clearDuplicate(id):
            try db.run("UPDATE receipts SET duplicate_of = NULL, duplicate_reason = NULL WHERE id = ?", [.int(id.rawValue)])
        case let .markDuplicate(m):
            try db.run("UPDATE receipts SET duplicate_of = ?, duplicate_reason = ? WHERE id = ?",
                       [.int(m.original.rawValue), .text(m.reason), .int(m.id.rawValue)])
        case let .removeDuplicateProposal(id), let .withdraw(id):
            try db.run("DELETE FROM links WHERE id = ? AND status = 'proposed'", [.int(id.rawValue)])
        case let .insert(p):
            try insertLinks([p][...], db, now)
        case let .refresh(id, p):
            try db.run("""
                UPDATE links SET score = ?, reasons = ?, line_item_position = ?, ambiguous = ?, updated_at = ? WHERE id = ?
                """, [.real(p.score), .text(try encodeJSON(p.reasons)), .of(p.linePosition), .int(p.ambiguous ? 1 : 0), .text(now), .int(id.rawValue)])
        case let .autoConfirm(id, p):
            try db.run("""
                UPDATE links SET score = ?, reasons = ?, line_item_position = ?, ambiguous = ?, status = 'confirmed',
                  decided_by = 'auto', decided_at = ?, updated_at = ? WHERE id = ?
                """, [.real(p.score), .text(try encodeJSON(p.reasons)), .of(p.linePosition), .int(p.ambiguous ? 1 : 0),
                      .text(now), .text(now), .int(id.rawValue)])
        case .keepDecision, .skipConfirmedItem:
            break
        }
    }

    // MARK: - Info

    public func stats() throws -> StoreStats {
        let version = try schemaVersion()
        return try read { db in
            func count(_ sql: String) throws -> Int { Int(try db.scalarInt(sql) ?? 0) }
            var links: [String: Int] = [:]
            for s in LinkStatus.allCases { links[s.rawValue] = 0 }
            for (status, n) in try db.query("SELECT status, COUNT(*) FROM links GROUP BY status", [], { ($0.text(0), Int($0.int(1))) }) {
                links[status] = n
            }
            return StoreStats(path: location, schemaVersion: version,
                              items: try count("SELECT COUNT(*) FROM items"),
                              receipts: try count("SELECT COUNT(*) FROM receipts"),
                              needsReview: try count("SELECT COUNT(*) FROM receipts r WHERE \(stateSQL()) = 'needs_review'"),
                              corrected: try count("SELECT COUNT(*) FROM receipts r WHERE \(stateSQL()) = 'corrected'"),
                              duplicates: try count("SELECT COUNT(*) FROM receipts WHERE duplicate_of IS NOT NULL"),
                              lineItems: try count("SELECT COUNT(*) FROM line_items"),
                              failures: try count("SELECT COUNT(*) FROM failures"),
                              links: links,
                              shops: schema >= 7 ? try count("SELECT COUNT(*) FROM shops") : 0,
                              learnedReceipts: schema >= 7 ? try count("SELECT COUNT(*) FROM receipts WHERE learned_json IS NOT NULL") : 0)
        }
    }

    // MARK: - Safety

    /// SQLite: copies what the write-ahead log holds into the .sqlite file (a passive
    /// checkpoint: it waits for nobody), so that file alone is a complete copy; false when
    /// another connection's open read kept some of it in the log (it is checkpointed later).
    /// PostgreSQL: a committed transaction is durable already; nothing to do.
    @discardableResult
    public func checkpoint() throws -> Bool {
        switch backend {
        case let .sqlite(db):
            try db.locked { db in
                let r = try db.query("PRAGMA wal_checkpoint(PASSIVE)") { ($0.int(0), $0.int(1), $0.int(2)) }.first
                guard let (busy, log, done) = r else { return true }
                return busy == 0 && (log < 0 || log == done)
            }
        case .postgres: true
        }
    }

    /// SQLite: a consistent copy of the store in a new file (`VACUUM INTO`: one read
    /// transaction, so writers in other processes go on meanwhile and the copy holds all of
    /// each write or none). PostgreSQL: refused with the way to do it (`pg_dump`).
    public func backup(to target: String) throws {
        guard case let .sqlite(db) = backend else {
            throw StoreError(.unsupported, "a PostgreSQL store is backed up by the server's tools: pg_dump (a consistent copy while others write)", location: path)
        }
        if FileManager.default.fileExists(atPath: target) {
            throw StoreError(.invalid, "\(target) exists already; give the backup a new file name")
        }
        let dir = (target as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !dir.isEmpty, !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) || !isDir.boolValue {
            throw StoreError(.invalid, "no folder \(dir)", context: target)
        }
        try db.locked { db in try db.run("VACUUM INTO ?", [.text(target)]) }
    }

    /// Checks the store's integrity; "ok" when sound. SQLite: `PRAGMA integrity_check`.
    /// PostgreSQL: every table's rows are readable and every link, line item, source and
    /// correction points at a receipt or item that exists.
    public func integrityCheck() throws -> String {
        switch backend {
        case let .sqlite(db):
            try db.read { db in try db.query("PRAGMA integrity_check") { $0.text(0) }.joined(separator: "; ") }
        case let .postgres(db):
            try db.read { db in try PostgresSchema.integrityCheck(db) }
        }
    }

    static func encodeJSON<T: Encodable>(_ v: T) throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(v), as: UTF8.self)
    }
}
