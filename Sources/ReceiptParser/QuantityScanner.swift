import Foundation

/// The item rows' quantity expressions (`ReceiptParser.quantityPrefix`, `leadingQuantity`, `trailingQuantity`)
/// matched by hand on printable ASCII: each the expression's own match (the first, or for `trailingQuantity` the
/// last), found in its greedy and backtracking order, with its groups and range. Any other text is asked of the
/// expression. A speed trick: NSRegularExpression costs thousands of instructions a call, and these are asked of
/// most priced rows. `HandScannerTests` holds each to its expression.
enum QuantityScanner {
    typealias Match = (groups: [String?], range: Range<String.Index>)

    /// `^\s*(\d{1,3})\s*[xX×@*]\s+`, the first match.
    static func prefix(_ s: String) -> Match? {
        scan(s, ReceiptParser.quantityPrefix, first: true) { b in
            let n = b.count
            var i = 0
            while i < n, b[i] == 0x20 { i += 1 }
            var j = i
            while j < n, Bytes.isDigit(b[j]) { j += 1 }
            // (A run of four digits or more: `\d{1,3}` leaves a digit, which neither a space nor a sign matches.)
            guard (1...3).contains(j - i) else { return nil }
            var p = j
            while p < n, b[p] == 0x20 { p += 1 }
            guard p < n, b[p] == UInt8(ascii: "x") || b[p] == UInt8(ascii: "X") || b[p] == UInt8(ascii: "@") || b[p] == UInt8(ascii: "*")
            else { return nil }
            var q = p + 1
            guard q < n, b[q] == 0x20 else { return nil }
            while q < n, b[q] == 0x20 { q += 1 }
            return (0..<q, i..<j)
        }
    }

    /// `^\s*(\d{1,2})(?:\s*[xX×]\s*|\s+)(?=\S)`, the first match.
    static func leading(_ s: String) -> Match? {
        scan(s, ReceiptParser.leadingQuantity, first: true) { b in
            let n = b.count
            var i = 0
            while i < n, b[i] == 0x20 { i += 1 }
            var j = i
            while j < n, Bytes.isDigit(b[j]) { j += 1 }
            guard j - i == 1 || j - i == 2 else { return nil }
            // An "x" after the digits and spaces, then spaces and something that is not one.
            var p = j
            while p < n, b[p] == 0x20 { p += 1 }
            if p < n, b[p] == UInt8(ascii: "x") || b[p] == UInt8(ascii: "X") {
                var q = p + 1
                while q < n, b[q] == 0x20 { q += 1 }
                if q < n { return (0..<q, i..<j) }
            }
            // Else spaces, then something that is not one (an "x" among them).
            guard p > j, p < n else { return nil }
            return (0..<p, i..<j)
        }
    }

    /// `\s(\d{1,3})\s*[xX×]?\s*$`, the last match (there is at most one: it ends the text).
    static func trailing(_ s: String) -> Match? {
        scan(s, ReceiptParser.trailingQuantity, first: false) { b in
            var end = b.count
            while end > 0, b[end - 1] == 0x20 { end -= 1 }
            if end > 0, b[end - 1] == UInt8(ascii: "x") || b[end - 1] == UInt8(ascii: "X") { end -= 1 }
            while end > 0, b[end - 1] == 0x20 { end -= 1 }
            var start = end
            while start > 0, Bytes.isDigit(b[start - 1]) { start -= 1 }
            guard (1...3).contains(end - start), start > 0, b[start - 1] == 0x20 else { return nil }
            return (start - 1..<b.count, start..<end)
        }
    }

    /// `hand` on the bytes of printable ASCII text (the whole match and group 1, as byte offsets), else the
    /// expression's first or last match.
    private static func scan(_ s: String, _ pattern: Pattern, first: Bool,
                             _ hand: (UnsafeBufferPointer<UInt8>) -> (whole: Range<Int>, group: Range<Int>)?) -> Match? {
        let found = s.utf8.withContiguousStorageIfAvailable { b -> (whole: Range<Int>, group: Range<Int>)?? in
            guard b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return .none }
            return .some(hand(b))
        }
        guard case let .some(.some(result)) = found else {
            let all = pattern.matches(in: s)
            return first ? all.first : all.last
        }
        guard let (whole, group) = result else { return nil }
        let u = s.utf8
        func at(_ k: Int) -> String.Index { u.index(u.startIndex, offsetBy: k) }
        let range = at(whole.lowerBound)..<at(whole.upperBound)
        return ([String(s[range]), String(s[at(group.lowerBound)..<at(group.upperBound)])], range)
    }
}
