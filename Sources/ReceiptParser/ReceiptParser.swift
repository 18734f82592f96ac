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
        let (date, dayLines) = date(lines, currency: receipt.currency?.value)
        receipt.date = date
        receipt.time = time(lines, dayLines: dayLines)
        receipt.vendor = vendor(lines)
        let money = MoneyFields(lines: lines, rules: compiled)
        let items = lineItems(lines)
        let (total, checks, row, trusted) = money.total(lineItems: items)
        receipt.total = total
        let settled = money.settle(total: total, totalRow: row, checks: checks, lineItems: items)
        receipt.subtotal = settled.subtotal
        receipt.tax = settled.tax
        // Items stop above the rows the subtotal, tax and total were read on (a subtotal found by its sum, its word misread).
        let rowOf = RowOfSource(lines.lazy.map { ($0.source, $0.index) })
        let firstItemRow = items.first.flatMap { $0.evidence.line.flatMap { rowOf[$0] } } ?? 0
        // A total that is only the largest amount on the receipt may be an item's: it ends the items when the
        // items above it (two at least) add up to it, or to it less a tax or tip of up to a third.
        let read = total.flatMap { t -> Field<Amount>? in
            guard t.evidence.notes.contains(where: \.isLargestAmount) else { return trusted ? t : nil }
            guard let row = t.evidence.line.flatMap({ rowOf[$0] }) else { return nil }
            let before = items.filter { ($0.evidence.line.flatMap { rowOf[$0] } ?? 0) < row }
            let sum = before.reduce(Amount(0)) { $0 + $1.net }
            return before.count >= 2 && sum.value > 0 && sum <= t.value && t.value <= sum * Ratio.r1_35 ? t : nil
        }
        let stop = [settled.subtotal, settled.tax, read].compactMap { $0?.evidence.line.flatMap { rowOf[$0] } }.filter { $0 > firstItemRow }.min()
        let above = stop.map { s in items.filter { ($0.evidence.line.flatMap { rowOf[$0] } ?? 0) < s } } ?? items
        let (kept, itemsCheck) = Self.checkedItems(above, subtotal: settled.subtotal?.value, tax: settled.tax?.value, total: read?.value)
        receipt.lineItems = kept
        receipt.checks = settled.checks + (itemsCheck.map { [$0] } ?? [])
        receipt.receiptNumber = receiptNumber(lines)
        (receipt.paymentMethod, receipt.cardLast4) = payment(lines)
        receipt.warnings = money.warnings.isEmpty ? nil : money.warnings
        return receipt
    }

    /// The page's rows as the parser reads them, and its currency.
    /// `passingOver`: as `currency(pageLines:)` takes it (false only in its test).
    func read(_ page: OCRPage, passingOver: Bool = true) -> (lines: [ParseLine], currency: Field<String>?) {
        let rows = RowBuilder.rows(page)
        var lines = rows.enumerated().map { ParseLine(index: $0.offset, source: $0.element.source, line: $0.element.line, rules: compiled) }
        if Self.pricesInWholeUnits(lines, currencyWords: compiled.currencyWords) {
            lines = rows.enumerated().map {
                ParseLine(index: $0.offset, source: $0.element.source, line: $0.element.line, rules: compiled, wholeUnits: true)
            }
        }
        // Currency symbols are counted line by line as read: a row of "Amt (RM)" "Tax (RM)" shows RM twice.
        let merged = rows.count != page.lines.count
        guard merged else { return (lines, currency(lines)) }
        // A row of one line is that line as read (the same text, box and place): its row's line stands for it.
        var rowOf = [Int?](repeating: nil, count: page.lines.count)
        // (And the row each line is in: every line is in one.) (The rows read in place: a row taken whole was a copy.)
        var inRow = [Int](repeating: 0, count: page.lines.count)
        for r in rows.indices {
            let source = rows[r].source
            inRow[source] = r
            if rows[r].others.isEmpty { rowOf[source] = r } else { for m in rows[r].others { inRow[m] = r } }
        }
        return (lines, currency(pageLines: page.lines, rows: lines, rowOf: rowOf, inRow: inRow, passingOver: passingOver))
    }

    /// The receipt prices in a currency without cents (rupiah, dong, won, yen): no amount with cents on it, and three
    /// or more grouped in thousands ("24,000", "134.999"). Then those are read as amounts. (Checked on the three dev
    /// and training sets' readings: three photos of 236 qualify, priced in rupiah; no scan does.)
    static func pricesInWholeUnits(_ lines: [ParseLine], currencyWords: Set<String>) -> Bool {
        guard lines.allSatisfy({ $0.amounts.isEmpty }) else { return false }
        var grouped = 0
        for l in lines where l.text.utf8.contains(UInt8(ascii: ",")) || l.text.utf8.contains(UInt8(ascii: ".")) {
            grouped += AmountScanner.wholeAmounts(l.text, currencyWords: currencyWords).count
            if grouped >= 3 { return true }
        }
        return false
    }

    /// Convenience for plain text (one receipt line per text line).
    public func parse(text: String) -> ParsedReceipt { parse(OCRPage(text: text)) }
}

/// One OCR line with what the parser computes once per line. A class, not a struct: lines are handed
/// around (kept by every candidate, iterated by every field) and never change once read.
/// The row made first from each source line: `Dictionary(pairs, uniquingKeysWith: { a, _ in a })` of (source, row)
/// pairs, kept in an array by the source line when every source is one of the page's (0 up to a few times the pairs'
/// count), a Dictionary otherwise. (The Dictionary's hashing, some 5,000 instructions a parse, for a handful of
/// lookups; `HandScannerTests` holds the two together.)
struct RowOfSource {
    /// rows[s]: the row of source line s, -1 for none.
    private var rows: [Int] = []
    private var other: [Int: Int]?

    init<S: Sequence<(Int, Int)>>(_ pairs: S) {
        var top = -1, count = 0
        for (s, _) in pairs {
            count += 1
            guard s >= 0, s <= 4 * count + 64 else { top = Int.max; break }
            top = Swift.max(top, s)
        }
        guard top < Int.max else {
            other = Dictionary(pairs.map { $0 }, uniquingKeysWith: { a, _ in a })
            return
        }
        rows = [Int](repeating: -1, count: top + 1)
        var negative = false
        for (s, r) in pairs {
            // (A row below 0 would read as none here: kept by the Dictionary then.)
            guard r >= 0 else { negative = true; break }
            if rows[s] < 0 { rows[s] = r }
        }
        if negative {
            rows = []
            other = Dictionary(pairs.map { $0 }, uniquingKeysWith: { a, _ in a })
        }
    }

    subscript(_ source: Int) -> Int? {
        if let other { return other[source] }
        guard source >= 0, source < rows.count, rows[source] >= 0 else { return nil }
        return rows[source]
    }
}

final class ParseLine {
    /// Position among the rows the parser reads (top to bottom).
    let index: Int
    /// Index in `OCRPage.lines` of the (first) source line, for evidence.
    let source: Int
    let text: String
    /// Made with the line: every row the fields read asks for it (a lazy one was a call, a check and a retain at each of
    /// some 430 asks a receipt).
    let words: WordLine
    let amounts: [FoundAmount]
    /// The dates on the line (`DateScanner.scan`), read once: the date, the items' end and the vendor's header ask.
    let dates: [RawDate]
    let box: BoundingBox?
    let confidence: Double
    /// The words as read, with their boxes and confidences (the vendor rules trim scraps by them).
    let ocrWords: [OCRWord]

    private init(index: Int, source: Int, text: String, amounts: [FoundAmount], dates: [RawDate], line: OCRLine) {
        self.index = index
        self.source = source
        self.text = text
        words = WordLine(text)
        self.amounts = amounts
        self.dates = dates
        box = line.box
        confidence = line.confidence
        ocrWords = line.words
    }

    // (`borrowing`: an initializer takes its arguments owned, and a copy of the rules retains every table in them, once a line.)
    convenience init(index: Int, source: Int? = nil, line: OCRLine, rules: borrowing CompiledRules, scanAmounts: Bool = true, wholeUnits: Bool = false) {
        let text = Self.ungluingCurrency(line.text, rules.currencyWordBytes)
        // (On a receipt in whole units no line holds an amount with cents: `pricesInWholeUnits` asked that first.)
        let amounts = !scanAmounts ? [] : wholeUnits ? AmountScanner.wholeAmounts(text, currencyWords: rules.currencyWords)
                                                     : AmountScanner.scan(text, currencyWords: rules.currencyWords)
        let dates = scanAmounts ? DateScanner.scan(text, months: rules.months, monthWords: rules.monthWords) : []
        self.init(index: index, source: source ?? index, text: text, amounts: amounts, dates: dates, line: line)
    }

    /// The line `init(index:line:rules:scanAmounts: false)` makes, its `text` (`ungluingCurrency` of the line's) made already.
    convenience init(index: Int, line: OCRLine, text: String) {
        self.init(index: index, source: index, text: text, amounts: [], dates: [], line: line)
    }

    func evidence(rule: String, notes: [Note] = []) -> Evidence {
        Evidence(line: source, text: text, box: box, rule: rule, notes: notes)
    }

    /// `text.prefix(n)` (the first `n` characters, as an amount's `position` counts them): on printable ASCII the first
    /// `n` bytes, a character a byte, without walking the characters (an item's name before its price asked it of
    /// every priced row, some 900 instructions each).
    func textPrefix(_ n: Int) -> Substring {
        if let end = Bytes.onPrintable(text, { min(n, $0.count) }) {
            let u = text.utf8
            return text[..<u.index(u.startIndex, offsetBy: end)]
        }
        return text.prefix(n)
    }

    /// "Grand TotalRM22.50" as "Grand Total RM22.50": a currency word OCR ran into the word before it and the
    /// amount after it (three letters of word at least before it), so the keyword and the amount are both read.
    /// Only where an amount with two decimals follows ("TikkaM410", "Snacks150g" are words). Lines without
    /// one are returned as they are, without a copy (bytes compared in place: every line is asked).
    static func ungluingCurrency(_ line: String, _ currencyWords: [[UInt8]]) -> String {
        var s = line
        var cuts: [Int] = []
        s.withUTF8 { b in
            guard b.count >= 8 else { return }
            for i in 4..<(b.count - 3) where Bytes.isDigit(b[i]) && Bytes.isLetter(b[i - 1]) {
                // An amount: digits, a point or comma, two digits, no third.
                var k = i
                while k < b.count, Bytes.isDigit(b[k]) { k += 1 }
                guard k + 2 < b.count, b[k] == UInt8(ascii: ".") || b[k] == UInt8(ascii: ","), Bytes.isDigit(b[k + 1]), Bytes.isDigit(b[k + 2]),
                      k + 3 == b.count || !Bytes.isDigit(b[k + 3]) else { continue }
                var j = i - 1
                while j > 0, Bytes.isLetter(b[j - 1]) { j -= 1 }
                for c in currencyWords where i - j >= c.count + 3 {
                    if c.indices.allSatisfy({ b[i - c.count + $0] | 0x20 == c[$0] }) { cuts.append(i - c.count); break }
                }
            }
        }
        return inserting(0x20, before: cuts, in: line)
    }
}
