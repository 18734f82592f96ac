import Foundation
import ReceiptModel

/// Total, subtotal, tax, rounding, cash and change, read from keyword lines and
/// checked against each other by arithmetic.
struct MoneyFields {
    struct Found {
        var amount: Amount
        var keyword: CompiledRules.Keyword
        var line: ParseLine
        var score: Double
        var notes: [String]
    }

    let lines: [ParseLine]
    let rules: CompiledRules
    var subtotalFound: Found?
    var taxFound: Found?
    var roundingFound: Found?
    var discountFound: Found?
    var cashFound: Found?
    var changeFound: Found?
    var totalCandidates: [Found] = []
    /// The first line of the totals block (subtotal/total/tax); line items stop before it.
    var firstSummaryLine: Int?

    init(lines: [ParseLine], rules: CompiledRules) {
        self.lines = lines
        self.rules = rules
        subtotalFound = Self.find(rules.subtotal, lines, rules).first
        taxFound = Self.find(rules.tax, lines, rules, exclude: rules.taxExclude).first
        roundingFound = Self.find(rules.rounding, lines, rules, allowNegative: true).first
        discountFound = Self.find(rules.discount, lines, rules, allowNegative: true).first
        cashFound = Self.find(rules.cash, lines, rules).first
        changeFound = Self.find(rules.change, lines, rules).first
        totalCandidates = Self.find(rules.total, lines, rules, exclude: rules.totalDistractors, all: true)
        firstSummaryLine = ([subtotalFound, taxFound].compactMap { $0?.line.index } + totalCandidates.map(\.line.index)).min()
    }

    /// Lines carrying one of `keywords` (and none of `exclude` that contains it), with the amount on the line or the next.
    static func find(_ keywords: [CompiledRules.Keyword], _ lines: [ParseLine], _ rules: CompiledRules,
                     exclude: [CompiledRules.Keyword] = [], allowNegative: Bool = false, all: Bool = false) -> [Found] {
        var out: [Found] = []
        for (i, l) in lines.enumerated() {
            guard let kw = rules.best(keywords, in: l.words) else { continue }
            // A distractor that includes the keyword ("sub total" ⊃ "total") takes the line away.
            let blocking = exclude.first { l.words.contains($0.normalised) && ($0.normalised.contains(kw.normalised) || kw.normalised.contains($0.normalised) == false && $0.normalised.count > kw.normalised.count) }
            if let b = blocking, b.normalised.contains(kw.normalised) { continue }
            var notes: [String] = []
            var score = kw.weight
            if let b = blocking { score *= 0.6; notes.append("also says '\(b.raw)'") }
            var amounts = l.amounts.filter { !$0.isPercent && (allowNegative || !$0.negative) }
            var source = l
            if amounts.isEmpty, i + 1 < lines.count {
                let next = lines[i + 1]
                // The value on the next line, when that line is only a number (two-column layouts).
                if next.words.letterCount <= 3, rules.best(keywords, in: next.words) == nil {
                    amounts = next.amounts.filter { !$0.isPercent && (allowNegative || !$0.negative) }
                    if !amounts.isEmpty { score *= 0.85; notes.append("amount on the next line"); source = next }
                }
            }
            guard let a = amounts.last else { continue }
            if !a.repairs.isEmpty { score -= 0.1 * Double(a.repairs.count); notes += a.repairs }
            let value = a.negative ? Amount(0) - a.amount : a.amount
            out.append(Found(amount: value, keyword: kw, line: source, score: score, notes: ["keyword '\(kw.raw)'"] + notes))
            if !all { break }
        }
        return out
    }

    var subtotal: Field<Amount>? { subtotalFound.map(field(rule: "subtotal.keyword")) }
    var tax: Field<Amount>? { taxFound.map(field(rule: "tax.keyword")) }

    func field(rule: String) -> (Found) -> Field<Amount> {
        { f in Field(f.amount, confidence: 0.5 + 0.4 * f.score, evidence: f.line.evidence(rule: rule, notes: f.notes)) }
    }

    static func same(_ a: Amount, _ b: Amount) -> Bool { (a - b).magnitude <= Amount(cents: 1) }

    /// The total: keyword candidates ranked, then confirmed or re-ranked by arithmetic.
    func total(lineItems: [LineItem]) -> (Field<Amount>?, [String]) {
        var checks: [String] = []
        var candidates = totalCandidates
        // Arithmetic can name the total even when no keyword line has it right.
        if let s = subtotalFound?.amount, let t = taxFound?.amount {
            var expected = s + t
            if let r = roundingFound?.amount { expected = expected + r }
            if let d = discountFound?.amount { expected = expected - d.magnitude }
            if let l = lines.last(where: { $0.amounts.contains { Self.same($0.amount, expected) } }), !candidates.contains(where: { Self.same($0.amount, expected) }) {
                candidates.append(Found(amount: expected, keyword: .init(raw: "subtotal + tax", normalised: "", weight: 0.5), line: l, score: 0.45,
                                        notes: ["printed amount equal to subtotal + tax"]))
            }
        }
        if let c = cashFound?.amount, let g = changeFound?.amount, c > g {
            let expected = c - g
            if let l = lines.last(where: { $0.amounts.contains { Self.same($0.amount, expected) } }), !candidates.contains(where: { Self.same($0.amount, expected) }) {
                candidates.append(Found(amount: expected, keyword: .init(raw: "cash − change", normalised: "", weight: 0.5), line: l, score: 0.45,
                                        notes: ["printed amount equal to cash − change"]))
            }
        }
        if candidates.isEmpty {
            // No keyword: the largest amount on the receipt, outside payment lines; low confidence.
            let pool = lines.filter { !$0.words.padded.contains(" change ") && rules.any(rules.cash, in: $0.words) == nil }
            if let (a, l) = pool.flatMap({ l in l.amounts.filter { !$0.isPercent && !$0.negative }.map { ($0, l) } }).max(by: { $0.0.amount < $1.0.amount }) {
                candidates.append(Found(amount: a.amount, keyword: .init(raw: "largest amount", normalised: "", weight: 0.3), line: l, score: 0.3,
                                        notes: ["no total keyword; largest amount on the receipt"]))
            }
        }
        guard !candidates.isEmpty else { return (nil, ["total: no candidate"]) }

        let maxAmount = candidates.map(\.amount).max()!
        var scored: [(Found, Double, [String])] = []
        for c in candidates {
            var score = c.score
            var notes = c.notes
            let v = c.amount
            if let s = subtotalFound?.amount, let t = taxFound?.amount {
                var sum = s + t, formula = "subtotal \(s) + tax \(t)"
                if let r = roundingFound?.amount { sum = sum + r; formula += " + rounding \(r)" }
                if let d = discountFound?.amount { sum = sum - d.magnitude; formula += " − discount \(d.magnitude)" }
                if Self.same(sum, v) { score += 0.3; notes.append("\(formula) = \(v)") }
                else if let r = roundingFound?.amount, Self.same(s + t, v) || Self.same(s + t + r, v) { score += 0.25; notes.append("subtotal \(s) + tax \(t) = \(v)") }
                else if Self.same(s, v) { score += 0.1; notes.append("equals the subtotal (tax included)") }
            } else if let s = subtotalFound?.amount {
                if Self.same(s, v) { score += 0.1; notes.append("equals the subtotal") }
                else if let r = roundingFound?.amount, Self.same(s + r, v) { score += 0.25; notes.append("subtotal \(s) + rounding \(r) = \(v)") }
                else if v < s, discountFound == nil { score -= 0.15; notes.append("below the subtotal \(s)") }
            }
            if let c = cashFound?.amount, let g = changeFound?.amount, Self.same(c - g, v) {
                score += 0.25; notes.append("cash \(c) − change \(g) = \(v)")
            } else if let c = cashFound?.amount, changeFound == nil, Self.same(c, v) {
                score += 0.1; notes.append("equals the amount paid")
            } else if let c = cashFound?.amount, v > c, changeFound != nil {
                score -= 0.1; notes.append("more than the \(c) paid")
            }
            let itemSum = lineItems.reduce(Amount(0)) { $0 + $1.amount }
            if lineItems.count >= 2, Self.same(itemSum, v) { score += 0.1; notes.append("line items add up to \(v)") }
            // Printed more than once on total-like lines.
            let repeats = candidates.filter { $0.line.index != c.line.index && Self.same($0.amount, v) }.count
            if repeats > 0 { score += min(0.1, 0.05 * Double(repeats)); notes.append("printed \(repeats + 1)×") }
            if v == maxAmount { score += 0.03 }
            if v.value == 0 { score -= 0.5 }
            scored.append((c, score, notes))
        }
        scored.sort { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0.line.index > $1.0.line.index) }
        let best = scored[0]
        checks += best.2.filter { $0.contains("=") }
        if subtotalFound != nil, taxFound != nil, !best.2.contains(where: { $0.contains("=") && $0.contains("tax") }) {
            checks.append("subtotal + tax ≠ total")
        }
        let rejected = scored.dropFirst().filter { !Self.same($0.0.amount, best.0.amount) }.prefix(5).map {
            Candidate(value: $0.0.amount.description, score: $0.1, evidence: $0.0.line.evidence(rule: "total.keyword", notes: $0.2))
        }
        let rule = best.0.keyword.normalised.isEmpty ? "total.\(best.0.keyword.raw.replacingOccurrences(of: " ", with: "-"))" : "total.keyword"
        let field = Field(best.0.amount, confidence: 0.2 + 0.6 * best.1, evidence: best.0.line.evidence(rule: rule, notes: best.2), rejected: Array(rejected))
        return (field, checks)
    }
}
