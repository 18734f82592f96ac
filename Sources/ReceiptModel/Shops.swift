import Foundation

// What the shop directory learns from the user's corrections, as plain values the parser's evidence,
// the store and the learning module share (module ReceiptLearning computes them; docs/learning.md).

/// A shop's name as the directory compares names: upper-case, accents dropped, every character but
/// letters, digits and `&` made a space, spaces collapsed ("Kedai Y.K.L. (M) Sdn Bhd" → "KEDAI Y K L M SDN BHD").
/// The reference scorer's vendor normalisation too: the parser (`VendorText.normalise`) and eval
/// (`LabelValue.vendor`) call this one.
/// Two shops never share a key; a correction naming a shop by another spelling of its key teaches that shop.
public enum ShopName {
    public static func key(_ name: String) -> String {
        let mapped = name.folding(options: [.diacriticInsensitive], locale: nil).uppercased()
            .map { $0.isLetter || $0.isNumber || $0 == "&" ? $0 : " " }
        return String(mapped).split(separator: " ").joined(separator: " ")
    }
}

/// What kind of fact about a shop a fingerprint key is.
public enum ShopKeyKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A company registration number ("Co. Reg. 739204-F", "(684215-T)"): digits and the check letter.
    case registration
    /// A tax number ("GST ID 000306020352", "VAT No. GB123456789", "ABN", "EIN"): its letters and digits.
    case tax
    /// A telephone or fax number printed with its keyword ("TEL: 03-6718 4492"): its digits.
    case phone
    /// An address line of the header, normalised (upper case, letters and digits).
    case address
    /// The header's first lines, normalised: compared by their character trigrams, so OCR slips count little.
    case header

    /// A key that names one shop by itself: a registration, tax or phone number.
    public var isStrong: Bool { self == .registration || self == .tax || self == .phone }

    /// As the evidence names it: "tax number 000306020352".
    public var words: String {
        switch self {
        case .registration: "registration number"
        case .tax: "tax number"
        case .phone: "phone"
        case .address: "address"
        case .header: "header"
        }
    }
}

/// One fact of a receipt's fingerprint.
public struct ShopKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public var kind: ShopKeyKind
    public var value: String
    public init(_ kind: ShopKeyKind, _ value: String) { self.kind = kind; self.value = value }
    /// "tax number 000306020352", "address '12 JALAN MAWAR'".
    public var description: String { kind.isStrong ? "\(kind.words) \(value)" : "\(kind.words) '\(value)'" }
}

/// Why a receipt was taken for a shop the user taught (the vendor's evidence note).
public struct ShopMatch: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The shop's id in the store.
    public var shop: Int64
    /// Its name, as the receipt took it.
    public var name: String
    /// The keys the receipt shares with the shop (strong ones first).
    public var keys: [ShopKey]
    /// How alike the receipt's header is to the shop's (0–1, two decimals), when it was compared.
    public var header: Double?
    /// The receipt whose correction taught the key that matched.
    public var teacher: Int64

    public init(shop: Int64, name: String, keys: [ShopKey], header: Double?, teacher: Int64) {
        self.shop = shop; self.name = name; self.keys = keys; self.header = header; self.teacher = teacher
    }

    /// "tax number 000306020352 and header 0.86 alike: your correction of #12".
    public var description: String {
        var parts = keys.map(\.description)
        if let header { parts.append(String(format: "header %.2f alike", header)) }
        return "\(parts.isEmpty ? "a shop you taught" : parts.joined(separator: " and ")): your correction of #\(teacher)"
    }
}

/// The kind of line that held a field's value on a receipt the user corrected: its words, and the
/// words of the line above, so the same kind of line is found on the shop's later receipts.
public struct LineKind: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The line's words without its numbers, lower case ("total sales inclusive gst rm"); empty when
    /// the line held only numbers.
    public var label: String
    /// The words of the nearest line above that has some ("rounding adjustment rm").
    public var above: String?
    /// Which value of the line, counted from the right (0: the last one).
    public var fromRight: Int

    public init(label: String, above: String?, fromRight: Int) {
        self.label = label; self.above = above; self.fromRight = fromRight
    }

    /// "the line 'nett total'", "the line after 'rounding adjustment rm'", "… (the 2nd value from the right)".
    public var description: String {
        var s = label.isEmpty ? "the line after '\(above ?? "")'" : "the line '\(label)'"
        if fromRight > 0 { s += " (value \(fromRight + 1) from the right)" }
        return s
    }
}

/// A habit learned from one correction: where the shop prints a field.
public struct LearnedHabit: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `total` or `date`.
    public var field: String
    public var line: LineKind
    /// The receipt whose correction taught it.
    public var teacher: Int64

    public init(field: String, line: LineKind, teacher: Int64) { self.field = field; self.line = line; self.teacher = teacher }

    /// "the line 'nett total' holds it: your correction of #12".
    public var description: String { "\(line) holds it: your correction of #\(teacher)" }
}

/// A date whose year OCR misread, taken as the year of the shop's receipts the user confirmed.
public struct LearnedYear: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The date as read.
    public var read: CalendarDate
    /// The year taken.
    public var year: Int
    /// How many of the shop's confirmed receipts are dated in that year.
    public var receipts: Int
    /// The latest of them.
    public var teacher: Int64

    public init(read: CalendarDate, year: Int, receipts: Int, teacher: Int64) {
        self.read = read; self.year = year; self.receipts = receipts; self.teacher = teacher
    }

    /// "read 2016-04-04; the shop's receipts you confirmed are from 2018 (4), one digit apart: your correction of #12".
    public var description: String {
        "read \(read.iso); the shop's receipts you confirmed are from \(year) (\(receipts)), one digit apart: your correction of #\(teacher)"
    }
}

/// What the shops the user taught set on one receipt the parser read: the shop it was taken for and
/// the fields that shop gave it, each with its evidence (the parser's own value among the rejected).
/// Laid over the parser's reading, under the user's corrections (`ParsedReceipt.applying(_:)`).
public struct LearnedFields: Sendable, Hashable, Codable {
    /// The shop's id in the store.
    public var shop: Int64
    public var vendor: Field<String>?
    public var date: Field<CalendarDate>?
    public var total: Field<Amount>?

    public init(shop: Int64, vendor: Field<String>? = nil, date: Field<CalendarDate>? = nil, total: Field<Amount>? = nil) {
        self.shop = shop; self.vendor = vendor; self.date = date; self.total = total
    }

    /// The fields that came from the shop, by name (`vendor`, `date`, `total`).
    public var fieldNames: [String] {
        [vendor.map { _ in "vendor" }, date.map { _ in "date" }, total.map { _ in "total" }].compactMap { $0 }
    }
}

extension ParsedReceipt {
    /// The receipt with what a shop the user taught set in place of the parser's values.
    public func applying(_ learned: LearnedFields?) -> ParsedReceipt {
        guard let learned else { return self }
        var r = self
        if let v = learned.vendor { r.vendor = v }
        if let d = learned.date { r.date = d }
        if let t = learned.total { r.total = t }
        return r
    }
}
