import Foundation
import ReceiptModel

/// The fields beyond vendor, date and total read as `../shared/tools/extras.py` reads them, so that
/// `receipts eval` and that script give the same figures on the same receipts: money as the last
/// `\d+[.,]\d\d` in the text with spaces dropped ("$12,480.00" is "0.00" to it, "24,000" is "24.00"),
/// a time as the first `h:mm` with am/pm anywhere in the text, names compared lower-case without
/// spaces by difflib's `SequenceMatcher.ratio` (Ratcliff/Obershelp).
///
/// Shares no code with the parser, as `LabelValue` does not.
public enum ExtrasScorer {
    static let moneyPattern = regex(#"\d+[.,]\d\d"#)
    static let timePattern = regex(#"(\d{1,2}):(\d\d)"#)
    static let pm = regex(#"p\.?m"#), am = regex(#"a\.?m"#)

    static func regex(_ p: String) -> NSRegularExpression {
        do { return try NSRegularExpression(pattern: p) } catch { preconditionFailure("bad built-in pattern \(p)") }
    }

    /// `money(s)`: the last amount with two decimals in `s` (spaces dropped), with a dot; nil when none.
    public static func money(_ s: String?) -> String? {
        guard let s else { return nil }
        let t = s.replacingOccurrences(of: " ", with: "")
        guard let m = moneyPattern.matches(in: t, range: NSRange(t.startIndex..., in: t)).last,
              let r = Range(m.range, in: t) else { return nil }
        return t[r].replacingOccurrences(of: ",", with: ".")
    }

    /// `tnorm(s)`: the first `h:mm` in `s` as "HH:MM", 12 added for "pm" (or "p.m") anywhere in the
    /// text before 12, 12 taken away for "am" at 12; nil when there is none.
    public static func time(_ s: String?) -> String? {
        guard let s, let m = timePattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)),
              let hr = Range(m.range(at: 1), in: s), let mr = Range(m.range(at: 2), in: s),
              var h = Int(s[hr]), let mi = Int(s[mr]) else { return nil }
        let lower = s.lowercased()
        func has(_ re: NSRegularExpression) -> Bool { re.firstMatch(in: lower, range: NSRange(lower.startIndex..., in: lower)) != nil }
        if has(pm), h < 12 { h += 12 }
        if has(am), h == 12 { h = 0 }
        return (h < 10 ? "0" : "") + "\(h):" + (mi < 10 ? "0" : "") + "\(mi)"
    }

    /// How alike a labelled item name and a line item's description are, as extras.py compares them:
    /// lower case, spaces dropped, `SequenceMatcher(None, a, b).ratio()`.
    public static func likeness(_ label: String, _ description: String) -> Double {
        func prep(_ s: String) -> [Unicode.Scalar] { Array(s.lowercased().replacingOccurrences(of: " ", with: "").unicodeScalars) }
        return ratio(prep(label), prep(description))
    }

    /// difflib's `SequenceMatcher(None, a, b).ratio()`: twice the characters in matching blocks over
    /// both lengths, the blocks found as it finds them (the longest match, earliest in `a`, then
    /// earliest in `b`; then the same left and right of it). With its automatic junk heuristic: when
    /// `b` has 200 or more elements, an element more frequent than 1 % of it (+1) starts no match.
    public static func ratio(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
        let total = a.count + b.count
        guard total > 0 else { return 1 }
        var b2j: [Unicode.Scalar: [Int]] = [:]
        for (j, c) in b.enumerated() { b2j[c, default: []].append(j) }
        if b.count >= 200 {
            let limit = b.count / 100 + 1
            for (c, js) in b2j where js.count > limit { b2j[c] = nil }
        }
        func longest(_ alo: Int, _ ahi: Int, _ blo: Int, _ bhi: Int) -> (Int, Int, Int) {
            var (besti, bestj, bestsize) = (alo, blo, 0)
            var j2len: [Int: Int] = [:]
            for i in alo..<ahi {
                var next: [Int: Int] = [:]
                for j in b2j[a[i]] ?? [] {
                    if j < blo { continue }
                    if j >= bhi { break }
                    let k = (j2len[j - 1] ?? 0) + 1
                    next[j] = k
                    if k > bestsize { (besti, bestj, bestsize) = (i - k + 1, j - k + 1, k) }
                }
                j2len = next
            }
            // Popular elements were left out of b2j, not made junk: a match grows through them.
            while besti > alo, bestj > blo, a[besti - 1] == b[bestj - 1] { besti -= 1; bestj -= 1; bestsize += 1 }
            while besti + bestsize < ahi, bestj + bestsize < bhi, a[besti + bestsize] == b[bestj + bestsize] { bestsize += 1 }
            return (besti, bestj, bestsize)
        }
        var matched = 0
        var queue = [(0, a.count, 0, b.count)]
        while let (alo, ahi, blo, bhi) = queue.popLast() {
            let (i, j, k) = longest(alo, ahi, blo, bhi)
            guard k > 0 else { continue }
            matched += k
            if alo < i, blo < j { queue.append((alo, i, blo, j)) }
            if i + k < ahi, j + k < bhi { queue.append((i + k, ahi, j + k, bhi)) }
        }
        return 2 * Double(matched) / Double(total)
    }

    /// Names at least this alike count as found.
    public static let alikeEnough = 0.8

    /// Each labelled price (as `money` reads it) taken from the pool of the line items' amounts,
    /// once each, in label order: which were found, and how many amounts were left over (extra).
    public static func matchPrices(labelled: [String], amounts: [String]) -> (found: [Bool], extra: Int) {
        var pool = amounts.compactMap(money)
        let found = labelled.map { p -> Bool in
            guard let i = pool.firstIndex(of: p) else { return false }
            pool.remove(at: i)
            return true
        }
        return (found, pool.count)
    }
}

/// What a label says about the fields beyond vendor, date and total: wild-dev's keys (`subtotal`,
/// `tax`, `time`, `item_names`, `item_prices`, boxes joined with " | ") or our sidecars (`line_items`).
public struct ExtraLabels: Sendable {
    /// A labelled value: as written, and as the scorer reads it.
    public struct Value: Sendable, Hashable {
        public var text: String
        public var scored: String
        public init(text: String, scored: String) { self.text = text; self.scored = scored }
    }

    public var subtotal: Value?
    public var tax: Value?
    public var time: Value?
    /// Nil when the label says nothing about line items: then none is scored, nor any extra counted.
    public var itemPrices: [Value]?
    public var itemNames: [String]?

    public init(subtotal: Value? = nil, tax: Value? = nil, time: Value? = nil, itemPrices: [Value]? = nil, itemNames: [String]? = nil) {
        self.subtotal = subtotal; self.tax = tax; self.time = time; self.itemPrices = itemPrices; self.itemNames = itemNames
    }

    /// From a key's JSON object.
    public init(_ obj: [String: Any]) {
        func text(_ k: String) -> String? {
            if let s = obj[k] as? String { return s }
            return (obj[k] as? NSNumber)?.stringValue
        }
        func money(_ k: String) -> Value? { text(k).flatMap { t in ExtrasScorer.money(t).map { Value(text: t, scored: $0) } } }
        subtotal = money("subtotal")
        tax = money("tax")
        time = text("time").flatMap { t in ExtrasScorer.time(t).map { Value(text: t, scored: $0) } }
        if let prices = obj["item_prices"] as? [Any] {
            itemPrices = prices.compactMap { p in
                let t = (p as? String) ?? (p as? NSNumber)?.stringValue ?? ""
                return ExtrasScorer.money(t).map { Value(text: t, scored: $0) }
            }
            itemNames = (obj["item_names"] as? [Any] ?? []).map { ($0 as? String) ?? "" }
        } else if let items = obj["line_items"] as? [[String: Any]] {
            itemPrices = items.compactMap { i in
                let t = (i["amount"] as? String) ?? (i["amount"] as? NSNumber)?.stringValue ?? ""
                return ExtrasScorer.money(t).map { Value(text: t, scored: $0) }
            }
            itemNames = items.map { ($0["description"] as? String) ?? "" }
        }
    }
}
