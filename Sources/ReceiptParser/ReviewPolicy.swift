import ReceiptModel

/// When a parsed receipt needs a person to look at it: one rule for every front end
/// (the CLI marks such fields `?`, batch stores the receipt as "needs review").
public enum ReviewPolicy {
    /// Below this confidence a field is unsure.
    public static let threshold = 0.5

    /// A headline field (vendor, date, total) is missing or unsure, or the parser left something out (`warnings`: an
    /// image not all decoded, an enormous input cut short).
    public static func needsReview(_ r: ParsedReceipt) -> Bool { reason(r) != nil }

    /// Why `r` needs review, in words, or nil when it does not.
    public static func reason(_ r: ParsedReceipt) -> String? {
        if let w = r.warnings?.first { return w }
        guard let v = r.vendor, let d = r.date, let t = r.total, min(v.confidence, d.confidence, t.confidence) >= threshold else {
            return "a field is missing or unsure"
        }
        return nil
    }

    public static func isUnsure(confidence: Double) -> Bool { confidence < threshold }
}
