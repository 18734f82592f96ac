import Foundation

/// An exact decimal amount (never a binary floating point).
public struct Amount: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var value: Decimal

    public init(_ value: Decimal) { self.value = value }

    /// Parses a plain decimal string with a dot ("1249.99", "-3.5"). Nil if it is not one.
    public init?(_ string: String) {
        let s = string.trimmingCharacters(in: .whitespaces)
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
              s.filter({ $0 == "." }).count <= 1,
              let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        value = d
    }

    /// Minor units (cents) when the amount has at most two decimals.
    public init(cents: Int64) { value = Decimal(cents) / 100 }

    /// The amount in cents, rounded half-up.
    public var cents: Int64 {
        var v = value * 100, r = Decimal()
        NSDecimalRound(&r, &v, 0, .plain)
        return Int64(truncating: r as NSDecimalNumber)
    }

    /// "12.30": at least two decimals, more only if the value has them.
    public var description: String {
        var v = value, r = Decimal()
        NSDecimalRound(&r, &v, 2, .plain)
        if r == value {
            let c = cents
            let sign = c < 0 ? "-" : ""
            let a = c.magnitude
            let frac = a % 100
            return "\(sign)\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
        }
        return "\(value)"
    }

    public static func < (a: Amount, b: Amount) -> Bool { a.value < b.value }
    public static func + (a: Amount, b: Amount) -> Amount { Amount(a.value + b.value) }
    public static func - (a: Amount, b: Amount) -> Amount { Amount(a.value - b.value) }
    public static func * (a: Amount, b: Decimal) -> Amount { Amount(a.value * b) }
    public var magnitude: Amount { value < 0 ? Amount(-value) : self }

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
