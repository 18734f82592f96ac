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

    /// `(?<![\d.,])(\d{1,3}(?:[.,]\d{1,3})?)\s*(?:[xX×@*]|(?:lb|kg|KG|LB|Ib|kilos?|KILOS?)\s*@)\s*(?:RM|\$|€|£)?\s*(\d+[.,]\d{2})`
    /// (`ReceiptParser.quantityTimesPrice`, case-insensitive), the first match: "2 x 4.80", "1.23 lb @ 0.59".
    static func timesPrice(_ s: String) -> Match? {
        scanGroups(s, ReceiptParser.quantityTimesPrice, first: true) { b in
            let n = b.count
            @inline(__always) func digit(_ i: Int) -> Bool { i < n && Bytes.isDigit(b[i]) }
            @inline(__always) func lower(_ i: Int) -> UInt8 { i < n ? b[i] | 0x20 : 0 }
            @inline(__always) func spaces(_ i: Int) -> Int { var i = i; while i < n, b[i] == 0x20 { i += 1 }; return i }
            /// After the quantity (ending at `a`): the sign or unit, the currency, the price; the price's range.
            func rest(_ a: Int) -> Range<Int>? {
                // (Each `\s*` is followed by what no space begins, so only its longest run can go on.)
                var p = spaces(a)
                guard p < n else { return nil }
                let c = b[p]
                if c == UInt8(ascii: "x") || c == UInt8(ascii: "X") || c == UInt8(ascii: "@") || c == UInt8(ascii: "*") {
                    p += 1
                } else {
                    // lb, kg, ib, kilos, kilo in any case, then spaces and an "@" (at most one of them can go on)
                    var u = p
                    let l0 = lower(p), l1 = lower(p + 1)
                    if (l0 == 0x6C && l1 == 0x62) || (l0 == 0x6B && l1 == 0x67) || (l0 == 0x69 && l1 == 0x62) {
                        u = p + 2
                    } else if l0 == 0x6B && l1 == 0x69 && lower(p + 2) == 0x6C && lower(p + 3) == 0x6F {
                        // "kilos" first; "kilo" before an "s" leaves the "s" where the "@" must be
                        u = lower(p + 4) == 0x73 ? p + 5 : p + 4
                    } else {
                        return nil
                    }
                    let at = spaces(u)
                    guard at < n, b[at] == UInt8(ascii: "@") else { return nil }
                    p = at + 1
                }
                // spaces, "RM" or "$" (taken where printed: no price begins with either), spaces
                p = spaces(p)
                if lower(p) == 0x72 && lower(p + 1) == 0x6D { p = spaces(p + 2) } else if p < n, b[p] == UInt8(ascii: "$") { p = spaces(p + 1) }
                // `\d+[.,]\d{2}`: the longest run of digits (a shorter one leaves a digit where the point must be)
                var t = p
                while digit(t) { t += 1 }
                guard t > p, t < n, b[t] == UInt8(ascii: ".") || b[t] == UInt8(ascii: ","), digit(t + 1), digit(t + 2) else { return nil }
                return p..<(t + 3)
            }
            var st = 0
            while st < n {
                defer { st += 1 }
                guard Bytes.isDigit(b[st]) else { continue }
                if st > 0, Bytes.isDigit(b[st - 1]) || b[st - 1] == UInt8(ascii: ".") || b[st - 1] == UInt8(ascii: ",") { continue }
                var run = st
                while digit(run) { run += 1 }
                // `\d{1,3}`, longest first, then the optional fraction `[.,]\d{1,3}`, longest first, then without it.
                for k1 in stride(from: min(3, run - st), through: 1, by: -1) {
                    let a = st + k1
                    if a < n, b[a] == UInt8(ascii: ".") || b[a] == UInt8(ascii: ",") {
                        var run2 = a + 1
                        while digit(run2) { run2 += 1 }
                        for k2 in stride(from: min(3, run2 - a - 1), through: 1, by: -1) {
                            if let price = rest(a + 1 + k2) { return (st..<price.upperBound, [st..<(a + 1 + k2), price]) }
                        }
                    }
                    if let price = rest(a) { return (st..<price.upperBound, [st..<a, price]) }
                }
            }
            return nil
        }
    }

    /// `hand` on the bytes of printable ASCII text (the whole match and group 1, as byte offsets), else the
    /// expression's first or last match: `scanGroups` with one group.
    private static func scan(_ s: String, _ pattern: Pattern, first: Bool,
                             _ hand: (UnsafeBufferPointer<UInt8>) -> (whole: Range<Int>, group: Range<Int>)?) -> Match? {
        scanGroups(s, pattern, first: first) { b in hand(b).map { ($0.whole, [$0.group]) } }
    }

    /// `scan` with any number of groups: `hand` gives the whole match and each group's range.
    ///
    /// A line whose only characters not ASCII are signs ("2 × £1.50": `Bytes.printableWithNeutralSigns`) and Latin letters
    /// ("2 × Brötchen") is matched by hand too, on a stand-in (`signStandIn`, `onStandIn`) in which each sign and letter is
    /// one byte these expressions take as they take it: each is one scalar and one character, so a place in the
    /// stand-in is a place in the line's scalars.
    private static func scanGroups(_ s: String, _ pattern: Pattern, first: Bool,
                                   _ hand: (UnsafeBufferPointer<UInt8>) -> (whole: Range<Int>, groups: [Range<Int>])?) -> Match? {
        // (The hand's answer, and whether its places are scalars': nil, the expression's.)
        let found = s.utf8.withContiguousStorageIfAvailable { b -> (result: (whole: Range<Int>, groups: [Range<Int>])?, byScalars: Bool)? in
            if b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return (hand(b), false) }
            return onStandIn(b, hand).map { ($0, true) }
        }
        guard case let .some(.some((result, byScalars))) = found else {
            let all = pattern.matches(in: s)
            return first ? all.first : all.last
        }
        guard let (whole, groups) = result else { return nil }
        let u = s.utf8, scalars = s.unicodeScalars
        func at(_ k: Int) -> String.Index { byScalars ? scalars.index(scalars.startIndex, offsetBy: k) : u.index(u.startIndex, offsetBy: k) }
        let range = at(whole.lowerBound)..<at(whole.upperBound)
        return ([String(s[range])] + groups.map { String(s[at($0.lowerBound)..<at($0.upperBound)]) }, range)
    }

    /// `hand` on the stand-in of a line whose only characters not ASCII are signs and Latin letters (its answer wrapped);
    /// nil for any other line. A Latin letter (`Bytes.latinLower`) is "q" there: a letter (`\S`, no `\s` or `\d`) of none
    /// of the expressions' literals and classes ("x", "lb", "kg", "kilos", "oz", "RM"; no "ss" a "ß" could fold to), as
    /// the letter is. (Out of line: the callers' path for printable ASCII stays small.)
    @inline(never) static func onStandIn(_ b: UnsafeBufferPointer<UInt8>,
                                       _ hand: (UnsafeBufferPointer<UInt8>) -> (whole: Range<Int>, groups: [Range<Int>])?)
        -> (whole: Range<Int>, groups: [Range<Int>])?? {
        guard Bytes.kinds(b).signsOrLetters else { return nil }
        return .some(Bytes.standIn(b) { Bytes.latinLower($0) != nil ? UInt8(ascii: "q") : signStandIn($0) }.withUnsafeBufferPointer(hand))
    }

    /// A sign's byte in the quantities' stand-in (`Bytes.standIn`): "×" as "x" (the quantity expressions name the two
    /// together, `[xX×…]`, and no other letter beside them), "£" and "€" as "$" (`quantityTimesPrice` names the three
    /// together, `(?:RM|\$|€|£)`, and the others none of them), any other sign as "#" (which none names: in none of their
    /// classes, no digit, space or letter, as the sign).
    static func signStandIn(_ u: Unicode.Scalar) -> UInt8 {
        u == "\u{00D7}" ? UInt8(ascii: "x") : u == "\u{00A3}" || u == "\u{20AC}" ? UInt8(ascii: "$") : UInt8(ascii: "#")
    }

    /// Every match of `pattern` in `s`, as `Pattern.matches(in:)` gives them: on printable ASCII found by `hand`
    /// (the first match starting at or after a byte offset: the whole match, non-empty, and each group's range,
    /// nil where a group took no part), each search going on where the last match ended; any other text is
    /// asked of the expression.
    ///
    /// `standIn`: a line of printable ASCII and scalars it gives a byte for is matched by hand too, on its stand-in (a
    /// byte a scalar, each scalar's byte one the expression takes as it takes the scalar, and each scalar a character
    /// of its own); a scalar it gives nil for sends the line to the expression.
    static func allMatches(_ s: String, _ pattern: Pattern, standIn: ((Unicode.Scalar) -> UInt8?)? = nil,
                           _ hand: (UnsafeBufferPointer<UInt8>, Int) -> (whole: Range<Int>, groups: [Range<Int>?])?) -> [Match] {
        func all(_ b: UnsafeBufferPointer<UInt8>) -> [(whole: Range<Int>, groups: [Range<Int>?])] {
            var out: [(whole: Range<Int>, groups: [Range<Int>?])] = []
            var from = 0
            while from < b.count, let m = hand(b, from) {
                out.append(m)
                from = m.whole.upperBound
            }
            return out
        }
        // (The hand's matches, and whether their places are scalars': nil, the expression's.)
        let found = s.utf8.withContiguousStorageIfAvailable { b -> (results: [(whole: Range<Int>, groups: [Range<Int>?])], byScalars: Bool)? in
            if b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return (all(b), false) }
            guard let standIn, let stand = Bytes.standIn(printable: b, standIn) else { return nil }
            return (stand.withUnsafeBufferPointer(all), true)
        }
        guard case let .some(.some((results, byScalars))) = found else { return pattern.matches(in: s) }
        if results.isEmpty { return [] }
        let u = s.utf8, scalars = s.unicodeScalars
        func at(_ k: Int) -> String.Index { byScalars ? scalars.index(scalars.startIndex, offsetBy: k) : u.index(u.startIndex, offsetBy: k) }
        return results.map { whole, groups in
            let range = at(whole.lowerBound)..<at(whole.upperBound)
            return ([String(s[range])] + groups.map { g in g.map { String(s[at($0.lowerBound)..<at($0.upperBound)]) } }, range)
        }
    }
}

