import Foundation
import ReceiptModel

/// A vendor a user knows, with the other ways receipts print it.
public struct KnownVendor: Sendable, Hashable, Codable {
    public var name: String
    public var aliases: [String]
    public init(name: String, aliases: [String] = []) { self.name = name; self.aliases = aliases }

    /// A vendors file: `Name | alias | alias` per line; `#` starts a comment.
    public static func list(fromText text: String) -> [KnownVendor] {
        text.split(whereSeparator: \.isNewline).compactMap { raw in
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let parts = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard let name = parts.first else { return nil }
            return KnownVendor(name: name, aliases: Array(parts.dropFirst()))
        }
    }
}

public struct ParserOptions: Sendable, Hashable {
    public var rules: ParserRules = .builtIn
    /// How to read ambiguous all-digit dates (03/04/2024).
    public var dateOrder: DateOrder = .auto
    /// Dates after this day are rejected as implausible (default: tomorrow).
    public var latestDate: CalendarDate? = nil
    /// Dates before this year are rejected unless lowered.
    public var earliestYear: Int = 2000
    /// Matched fuzzily against the top of the receipt before the generic vendor rules.
    public var knownVendors: [KnownVendor] = []
    /// Currency to assume when the receipt shows none (ISO code), e.g. from a locale.
    public var defaultCurrency: String? = nil

    public init() {}
}

/// Turns an `OCRPage` into a `ParsedReceipt`. Pure Swift: no OCR engine needed.
///
/// Each field has its own file: `VendorField.swift`, `DateField.swift`, `TimeField.swift`,
/// `CurrencyField.swift`, `MoneyFields.swift` (subtotal, tax and the lines they are read from),
/// `TotalField.swift`, `LineItemsField.swift`, `ReceiptNumberField.swift`, `PaymentField.swift`.
/// The words they match are in the rules (`BuiltInRules.json`, compiled by `CompiledRules`).
public struct ReceiptParser: Sendable {
    public static let version = "0.1.0"
    public var options: ParserOptions
    let compiled: CompiledRules

    public init(options: ParserOptions = ParserOptions()) {
        self.options = options
        compiled = CompiledRules(options.rules)
    }

    public func parse(_ page: OCRPage) -> ParsedReceipt {
        let (lines, currency) = read(page)
        var receipt = ParsedReceipt(parserVersion: Self.version)
        receipt.currency = currency
        receipt.date = date(lines, currency: receipt.currency?.value)
        receipt.time = time(lines, dateLine: receipt.date?.evidence.line)
        receipt.vendor = vendor(lines)
        let money = MoneyFields(lines: lines, rules: compiled)
        receipt.subtotal = money.subtotal
        receipt.tax = money.tax
        receipt.lineItems = lineItems(lines, before: money.firstSummaryLine)
        let (total, checks) = money.total(lineItems: receipt.lineItems)
        receipt.total = total
        receipt.checks = checks
        receipt.receiptNumber = receiptNumber(lines)
        (receipt.paymentMethod, receipt.cardLast4) = payment(lines)
        receipt.warnings = money.warnings.isEmpty ? nil : money.warnings
        return receipt
    }

    /// The page's rows as the parser reads them, and its currency.
    func read(_ page: OCRPage) -> (lines: [ParseLine], currency: Field<String>?) {
        let rows = RowBuilder.rows(page)
        let lines = rows.enumerated().map { ParseLine(index: $0.offset, source: $0.element.source, line: $0.element.line, rules: compiled) }
        // Currency symbols are counted line by line as read: a row of "Amt (RM)" "Tax (RM)" shows RM twice.
        let merged = rows.count != page.lines.count
        return (lines, currency(merged ? page.lines.enumerated().map { ParseLine(index: $0.offset, line: $0.element, rules: compiled, scanAmounts: false) } : lines))
    }

    /// Convenience for plain text (one receipt line per text line).
    public func parse(text: String) -> ParsedReceipt { parse(OCRPage(text: text)) }
}

/// One OCR line with what the parser computes once per line.
struct ParseLine {
    /// Position among the rows the parser reads (top to bottom).
    let index: Int
    /// Index in `OCRPage.lines` of the (first) source line, for evidence.
    let source: Int
    let text: String
    let words: WordLine
    let amounts: [FoundAmount]
    let box: BoundingBox?
    let confidence: Double
    /// The words as read, with their boxes and confidences (the vendor rules trim scraps by them).
    let ocrWords: [OCRWord]

    init(index: Int, source: Int? = nil, line: OCRLine, rules: CompiledRules, scanAmounts: Bool = true) {
        self.index = index
        self.source = source ?? index
        text = line.text
        words = WordLine(text)
        amounts = scanAmounts ? AmountScanner.scan(text, currencyWords: rules.currencyWords) : []
        box = line.box
        confidence = line.confidence
        ocrWords = line.words
    }

    func evidence(rule: String, notes: [Note] = []) -> Evidence {
        Evidence(line: source, text: text, box: box, rule: rule, notes: notes)
    }
}
