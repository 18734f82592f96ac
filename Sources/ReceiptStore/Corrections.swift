import Foundation
import ReceiptModel

/// A field of a receipt the user can correct; the raw value is its name everywhere
/// (`edit --undo FIELD`, the JSON, the store).
public enum CorrectableField: String, CaseIterable, Sendable, Codable, Comparable {
    case vendor, date, time, total, subtotal, tax, currency
    case receiptNumber = "receipt_number", paymentMethod = "payment_method", cardLast4 = "card_last4"
    case lineItems = "line_items"

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }

    /// The user's text turned into the value's canonical text (a decimal string, an ISO date,
    /// HH:MM, an upper-case currency code, four digits; line items as JSON), or why it cannot be.
    public func normalize(_ text: String) throws -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        func bad(_ what: String) -> StoreError { StoreError(.invalid, "'\(text)' is not \(what)", context: rawValue) }
        switch self {
        case .vendor, .receiptNumber, .paymentMethod:
            guard !t.isEmpty else { throw bad("a value (use --clear \(rawValue) to remove it)") }
            return t
        case .date:
            guard let d = CalendarDate(iso: t) else { throw bad("a date (YYYY-MM-DD)") }
            return d.iso
        case .time:
            let p = t.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard (2...3).contains(p.count), p.allSatisfy({ $0 != nil }),
                  let v = TimeOfDay(hour: p[0]!, minute: p[1]!, second: p.count > 2 ? p[2] : nil) else { throw bad("a time (HH:MM)") }
            return v.description
        case .total, .subtotal, .tax:
            guard let a = CorrectableField.amount(t) else { throw bad("an amount (e.g. 12.30)") }
            return a.description
        case .currency:
            guard t.count == 3, t.allSatisfy({ $0.isASCII && $0.isLetter }) else { throw bad("a currency code (ISO 4217, e.g. EUR)") }
            return t.uppercased()
        case .cardLast4:
            guard t.count == 4, t.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw bad("the card's last four digits") }
            return t
        case .lineItems:
            let lines = try CorrectedLine.decode(t)
            return try CorrectedLine.encode(lines)
        }
    }

    /// A plain decimal amount: digits, one '.', at most two decimals, not negative.
    public static func amount(_ s: String) -> Amount? {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), s.filter({ $0 == "." }).count <= 1,
              (s.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0) <= 2,
              s.first != "." else { return nil }
        return Amount(s)
    }
}

/// A line item as the user gives it (`edit --line "DESCRIPTION=AMOUNT"`).
public struct CorrectedLine: Sendable, Hashable, Codable {
    public var description: String
    public var amount: String
    public init(description: String, amount: String) { self.description = description; self.amount = amount }

    /// "DESCRIPTION=AMOUNT" (split at the last '=').
    public static func parse(_ s: String) throws -> CorrectedLine {
        guard let eq = s.lastIndex(of: "="), case let d = s[..<eq].trimmingCharacters(in: .whitespaces), !d.isEmpty,
              let a = CorrectableField.amount(s[s.index(after: eq)...].trimmingCharacters(in: .whitespaces)) else {
            throw StoreError(.invalid, "'\(s)' is not DESCRIPTION=AMOUNT (e.g. \"Claw hammer=14.99\")", context: "line_items")
        }
        return CorrectedLine(description: d, amount: a.description)
    }

    static func decode(_ json: String) throws -> [CorrectedLine] {
        do { return try JSONDecoder().decode([CorrectedLine].self, from: Data(json.utf8)) } catch {
            throw StoreError(.invalid, "not a JSON list of {\"description\", \"amount\"}", context: "line_items")
        }
    }

    public static func encode(_ lines: [CorrectedLine]) throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(lines), as: UTF8.self)
    }
}

/// One change the user asks for: a field set to a value (canonical text, see
/// `CorrectableField.normalize`), or cleared (`value` nil).
public struct FieldChange: Sendable, Hashable {
    public var field: CorrectableField
    public var value: String?
    public init(field: CorrectableField, value: String?) { self.field = field; self.value = value }

    /// A change from the user's text, checked and normalized.
    public static func set(_ field: CorrectableField, _ text: String) throws -> FieldChange {
        FieldChange(field: field, value: try field.normalize(text))
    }

    /// The fields a user accepting a receipt confirms (`review`'s accept): its vendor, date and total
    /// as shown, each one that has a value and no correction in `corrected`.
    public static func accepting(_ shown: ParsedReceipt, corrected: Set<CorrectableField>) -> [FieldChange] {
        [CorrectableField.vendor, .date, .total].compactMap { f in
            guard !corrected.contains(f), let v = shown.text(of: f) else { return nil }
            return FieldChange(field: f, value: v)
        }
    }
}

/// A correction as recorded: never deleted, only marked undone, so the store keeps the
/// whole history of a receipt's corrections.
public struct Correction: Sendable, Hashable {
    public var id: Int64
    public var receiptID: ReceiptID
    public var field: CorrectableField
    /// The user's value in canonical text; nil when the user cleared the field.
    public var value: String?
    /// What the field showed before (the parser's value or an earlier correction).
    public var previous: String?
    public var by: String
    public var at: String
    public var undoneBy: String?
    public var undoneAt: String?

    public init(id: Int64, receiptID: ReceiptID, field: CorrectableField, value: String?, previous: String?, by: String, at: String,
                undoneBy: String? = nil, undoneAt: String? = nil) {
        self.id = id; self.receiptID = receiptID; self.field = field; self.value = value; self.previous = previous
        self.by = by; self.at = at; self.undoneBy = undoneBy; self.undoneAt = undoneAt
    }

    public var isActive: Bool { undoneAt == nil }
}

/// Where a receipt stands for the user: the first that applies of duplicate (another copy
/// of a stored receipt), corrected (the user corrected a field: it has been looked at),
/// needs review (the parser was unsure), parsed.
public enum ReceiptState: String, Sendable, Codable, CaseIterable {
    case parsed
    case needsReview = "needs_review"
    case corrected
    case duplicate

    /// `--status` spelling: needs-review (needs_review is accepted too).
    public init?(argument: String) {
        switch argument.lowercased() {
        case "needs-review", "needs_review", "review": self = .needsReview
        case let s: self.init(rawValue: s)
        }
    }

    public var argument: String { self == .needsReview ? "needs-review" : rawValue }
}

extension ParsedReceipt {
    /// The receipt as the user sees it: the parser's reading with each active correction in
    /// place (the latest per field), confidence 1, rule `user`.
    public func applying(_ corrections: [Correction]) -> ParsedReceipt {
        var r = self
        for c in corrections.filter(\.isActive).sorted(by: { $0.id < $1.id }) {
            let ev = Evidence(rule: "user")
            func field<T>(_ v: T?) -> Field<T>? { v.map { Field($0, confidence: 1, evidence: ev) } }
            let v = c.value
            switch c.field {
            case .vendor: r.vendor = field(v)
            case .date: r.date = field(v.flatMap { CalendarDate(iso: $0) })
            case .time: r.time = field(v.flatMap { s -> TimeOfDay? in
                let p = s.split(separator: ":").compactMap { Int($0) }
                return p.count >= 2 ? TimeOfDay(hour: p[0], minute: p[1], second: p.count > 2 ? p[2] : nil) : nil
            })
            case .total: r.total = field(v.flatMap(Amount.init))
            case .subtotal: r.subtotal = field(v.flatMap(Amount.init))
            case .tax: r.tax = field(v.flatMap(Amount.init))
            case .currency: r.currency = field(v)
            case .receiptNumber: r.receiptNumber = field(v)
            case .paymentMethod: r.paymentMethod = field(v)
            case .cardLast4: r.cardLast4 = field(v)
            case .lineItems:
                let read = r.lineItems
                var taken = Set<Int>()
                r.lineItems = ((try? v.map(CorrectedLine.decode)) ?? nil ?? []).compactMap { l in
                    Amount(l.amount).map {
                        LineItem(description: l.description, quantity: nil, unitPrice: nil, amount: $0,
                                 serials: Self.serials(of: l.description, $0, among: read, taken: &taken), evidence: ev)
                    }
                }
            }
        }
        return r
    }

    /// The serial numbers of the read line a corrected line stands for (a correction gives only names and amounts, and
    /// a name put right must not lose the unit's serial): the read line not taken yet with the same amount and name
    /// (case aside), else the only one not taken with that amount and serials. Nil when none.
    static func serials(of description: String, _ amount: Amount, among read: [LineItem], taken: inout Set<Int>) -> [String]? {
        let same = read.indices.filter { !taken.contains($0) && read[$0].amount == amount && read[$0].serials != nil }
        let name = description.lowercased()
        guard let i = same.first(where: { read[$0].description.lowercased() == name }) ?? (same.count == 1 ? same[0] : nil) else { return nil }
        taken.insert(i)
        return read[i].serials
    }

    /// A field's value as canonical text (what a correction records as `previous`).
    public func text(of field: CorrectableField) -> String? {
        switch field {
        case .vendor: vendor?.value
        case .date: date?.value.iso
        case .time: time?.value.description
        case .total: total?.value.description
        case .subtotal: subtotal?.value.description
        case .tax: tax?.value.description
        case .currency: currency?.value
        case .receiptNumber: receiptNumber?.value
        case .paymentMethod: paymentMethod?.value
        case .cardLast4: cardLast4?.value
        case .lineItems: lineItems.isEmpty ? nil
            : try? CorrectedLine.encode(lineItems.map { CorrectedLine(description: $0.description, amount: $0.amount.description) })
        }
    }
}

/// What `receipts list` (and export) select: every condition given must hold.
public struct ReceiptFilter: Sendable, Hashable {
    /// Part of the vendor's name, any case.
    public var vendor: String?
    public var from: CalendarDate?
    public var to: CalendarDate?
    /// Bounds on the total, inclusive.
    public var minTotal: Amount?
    public var maxTotal: Amount?
    public var currency: String?
    public var state: ReceiptState?
    /// Only receipts without a proposed or confirmed link.
    public var unlinked = false

    public init(vendor: String? = nil, from: CalendarDate? = nil, to: CalendarDate? = nil, minTotal: Amount? = nil, maxTotal: Amount? = nil,
                currency: String? = nil, state: ReceiptState? = nil, unlinked: Bool = false) {
        self.vendor = vendor; self.from = from; self.to = to; self.minTotal = minTotal; self.maxTotal = maxTotal
        self.currency = currency; self.state = state; self.unlinked = unlinked
    }
}

/// One receipt as `receipts list` and the exports show it: the values as the user sees
/// them (corrections applied), from columns only (fast).
public struct ReceiptListing: Sendable, Hashable {
    public var id: ReceiptID
    public var state: ReceiptState
    /// The status the parser gave it (before corrections and duplicate marks).
    public var parseStatus: ReceiptStatus
    public var vendor: String?
    public var date: CalendarDate?
    public var time: String?
    public var total: Amount?
    public var subtotal: Amount?
    public var tax: Amount?
    public var currency: String?
    public var receiptNumber: String?
    public var paymentMethod: String?
    public var cardLast4: String?
    /// Confidence of each field found, by `CorrectableField` raw value (1 for a corrected field).
    public var confidences: [String: Double]
    public var correctedFields: [CorrectableField]
    public var files: [String]
    public var contentHash: String
    public var duplicateOf: ReceiptID?
    public var lineItemCount: Int
    /// Items linked by a proposed or confirmed link.
    public var linkedItems: [ItemID]

    public init(id: ReceiptID, state: ReceiptState, parseStatus: ReceiptStatus, vendor: String? = nil, date: CalendarDate? = nil,
                time: String? = nil, total: Amount? = nil, subtotal: Amount? = nil, tax: Amount? = nil, currency: String? = nil,
                receiptNumber: String? = nil, paymentMethod: String? = nil, cardLast4: String? = nil, confidences: [String: Double] = [:],
                correctedFields: [CorrectableField] = [], files: [String] = [], contentHash: String = "", duplicateOf: ReceiptID? = nil,
                lineItemCount: Int = 0, linkedItems: [ItemID] = []) {
        self.id = id; self.state = state; self.parseStatus = parseStatus; self.vendor = vendor; self.date = date; self.time = time
        self.total = total; self.subtotal = subtotal; self.tax = tax; self.currency = currency; self.receiptNumber = receiptNumber
        self.paymentMethod = paymentMethod; self.cardLast4 = cardLast4; self.confidences = confidences; self.correctedFields = correctedFields
        self.files = files; self.contentHash = contentHash; self.duplicateOf = duplicateOf; self.lineItemCount = lineItemCount
        self.linkedItems = linkedItems
    }
}

/// Everything the store knows about one receipt (`receipts show`).
public struct ReceiptDetail: Sendable {
    /// As stored: `parsed` is the parser's latest reading, untouched by corrections.
    public var receipt: StoredReceipt
    public var state: ReceiptState
    /// The parser's reading with what a shop set (`learned`) and the user's corrections in place.
    public var effective: ParsedReceipt
    /// What a shop of the directory set when the receipt was read.
    public var learned: LearnedFields?
    /// The shop the directory puts the receipt at: the one it was taken for when read, else the one it taught.
    public var shop: (id: ShopID, name: String)?
    /// What OCR read (every look), when stored.
    public var reading: OCRReading?
    /// Every correction ever made, oldest first (undone ones included).
    public var corrections: [Correction]
    public var links: [Link]
    /// The items of `links`.
    public var items: [StoredItem]

    public init(receipt: StoredReceipt, state: ReceiptState, effective: ParsedReceipt, learned: LearnedFields? = nil, shop: (id: ShopID, name: String)? = nil,
                reading: OCRReading?, corrections: [Correction], links: [Link], items: [StoredItem]) {
        self.receipt = receipt; self.state = state; self.effective = effective; self.learned = learned; self.shop = shop; self.reading = reading
        self.corrections = corrections; self.links = links; self.items = items
    }
}
