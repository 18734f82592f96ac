import Foundation
import ReceiptModel
import ReceiptStore

public enum InventoryFormat: String, Sendable, CaseIterable {
    /// Our CSV: columns matched by header name (see `InventoryImporter.csvColumns`).
    case csv
    /// Homebox's CSV export (`HB.name`, `HB.purchase_price`, …).
    case homebox
    /// The JSON backup of the Nestory iOS app (`nestory-backup-YYYYMMDD-HHMMSS.json`).
    case nestory
}

/// A row that was skipped, and why.
public struct ImportIssue: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

public struct InventoryParseResult: Sendable {
    public var format: InventoryFormat
    /// Good rows, with the line each came from.
    public var items: [(line: Int, item: InventoryItem)]
    public var issues: [ImportIssue]
    /// Things worth telling the user that are not errors ("skipped 2 location rows").
    public var notes: [String]
}

/// A whole file that cannot be imported (not UTF-8, no header, not JSON, …).
public struct ImportFileError: Error, CustomStringConvertible, Sendable {
    public var line: Int?
    public var message: String
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Reads inventory files into `InventoryItem`s. Pure parsing: nothing is written.
public enum InventoryImporter {
    /// Our CSV columns and the header names accepted for each (case, spaces, `_` and `-` ignored).
    public static let csvColumns: [(field: String, names: [String])] = [
        ("name", ["name", "item", "item name", "title"]),
        ("brand", ["brand", "manufacturer", "make"]),
        ("model", ["model", "model number", "model no"]),
        ("serial", ["serial", "serial number", "serial no"]),
        ("category", ["category"]),
        ("room", ["room", "location"]),
        ("quantity", ["quantity", "qty"]),
        ("price", ["price", "purchase price", "cost", "amount", "value"]),
        ("currency", ["currency", "currency code"]),
        ("date", ["date", "purchase date", "purchased", "purchased on", "bought"]),
        ("vendor", ["vendor", "store", "shop", "retailer", "seller", "purchased from", "purchase from"]),
        ("notes", ["notes", "note", "description", "comments"]),
        ("id", ["id", "external id", "item id"]),
    ]

    /// Guesses the format from the file name and content.
    public static func detect(fileName: String, data: Data) -> InventoryFormat {
        let lower = (fileName as NSString).lastPathComponent.lowercased()
        if lower.hasSuffix(".json") { return .nestory }
        if let first = data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }),
           first == UInt8(ascii: "{") { return .nestory }
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        let firstLine = head.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        if firstLine.contains("HB.") { return .homebox }
        return .csv
    }

    public static func parse(data: Data, fileName: String, format: InventoryFormat? = nil) throws -> InventoryParseResult {
        let format = format ?? detect(fileName: fileName, data: data)
        switch format {
        case .nestory: return try parseNestory(data)
        case .csv, .homebox:
            guard let text = String(data: data, encoding: .utf8) else {
                throw ImportFileError(line: nil, message: "not UTF-8 text; save the file as UTF-8 CSV")
            }
            let table = CSVTable(text: text)
            guard !table.header.isEmpty else { throw ImportFileError(line: nil, message: "the file is empty") }
            return format == .homebox ? try parseHomebox(table) : try parseCSV(table)
        }
    }

    static func headerKey(_ s: String) -> String {
        s.lowercased().replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(separator: " ").joined(separator: " ")
    }

    // MARK: our CSV

    static func parseCSV(_ table: CSVTable) throws -> InventoryParseResult {
        var index: [String: Int] = [:]
        var extras: [(Int, String)] = []
        for (i, h) in table.header.enumerated() {
            let key = headerKey(h)
            if let col = csvColumns.first(where: { $0.names.contains(key) }), index[col.field] == nil {
                index[col.field] = i
            } else if !h.isEmpty {
                extras.append((i, h))
            }
        }
        guard index["name"] != nil else {
            throw ImportFileError(line: table.headerLine, message: "no 'name' column in the header (\(table.header.joined(separator: ", "))); see `receipts items import --help` for the columns")
        }
        var items: [(line: Int, item: InventoryItem)] = []
        var issues: [ImportIssue] = []
        for r in table.records {
            if let p = r.problem { issues.append(ImportIssue(line: r.line, message: p)); continue }
            if r.fields.count > table.header.count, r.fields[table.header.count...].contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                issues.append(ImportIssue(line: r.line, message: "\(r.fields.count) fields but the header has \(table.header.count) (an unquoted separator in a value?)"))
                continue
            }
            func v(_ f: String) -> String? { r.value(index[f]) }
            do {
                guard let name = v("name") else { throw RowError("no name") }
                var item = InventoryItem(name: name, externalID: v("id"), source: "csv", brand: v("brand"), model: v("model"),
                                         serial: v("serial"), category: v("category"), room: v("room"), vendor: v("vendor"))
                if let q = v("quantity") {
                    guard let n = Int(q), n > 0 else { throw RowError("quantity '\(q)' is not a whole number above 0") }
                    item.quantity = n
                }
                if let p = v("price") {
                    let m = try parsePrice(p)
                    item.price = m.amount; item.currency = m.currency
                }
                if let c = v("currency") {
                    let code = c.uppercased()
                    guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { throw RowError("currency '\(c)' is not a 3-letter code like USD") }
                    item.currency = code
                }
                if let d = v("date") { item.purchaseDate = try parseDate(d, slashOrder: .unambiguousOnly) }
                var notes: [String] = v("notes").map { [$0] } ?? []
                for (i, h) in extras where i < r.fields.count {
                    let t = r.fields[i].trimmingCharacters(in: .whitespacesAndNewlines)
                    if !t.isEmpty { notes.append("\(h): \(t)") }
                }
                item.notes = notes.isEmpty ? nil : notes.joined(separator: "; ")
                items.append((r.line, item))
            } catch let e as RowError {
                issues.append(ImportIssue(line: r.line, message: e.message))
            }
        }
        var notes: [String] = []
        if !extras.isEmpty { notes.append("kept as notes: \(extras.map { $0.1 }.joined(separator: ", "))") }
        return InventoryParseResult(format: .csv, items: items, issues: issues, notes: notes)
    }

    // MARK: Homebox

    static func parseHomebox(_ table: CSVTable) throws -> InventoryParseResult {
        var col: [String: Int] = [:]
        for (i, h) in table.header.enumerated() { col[h.lowercased()] = i }
        guard col["hb.name"] != nil else {
            throw ImportFileError(line: table.headerLine, message: "not a Homebox export: no HB.name column")
        }
        let known: Set<String> = ["hb.import_ref", "hb.parent_import_ref", "hb.location", "hb.labels", "hb.tags", "hb.asset_id", "hb.archived",
                                  "hb.url", "hb.name", "hb.quantity", "hb.description", "hb.insured", "hb.notes", "hb.purchase_price",
                                  "hb.purchase_from", "hb.purchase_time", "hb.purchase_date", "hb.manufacturer", "hb.model_number",
                                  "hb.serial_number", "hb.lifetime_warranty", "hb.warranty_expires", "hb.warranty_details",
                                  "hb.sold_to", "hb.sold_price", "hb.sold_time", "hb.sold_date", "hb.sold_notes"]
        var items: [(line: Int, item: InventoryItem)] = []
        var issues: [ImportIssue] = []
        var locations = 0
        for r in table.records {
            if let p = r.problem { issues.append(ImportIssue(line: r.line, message: p)); continue }
            if r.fields.count > table.header.count, r.fields[table.header.count...].contains(where: { !$0.isEmpty }) {
                issues.append(ImportIssue(line: r.line, message: "\(r.fields.count) fields but the header has \(table.header.count)"))
                continue
            }
            func v(_ f: String) -> String? { r.value(col[f]) }
            // The export lists locations as rows too; they are not things that were bought.
            if let url = v("hb.url"), url.hasPrefix("/location/") { locations += 1; continue }
            do {
                guard let name = v("hb.name") else { throw RowError("no HB.name") }
                var ext: String?
                if let a = v("hb.asset_id"), a.contains(where: { $0 != "0" && $0 != "-" }) { ext = "homebox:" + a }
                else if let u = v("hb.url") { ext = "homebox:" + u }
                else if let ref = v("hb.import_ref") { ext = "homebox:" + ref }
                var item = InventoryItem(name: name, externalID: ext, source: "homebox", brand: v("hb.manufacturer"),
                                         model: v("hb.model_number"), serial: v("hb.serial_number"), room: v("hb.location"),
                                         vendor: v("hb.purchase_from"))
                if let labels = v("hb.labels") ?? v("hb.tags") { item.category = labels.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } }
                if let q = v("hb.quantity") {
                    guard let n = Int(q), n >= 0 else { throw RowError("HB.quantity '\(q)' is not a whole number") }
                    item.quantity = max(1, n)
                }
                if let p = v("hb.purchase_price") {
                    let m = try parsePrice(p)
                    // Homebox writes 0 for "no price".
                    if m.amount.cents != 0 { item.price = m.amount; item.currency = m.currency }
                }
                if let d = v("hb.purchase_date") ?? v("hb.purchase_time") {
                    item.purchaseDate = try parseDate(d, slashOrder: .monthFirst)
                    // Go's zero time is written for "no date".
                    if item.purchaseDate?.year == 1 { item.purchaseDate = nil }
                }
                var notes: [String] = []
                if let d = v("hb.description") { notes.append(d) }
                if let n = v("hb.notes") { notes.append(n) }
                for (i, h) in table.header.enumerated() where !known.contains(h.lowercased()) && i < r.fields.count {
                    let t = r.fields[i].trimmingCharacters(in: .whitespacesAndNewlines)
                    if !t.isEmpty { notes.append("\(h.hasPrefix("HB.field.") ? String(h.dropFirst(9)) : h): \(t)") }
                }
                item.notes = notes.isEmpty ? nil : notes.joined(separator: "; ")
                items.append((r.line, item))
            } catch let e as RowError {
                issues.append(ImportIssue(line: r.line, message: e.message))
            }
        }
        var notes: [String] = []
        if locations > 0 { notes.append("skipped \(locations) location row\(locations == 1 ? "" : "s")") }
        return InventoryParseResult(format: .homebox, items: items, issues: issues, notes: notes)
    }

    // MARK: Nestory JSON backup

    static func parseNestory(_ data: Data) throws -> InventoryParseResult {
        let root: JSONNode
        do { root = try JSONTree.parse(data) } catch let e as JSONSyntaxError {
            throw ImportFileError(line: e.line, message: "not valid JSON: \(e.message)")
        }
        guard root.isObject, let list = root["items"]?.array else {
            throw ImportFileError(line: root.line, message: "not a Nestory backup: no \"items\" array at the top level")
        }
        // Receipts the app knows: their vendor/date fill in what the item lacks.
        var receiptByItem: [String: JSONNode] = [:]
        var receiptByID: [String: JSONNode] = [:]
        let receipts = root["receipts"]?.array ?? []
        for r in receipts {
            if let id = r["id"]?.text { receiptByID[id] = r }
            if let item = r["linkedItemId"]?.text ?? r["itemId"]?.text { receiptByItem[item] = r }
        }
        var items: [(line: Int, item: InventoryItem)] = []
        var issues: [ImportIssue] = []
        var filledFromReceipt = 0
        for node in list {
            guard node.isObject else { issues.append(ImportIssue(line: node.line, message: "an item is not a JSON object")); continue }
            do {
                guard let name = node["name"]?.text else { throw RowError("item without a name") }
                let id = node["id"]?.text
                var item = InventoryItem(name: name, externalID: id.map { "nestory:" + $0 }, source: "nestory",
                                         brand: node["brand"]?.text, model: (node["modelNumber"] ?? node["model"])?.text,
                                         serial: node["serialNumber"]?.text, category: node["categoryName"]?.text,
                                         room: node["roomName"]?.text)
                if let q = node["quantity"]?.text {
                    guard let n = Int(q), n > 0 else { throw RowError("quantity '\(q)' is not a whole number above 0") }
                    item.quantity = n
                }
                if let p = (node["purchasePrice"] ?? node["price"])?.text {
                    let m = try parsePrice(p)
                    item.price = m.amount; item.currency = m.currency
                }
                if let c = (node["currencyCode"] ?? node["currency"])?.text { item.currency = c.uppercased() }
                if let d = node["purchaseDate"] { item.purchaseDate = try nestoryDate(d) }
                item.vendor = (node["vendor"] ?? node["store"] ?? node["purchasedFrom"])?.text
                var linked = id.flatMap { receiptByItem[$0] }
                if linked == nil, let ids = node["receiptIds"]?.array {
                    linked = ids.lazy.compactMap { $0.text.flatMap { receiptByID[$0] } }.first
                }
                if let r = linked {
                    var used = false
                    if item.vendor == nil, let v = r["vendor"]?.text { item.vendor = v; used = true }
                    if item.purchaseDate == nil, let d = r["purchaseDate"] { item.purchaseDate = try? nestoryDate(d); used = used || item.purchaseDate != nil }
                    if used { filledFromReceipt += 1 }
                }
                var notes: [String] = []
                if let n = node["notes"]?.text { notes.append(n) }
                if let n = node["conditionNotes"]?.text { notes.append(n) }
                if let tags = node["tags"]?.array?.compactMap(\.text), !tags.isEmpty { notes.append("tags: " + tags.joined(separator: ", ")) }
                item.notes = notes.isEmpty ? nil : notes.joined(separator: "; ")
                items.append((node.line, item))
            } catch let e as RowError {
                issues.append(ImportIssue(line: node.line, message: e.message))
            }
        }
        var notes: [String] = []
        if let d = root["exportDate"]?.text { notes.append("backup from \(d)" + (root["appVersion"]?.text.map { ", app \($0)" } ?? "")) }
        if !receipts.isEmpty {
            notes.append("\(receipts.count) receipt record\(receipts.count == 1 ? " in the backup was" : "s in the backup were") not imported (receipts come from images); "
                         + "\(filledFromReceipt) item\(filledFromReceipt == 1 ? "" : "s") took vendor or date from them")
        }
        return InventoryParseResult(format: .nestory, items: items, issues: issues, notes: notes)
    }

    static func nestoryDate(_ node: JSONNode) throws -> CalendarDate? {
        switch node.value {
        case .null: return nil
        case let .number(n):
            // JSONEncoder's default date strategy: seconds since 2001-01-01 UTC.
            guard let secs = Double(n) else { throw RowError("purchaseDate '\(n)' is not a date") }
            let c = Calendar(identifier: .gregorian)
            var utc = c; utc.timeZone = TimeZone(identifier: "UTC")!
            let parts = utc.dateComponents([.year, .month, .day], from: Date(timeIntervalSinceReferenceDate: secs))
            return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)
        case let .string(s): return try parseDate(s, slashOrder: .unambiguousOnly)
        default: throw RowError("purchaseDate is not a date")
        }
    }

    // MARK: values

    struct RowError: Error { var message: String; init(_ m: String) { message = m } }

    /// "1249.99", "$1,249.99", "1.249,99 €", "EUR 12,50", "12.5" → exact amount (+ currency when the text says).
    static func parsePrice(_ raw: String) throws -> Money {
        var s = raw.trimmingCharacters(in: .whitespaces)
        var currency: String?
        let symbols: [(String, String?)] = [("€", "EUR"), ("£", "GBP"), ("¥", "JPY"), ("kr", nil), ("US$", "USD"), ("C$", "CAD"), ("CA$", "CAD"), ("$", nil)]
        for (sym, code) in symbols where s.contains(sym) {
            s = s.replacingOccurrences(of: sym, with: ""); currency = currency ?? code
        }
        let letters = s.filter { $0.isLetter }
        if letters.count == 3 && letters.allSatisfy(\.isASCII) {
            currency = letters.uppercased(); s = s.filter { !$0.isLetter }
        }
        s = s.filter { !$0.isWhitespace && $0 != "'" && $0 != "\u{00A0}" }
        let neg = s.hasPrefix("-")
        if neg { s.removeFirst() }
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }), s.first!.isNumber || s.first == "." else {
            throw RowError("price '\(raw)' is not an amount")
        }
        let lastDot = s.lastIndex(of: "."), lastComma = s.lastIndex(of: ",")
        var normalized: String
        if let d = lastDot, let c = lastComma {
            let decimalSep: Character = d > c ? "." : ","
            let thousands: Character = decimalSep == "." ? "," : "."
            normalized = s.filter { $0 != thousands }
            if decimalSep == "," { normalized = normalized.replacingOccurrences(of: ",", with: ".") }
        } else if lastComma != nil {
            let parts = s.split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 2 && parts[1].count != 3 { normalized = parts.joined(separator: ".") }  // 12,50 → 12.50
            else if parts.dropFirst().allSatisfy({ $0.count == 3 }) { normalized = parts.joined() }  // 1,249 → 1249
            else { throw RowError("price '\(raw)' is not an amount") }
        } else if lastDot != nil, s.filter({ $0 == "." }).count > 1 {
            let parts = s.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.dropFirst().allSatisfy({ $0.count == 3 }) else { throw RowError("price '\(raw)' is not an amount") }
            normalized = parts.joined()  // 1.249.000
        } else {
            normalized = s
        }
        guard let a = Amount((neg ? "-" : "") + normalized) else { throw RowError("price '\(raw)' is not an amount") }
        guard a.value >= 0 else { throw RowError("price '\(raw)' is negative") }
        return Money(a, currency: currency)
    }

    enum SlashOrder { case monthFirst, unambiguousOnly }

    /// ISO `2024-11-23` (also with a time after it), `2024/11/23`, `23.11.2024`, and
    /// slash dates: Homebox's are month-first; elsewhere only when the day is > 12.
    static func parseDate(_ raw: String, slashOrder: SlashOrder) throws -> CalendarDate {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let datePart = String(s.prefix { $0 != "T" && $0 != " " })
        let seps: [Character] = ["-", "/", "."]
        for sep in seps {
            let p = datePart.split(separator: sep, omittingEmptySubsequences: false)
            // ASCII digits, at most four: "٢٠٢٤" is no year here, and "054444…" (a fuzzer's) must not overflow Int.
            guard p.count == 3, p.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { continue }
            let n = p.compactMap { Int($0) }
            guard n.count == 3 else { continue }
            if p[0].count == 4 {
                if let d = CalendarDate(year: n[0], month: n[1], day: n[2]) { return d }
                throw RowError("date '\(raw)' is not a real day")
            }
            guard p[2].count == 4 else { continue }
            let y = n[2]
            if sep == "." || sep == "-" {
                if let d = CalendarDate(year: y, month: n[1], day: n[0]) { return d }
                throw RowError("date '\(raw)' is not a real day")
            }
            switch slashOrder {
            case .monthFirst:
                if let d = CalendarDate(year: y, month: n[0], day: n[1]) { return d }
            case .unambiguousOnly:
                if n[0] > 12, let d = CalendarDate(year: y, month: n[1], day: n[0]) { return d }
                if n[1] > 12, let d = CalendarDate(year: y, month: n[0], day: n[1]) { return d }
                if n[0] == n[1], let d = CalendarDate(year: y, month: n[0], day: n[1]) { return d }
                throw RowError("date '\(raw)' could be day/month or month/day; write it as YYYY-MM-DD")
            }
            throw RowError("date '\(raw)' is not a real day")
        }
        throw RowError("date '\(raw)' is not a date (use YYYY-MM-DD)")
    }
}
