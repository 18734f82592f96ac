import Foundation
import ReceiptModel

/// Keywords with weights (0...1) and words that mark a line as something else.
public struct KeywordRules: Sendable, Codable, Hashable {
    public var keywords: [String: Double]
    public var distractors: [String]?
    public var exclude: [String]?
    /// Headings of tables (a tax breakdown) whose own "TOTAL" lines are not the receipt's total.
    public var tables: [String]?
}

public struct DateRules: Sendable, Codable, Hashable {
    public var keywords: [String: Double]
    public var distractors: [String]
    public var months: [String: Int]
}

public struct VendorRules: Sendable, Codable, Hashable {
    public var legalForms: [String]
    public var skip: [String]
    public var addressWords: [String]
    /// Common words of business names ("hardware", "restaurant"): a misread one in a vendor's name
    /// ("HARDHARE") is put right when it is one letter away from exactly one of them.
    public var nameWords: [String]?
    enum CodingKeys: String, CodingKey { case legalForms = "legal_forms", skip, addressWords = "address_words", nameWords = "name_words" }
}

public struct CurrencyRules: Sendable, Codable, Hashable {
    public var symbols: [String: String]
    public var monthFirst: [String]
    /// Words that tell which dollar a bare "$" is (a tax or payment system of one country: "hst" → CAD).
    public var dollarHints: [String: String]?
    enum CodingKeys: String, CodingKey { case symbols, monthFirst = "month_first", dollarHints = "dollar_hints" }
}

public struct PaymentRules: Sendable, Codable, Hashable {
    public var card: [String]
    public var cash: [String]
}

public struct ReceiptNumberRules: Sendable, Codable, Hashable {
    public var keywords: [String]
}

/// Words of the item lines: lines with a price that are never an item, and the discounts and voids
/// printed under an item.
public struct ItemRules: Sendable, Codable, Hashable {
    public var skip: [String]
    /// Words that make a priced row no item when no other word stands on it ("SERVICE 10% 4.50", "COVER 2.00"),
    /// and are an item's in a longer name ("3YR SERVICE PLAN", "PHONE COVER"). Nil in rules made before.
    public var skipAlone: [String]?
    public var discount: [String]
    public var void: [String]

    enum CodingKeys: String, CodingKey {
        case skip, skipAlone = "skip_alone", discount, void
    }
}

/// Everything the parser matches words against. Built in (`BuiltInRules.json`, in ReceiptModel),
/// extended by a user's rules file of the same shape.
public struct ParserRules: Sendable, Codable, Hashable {
    public var total: KeywordRules
    public var subtotal: KeywordRules
    public var tax: KeywordRules
    public var rounding: KeywordRules
    public var discount: KeywordRules
    public var cash: KeywordRules
    public var change: KeywordRules
    public var date: DateRules
    public var vendor: VendorRules
    public var currency: CurrencyRules
    public var payment: PaymentRules
    public var receiptNumber: ReceiptNumberRules
    /// Nil in rules made before line items had rules of their own: then no item-specific words.
    public var items: ItemRules?

    enum CodingKeys: String, CodingKey {
        case total, subtotal, tax, rounding, discount, cash, change, date, vendor, currency, payment
        case receiptNumber = "receipt_number", items
    }

    public static let builtIn: ParserRules = {
        do { return try JSONDecoder().decode(ParserRules.self, from: Data(BuiltInRules.json.utf8)) } catch {
            preconditionFailure("built-in rules do not decode: \(error)")  // a build-time defect, caught by the tests
        }
    }()

    /// The built-in rules plus a user's file: lists are added, weights override.
    public static func builtIn(extendedWith file: String) throws -> ParserRules {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            throw RulesError(file: file, message: "cannot read: \((error as NSError).localizedDescription)")
        }
        return try builtIn(extendedWith: data, file: file)
    }

    /// The built-in rules plus the bytes of a user's rules file (`file` names it in errors).
    public static func builtIn(extendedWith data: Data, file: String) throws -> ParserRules {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw RulesError(file: file, message: "not valid JSON: \(error)")
        }
        guard let user = json as? [String: Any] else { throw RulesError(file: file, message: "the top level must be an object") }
        guard var base = try JSONSerialization.jsonObject(with: Data(BuiltInRules.json.utf8)) as? [String: Any] else {
            throw RulesError(file: file, message: "internal: built-in rules unreadable")
        }
        base = merge(base, user)
        do {
            return try JSONDecoder().decode(ParserRules.self, from: JSONSerialization.data(withJSONObject: base))
        } catch {
            throw RulesError(file: file, message: "does not have the shape of the rules (see `receipts rules`): \(error)")
        }
    }

    static func merge(_ a: [String: Any], _ b: [String: Any]) -> [String: Any] {
        var out = a
        for (k, v) in b {
            switch (out[k], v) {
            case let (x as [String: Any], y as [String: Any]): out[k] = merge(x, y)
            case let (x as [Any], y as [Any]): out[k] = x + y
            default: out[k] = v
            }
        }
        return out
    }
}

public struct RulesError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
}

public extension ParserRules {
    /// The built-in rules as the plain JSON they are written in.
    static var builtInJSON: String { BuiltInRules.json + "\n" }
}
