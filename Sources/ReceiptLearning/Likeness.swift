import Foundation

/// A text as the multiset of its character trigrams: two OCR readings of one header share most of
/// them even when a few letters differ ("HOLLLNS SUPERWARKE" and "HOLLINS SUPERMARKET").
public struct Trigrams: Sendable, Hashable {
    public let counts: [String: Int]
    public let total: Int

    public init(_ text: String) {
        let chars = Array(" " + text + " ")
        var counts: [String: Int] = [:]
        if chars.count >= 3 {
            for i in 0...(chars.count - 3) { counts[String(chars[i..<(i + 3)]), default: 0] += 1 }
        }
        self.counts = counts
        total = counts.values.reduce(0, +)
    }

    /// Dice's coefficient of the two multisets: 1 for the same text, 0 for nothing in common.
    public func likeness(_ other: Trigrams) -> Double {
        guard total > 0, other.total > 0 else { return 0 }
        let (small, large) = counts.count <= other.counts.count ? (self, other) : (other, self)
        var shared = 0
        for (g, n) in small.counts { if let m = large.counts[g] { shared += min(n, m) } }
        return 2 * Double(shared) / Double(total + other.total)
    }
}
