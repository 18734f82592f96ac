import Foundation
import ReceiptModel

/// Finding, showing and correcting receipts (`receipts list`, `show`, `edit`).
extension SQLReceiptStore {
    /// A receipt's `ReceiptState` in SQL (the receipt table aliased `r`).
    func stateSQL() -> String {
        let corrected = schema >= 4
            ? "WHEN EXISTS (SELECT 1 FROM corrections c WHERE c.receipt_id = r.id AND c.undone_at IS NULL) THEN 'corrected'" : ""
        return "(CASE WHEN r.duplicate_of IS NOT NULL THEN 'duplicate' \(corrected) ELSE r.status END)"
    }

    static let correctionColumns = "id, receipt_id, field, value, previous, corrected_by, corrected_at, undone_by, undone_at"

    static func correction(_ row: Row) throws -> Correction {
        guard let field = CorrectableField(rawValue: row.text(2)) else {
            throw StoreError(.unreadable, "unknown field '\(row.text(2))' (written by a newer receipts?)", context: "correction \(row.int(0))")
        }
        return Correction(id: row.int(0), receiptID: ReceiptID(row.int(1)), field: field, value: row.textOrNil(3), previous: row.textOrNil(4),
                          by: row.text(5), at: row.text(6), undoneBy: row.textOrNil(7), undoneAt: row.textOrNil(8))
    }

    static func corrections(of id: Int64, _ db: any SQLConnection) throws -> [Correction] {
        try db.query("SELECT \(correctionColumns) FROM corrections WHERE receipt_id = ? ORDER BY id", [.int(id)], correction)
    }

    static func parsed(_ id: Int64, _ db: any SQLConnection) throws -> ParsedReceipt {
        guard let json = try db.query("SELECT parsed_json FROM receipts WHERE id = ?", [.int(id)], { $0.text(0) }).first else {
            throw StoreError(.notFound, "no receipt #\(id)")
        }
        do { return try JSONDecoder().decode(ParsedReceipt.self, from: Data(json.utf8)) } catch {
            throw StoreError(.unreadable, "the stored fields cannot be read: \(error)", location: db.path, context: "receipt #\(id)")
        }
    }

    /// What a shop set on the receipt when it was read (nil before schema version 7).
    static func learned(_ id: Int64, _ db: any SQLConnection) throws -> LearnedFields? {
        guard try hasShops(db) else { return nil }
        guard let json = try db.query("SELECT learned_json FROM receipts WHERE id = ?", [.int(id)], { $0.textOrNil(0) }).first ?? nil else { return nil }
        do { return try JSONDecoder().decode(LearnedFields.self, from: Data(json.utf8)) } catch {
            throw StoreError(.unreadable, "what a shop set on it cannot be read: \(error)", location: db.path, context: "receipt #\(id)")
        }
    }

    /// The receipt as read: the parser's reading with what a shop set in place.
    static func shown(_ id: Int64, _ db: any SQLConnection) throws -> ParsedReceipt {
        try parsed(id, db).applying(try learned(id, db))
    }

    /// Writes the receipt's field columns and line items as the user sees them: the parser's
    /// reading with what a shop set and the active corrections in place.
    static func writeEffective(_ id: Int64, _ db: any SQLConnection) throws {
        let effective = try shown(id, db).applying(try corrections(of: id, db))
        try db.run("UPDATE receipts SET \(fieldColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
                   fieldValues(effective) + [.int(id)])
        try db.run("DELETE FROM line_items WHERE receipt_id = ?", [.int(id)])
        try insertLines(id, try lineRows(effective), db, serials: try hasSerials(db))
    }

    // MARK: - list

    public func listReceipts(_ filter: ReceiptFilter) throws -> [ReceiptListing] {
        try read { db in try listing(filter, db) }
    }

    /// `listReceipts` inside a transaction the caller holds.
    func listing(_ filter: ReceiptFilter, _ db: any SQLConnection) throws -> [ReceiptListing] {
        var conditions: [String] = []
        var params: [SQLValue] = []
        if let v = filter.vendor, !v.isEmpty { conditions.append(db.dialect.containsIgnoringCase("r.vendor")); params.append(.text(v)) }
        if let d = filter.from { conditions.append("r.date_day >= ?"); params.append(.int(Int64(d.dayNumber))) }
        if let d = filter.to { conditions.append("r.date_day <= ?"); params.append(.int(Int64(d.dayNumber))) }
        if let a = filter.minTotal { conditions.append("r.total_cents >= ?"); params.append(.int(a.cents)) }
        if let a = filter.maxTotal { conditions.append("r.total_cents <= ?"); params.append(.int(a.cents)) }
        if let c = filter.currency { conditions.append("upper(r.currency) = upper(?)"); params.append(.text(c)) }
        if let s = filter.state { conditions.append("\(stateSQL()) = ?"); params.append(.text(s.rawValue)) }
        if filter.unlinked { conditions.append("NOT EXISTS (SELECT 1 FROM links l WHERE l.receipt_id = r.id AND l.status <> 'rejected')") }
        let fields: [CorrectableField] = [.vendor, .date, .time, .total, .subtotal, .tax, .currency, .receiptNumber, .paymentMethod, .cardLast4]
        let sql = """
            SELECT r.id, \(stateSQL()), r.status, r.vendor, r.date, r.time, r.total, r.subtotal, r.tax, r.currency, r.receipt_number,
              r.payment_method, r.card_last4, \(fields.map { "r.\($0.rawValue)_confidence" }.joined(separator: ", ")),
              r.content_hash, r.duplicate_of, (SELECT COUNT(*) FROM line_items li WHERE li.receipt_id = r.id)
            FROM receipts r \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY r.date_day IS NULL, r.date_day, r.time IS NULL, r.time, r.id
            """
        let withCorrections = schema >= 4
        do {
            let sources = try Self.sourcePaths(db)
            var corrected: [Int64: [CorrectableField]] = [:]
            if withCorrections {
                for (id, f) in try db.query("SELECT DISTINCT receipt_id, field FROM corrections WHERE undone_at IS NULL", [], { ($0.int(0), $0.text(1)) }) {
                    if let f = CorrectableField(rawValue: f) { corrected[id, default: []].append(f) }
                }
            }
            var linked: [Int64: [ItemID]] = [:]
            for (rid, iid) in try db.query("SELECT receipt_id, item_id FROM links WHERE status <> 'rejected' ORDER BY id", [], { ($0.int(0), $0.int(1)) }) {
                linked[rid, default: []].append(ItemID(iid))
            }
            return try db.query(sql, params) { row in
                let id = row.int(0)
                var conf: [String: Double] = [:]
                for (i, f) in fields.enumerated() { if let c = row.doubleOrNil(Int32(13 + i)) { conf[f.rawValue] = c } }
                return ReceiptListing(
                    id: ReceiptID(id), state: ReceiptState(rawValue: row.text(1)) ?? .needsReview,
                    parseStatus: ReceiptStatus(rawValue: row.text(2)) ?? .needsReview, vendor: row.textOrNil(3),
                    date: row.textOrNil(4).flatMap { CalendarDate(iso: $0) }, time: row.textOrNil(5), total: row.textOrNil(6).flatMap(Amount.init),
                    subtotal: row.textOrNil(7).flatMap(Amount.init), tax: row.textOrNil(8).flatMap(Amount.init), currency: row.textOrNil(9),
                    receiptNumber: row.textOrNil(10), paymentMethod: row.textOrNil(11), cardLast4: row.textOrNil(12), confidences: conf,
                    correctedFields: (corrected[id] ?? []).sorted(), files: sources[id] ?? [], contentHash: row.text(23),
                    duplicateOf: row.intOrNil(24).map { ReceiptID($0) }, lineItemCount: Int(row.int(25)), linkedItems: linked[id] ?? [])
            }
        }
    }

    // MARK: - show

    public func receiptDetail(_ id: ReceiptID) throws -> ReceiptDetail? {
        try read { db in try detail(id, db) }
    }

    /// `receiptDetail` inside a transaction the caller holds.
    func detail(_ id: ReceiptID, _ db: any SQLConnection) throws -> ReceiptDetail? {
        let withCorrections = schema >= 4
        let reading = schema >= 3 ? "r.ocr_reading" : "NULL"
        let state = stateSQL()
        do {
            let rows = try db.query("""
                SELECT r.id, r.content_hash, r.status, r.parsed_json, r.ocr_text, r.engine_version, r.parser_version, r.processed_at,
                  r.duplicate_of, r.duplicate_reason, \(reading), \(state) FROM receipts r WHERE r.id = ?
                """, [.int(id.rawValue)]) { row -> (StoredReceipt, OCRReading?, ReceiptState) in
                let parsed = try JSONDecoder().decode(ParsedReceipt.self, from: Data(row.text(3).utf8))
                let reading = try row.textOrNil(10).map { try JSONDecoder().decode(OCRReading.self, from: Data($0.utf8)) }
                let stored = StoredReceipt(id: id, contentHash: row.text(1), sourcePaths: [], status: ReceiptStatus(rawValue: row.text(2)) ?? .needsReview,
                                           parsed: parsed, ocrText: row.textOrNil(4), engineVersion: row.text(5), parserVersion: row.text(6),
                                           processedAt: row.text(7), duplicateOf: row.intOrNil(8).map { ReceiptID($0) }, duplicateReason: row.textOrNil(9))
                return (stored, reading, ReceiptState(rawValue: row.text(11)) ?? .needsReview)
            }
            guard let (first, reading, state) = rows.first else { return nil }
            var stored = first
            stored.sourcePaths = try db.query("SELECT path FROM receipt_sources WHERE receipt_id = ? ORDER BY added_at, path", [.int(id.rawValue)]) { $0.text(0) }
            let corrections = withCorrections ? try Self.corrections(of: id.rawValue, db) : []
            let links = try db.query("SELECT \(Self.linkColumns) FROM links WHERE receipt_id = ? ORDER BY id", [.int(id.rawValue)], Self.link)
            let items = try db.query("""
                SELECT \(Self.itemColumns) FROM items WHERE id IN (SELECT item_id FROM links WHERE receipt_id = ?) ORDER BY id
                """, [.int(id.rawValue)], Self.storedItem)
            let learned = try Self.learned(id.rawValue, db)
            let shop = try Self.shopOf(id.rawValue, db)
            return ReceiptDetail(receipt: stored, state: state, effective: stored.parsed.applying(learned).applying(corrections), learned: learned,
                                 shop: shop, reading: reading, corrections: corrections, links: links, items: items)
        }
    }

    public func findReceipt(path: String, contentHash: String?) throws -> ReceiptID? {
        try read { db -> ReceiptID? in
            if let contentHash, let id = try db.scalarInt("SELECT id FROM receipts WHERE content_hash = ?", [.text(contentHash)]) {
                return ReceiptID(id)
            }
            if let id = try db.scalarInt("SELECT receipt_id FROM receipt_sources WHERE path = ? ORDER BY receipt_id LIMIT 1", [.text(path)]) {
                return ReceiptID(id)
            }
            let name = (path as NSString).lastPathComponent
            let ids = Set(try db.query("SELECT receipt_id, path FROM receipt_sources", [], { ($0.int(0), $0.text(1)) })
                .filter { ($0.1 as NSString).lastPathComponent == name }.map(\.0))
            return ids.count == 1 ? ids.first.map { ReceiptID($0) } : nil
        }
    }

    // MARK: - export

    public func export(_ filter: ReceiptFilter, details: Bool) throws -> StoreExport {
        let now = Self.now()
        return try read { db in
            let receipts = try listing(filter, db)
            var byID: [ReceiptID: ReceiptDetail] = [:]
            if details { for r in receipts { byID[r.id] = try detail(r.id, db) } }
            var lines: [ReceiptID: [ReceiptSummary.Line]] = [:]
            for (id, line) in try db.query("SELECT receipt_id, position, description, amount FROM line_items ORDER BY receipt_id, position", [], {
                (ReceiptID($0.int(0)), ReceiptSummary.Line(position: Int($0.int(1)), description: $0.text(2), amount: Amount($0.text(3)) ?? Amount(0)))
            }) { lines[id, default: []].append(line) }
            return StoreExport(exportedAt: now, receipts: receipts, details: byID,
                               links: try db.query("SELECT \(Self.linkColumns) FROM links ORDER BY id", [], Self.link),
                               items: try db.query("SELECT \(Self.itemColumns) FROM items ORDER BY id", [], Self.storedItem), lineItems: lines)
        }
    }

    // MARK: - edit

    @discardableResult
    public func correct(_ id: ReceiptID, _ changes: [FieldChange], by who: String, teacher: (any ShopTeacher)?) throws -> [Correction] {
        guard schema >= 4 else { throw StoreError(.unsupported, "corrections need schema version 4", location: path) }
        let now = Self.now()
        return try write { db in
            let parsed = try Self.shown(id.rawValue, db)
            var out: [Correction] = []
            for change in changes {
                let before = parsed.applying(try Self.corrections(of: id.rawValue, db)).text(of: change.field)
                let cid = try db.scalarInt("""
                    INSERT INTO corrections (receipt_id, field, value, previous, corrected_by, corrected_at) VALUES (?, ?, ?, ?, ?, ?)
                    RETURNING id
                    """, [.int(id.rawValue), .text(change.field.rawValue), .of(change.value), .of(before), .text(who), .text(now)]) ?? 0
                out.append(Correction(id: cid, receiptID: id, field: change.field, value: change.value, previous: before,
                                      by: who, at: now))
            }
            try Self.writeEffective(id.rawValue, db)
            try Self.reteach(id.rawValue, changed: Set(changes.map(\.field)), teacher: teacher, db, now)
            return out
        }
    }

    @discardableResult
    public func undoCorrection(_ id: ReceiptID, field: CorrectableField, by who: String, teacher: (any ShopTeacher)?) throws -> Correction {
        guard schema >= 4 else { throw StoreError(.unsupported, "corrections need schema version 4", location: path) }
        let now = Self.now()
        return try write { db in
            _ = try Self.parsed(id.rawValue, db)
            guard let cid = try db.scalarInt("""
                SELECT id FROM corrections WHERE receipt_id = ? AND field = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1
                """, [.int(id.rawValue), .text(field.rawValue)]) else {
                throw StoreError(.notFound, "\(field.rawValue) has no correction to undo", context: "receipt \(id)")
            }
            try db.run("UPDATE corrections SET undone_by = ?, undone_at = ? WHERE id = ?", [.text(who), .text(now), .int(cid)])
            try Self.writeEffective(id.rawValue, db)
            try Self.reteach(id.rawValue, changed: [field], teacher: teacher, db, now)
            return try db.query("SELECT \(Self.correctionColumns) FROM corrections WHERE id = ?", [.int(cid)], Self.correction)[0]
        }
    }
}
