import Foundation
import ReceiptModel

/// The shop directory (schema version 7): what corrected receipts teach, and `receipts shops`.
extension SQLReceiptStore {
    /// Whether the store has the directory's tables (a PostgreSQL store always has the latest schema).
    static func hasShops(_ db: any SQLConnection) throws -> Bool {
        if db.dialect == .postgres { return true }
        return (try db.scalarInt("PRAGMA user_version") ?? 0) >= 7
    }

    /// The shop a receipt is at: the one it was taken for when read, else the one it taught.
    static func shopOf(_ id: Int64, _ db: any SQLConnection) throws -> (id: ShopID, name: String)? {
        guard try hasShops(db) else { return nil }
        return try db.query("""
            SELECT s.id, s.name FROM shops s WHERE s.id = (SELECT shop_id FROM receipts WHERE id = ?)
              OR s.id IN (SELECT shop_id FROM shop_keys WHERE receipt_id = ?) OR s.id IN (SELECT shop_id FROM shop_habits WHERE receipt_id = ?)
            ORDER BY s.id = (SELECT shop_id FROM receipts WHERE id = ?) DESC, s.id LIMIT 1
            """, [.int(id), .int(id), .int(id), .int(id)]) { (ShopID($0.int(0)), $0.text(1)) }.first
    }

    /// The shops a receipt teaches now.
    static func taughtBy(_ id: Int64, _ db: any SQLConnection) throws -> [Int64] {
        try db.query("SELECT shop_id FROM shop_keys WHERE receipt_id = ? UNION SELECT shop_id FROM shop_habits WHERE receipt_id = ?",
                     [.int(id), .int(id)]) { $0.int(0) }
    }

    /// Replaces what receipt `id` teaches with `teacher`'s lesson, after its corrections changed
    /// (`changed`: the fields the request touched). Nothing is learned from a receipt without a
    /// correction in force, with or without a teacher; without a teacher a corrected receipt keeps
    /// what it taught. Shops left with nothing learned are forgotten.
    static func reteach(_ id: Int64, changed: Set<CorrectableField>, teacher: (any ShopTeacher)?, _ db: any SQLConnection, _ now: String) throws {
        guard try hasShops(db) else { return }
        let active = try corrections(of: id, db).filter(\.isActive)
        if teacher == nil, !active.isEmpty { return }
        let before = try taughtBy(id, db)
        var lesson: ShopLesson?
        var effective: ParsedReceipt?
        if let teacher, !active.isEmpty {
            let parsed = try Self.parsed(id, db), learned = try Self.learned(id, db)
            effective = parsed.applying(learned).applying(active)
            let (reading, text) = try db.query("SELECT ocr_reading, ocr_text FROM receipts WHERE id = ?", [.int(id)]) { ($0.textOrNil(0), $0.textOrNil(1)) }[0]
            let decoded = try reading.map { json in
                do { return try JSONDecoder().decode(OCRReading.self, from: Data(json.utf8)) } catch {
                    throw StoreError(.unreadable, "the stored OCR reading cannot be read: \(error)", location: db.path, context: "receipt #\(id)")
                }
            }
            lesson = teacher.lesson(TeachingInput(receiptID: ReceiptID(id), parsed: parsed, learned: learned, effective: effective!, corrections: active,
                                                  changed: changed, reading: decoded, ocrText: text, taught: before.first.map { ShopID($0) }))
        }
        try db.run("DELETE FROM shop_keys WHERE receipt_id = ?", [.int(id)])
        try db.run("DELETE FROM shop_habits WHERE receipt_id = ?", [.int(id)])
        var touched = Set(before)
        if let lesson {
            let shop = try target(lesson.target, fallback: effective?.vendor?.value, db, now)
            if let shop {
                touched.insert(shop)
                for k in lesson.keys {
                    try db.run("""
                        INSERT INTO shop_keys (shop_id, receipt_id, kind, value, learned_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                        """, [.int(shop), .int(id), .text(k.kind.rawValue), .text(k.value), .text(now)])
                }
                for h in lesson.habits {
                    try db.run("""
                        INSERT INTO shop_habits (shop_id, receipt_id, correction_id, field, line_json, learned_at) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT DO NOTHING
                        """, [.int(shop), .int(id), .int(h.correctionID), .text(h.field.rawValue), .text(try encodeJSON(h.line)), .text(now)])
                }
                try db.run("UPDATE shops SET updated_at = ? WHERE id = ?", [.text(now), .int(shop)])
            }
        }
        try prune(touched, db)
    }

    /// The shop a lesson goes to: the one it names when it still exists, else the shop of the name
    /// (`fallback` when the lesson named an id), made when there is none.
    static func target(_ t: ShopLesson.Target, fallback: String?, _ db: any SQLConnection, _ now: String) throws -> Int64? {
        let name: String
        switch t {
        case let .shop(id):
            if try db.scalarInt("SELECT 1 FROM shops WHERE id = ?", [.int(id.rawValue)]) != nil { return id.rawValue }
            guard let fallback else { return nil }
            name = fallback
        case let .named(n): name = n
        }
        let key = ShopName.key(name)
        guard !key.isEmpty else { return nil }
        if let id = try db.scalarInt("SELECT id FROM shops WHERE name_key = ?", [.text(key)]) { return id }
        return try db.scalarInt("INSERT INTO shops (name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
                                [.text(name.trimmingCharacters(in: .whitespaces)), .text(key), .text(now), .text(now)])
    }

    /// After shops lost what some receipt taught them: a shop with nothing learned left is forgotten
    /// (the receipts taken for it go back to the parser's values), and a total or date taken from a
    /// habit that is no more goes back too.
    static func prune(_ ids: Set<Int64>, _ db: any SQLConnection) throws {
        for shop in ids.sorted() {
            let learnedSomething = try db.scalarInt("""
                SELECT 1 FROM shop_keys WHERE shop_id = ? UNION ALL SELECT 1 FROM shop_habits WHERE shop_id = ? LIMIT 1
                """, [.int(shop), .int(shop)]) != nil
            if !learnedSomething {
                try unlearn(receiptsOf: shop, db)
                try db.run("DELETE FROM shops WHERE id = ?", [.int(shop)])
                continue
            }
            guard let known = try shops(db, only: shop).first else { continue }
            let habits = Set(known.habits.map { "\($0.receiptID.rawValue) \($0.field.rawValue)" })
            let years = Set(known.dates.map(\.date.year))
            for (rid, json) in try db.query("SELECT id, learned_json FROM receipts WHERE shop_id = ? AND learned_json IS NOT NULL", [.int(shop)], {
                ($0.int(0), $0.text(1))
            }) {
                var l = try JSONDecoder().decode(LearnedFields.self, from: Data(json.utf8))
                // A value stays while what it came from is still learned: the habit, the year of confirmed dates.
                func stays(_ e: Evidence?, _ field: String) -> Bool {
                    e?.notes.allSatisfy { n in
                        switch n {
                        case let .learnedHabit(h): habits.contains("\(h.teacher) \(field)")
                        case let .learnedYear(y): years.contains(y.year)
                        default: true
                        }
                    } ?? true
                }
                let before = l
                if !stays(l.total?.evidence, "total") { l.total = nil }
                if !stays(l.date?.evidence, "date") { l.date = nil }
                if l != before { try setLearned(rid, l, db) }
            }
        }
    }

    /// The receipts taken for `shop` go back to the parser's values.
    static func unlearn(receiptsOf shop: Int64, _ db: any SQLConnection) throws {
        for rid in try db.query("SELECT id FROM receipts WHERE shop_id = ?", [.int(shop)], { $0.int(0) }) { try setLearned(rid, nil, db) }
    }

    /// Sets what a shop set on a receipt (nil: nothing) and rewrites its columns.
    static func setLearned(_ id: Int64, _ learned: LearnedFields?, _ db: any SQLConnection) throws {
        try db.run("UPDATE receipts SET learned_json = ?, shop_id = ? WHERE id = ?",
                   [.of(try learned.map(encodeJSON)), .of(learned?.shop), .int(id)])
        try writeEffective(id, db)
    }

    // MARK: - receipts shops

    public func shops() throws -> [StoredShop] {
        guard schema >= 7 else { return [] }
        return try read { db in try Self.shops(db) }
    }

    static func shops(_ db: any SQLConnection, only: Int64? = nil) throws -> [StoredShop] {
        let filter = only.map { _ in " WHERE shop_id = ?" } ?? ""
        let params: [SQLValue] = only.map { [.int($0)] } ?? []
        var keys: [Int64: [TaughtKey]] = [:], habits: [Int64: [TaughtHabit]] = [:], receipts: [Int64: Set<ReceiptID>] = [:]
        for (shop, k) in try db.query("SELECT shop_id, receipt_id, kind, value, learned_at FROM shop_keys\(filter) ORDER BY shop_id, receipt_id, kind, value",
                                      params, { row -> (Int64, TaughtKey?) in
            (row.int(0), ShopKeyKind(rawValue: row.text(2)).map { TaughtKey(key: ShopKey($0, row.text(3)), receiptID: ReceiptID(row.int(1)), learnedAt: row.text(4)) })
        }) {
            guard let k else { continue }  // a kind a newer receipts wrote
            keys[shop, default: []].append(k)
            receipts[shop, default: []].insert(k.receiptID)
        }
        for (shop, h) in try db.query("""
            SELECT shop_id, receipt_id, correction_id, field, line_json, learned_at FROM shop_habits\(filter) ORDER BY shop_id, correction_id
            """, params, { row -> (Int64, TaughtHabit?) in
            guard let field = CorrectableField(rawValue: row.text(3)),
                  let line = try? JSONDecoder().decode(LineKind.self, from: Data(row.text(4).utf8)) else { return (row.int(0), nil) }
            return (row.int(0), TaughtHabit(field: field, line: line, receiptID: ReceiptID(row.int(1)), correctionID: row.int(2), learnedAt: row.text(5)))
        }) {
            guard let h else { continue }
            habits[shop, default: []].append(h)
            receipts[shop, default: []].insert(h.receiptID)
        }
        for (shop, r) in try db.query("SELECT shop_id, id FROM receipts WHERE shop_id IS NOT NULL\(only.map { _ in " AND shop_id = ?" } ?? "")",
                                      params, { ($0.int(0), ReceiptID($0.int(1))) }) {
            receipts[shop, default: []].insert(r)
        }
        // The dates corrected or confirmed (a date correction in force) on the receipts that taught each shop.
        var dates: [Int64: [TaughtDate]] = [:]
        for (shop, rid, value) in try db.query("""
            SELECT t.shop_id, c.receipt_id, c.value FROM corrections c
            JOIN (SELECT shop_id, receipt_id FROM shop_keys UNION SELECT shop_id, receipt_id FROM shop_habits) t ON t.receipt_id = c.receipt_id
            WHERE c.field = 'date' AND c.undone_at IS NULL AND c.value IS NOT NULL\(only.map { _ in " AND t.shop_id = ?" } ?? "")
            ORDER BY t.shop_id, c.receipt_id, c.id
            """, params, { ($0.int(0), ReceiptID($0.int(1)), $0.text(2)) }) {
            guard let d = CalendarDate(iso: value) else { continue }
            // The latest correction of a receipt's date holds.
            if let last = dates[shop]?.last, last.receiptID == rid { dates[shop]!.removeLast() }
            dates[shop, default: []].append(TaughtDate(date: d, receiptID: rid))
        }
        return try db.query("SELECT id, name, created_at, updated_at FROM shops\(only.map { _ in " WHERE id = ?" } ?? "") ORDER BY id", params) { row in
            let id = row.int(0)
            return StoredShop(id: ShopID(id), name: row.text(1), createdAt: row.text(2), updatedAt: row.text(3), keys: keys[id] ?? [],
                              habits: habits[id] ?? [], receipts: (receipts[id] ?? []).sorted(), dates: dates[id] ?? [])
        }
    }

    static func requireShop(_ id: ShopID, _ db: any SQLConnection) throws -> StoredShop {
        guard let s = try shops(db, only: id.rawValue).first else { throw StoreError(.notFound, "no shop \(id)") }
        return s
    }

    /// The receipts taken for `shop` show `name`: their vendor from the shop, and its evidence, say it.
    static func renameLearned(of shop: Int64, to name: String, as newShop: Int64, _ db: any SQLConnection) throws {
        for (rid, json) in try db.query("SELECT id, learned_json FROM receipts WHERE shop_id = ? AND learned_json IS NOT NULL", [.int(shop)], {
            ($0.int(0), $0.text(1))
        }) {
            var l = try JSONDecoder().decode(LearnedFields.self, from: Data(json.utf8))
            l.shop = newShop
            if var v = l.vendor {
                v.value = name
                v.evidence.notes = v.evidence.notes.map { n in
                    guard case var .matchedShop(m) = n else { return n }
                    m.name = name; m.shop = newShop
                    return .matchedShop(m)
                }
                l.vendor = v
            }
            try setLearned(rid, l, db)
        }
    }

    @discardableResult
    public func renameShop(_ id: ShopID, to name: String) throws -> StoredShop {
        try requireSchema7()
        let name = name.trimmingCharacters(in: .whitespaces), key = ShopName.key(name), now = Self.now()
        guard !key.isEmpty else { throw StoreError(.invalid, "'\(name)' is no name: it needs a letter or a digit") }
        return try write { db in
            _ = try Self.requireShop(id, db)
            if let other = try db.scalarInt("SELECT id FROM shops WHERE name_key = ? AND id <> ?", [.text(key), .int(id.rawValue)]) {
                throw StoreError(.invalid, "shop \(other) is called that already: merge the two (receipts shops merge \(id) \(other))")
            }
            try db.run("UPDATE shops SET name = ?, name_key = ?, updated_at = ? WHERE id = ?", [.text(name), .text(key), .text(now), .int(id.rawValue)])
            try Self.renameLearned(of: id.rawValue, to: name, as: id.rawValue, db)
            return try Self.requireShop(id, db)
        }
    }

    @discardableResult
    public func mergeShop(_ other: ShopID, into id: ShopID) throws -> StoredShop {
        try requireSchema7()
        guard other != id else { throw StoreError(.invalid, "a shop cannot be merged into itself") }
        let now = Self.now()
        return try write { db in
            let keep = try Self.requireShop(id, db)
            _ = try Self.requireShop(other, db)
            try db.run("UPDATE shop_keys SET shop_id = ? WHERE shop_id = ?", [.int(id.rawValue), .int(other.rawValue)])
            try db.run("UPDATE shop_habits SET shop_id = ? WHERE shop_id = ?", [.int(id.rawValue), .int(other.rawValue)])
            try Self.renameLearned(of: other.rawValue, to: keep.name, as: id.rawValue, db)
            try db.run("DELETE FROM shops WHERE id = ?", [.int(other.rawValue)])
            try db.run("UPDATE shops SET updated_at = ? WHERE id = ?", [.text(now), .int(id.rawValue)])
            return try Self.requireShop(id, db)
        }
    }

    @discardableResult
    public func forgetShop(_ id: ShopID) throws -> StoredShop {
        try requireSchema7()
        return try write { db in
            let shop = try Self.requireShop(id, db)
            try Self.unlearn(receiptsOf: id.rawValue, db)
            try db.run("DELETE FROM shops WHERE id = ?", [.int(id.rawValue)])
            return shop
        }
    }

    func requireSchema7() throws {
        guard schema >= 7 else { throw StoreError(.unsupported, "the shop directory needs schema version 7", location: path) }
    }
}
