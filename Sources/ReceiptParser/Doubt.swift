import Foundation
import ReceiptModel

/// Why a parsed receipt is doubtful enough for another OCR look (`ReceiptParser.doubt`): the
/// first of its own checks it fails. It decides where the look reads; its text is what reports
/// and stored readings say ("psm11 after no total found").
public enum Doubt: Sendable, Hashable, CustomStringConvertible {
    case noTotal
    case noDate
    /// A subtotal and a tax were read and the total agrees with no sum of them.
    case subtotalTaxMismatch
    /// The total was chosen with this confidence, under 0.6.
    case unsureTotal(Double)
    /// The vendor was chosen with this confidence, under 0.65.
    case unsureVendor(Double)
    case noVendor

    public var description: String {
        switch self {
        case .noTotal: "no total found"
        case .noDate: "no date found"
        case .subtotalTaxMismatch: Check.subtotalTaxMismatch.description
        case let .unsureTotal(c): String(format: "total confidence %.2f", c)
        case let .unsureVendor(c): String(format: "vendor confidence %.2f", c)
        case .noVendor: "no vendor found"
        }
    }

    /// What a doubt can be about.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case vendor, date, total
    }

    /// The field the doubt is about (a subtotal and tax that do not add up put the total in doubt).
    public var field: Field {
        switch self {
        case .unsureVendor, .noVendor: .vendor
        case .noDate: .date
        case .noTotal, .unsureTotal, .subtotalTaxMismatch: .total
        }
    }

    /// Where the second look should read: for a doubt about the vendor only, the top third of the
    /// page, where names are printed (a third of the cost of a page); for anything else, the whole
    /// page (nil).
    public func secondLookRegion(width: Int, height: Int) -> BoundingBox? {
        switch self {
        case .unsureVendor, .noVendor:
            guard width > 0, height > 0 else { return nil }
            return BoundingBox(x: 0, y: 0, width: width, height: max(1, height / 3))
        case .noTotal, .noDate, .subtotalTaxMismatch, .unsureTotal:
            return nil
        }
    }
}
