import Foundation
import ReceiptModel
import ReceiptStore

// JSON shapes of the store commands (list, show, edit, links, items, store info, export).
// The vocabulary is docs/JSON.md: snake_case keys; receipt_id / item_id / link_id;
// `line` is always a 1-based OCR line, `line_item` a 1-based position in a receipt's line
// items; money is a decimal string, every other number a JSON number.

/// A link, the same in every command.
struct LinkReport: Encodable {
    var linkID: Int64
    var receiptID: Int64
    var itemID: Int64
    var lineItem: Int?
    var score: Double
    var reasons: [String]
    var status: String
    var ambiguous: Bool
    var decidedBy: String?
    var decidedAt: String?
    var createdAt: String
    var updatedAt: String
    var itemName: String?
    /// The whole item (`export --format json`).
    var item: ItemReport?

    enum CodingKeys: String, CodingKey {
        case linkID = "link_id", receiptID = "receipt_id", itemID = "item_id", lineItem = "line_item", score, reasons, status, ambiguous
        case decidedBy = "decided_by", decidedAt = "decided_at", createdAt = "created_at", updatedAt = "updated_at", itemName = "item_name", item
    }

    init(_ l: Link, itemName: String? = nil) {
        linkID = l.id.rawValue; receiptID = l.receiptID.rawValue; itemID = l.itemID.rawValue; lineItem = l.linePosition.map { $0 + 1 }
        score = round2(l.score); reasons = l.reasons; status = l.status.rawValue; ambiguous = l.ambiguous
        decidedBy = l.decidedBy; decidedAt = l.decidedAt; createdAt = l.createdAt; updatedAt = l.updatedAt; self.itemName = itemName
    }
}

/// One line of `receipts list --json`.
struct ListingReport: Encodable {
    var receiptID: Int64
    var status: String
    var vendor: String?
    var date: String?
    var time: String?
    var total: String?
    var subtotal: String?
    var tax: String?
    var currency: String?
    var receiptNumber: String?
    var paymentMethod: String?
    var cardLast4: String?
    var confidence: [String: Double]
    var corrected: [String]
    var files: [String]
    var contentHash: String
    var duplicateOf: Int64?
    var lineItemCount: Int
    var itemIDs: [Int64]

    enum CodingKeys: String, CodingKey {
        case receiptID = "receipt_id", status, vendor, date, time, total, subtotal, tax, currency, receiptNumber = "receipt_number"
        case paymentMethod = "payment_method", cardLast4 = "card_last4", confidence, corrected, files, contentHash = "content_hash"
        case duplicateOf = "duplicate_of", lineItemCount = "line_item_count", itemIDs = "item_ids"
    }

    init(_ r: ReceiptListing) {
        receiptID = r.id.rawValue; status = r.state.rawValue; vendor = r.vendor; date = r.date?.iso; time = r.time
        total = r.total?.description; subtotal = r.subtotal?.description; tax = r.tax?.description; currency = r.currency
        receiptNumber = r.receiptNumber; paymentMethod = r.paymentMethod; cardLast4 = r.cardLast4
        confidence = r.confidences.mapValues(round2); corrected = r.correctedFields.map(\.rawValue); files = r.files
        contentHash = r.contentHash; duplicateOf = r.duplicateOf?.rawValue; lineItemCount = r.lineItemCount; itemIDs = r.linkedItems.map(\.rawValue)
    }
}

/// A correction, in `show` and `edit`.
struct CorrectionReport: Encodable {
    var correctionID: Int64
    var receiptID: Int64
    var field: String
    var value: String?
    var previous: String?
    var correctedBy: String
    var correctedAt: String
    var undoneBy: String?
    var undoneAt: String?

    enum CodingKeys: String, CodingKey {
        case correctionID = "correction_id", receiptID = "receipt_id", field, value, previous, correctedBy = "corrected_by"
        case correctedAt = "corrected_at", undoneBy = "undone_by", undoneAt = "undone_at"
    }

    init(_ c: Correction) {
        correctionID = c.id; receiptID = c.receiptID.rawValue; field = c.field.rawValue; value = c.value; previous = c.previous
        correctedBy = c.by; correctedAt = c.at; undoneBy = c.undoneBy; undoneAt = c.undoneAt
    }
}

/// A field in `show --json`: as the user sees it, and what the parser read when a correction replaced it.
struct ShownField: Encodable {
    var value: String?
    var confidence: Double?
    var evidence: EvidenceReport?
    var rejected: [CandidateReport]?
    var corrected: Bool
    var learned: Bool
    var parser: FieldReport?

    /// `learned`: the value a shop of the directory set, when one did (under any correction).
    init?<T>(shown: Field<T>?, parser: Field<T>?, learned: Field<T>? = nil, corrected: Bool, _ show: (T) -> String) {
        guard shown != nil || parser != nil || corrected else { return nil }
        let own = FieldReport(shown, explain: true, show)
        value = own?.value; confidence = own?.confidence; evidence = own?.evidence; rejected = own?.rejected
        self.corrected = corrected
        self.learned = learned != nil && !corrected
        self.parser = corrected || self.learned ? FieldReport(parser, explain: true, show) : nil
    }
}

/// One OCR look at the page, in `show --json` (`readings`).
struct ReadingReport: Encodable {
    var page: Int
    var kind: String
    var reason: String?
    var line: Int?
    var lineCount: Int
    var meanConfidence: Double
    var text: String?
    enum CodingKeys: String, CodingKey { case page, kind, reason, line, lineCount = "line_count", meanConfidence = "mean_confidence", text }

    static func all(_ r: OCRReading) -> [ReadingReport] {
        r.pages.enumerated().flatMap { (i, p) in
            [ReadingReport(page: i + 1, kind: "first", reason: nil, line: nil, lineCount: p.first.lines.count,
                           meanConfidence: round2(p.first.meanConfidence), text: nil)]
                + p.looks.map { l in
                    ReadingReport(page: i + 1, kind: l.kind.rawValue, reason: l.reason.isEmpty ? nil : l.reason, line: l.line.map { $0 + 1 },
                                  lineCount: l.page.lines.count, meanConfidence: round2(l.page.meanConfidence),
                                  text: l.kind == .lineReread ? l.page.text : nil)
                }
        }
    }
}

/// `receipts show --json`.
struct ShowReport: Encodable {
    var receiptID: Int64
    var status: String
    var parseStatus: String
    var files: [String]
    var contentHash: String
    var engine: String
    var parserVersion: String
    var processedAt: String
    var duplicateOf: Int64?
    var duplicateReason: String?
    var vendor, date, time, total, subtotal, tax, currency, receiptNumber, paymentMethod, cardLast4: ShownField?
    var lineItems: [LineItemReport]
    var lineItemsCorrected: Bool
    var checks: [String]
    var readings: [ReadingReport]
    var links: [LinkReport]
    var corrections: [CorrectionReport]
    var shopID: Int64?
    var shop: String?

    enum CodingKeys: String, CodingKey {
        case shopID = "shop_id", shop
        case receiptID = "receipt_id", status, parseStatus = "parse_status", files, contentHash = "content_hash", engine
        case parserVersion = "parser_version", processedAt = "processed_at", duplicateOf = "duplicate_of", duplicateReason = "duplicate_reason"
        case vendor, date, time, total, subtotal, tax, currency, receiptNumber = "receipt_number", paymentMethod = "payment_method"
        case cardLast4 = "card_last4", lineItems = "line_items", lineItemsCorrected = "line_items_corrected", checks, readings, links, corrections
    }

    init(_ d: ReceiptDetail) {
        let r = d.receipt, p = r.parsed, e = d.effective
        let corrected = Set(d.corrections.filter(\.isActive).map(\.field))
        receiptID = r.id.rawValue; status = d.state.rawValue; parseStatus = r.status.rawValue; files = r.sourcePaths
        contentHash = r.contentHash; engine = r.engineVersion; parserVersion = r.parserVersion; processedAt = r.processedAt
        duplicateOf = r.duplicateOf?.rawValue; duplicateReason = r.duplicateReason
        vendor = ShownField(shown: e.vendor, parser: p.vendor, learned: d.learned?.vendor, corrected: corrected.contains(.vendor)) { $0 }
        date = ShownField(shown: e.date, parser: p.date, learned: d.learned?.date, corrected: corrected.contains(.date)) { $0.iso }
        time = ShownField(shown: e.time, parser: p.time, corrected: corrected.contains(.time)) { $0.description }
        total = ShownField(shown: e.total, parser: p.total, learned: d.learned?.total, corrected: corrected.contains(.total)) { $0.description }
        subtotal = ShownField(shown: e.subtotal, parser: p.subtotal, corrected: corrected.contains(.subtotal)) { $0.description }
        tax = ShownField(shown: e.tax, parser: p.tax, corrected: corrected.contains(.tax)) { $0.description }
        currency = ShownField(shown: e.currency, parser: p.currency, corrected: corrected.contains(.currency)) { $0 }
        receiptNumber = ShownField(shown: e.receiptNumber, parser: p.receiptNumber, corrected: corrected.contains(.receiptNumber)) { $0 }
        paymentMethod = ShownField(shown: e.paymentMethod, parser: p.paymentMethod, corrected: corrected.contains(.paymentMethod)) { $0 }
        cardLast4 = ShownField(shown: e.cardLast4, parser: p.cardLast4, corrected: corrected.contains(.cardLast4)) { $0 }
        lineItems = e.lineItems.enumerated().map { LineItemReport($0.element, position: $0.offset) }
        lineItemsCorrected = corrected.contains(.lineItems)
        checks = p.checks.map(\.description)
        readings = d.reading.map(ReadingReport.all) ?? []
        let names = Dictionary(uniqueKeysWithValues: d.items.map { ($0.id, $0.item.name) })
        links = d.links.map { LinkReport($0, itemName: names[$0.itemID]) }
        corrections = d.corrections.map(CorrectionReport.init)
        shopID = d.shop?.id.rawValue; shop = d.shop?.name
    }
}

/// One line of `receipts items list --json`.
struct ItemReport: Encodable {
    var itemID: Int64
    var externalID: String?
    var source: String
    var name: String
    var brand, model, serial, category, room: String?
    var quantity: Int
    var price: String?
    var currency: String?
    var purchaseDate: String?
    var vendor: String?
    var notes: String?
    /// Its links (`items list`); nil inside a link.
    var links: [LinkReport]?

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", externalID = "external_id", source, name, brand, model, serial, category, room, quantity, price, currency
        case purchaseDate = "purchase_date", vendor, notes, links
    }

    init(_ s: StoredItem, links: [Link]?) {
        let i = s.item
        itemID = s.id.rawValue; externalID = i.externalID; source = i.source; name = i.name; brand = i.brand; model = i.model
        serial = i.serial; category = i.category; room = i.room; quantity = i.quantity; price = i.price?.description; currency = i.currency
        purchaseDate = i.purchaseDate?.iso; vendor = i.vendor; notes = i.notes; self.links = links.map { $0.map { LinkReport($0) } }
    }
}

/// `receipts store info --json`.
struct StoreInfoReport: Encodable {
    struct FailureEntry: Encodable {
        var file: String
        var contentHash: String?
        var code: String
        var message: String
        var failedAt: String
        enum CodingKeys: String, CodingKey { case file, contentHash = "content_hash", code, message, failedAt = "failed_at" }
    }
    var path: String
    var schemaVersion: Int
    var itemCount: Int
    var receiptCount: Int
    var needsReviewCount: Int
    var correctedCount: Int
    var duplicateCount: Int
    var lineItemCount: Int
    var failureCount: Int
    var linkCounts: [String: Int]
    var failures: [FailureEntry]
    var shopCount: Int
    var learnedReceiptCount: Int

    enum CodingKeys: String, CodingKey {
        case shopCount = "shop_count", learnedReceiptCount = "learned_receipt_count"
        case path, schemaVersion = "schema_version", itemCount = "item_count", receiptCount = "receipt_count"
        case needsReviewCount = "needs_review_count", correctedCount = "corrected_count", duplicateCount = "duplicate_count"
        case lineItemCount = "line_item_count", failureCount = "failure_count", linkCounts = "link_counts", failures
    }

    init(_ s: StoreStats, failures: [StoredFailure]) {
        path = s.path; schemaVersion = s.schemaVersion; itemCount = s.items; receiptCount = s.receipts; needsReviewCount = s.needsReview
        correctedCount = s.corrected; duplicateCount = s.duplicates; lineItemCount = s.lineItems; failureCount = s.failures; linkCounts = s.links
        shopCount = s.shops; learnedReceiptCount = s.learnedReceipts
        self.failures = failures.map { FailureEntry(file: $0.path, contentHash: $0.contentHash, code: $0.code, message: $0.message, failedAt: $0.failedAt) }
    }
}
