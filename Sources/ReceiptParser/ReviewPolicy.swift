import ReceiptModel

/// When a parsed receipt needs a person to look at it: one rule for every front end
/// (the CLI marks such fields `?`, batch stores the receipt as "needs review").
public enum ReviewPolicy {
    /// Below this confidence a field is unsure.
    public static let threshold = 0.5

    /// A headline field (vendor, date, total) is missing or unsure.
    public static func needsReview(_ r: ParsedReceipt) -> Bool {
        guard let v = r.vendor, let d = r.date, let t = r.total else { return true }
        return min(v.confidence, d.confidence, t.confidence) < threshold
    }

    public static func isUnsure(confidence: Double) -> Bool { confidence < threshold }
}
