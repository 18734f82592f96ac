import Foundation

// Why the parser chose a value (`Evidence.notes`) and which arithmetic it checked (`ParsedReceipt.checks`),
// as typed values: the parser decides on the cases, never on their wording. The text is made only for
// output (`description`). Stored receipts keep the cases with their arguments (Codable as Swift
// synthesises it: `{"keyword": {"_0": "total"}}`); a note stored as a sentence by a parser before
// store schema 6 was migrated once to `.text`, which shows it as it was written.

/// Which reading of an all-digit date like 03/04/2024 to prefer.
public enum DateOrder: String, Sendable, Codable, CaseIterable {
    /// Decide from evidence on the receipt (an unambiguous date, the currency); day-first when there is none.
    case auto
    case dayFirst = "day-first"
    case monthFirst = "month-first"
}

/// An arithmetic relation between amounts read on the receipt, as its formula names them.
public enum Sum: Sendable, Hashable, Codable, CustomStringConvertible {
    /// "subtotal 53.85 + tax 4.32", with " + rounding -0.02", " − discount 5.00" and " + service 5.39" (service
    /// charges, tips) when the formula names them.
    case subtotalTax(subtotal: Amount, tax: Amount, rounding: Amount? = nil, discount: Amount? = nil, charges: Amount? = nil)
    /// "line items 26.00 + tax 1.56": no subtotal printed, the items added up instead.
    case lineItemsTax(items: Amount, tax: Amount)
    /// "subtotal 10.03 + rounding 0.02"
    case subtotalRounding(subtotal: Amount, rounding: Amount)
    /// "cash 50.00 − change 4.57"
    case cashChange(cash: Amount, change: Amount)
    /// "paid 12.35, no change"
    case paidNoChange(Amount)
    /// "total 14.15 − subtotal 13.45": the tax as what the subtotal leaves of the total.
    case totalLessSubtotal(total: Amount, subtotal: Amount)
    /// "total 14.15 − tax 0.70": the subtotal as what the tax leaves of the total.
    case totalLessTax(total: Amount, tax: Amount)

    /// Whether the formula has the tax in it.
    public var involvesTax: Bool {
        switch self {
        case .subtotalTax, .lineItemsTax, .totalLessSubtotal, .totalLessTax: return true
        case .subtotalRounding, .cashChange, .paidNoChange: return false
        }
    }

    public var description: String {
        switch self {
        case let .subtotalTax(s, t, r, d, c):
            return "subtotal \(s) + tax \(t)" + (c.map { " + service \($0)" } ?? "") + (r.map { " + rounding \($0)" } ?? "") + (d.map { " − discount \($0)" } ?? "")
        case let .lineItemsTax(i, t): return "line items \(i) + tax \(t)"
        case let .subtotalRounding(s, r): return "subtotal \(s) + rounding \(r)"
        case let .cashChange(c, g): return "cash \(c) − change \(g)"
        case let .paidNoChange(c): return "paid \(c), no change"
        case let .totalLessSubtotal(t, s): return "total \(t) − subtotal \(s)"
        case let .totalLessTax(t, x): return "total \(t) − tax \(x)"
        }
    }

}

/// A digit OCR read for another: "6→5".
public struct DigitSwap: Sendable, Hashable, Codable, CustomStringConvertible {
    public var from: Character
    public var to: Character
    public init(from: Character, to: Character) { self.from = from; self.to = to }
    public var description: String { "\(from)→\(to)" }

    enum CodingKeys: String, CodingKey { case from, to }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let from = try c.decode(String.self, forKey: .from), to = try c.decode(String.self, forKey: .to)
        guard from.count == 1, to.count == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .from, in: c, debugDescription: "a digit swap is one character for one: \(from)→\(to)")
        }
        self.from = from.first!; self.to = to.first!
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(String(from), forKey: .from)
        try c.encode(String(to), forKey: .to)
    }
}

/// Why the day/month order of all-digit dates was settled the way it was.
public enum OrderReason: Sendable, Hashable, Codable {
    /// The user's `--date-order`.
    case given
    /// Nothing on the receipt tells: day-first by default.
    case noEvidence
    /// A date on the receipt that only one order makes valid ("'25/12/2018' can only be read that way").
    case onlyReading(String)
    /// A long document number holds the date written out ("KPTA3201904150366" for 15/04/19).
    case documentNumber(String, CalendarDate)
    /// The currency's country writes dates this way.
    case currency(String)
    /// Votes without a recorded reason (not expected).
    case evidence
}

/// One reason the parser gives for a value it chose or turned down.
public enum Note: Sendable, Hashable, CustomStringConvertible, Codable {
    // Where the value was read.
    /// "keyword 'total'": the line holds this keyword of the field.
    case keyword(String)
    /// "after 'invoice no'": the value follows this keyword.
    case afterKeyword(String)
    /// "'25/12/2018'", "'visa'": the text that was matched, as printed.
    case quoted(String)
    /// "also says 'cash'": the line also holds a word of another field.
    case alsoSays(String)
    /// "amount on the next line": the label's value was printed below it.
    case amountOnNextLine
    /// "amount 2 of 3 in the column after 4 labels": labels and values came out as separate columns.
    case amountInColumn(position: Int, of: Int, afterLabels: Int)
    /// "letters read as digits (1O.5O)": OCR repairs to the amount.
    case lettersReadAsDigits(String)
    /// "space around the decimal point"
    case spaceAroundDecimalPoint
    /// "a space read for the decimal point" ("$43 70")
    case spaceForDecimalPoint
    /// "a colon read for the decimal point" ("RYE BREAD 3:49 D", an item's price)
    case colonForDecimalPoint
    /// "in whole units (no cents on this receipt)": "24,000" read as 24000 on a receipt whose currency has no cents
    case wholeUnits
    /// "one decimal read (163.8): its last digit taken as 0"
    case oneDecimalRead(String)

    // Currency.
    /// "seen 3×": how often the currency was seen.
    case seen(Int)
    /// "'$' with 'hst' on the receipt": which dollar a bare "$" is.
    case dollarHint(String)

    // Vendor.
    /// "matches 'Best Buy' (92%)": one of the user's known vendors, fuzzily.
    case knownVendor(alias: String, percent: Int)
    /// "letters printed apart, joined: 'S U P E R M A R K E T'": the name as read, a word a letter.
    case letterSpaced(String)
    /// "shop you taught: tax number 000306020352 and header 0.86 alike: your correction of #12": the receipt
    /// was taken for a shop the user's corrections taught (docs/learning.md).
    case matchedShop(ShopMatch)

    // Learned from the user's corrections (total, date).
    /// "learned habit: the line 'nett total' holds it: your correction of #12".
    case learnedHabit(LearnedHabit)
    /// "learned year: read 2016-04-04; the shop's receipts you confirmed are from 2018 (4), one digit apart: …".
    case learnedYear(LearnedYear)

    // Date.
    /// "order day-first: currency MYR": how an ambiguous all-digit date was read.
    case dateOrder(DateOrder, OrderReason)
    /// "read month-first (only valid reading)": against the receipt's order, the only valid reading.
    case onlyValidReading(DateOrder)
    /// "2031-02-03 is in the future; read the other way"
    case inFuture(CalendarDate)
    /// "glued to a word": likely a product code.
    case gluedToWord
    /// "date keyword on the line"
    case dateKeyword
    /// "expiry/validity wording on the line"
    case expiryWording
    /// "taken as 'May01'19' (OCR slips repaired)": a date read through digit look-alikes, a month one
    /// letter off or a misread separator, and what it was taken as.
    case dateRepaired(String)
    /// "two kinds of separator in one date: likelier a misread": a date read with "/" and "-" (or ".") at once ("2/ 3-00").
    case mixedSeparators

    // Time.
    /// "'PH' taken as PM": OCR's reading of the AM/PM printed after a time.
    case meridiemRead(String, pm: Bool)
    /// "no AM or PM read; an hour of one digit before seven taken as PM": "3:48:05" is a 12-hour till's (a 24-hour
    /// one prints "03:48:05"), and few shops sell between one and seven at night.
    case afternoonAssumed
    /// "'18:42.33' read with a point for the seconds' colon": a time beside the date or after "time" whose seconds
    /// OCR read after a point, as it reads an amount's.
    case secondsAfterPoint(String)

    // Subtotal and tax.
    /// "net 73.43 + tax 12.85 = gross 86.28 on one row": a tax table's row.
    case taxTableRow(net: Amount, tax: Amount, gross: Amount)
    /// "tax 4.80 is 6 % of 80.00": a row's rate backs its tax (no tax word read on the row).
    case taxAtRate(rate: String, net: Amount, tax: Amount)
    /// "taxes 1.28 + 0.12 added": several rates, each on its line.
    case taxesAdded([Amount])
    /// "worked out: total 14.15 − subtotal 13.45 = 0.70": the line names the value, OCR could not read it.
    case workedOut(Sum, equals: Amount)
    /// "the total, printed above it with no tax added"
    case equalsTotal
    /// "the total, printed again below it with no tax added"
    case totalPrintedAgainBelow
    /// "its amount unread; no tax between it and the total, which it is"
    case unreadEqualsTotal
    /// "included in the prices"
    case taxIncluded

    // Line items.
    /// "2 × 4.80 = 9.60": the quantity and unit price printed on the line multiply to its amount.
    case quantityTimesUnit(Decimal, Amount, equals: Amount)
    /// "name from the line above: 'BANANAS'": the row wrapped, its price on the next line.
    case nameFromLineAbove(String)
    /// "price per unit from the line below: 'PRECIO KILO 5.80'": a weighed item's price per kilo or pound, printed under it.
    case unitPriceBelow(String)
    /// "name from the line below: 'PENSIL 2B KOTAK'": a row led by its code and prices, its name printed under it.
    case nameFromLineBelow(String)
    /// "name from the column of names: 'Lotus Soup'": OCR read the names, then their prices.
    case nameFromColumn(String)
    /// "discount 0.90 from the line below: 'MEMBER SAVINGS -0.90'"
    case discountBelow(Amount, String)
    /// "voided by 'VOID COFFEE -2.50'"
    case voidedBy(String)

    // Total.
    /// "a rounding line holding a total-sized amount"
    case roundingLineHoldsTotal
    /// "printed amount equal to subtotal + tax"
    case printedSubtotalPlusTax
    /// "printed amount equal to cash − change"
    case printedCashMinusChange
    /// "no total line read; subtotal + tax"
    case computedSubtotalPlusTax
    /// "33.92 rounded by -0.02": the amount printed after the rounding line.
    case roundedBy(total: Amount, rounding: Amount)
    /// "every total read is below the subtotal 25.00"
    case everyTotalBelowSubtotal(Amount)
    /// "paid 12.35, no change given"
    case paidNoChangeGiven(Amount)
    /// "no total keyword; largest amount on the receipt"
    case largestAmount
    /// "subtotal 53.85 + tax 4.32 = 58.17": the value agrees with a sum.
    case sum(Sum, equals: Amount)
    /// "equals the subtotal", "equals the subtotal (tax included)"
    case equalsSubtotal(taxIncluded: Bool)
    /// "below the subtotal 25.00, and no discount"
    case belowSubtotal(Amount)
    /// "equals the amount paid"
    case equalsAmountPaid
    /// "more than the 20.00 paid"
    case moreThanPaid(Amount)
    /// "before rounding: -0.02 is applied below"
    case beforeRounding(Amount)
    /// "after rounding by -0.02"
    case afterRounding(Amount)
    /// "before tax: 21.20 below it includes a tax line"
    case beforeTax(Amount)
    /// "below the rounding line"
    case belowRoundingLine
    /// "in the tax breakdown table below line 31" (the parser's row index of the table's heading).
    case inTaxTable(belowLine: Int)
    /// "line items add up to 482.90"
    case lineItemsAddUp(Amount)
    /// "printed 2×": the same amount on other total lines.
    case printed(times: Int)
    /// "read 65.15, taken as 64.15: cash 100.00 − change 35.85 = 64.15, one digit apart (OCR often reads 5→4)"
    case digitRepaired(read: Amount, sum: Sum, equals: Amount, swap: DigitSwap)
    /// "the reader weighed a 4 there too": the OCR engine itself considered the digit the sum asks for.
    case engineWeighedDigit(String)
    /// "read 7.30, taken as 27.30: paid 27.30, no change = 27.30, its leading digits lost": OCR dropped the first digits.
    case leadingDigitsLost(read: Amount, sum: Sum, equals: Amount)

    /// A note stored as a sentence before store schema 6, shown as it was written.
    case text(String)

    public var description: String {
        switch self {
        case let .keyword(k): return "keyword '\(k)'"
        case let .afterKeyword(k): return "after '\(k)'"
        case let .quoted(t): return "'\(t)'"
        case let .alsoSays(w): return "also says '\(w)'"
        case .amountOnNextLine: return "amount on the next line"
        case let .amountInColumn(k, n, labels): return "amount \(k) of \(n) in the column after \(labels) labels"
        case let .lettersReadAsDigits(t): return "letters read as digits (\(t))"
        case .spaceAroundDecimalPoint: return "space around the decimal point"
        case .spaceForDecimalPoint: return "a space read for the decimal point"
        case .colonForDecimalPoint: return "a colon read for the decimal point"
        case .wholeUnits: return "in whole units (no amount on this receipt has cents)"
        case let .oneDecimalRead(t): return "one decimal read (\(t)): its last digit taken as 0"
        case let .seen(n): return "seen \(n)×"
        case let .dollarHint(w): return "'$' with '\(w)' on the receipt"
        case let .knownVendor(alias, percent): return "matches '\(alias)' (\(percent)%)"
        case let .letterSpaced(t): return "letters printed apart, joined: '\(t)'"
        case let .matchedShop(m): return "shop you taught: \(m)"
        case let .learnedHabit(h): return "learned habit: \(h)"
        case let .learnedYear(y): return "learned year: \(y)"
        case let .dateOrder(order, reason):
            switch reason {
            case .given: return "order \(order.rawValue) (given)"
            case .noEvidence: return "order \(order.rawValue): no evidence either way"
            case let .onlyReading(t): return "order \(order.rawValue): '\(t)' can only be read that way"
            case let .documentNumber(t, d): return "order \(order.rawValue): a document number holds '\(t)' as \(d.iso)"
            case let .currency(c): return "order \(order.rawValue): currency \(c)"
            case .evidence: return "order \(order.rawValue): evidence"
            }
        case let .onlyValidReading(order): return "read \(order.rawValue) (only valid reading)"
        case let .inFuture(d): return "\(d.iso) is in the future; read the other way"
        case .gluedToWord: return "glued to a word"
        case .dateKeyword: return "date keyword on the line"
        case .expiryWording: return "expiry/validity wording on the line"
        case let .dateRepaired(t): return "taken as '\(t)' (OCR slips repaired)"
        case .mixedSeparators: return "two kinds of separator in one date: likelier a misread"
        case let .meridiemRead(t, pm): return "'\(t)' taken as \(pm ? "PM" : "AM")"
        case .afternoonAssumed: return "no AM or PM read; an hour of one digit before seven taken as PM"
        case let .secondsAfterPoint(t): return "'\(t)' read with a point for the seconds' colon"
        case let .taxTableRow(n, t, g): return "net \(n) + tax \(t) = gross \(g) on one row"
        case let .taxAtRate(r, n, t): return "tax \(t) is \(r) % of \(n) on one row"
        case let .taxesAdded(a): return "taxes " + a.map(\.description).joined(separator: " + ") + " added"
        case let .workedOut(sum, v): return "worked out: \(sum) = \(v)"
        case .equalsTotal: return "the total, printed above it with no tax added"
        case .totalPrintedAgainBelow: return "the total, printed again below it with no tax added"
        case .unreadEqualsTotal: return "its amount unread; no tax between it and the total, which it is"
        case .taxIncluded: return "included in the prices"
        case let .quantityTimesUnit(q, u, v): return "\(q) × \(u) = \(v)"
        case let .nameFromLineAbove(t): return "name from the line above: '\(t)'"
        case let .unitPriceBelow(t): return "price per unit from the line below: '\(t)'"
        case let .nameFromLineBelow(t): return "name from the line below: '\(t)'"
        case let .nameFromColumn(t): return "name from the column of names: '\(t)'"
        case let .discountBelow(a, t): return "discount \(a) from the line below: '\(t)'"
        case let .voidedBy(t): return "voided by '\(t)'"
        case .roundingLineHoldsTotal: return "a rounding line holding a total-sized amount"
        case .printedSubtotalPlusTax: return "printed amount equal to subtotal + tax"
        case .computedSubtotalPlusTax: return "no total line read; subtotal + tax"
        case .printedCashMinusChange: return "printed amount equal to cash − change"
        case let .roundedBy(total, rounding): return "\(total) rounded by \(rounding)"
        case let .everyTotalBelowSubtotal(s): return "every total read is below the subtotal \(s)"
        case let .paidNoChangeGiven(c): return "paid \(c), no change given"
        case .largestAmount: return "no total keyword; largest amount on the receipt"
        case let .sum(sum, v): return "\(sum) = \(v)"
        case let .equalsSubtotal(taxIncluded): return taxIncluded ? "equals the subtotal (tax included)" : "equals the subtotal"
        case let .belowSubtotal(s): return "below the subtotal \(s), and no discount"
        case .equalsAmountPaid: return "equals the amount paid"
        case let .moreThanPaid(c): return "more than the \(c) paid"
        case let .beforeRounding(r): return "before rounding: \(r) is applied below"
        case let .afterRounding(r): return "after rounding by \(r)"
        case let .beforeTax(a): return "before tax: \(a) below it includes a tax line"
        case .belowRoundingLine: return "below the rounding line"
        case let .inTaxTable(line): return "in the tax breakdown table below line \(line)"
        case let .lineItemsAddUp(v): return "line items add up to \(v)"
        case let .printed(n): return "printed \(n)×"
        case let .digitRepaired(read, sum, e, swap):
            return "read \(read), taken as \(e): \(sum) = \(e), one digit apart (OCR often reads \(swap))"
        case let .engineWeighedDigit(d): return "the reader weighed a \(d) there too"
        case let .leadingDigitsLost(read, sum, e):
            return "read \(read), taken as \(e): \(sum) = \(e), its leading digits lost"
        case let .text(t): return t
        }
    }

}

/// What the line items' amounts (less their discounts) are checked against.
public enum ItemsTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    case subtotal(Amount)
    /// The total, with tax in the prices (VAT) or none printed.
    case total(Amount)
    /// The total less the tax added on top.
    case totalLessTax(total: Amount, tax: Amount)

    public var amount: Amount {
        switch self {
        case let .subtotal(a), let .total(a): return a
        case let .totalLessTax(t, x): return t - x
        }
    }

    public var description: String {
        switch self {
        case let .subtotal(a): return "the subtotal \(a)"
        case let .total(a): return "the total \(a)"
        case let .totalLessTax(t, x): return "the total \(t) less tax \(x)"
        }
    }
}

/// An arithmetic check the parser ran on the money fields, and its outcome.
public enum Check: Sendable, Hashable, CustomStringConvertible, Codable {
    /// "subtotal 53.85 + tax 4.32 = 58.17": a sum the chosen total agrees with.
    case sum(Sum, equals: Amount)
    /// "cash 100.00 − change 35.85 = 64.15 (digit repaired)": the total was taken from this sum, one misread digit away.
    case sumAfterDigitRepair(Sum, equals: Amount)
    /// The total's note on that repair, repeated among the checks: "read 65.15, taken as 64.15: …".
    case digitRepaired(read: Amount, sum: Sum, equals: Amount, swap: DigitSwap)
    /// "subtotal + tax ≠ total": a subtotal and a tax were read, and the total agrees with no sum of them.
    case subtotalTaxMismatch
    /// "total: no candidate": nothing on the receipt could be the total.
    case noTotalCandidate
    /// "3 line items add up to the subtotal 26.00"
    case lineItemsAddUp(count: Int, to: ItemsTarget)
    /// "3 line items add up to 24.50, not the subtotal 26.00"
    case lineItemsDoNotAddUp(count: Int, sum: Amount, target: ItemsTarget)
    /// A check stored as a sentence before store schema 6, shown as it was written.
    case text(String)

    public var description: String {
        switch self {
        case let .sum(sum, v): return Note.sum(sum, equals: v).description
        case let .sumAfterDigitRepair(sum, v): return "\(sum) = \(v) (digit repaired)"
        case let .digitRepaired(read, sum, e, swap): return Note.digitRepaired(read: read, sum: sum, equals: e, swap: swap).description
        case .subtotalTaxMismatch: return "subtotal + tax ≠ total"
        case .noTotalCandidate: return "total: no candidate"
        case let .lineItemsAddUp(n, t): return "\(n) line item\(n == 1 ? "" : "s") add up to \(t)"
        case let .lineItemsDoNotAddUp(n, sum, t): return "\(n) line item\(n == 1 ? "" : "s") add up to \(sum), not \(t)"
        case let .text(t): return t
        }
    }

    /// The check a note of the chosen total records, if it is one: a sum it agrees with, or a digit repair.
    public init?(_ note: Note) {
        switch note {
        case let .sum(sum, v): self = .sum(sum, equals: v)
        case let .digitRepaired(read, sum, e, swap): self = .digitRepaired(read: read, sum: sum, equals: e, swap: swap)
        default: return nil
        }
    }
}
