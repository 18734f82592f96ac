import Foundation
import ReceiptModel
import ReceiptParser
import ReceiptPipeline
import ReceiptSupport

/// JSON shapes of `receipts parse --json` (one object per line). Keys are stable:
/// scripts and the regression suite read them. Separate from the domain model.
struct EvidenceReport: Encodable {
    var line: Int?
    var text: String?
    var box: BoundingBox?
    var rule: String
    var notes: [String]?
    /// The file's page (1-based), in a file of several pages.
    var page: Int?

    init(_ e: Evidence) {
        line = e.line.map { $0 + 1 }  // 1-based, as a person counts lines
        text = e.text; box = e.box; rule = e.rule; notes = e.notes.isEmpty ? nil : e.notes.map(\.description); page = e.page
    }
}

struct CandidateReport: Encodable {
    var value: String
    var score: Double
    var evidence: EvidenceReport
}

struct FieldReport: Encodable {
    var value: String
    var confidence: Double
    var evidence: EvidenceReport
    var rejected: [CandidateReport]?

    init?<T>(_ f: Field<T>?, explain: Bool = true, _ show: (T) -> String) {
        guard let f else { return nil }
        value = show(f.value)
        confidence = round2(f.confidence)
        evidence = EvidenceReport(f.evidence)
        rejected = explain && !f.rejected.isEmpty
            ? f.rejected.map { CandidateReport(value: $0.value, score: round2($0.score), evidence: EvidenceReport($0.evidence)) } : nil
    }
}

struct LineItemReport: Encodable {
    /// 1-based position among the receipt's line items.
    var lineItem: Int
    var description: String
    /// A number (quantities are not money).
    var quantity: Decimal?
    var unitPrice: String?
    var amount: String
    /// What a discount or void printed under it takes off.
    var discount: String?
    /// What is printed under it without a price ("No Green Pepper", "+ Relish").
    var details: [String]?
    /// The serial numbers printed under it ("S/N: VT55-0098123"), without their label.
    var serials: [String]?
    /// The OCR line it was read from (1-based).
    var line: Int?
    enum CodingKeys: String, CodingKey { case lineItem = "line_item", description, quantity, unitPrice = "unit_price", amount, discount, details, serials, line }

    init(_ l: LineItem, position: Int) {
        lineItem = position + 1; description = l.description; quantity = l.quantity; unitPrice = l.unitPrice?.description
        amount = l.amount.description; discount = l.discount?.description; details = l.details; serials = l.serials; line = l.evidence.line.map { $0 + 1 }
    }
}

/// One OCR look as reports print it: the pipeline's `OCRPass`, its seconds only when timings are asked for.
struct OCRPassReport: Encodable {
    var name: String
    var reason: String
    var meanConfidence: Double
    var seconds: Double?
    enum CodingKeys: String, CodingKey { case name, reason, meanConfidence = "mean_confidence", seconds }
}

struct OCRReport: Encodable {
    var passes: [OCRPassReport]
    var meanConfidence: Double
    var imageSteps: [String]
    var lineCount: Int
    var engine: String
    /// Pages in the file, all read.
    var pageCount: Int
    /// Where the text came from: "ocr", "text-layer" (a PDF's own text: no OCR ran, `passes`
    /// is empty) or "text-layer+ocr" (a PDF with both kinds of page).
    var source: String
    enum CodingKeys: String, CodingKey { case passes, meanConfidence = "mean_confidence", imageSteps = "image_steps", lineCount = "line_count", engine, pageCount = "page_count", source }
}

struct ReceiptReport: Encodable {
    var file: String
    /// `batch --jsonl`: the receipt's id in the store and the status it was stored under.
    var receiptID: Int64?
    var status: String?
    var vendor: FieldReport?
    var date: FieldReport?
    var total: FieldReport?
    var currency: FieldReport?
    var time: FieldReport?
    var subtotal: FieldReport?
    var tax: FieldReport?
    var receiptNumber: FieldReport?
    var paymentMethod: FieldReport?
    var cardLast4: FieldReport?
    var lineItems: [LineItemReport]?
    var checks: [String]?
    var needsReview: Bool?
    var reviewReason: String?
    var ocr: OCRReport?
    var seconds: Double?
    var error: FailureReport?
    var text: String?

    enum CodingKeys: String, CodingKey {
        case file, receiptID = "receipt_id", status, vendor, date, total, currency, time, subtotal, tax
        case receiptNumber = "receipt_number", paymentMethod = "payment_method", cardLast4 = "card_last4"
        case lineItems = "line_items", checks, needsReview = "needs_review", reviewReason = "review_reason", ocr, seconds, error, text
    }

    init(file: String, error: FailureReport) {
        self.file = file; self.error = error
    }

    init(file: String, receipt r: ParsedReceipt, explain: Bool) {
        self.file = file
        vendor = FieldReport(r.vendor, explain: explain) { $0 }
        date = FieldReport(r.date, explain: explain) { $0.iso }
        total = FieldReport(r.total, explain: explain) { $0.description }
        currency = FieldReport(r.currency, explain: explain) { $0 }
        time = FieldReport(r.time, explain: explain) { $0.description }
        subtotal = FieldReport(r.subtotal, explain: explain) { $0.description }
        tax = FieldReport(r.tax, explain: explain) { $0.description }
        receiptNumber = FieldReport(r.receiptNumber, explain: explain) { $0 }
        paymentMethod = FieldReport(r.paymentMethod, explain: explain) { $0 }
        cardLast4 = FieldReport(r.cardLast4, explain: explain) { $0 }
        lineItems = r.lineItems.isEmpty ? nil : r.lineItems.enumerated().map { LineItemReport($0.element, position: $0.offset) }
        checks = r.checks.isEmpty ? nil : r.checks.map(\.description)
        reviewReason = ReviewPolicy.reason(r)
        needsReview = reviewReason != nil
    }

    /// `timings`: the seconds each look and the whole image took. They differ from run to run, so
    /// `parse --json` leaves them out unless asked (`--timings`): the same file gives the same bytes.
    init(result: ReceiptResult, engine: String, explain: Bool, includeText: Bool, timings: Bool) {
        self.init(file: result.file, receipt: result.shown, explain: explain)
        ocr = OCRReport(passes: result.passes.map { OCRPassReport(name: $0.name, reason: $0.reason, meanConfidence: round2($0.meanConfidence), seconds: timings ? round2($0.seconds) : nil) },
                        meanConfidence: round2(result.page.meanConfidence), imageSteps: result.imageSteps,
                        lineCount: result.page.lines.count, engine: result.textLayerPages == result.pageCount ? "none" : engine,
                        pageCount: result.pageCount,
                        source: result.textLayerPages == 0 ? "ocr" : result.textLayerPages == result.pageCount ? "text-layer" : "text-layer+ocr")
        seconds = timings ? round2(result.seconds) : nil
        if includeText { text = result.page.text }
    }
}

/// When a parsed receipt should be looked at by a person.
func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

enum JSONLine {
    static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? enc.encode(value), let s = String(data: data, encoding: .utf8) else { return "{}" }
        // A file name's non-UTF-8 bytes as `\\xE9` inside the JSON string (valid JSON, readable, reversible).
        return PathBytes.displayable(s, prefix: "\\\\x")
    }
}
