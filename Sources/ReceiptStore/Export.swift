import Foundation
import ReceiptModel

/// Receipts with their links, for a spreadsheet (CSV) or an inventory app (JSON).
public struct StoreExport: Sendable, Codable {
    public struct ExportedItem: Sendable, Codable {
        public var id: ItemID
        public var externalID: String?
        public var name: String
        public var brand: String?
        public var model: String?
        public var serial: String?
        public var price: Amount?
        public var currency: String?
        public var purchaseDate: CalendarDate?
        public var vendor: String?
        public var room: String?
        public var category: String?
        enum CodingKeys: String, CodingKey {
            case id, externalID = "external_id", name, brand, model, serial, price, currency, purchaseDate = "purchase_date", vendor, room, category
        }
    }
    public struct ExportedLink: Sendable, Codable {
        public var id: LinkID
        public var status: LinkStatus
        public var score: Double
        public var ambiguous: Bool
        /// 1-based line number on the receipt's item list.
        public var line: Int?
        public var lineText: String?
        public var reasons: [String]
        public var decidedBy: String?
        public var decidedAt: String?
        public var item: ExportedItem
        enum CodingKeys: String, CodingKey {
            case id, status, score, ambiguous, line, lineText = "line_text", reasons, decidedBy = "decided_by", decidedAt = "decided_at", item
        }
    }
    public struct ExportedReceipt: Sendable, Codable {
        public var id: ReceiptID
        public var contentHash: String
        public var files: [String]
        public var status: ReceiptStatus
        public var vendor: String?
        public var date: CalendarDate?
        public var total: Amount?
        public var subtotal: Amount?
        public var tax: Amount?
        public var currency: String?
        public var receiptNumber: String?
        public var duplicateOf: ReceiptID?
        public var links: [ExportedLink]
        enum CodingKeys: String, CodingKey {
            case id, contentHash = "content_hash", files, status, vendor, date, total, subtotal, tax, currency
            case receiptNumber = "receipt_number", duplicateOf = "duplicate_of", links
        }
    }
    public var exportedAt: String
    public var receipts: [ExportedReceipt]

    enum CodingKeys: String, CodingKey { case exportedAt = "exported_at", receipts }

    public func json() throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // A file name's bytes that are not UTF-8 as `\\xE9` (valid JSON; PathBytes).
        return PathBytes.displayable(String(decoding: try enc.encode(self), as: UTF8.self), prefix: "\\\\x") + "\n"
    }

    public static let csvHeader = [
        "receipt_id", "file", "vendor", "date", "total", "currency", "receipt_number", "receipt_status", "duplicate_of",
        "link_id", "link_status", "score", "line", "line_text", "item_id", "item_external_id", "item_name", "item_price",
        "item_purchase_date", "item_vendor", "reasons",
    ]

    /// One row per link; a receipt without links gets one row with the item columns empty.
    public func csv() -> String {
        var out = CSVTable.row(Self.csvHeader) + "\n"
        for r in receipts {
            let head = [r.id.rawValue.description, PathBytes.displayable(r.files.first ?? ""), r.vendor ?? "", r.date?.iso ?? "", r.total?.description ?? "",
                        r.currency ?? "", r.receiptNumber ?? "", r.status.rawValue, r.duplicateOf.map { $0.rawValue.description } ?? ""]
            if r.links.isEmpty {
                out += CSVTable.row(head + Array(repeating: "", count: Self.csvHeader.count - head.count)) + "\n"
            }
            for l in r.links {
                out += CSVTable.row(head + [
                    l.id.description, l.status.rawValue, String(format: "%.2f", l.score), l.line.map(String.init) ?? "", l.lineText ?? "",
                    l.item.id.rawValue.description, l.item.externalID ?? "", l.item.name, l.item.price?.description ?? "",
                    l.item.purchaseDate?.iso ?? "", l.item.vendor ?? "", l.reasons.joined(separator: "; "),
                ]) + "\n"
            }
        }
        return out
    }
}

extension StoreExport {
    /// One receipt as the export needs it.
    public struct ReceiptEntry: Sendable {
        public var summary: ReceiptSummary
        public var contentHash: String
        public var status: ReceiptStatus
        public var files: [String]
        public init(summary: ReceiptSummary, contentHash: String, status: ReceiptStatus, files: [String]) {
            self.summary = summary; self.contentHash = contentHash; self.status = status; self.files = files
        }
    }

    /// The export of one snapshot of a store (any engine): receipts in the given order, each
    /// with its links of `linkStatuses` (all when empty), best score first.
    public init(receipts: [ReceiptEntry], items: [StoredItem], links: [Link], linkStatuses: Set<LinkStatus>, exportedAt: String) {
        let itemByID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        var byReceipt: [ReceiptID: [Link]] = [:]
        for l in links where linkStatuses.isEmpty || linkStatuses.contains(l.status) { byReceipt[l.receiptID, default: []].append(l) }
        let out = receipts.map { entry -> ExportedReceipt in
            let r = entry.summary
            let mine = (byReceipt[r.id] ?? []).sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
            let exported = mine.compactMap { l -> ExportedLink? in
                guard let s = itemByID[l.itemID] else { return nil }
                let i = s.item
                let lineText = l.linePosition.flatMap { p in r.lines.first { $0.position == p }?.description }
                return ExportedLink(
                    id: l.id, status: l.status, score: l.score, ambiguous: l.ambiguous, line: l.linePosition.map { $0 + 1 }, lineText: lineText,
                    reasons: l.reasons, decidedBy: l.decidedBy, decidedAt: l.decidedAt,
                    item: .init(id: s.id, externalID: i.externalID, name: i.name, brand: i.brand, model: i.model, serial: i.serial,
                                price: i.price, currency: i.currency, purchaseDate: i.purchaseDate, vendor: i.vendor, room: i.room, category: i.category))
            }
            return ExportedReceipt(
                id: r.id, contentHash: entry.contentHash, files: entry.files, status: entry.status,
                vendor: r.vendor, date: r.date, total: r.total, subtotal: r.subtotal, tax: r.tax, currency: r.currency,
                receiptNumber: r.receiptNumber, duplicateOf: r.duplicateOf, links: exported)
        }
        self.init(exportedAt: exportedAt, receipts: out)
    }
}
