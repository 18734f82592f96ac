import Foundation

/// Where an extracted value came from and why it was chosen.
public struct Evidence: Sendable, Hashable, Codable {
    /// Index of the source line in `OCRPage.lines`, when it came from one line.
    public var line: Int?
    /// The text of that line as read.
    public var text: String?
    public var box: BoundingBox?
    /// The rule that produced it, e.g. `total.keyword` or `date.numeric.dmy`.
    public var rule: String
    /// Extra reasons, e.g. `.sum(…)`, shown as "subtotal 53.85 + tax 4.32 = 58.17".
    public var notes: [Note]
    /// The page of the file (1-based) the line is on, in a file of several pages; nil for one page.
    public var page: Int?

    public init(line: Int? = nil, text: String? = nil, box: BoundingBox? = nil, rule: String, notes: [Note] = [], page: Int? = nil) {
        self.line = line; self.text = text; self.box = box; self.rule = rule; self.notes = notes; self.page = page
    }

    /// The same evidence naming the page its box lies on, given where each page starts
    /// (`OCRReading.pageStarts`: y in the joined page); unchanged for one page or no box.
    public func onPage(starts: [Int]) -> Evidence {
        guard starts.count > 1, let box else { return self }
        var e = self
        let middle = box.y + box.height / 2
        e.page = (starts.lastIndex { $0 <= middle } ?? 0) + 1
        return e
    }
}

/// A value the parser considered, kept for `--explain`.
public struct Candidate: Sendable, Hashable, Codable {
    public var value: String
    public var score: Double
    public var evidence: Evidence

    public init(value: String, score: Double, evidence: Evidence) {
        self.value = value; self.score = score; self.evidence = evidence
    }
}

/// An extracted value with its confidence (0...1) and evidence.
public struct Field<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    public var value: Value
    public var confidence: Double
    public var evidence: Evidence
    /// The candidates that lost, best first.
    public var rejected: [Candidate]

    public init(_ value: Value, confidence: Double, evidence: Evidence, rejected: [Candidate] = []) {
        self.value = value; self.confidence = min(1, max(0, confidence)); self.evidence = evidence; self.rejected = rejected
    }

    public func map<T>(_ f: (Value) -> T) -> Field<T> {
        Field<T>(f(value), confidence: confidence, evidence: evidence, rejected: rejected)
    }
}

/// One line of what was bought, as the receipt prints it: a name, the quantity and unit price where
/// printed, the amount; a discount or void printed under it attached to it.
public struct LineItem: Sendable, Hashable, Codable {
    public var description: String
    public var quantity: Decimal?
    public var unitPrice: Amount?
    /// As printed on the item's line (before any discount).
    public var amount: Amount
    /// What discounts and voids printed under the item take off it (positive; the whole amount when voided).
    public var discount: Amount?
    /// What the receipt prints under the item without a price of its own, as printed: the choices and changes a
    /// kitchen or bar till lists under a dish ("+ Relish", "No Green Pepper", "-- Fries", "with Prawn &"). Nil when none.
    public var details: [String]?
    /// The serial numbers (or IMEIs) printed under the item, as printed without their label ("S/N: VT55-0098123" gives
    /// "VT55-0098123"): one a unit sold. Nil when none. The reconciler links an inventory item with the same serial.
    public var serials: [String]?
    public var evidence: Evidence

    public init(description: String, quantity: Decimal? = nil, unitPrice: Amount? = nil, amount: Amount, discount: Amount? = nil,
                details: [String]? = nil, serials: [String]? = nil, evidence: Evidence) {
        self.description = description; self.quantity = quantity; self.unitPrice = unitPrice; self.amount = amount; self.discount = discount
        self.details = details; self.serials = serials; self.evidence = evidence
    }

    /// What the item cost: its amount less what was taken off it.
    public var net: Amount { amount - (discount ?? Amount(0)) }
}

/// A time of day as printed (24-hour).
public struct TimeOfDay: Sendable, Hashable, Codable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    public var second: Int?

    public init?(hour: Int, minute: Int, second: Int? = nil) {
        guard (0...23).contains(hour), (0...59).contains(minute), (second ?? 0) >= 0, (second ?? 0) <= 59 else { return nil }
        self.hour = hour; self.minute = minute; self.second = second
    }

    public var description: String {
        func p(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return second.map { "\(p(hour)):\(p(minute)):\(p($0))" } ?? "\(p(hour)):\(p(minute))"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        let p = s.split(separator: ":").compactMap { Int($0) }
        guard p.count >= 2, let t = TimeOfDay(hour: p[0], minute: p[1], second: p.count > 2 ? p[2] : nil) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a time: \(s)")
        }
        self = t
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// Everything the parser extracted from one receipt.
public struct ParsedReceipt: Sendable, Hashable, Codable {
    public var vendor: Field<String>?
    public var date: Field<CalendarDate>?
    public var time: Field<TimeOfDay>?
    public var total: Field<Amount>?
    public var subtotal: Field<Amount>?
    public var tax: Field<Amount>?
    /// ISO 4217 code, e.g. "USD", "EUR", "MYR".
    public var currency: Field<String>?
    public var receiptNumber: Field<String>?
    /// "cash", "card", …
    public var paymentMethod: Field<String>?
    public var cardLast4: Field<String>?
    public var lineItems: [LineItem]
    /// Checks the parser ran and their outcome, e.g. `.subtotalTaxMismatch` ("subtotal + tax ≠ total").
    public var checks: [Check]
    /// The parser's version: a stored receipt parsed by an older one can be re-parsed.
    public var parserVersion: String
    /// What the parser left out and why (a cap on an enormous input: "only the first … lines read");
    /// nil when it read everything.
    public var warnings: [String]?

    /// This receipt with a warning for each page of `reading` whose image was not all decoded (`Page.lostRows`): part
    /// of the receipt may not have been read at all.
    public func warningOfLostRows(in reading: OCRReading) -> ParsedReceipt {
        let lost = reading.pages.enumerated().compactMap { i, p in
            p.lostRows.map { "the image is incomplete\(reading.pages.count > 1 ? " (page \(i + 1))" : ""): \($0)" }
        }
        guard !lost.isEmpty else { return self }
        var r = self
        r.warnings = (warnings ?? []) + lost.filter { !(warnings ?? []).contains($0) }
        return r
    }

    /// Every field's evidence (and its losing candidates') naming its page, given where each
    /// page starts in the joined page the parser read (`OCRReading.pageStarts`).
    public func namingPages(starts: [Int]) -> ParsedReceipt {
        guard starts.count > 1 else { return self }
        func name<T>(_ f: Field<T>?) -> Field<T>? {
            guard var f else { return nil }
            f.evidence = f.evidence.onPage(starts: starts)
            f.rejected = f.rejected.map { var c = $0; c.evidence = c.evidence.onPage(starts: starts); return c }
            return f
        }
        var r = self
        r.vendor = name(vendor); r.date = name(date); r.time = name(time); r.total = name(total)
        r.subtotal = name(subtotal); r.tax = name(tax); r.currency = name(currency); r.receiptNumber = name(receiptNumber)
        r.paymentMethod = name(paymentMethod); r.cardLast4 = name(cardLast4)
        r.lineItems = lineItems.map { var i = $0; i.evidence = i.evidence.onPage(starts: starts); return i }
        return r
    }

    public init(vendor: Field<String>? = nil, date: Field<CalendarDate>? = nil, time: Field<TimeOfDay>? = nil,
                total: Field<Amount>? = nil, subtotal: Field<Amount>? = nil, tax: Field<Amount>? = nil,
                currency: Field<String>? = nil, receiptNumber: Field<String>? = nil,
                paymentMethod: Field<String>? = nil, cardLast4: Field<String>? = nil,
                lineItems: [LineItem] = [], checks: [Check] = [], parserVersion: String = "") {
        self.vendor = vendor; self.date = date; self.time = time; self.total = total
        self.subtotal = subtotal; self.tax = tax; self.currency = currency; self.receiptNumber = receiptNumber
        self.paymentMethod = paymentMethod; self.cardLast4 = cardLast4; self.lineItems = lineItems
        self.checks = checks; self.parserVersion = parserVersion
    }
}
