import Foundation

/// An exact decimal amount (never a binary floating point).
public struct Amount: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var value: Decimal {
        get { decimal }
        set { decimal = newValue; exactCents = newValue.isZero ? 0 : nil }
    }

    private var decimal: Decimal
    /// The value in cents when it is known to be a whole number of them without asking the Decimal: `value` is
    /// then exactly `exactCents / 100`. A speed trick (the parser adds, subtracts and compares amounts tens of
    /// thousands of times a round, and Decimal's `+` costs about 5,000 instructions, `<` about 2,500): where both
    /// sides know their cents, `<` and `==` compare them and `+` and `-` add them, and the Decimal the operator
    /// would have made is made from the cents (the same value, held alike; `HandScannerTests` holds each fast
    /// path to the Decimal operation it replaces). Anything else goes through the Decimal as before.
    private var exactCents: Int64?

    public init(_ value: Decimal) { decimal = value; exactCents = value.isZero ? 0 : nil }

    /// `Amount(value)` whose value is known to be `cents / 100` exactly.
    private init(_ value: Decimal, exactCents: Int64?) { decimal = value; self.exactCents = exactCents }

    /// `Amount(Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(significand)))`, knowing its
    /// cents when it has at most two decimals (the amount scanner's amounts of plain digits).
    package init(significand: UInt64, fractionDigits: Int) {
        decimal = Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(significand))
        exactCents = nil
        if fractionDigits >= 0, fractionDigits <= 2, significand <= UInt64(Int64.max) {
            let (c, o) = Int64(significand).multipliedReportingOverflow(by: fractionDigits == 0 ? 100 : fractionDigits == 1 ? 10 : 1)
            if !o { exactCents = c }
        }
    }

    /// The cents when `value` is known to be a whole number of them (see `exactCents`), else nil.
    package var knownCents: Int64? { exactCents }

    /// The Decimal that `+` or `-` makes when its result is `cents / 100` and neither side is zero: Decimal
    /// compacts its results (no trailing zeros in the significand) and makes a zero plain.
    private static func decimal(cents: Int64) -> Decimal {
        if cents == 0 { return Decimal() }
        return Decimal(sign: cents < 0 ? .minus : .plus, exponent: -2, significand: Decimal(cents.magnitude))
    }

    /// Parses a plain decimal string with a dot ("1249.99", "-3.5"). Nil if it is not one.
    public init?(_ string: String) {
        // A plain "-?D+(.D+)?" of at most eighteen digits, not zero, made from its digits: the same Decimal, byte for
        // byte, as the POSIX scan below gives (a zero keeps the exponent it is written with there, so goes that way). A
        // speed trick: the trim, the locale and the scan were some 20,000 instructions an amount.
        if let (m, digits, fractionDigits, negative) = Self.plainDigits(string), m != 0 {
            decimal = Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(m))
            // (`plainCents` of the string, from the digits already read: at most two decimals and sixteen digits before
            // the point, the integer scaled to cents; under 10^18, no overflow.)
            if fractionDigits <= 2, digits - fractionDigits <= 16 {
                let cents = Int64(m) * (fractionDigits == 0 ? 100 : fractionDigits == 1 ? 10 : 1)
                exactCents = negative ? -cents : cents
            } else {
                exactCents = nil
            }
            return
        }
        let s = string.trimmingCharacters(in: .whitespaces)
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
              s.filter({ $0 == "." }).count <= 1,
              let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        decimal = d
        exactCents = d.isZero ? 0 : Self.plainCents(s)
    }

    /// The digits of "-?D+(.D+)?" (at most eighteen in all) as an integer, how many there are, how many follow the
    /// point, and the sign; nil for any other string.
    private static func plainDigits(_ s: String) -> (UInt64, Int, Int, Bool)? {
        var m: UInt64 = 0, digits = 0, fraction = 0, point = false, negative = false, last: UInt8 = 0
        for (i, c) in s.utf8.enumerated() {
            last = c
            if c == UInt8(ascii: "-"), i == 0 { negative = true; continue }
            if c == UInt8(ascii: "."), !point, digits > 0 { point = true; continue }
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9"), digits < 18 else { return nil }
            m = m * 10 + UInt64(c - UInt8(ascii: "0"))
            digits += 1
            if point { fraction += 1 }
        }
        guard digits > 0, last != UInt8(ascii: ".") else { return nil }
        return (m, digits, fraction, negative)
    }

    /// The cents of "-?D(.D{1,2})?" with at most 16 digits before the point, else nil.
    private static func plainCents(_ s: String) -> Int64? {
        var whole: Int64 = 0, fraction: Int64 = 0, wholeDigits = 0, fractionDigits = 0, negative = false, point = false
        for (i, c) in s.utf8.enumerated() {
            if c == UInt8(ascii: "-"), i == 0 { negative = true; continue }
            if c == UInt8(ascii: "."), !point, wholeDigits > 0 { point = true; continue }
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            if point { fraction = fraction * 10 + Int64(c - UInt8(ascii: "0")); fractionDigits += 1 }
            else { whole = whole * 10 + Int64(c - UInt8(ascii: "0")); wholeDigits += 1 }
            if wholeDigits > 16 || fractionDigits > 2 { return nil }
        }
        guard wholeDigits > 0, !point || fractionDigits > 0 else { return nil }
        let c = whole * 100 + (fractionDigits == 1 ? fraction * 10 : fraction)
        return negative ? -c : c
    }

    /// Minor units (cents) when the amount has at most two decimals.
    public init(cents: Int64) { decimal = Decimal(cents) / 100; exactCents = cents }

    /// The amount in cents, rounded half-up.
    public var cents: Int64 {
        if let c = exactCents { return c }
        var v = value * 100, r = Decimal()
        NSDecimalRound(&r, &v, 0, .plain)
        return Int64(truncating: r as NSDecimalNumber)
    }

    /// "12.30": at least two decimals, more only if the value has them.
    public var description: String {
        if let c = exactCents { return Self.plain(cents: c) }
        var v = value, r = Decimal()
        NSDecimalRound(&r, &v, 2, .plain)
        if r == value { return Self.plain(cents: cents) }
        return "\(value)"
    }

    private static func plain(cents c: Int64) -> String {
        let sign = c < 0 ? "-" : ""
        let a = c.magnitude
        let frac = a % 100
        return "\(sign)\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
    }

    public static func == (a: Amount, b: Amount) -> Bool {
        if let x = a.exactCents, let y = b.exactCents { return x == y }
        return a.decimal == b.decimal
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(decimal) }

    public static func < (a: Amount, b: Amount) -> Bool {
        if let x = a.exactCents, let y = b.exactCents { return x < y }
        return a.decimal < b.decimal
    }

    public static func + (a: Amount, b: Amount) -> Amount {
        if let x = a.exactCents, let y = b.exactCents {
            let (c, o) = x.addingReportingOverflow(y)
            if !o {
                // Decimal's `+` gives the other side, as it is held, when one side is zero.
                if x == 0 { return Amount(b.decimal, exactCents: c) }
                if y == 0 { return a }
                return Amount(decimal(cents: c), exactCents: c)
            }
        }
        return Amount(a.decimal + b.decimal)
    }

    public static func - (a: Amount, b: Amount) -> Amount {
        if let x = a.exactCents, let y = b.exactCents {
            let (c, o) = x.subtractingReportingOverflow(y)
            if !o {
                // Decimal's `-` gives the left side, as it is held, when the right is zero; from a zero it is
                // left to Decimal (its cents are still known).
                if x == 0 { return Amount(a.decimal - b.decimal, exactCents: c) }
                if y == 0 { return a }
                return Amount(decimal(cents: c), exactCents: c)
            }
        }
        return Amount(a.decimal - b.decimal)
    }

    public static func * (a: Amount, b: Decimal) -> Amount { Amount(a.decimal * b) }

    public var magnitude: Amount {
        if let c = exactCents { return c < 0 ? Amount(-decimal, exactCents: -c) : self }
        return decimal < 0 ? Amount(-decimal) : self
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let a = Amount(s) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a decimal amount: \(s)")
        }
        self = a
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// An amount with its ISO 4217 currency code when known.
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    public var amount: Amount
    public var currency: String?

    public init(_ amount: Amount, currency: String? = nil) {
        self.amount = amount; self.currency = currency
    }

    public var description: String {
        currency.map { "\(amount) \($0)" } ?? amount.description
    }
}
