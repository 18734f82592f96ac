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
    /// A heading of the tax breakdown table ("GST SUMMARY"): "TOTAL" lines below it are the table's.
    var taxTableLine: Int?

    init(lines: [ParseLine], rules: CompiledRules) {
        self.lines = lines
        self.rules = rules
        subtotalFound = Self.find(rules.subtotal, lines, rules).first
        // The best tax line, not the first: "Total (incl. GST) 31.47" says GST too, but is a total.
        let taxLines = Self.find(rules.tax, lines, rules, exclude: rules.taxExclude, all: true)
        // A line that is also a strong total ("Total Amt incl. GST @ 6%") is the total, not the tax.
        let taxScored = taxLines.map { t in (t, t.score - ((rules.best(rules.total, in: t.line.words)?.weight ?? 0) >= 0.9 ? 0.5 : 0)) }
        taxFound = taxScored.first { t in !taxScored.contains { $0.1 > t.1 } }?.0
        // A rounding adjustment is less than the smallest note; "Rounding RM 177.20" is the rounded total.
        let roundingLines = Self.find(rules.rounding, lines, rules, allowNegative: true, all: true)
        roundingFound = roundingLines.first { $0.amount.magnitude < Amount(1) }
        discountFound = Self.find(rules.discount, lines, rules, allowNegative: true).first
        cashFound = Self.find(rules.cash, lines, rules, exclude: rules.cashExclude).first
        // Change is printed with a sign now and then ("20.00-"): it is never owed the other way.
        changeFound = Self.find(rules.change, lines, rules, exclude: rules.changeExclude, allowNegative: true).first.map { f in var f = f; f.amount = f.amount.magnitude; return f }
        totalCandidates = Self.find(rules.total, lines, rules, exclude: rules.totalDistractors, all: true)
        for r in roundingLines where r.amount >= Amount(1) && !r.amount.description.hasPrefix("-") && !totalCandidates.contains(where: { $0.line.index == r.line.index }) {
            totalCandidates.append(Found(amount: r.amount, keyword: .init(raw: "rounded total", normalised: "", weight: 0.75), line: r.line,
                                         score: 0.75 * r.keyword.weight, notes: r.notes + ["a rounding line holding a total-sized amount"]))
        }
        taxTableLine = lines.first { l in l.amounts.isEmpty && rules.any(rules.totalTables, in: l.words) != nil }?.index
        firstSummaryLine = ([subtotalFound, taxFound].compactMap { $0?.line.index } + totalCandidates.map(\.line.index)).min()
    }

    /// Where a label line's value is, when the line itself holds none.
    struct Paired { var line: ParseLine; var amounts: [FoundAmount]; var factor: Double; var note: String }

    /// Lines with no letters beyond a currency word ("RM", ":", "(RM)"): layout filler between a label and its value.
    static func isFiller(_ l: ParseLine, _ rules: CompiledRules) -> Bool {
        guard l.amounts.isEmpty, !isBareNumber(l) else { return false }
        let words = l.words.words
        if words.isEmpty { return true }
        return words.count == 1 && (rules.currencyWords.contains(String(words[0])) || words[0].count <= 1) && l.words.digitCount == 0
    }

    static func isAmountOnly(_ l: ParseLine) -> Bool {
        (!l.amounts.filter { !$0.isPercent }.isEmpty && l.words.letterCount <= 3) || isBareNumber(l)
    }

    /// "0" on its own line: a value printed without decimals; it holds a place in a column of values.
    static func isBareNumber(_ l: ParseLine) -> Bool {
        let t = l.text.trimmingCharacters(in: .whitespaces)
        return !t.isEmpty && t.count <= 3 && t.allSatisfy { $0.isNumber || $0 == "-" } && t.contains(where: \.isNumber)
    }

    static func isLabel(_ l: ParseLine) -> Bool {
        l.amounts.filter { !$0.isPercent }.isEmpty && l.words.letterCount >= 2
    }

    /// The value of label line `i` when it has none: the next amount-only line (past filler), or, when the
    /// text came out column by column (labels, then their values), the value at the same place in the
    /// block of values that follows the block of labels.
    static func pairedValue(_ i: Int, _ lines: [ParseLine], _ rules: CompiledRules) -> Paired? {
        var labels: [Int] = [i]
        var j = i - 1
        while j >= 0, j >= i - 12 {
            if isFiller(lines[j], rules) { j -= 1; continue }
            guard isLabel(lines[j]) else { break }
            labels.insert(j, at: 0); j -= 1
        }
        j = i + 1
        while j < lines.count, j <= i + 12 {
            if isFiller(lines[j], rules) { j += 1; continue }
            guard isLabel(lines[j]) else { break }
            labels.append(j); j += 1
        }
        var values: [Int] = []
        while j < lines.count, values.count < labels.count {
            if isFiller(lines[j], rules) { j += 1; continue }
            guard isAmountOnly(lines[j]) else { break }
            values.append(j); j += 1
        }
        guard !values.isEmpty, var k = labels.firstIndex(of: i) else { return nil }
        if labels.count > values.count {
            // More labels than values: the values sit level with either the first or the last labels.
            // Take the alignment that gives values to more money words (TOTAL, CASH, …).
            let shift = labels.count - values.count
            func money(_ range: ArraySlice<Int>) -> Int { range.filter { rules.isMoneyLabel(lines[$0].words) }.count }
            if money(labels[shift...]) > money(labels[..<values.count]) { k -= shift }
        }
        guard k >= 0, k < values.count else { return nil }
        let v = lines[values[k]]
        // A row of several amounts (a tax table's "amount tax") is not one label's value.
        guard v.amounts.filter({ !$0.isPercent }).count == 1 else { return nil }
        if labels.count == 1 { return Paired(line: v, amounts: v.amounts, factor: 0.9, note: "amount on the next line") }
        let exact = values.count == labels.count
        return Paired(line: v, amounts: v.amounts, factor: exact ? 0.85 : 0.7,
                      note: "amount \(k + 1) of \(values.count) in the column after \(labels.count) labels")
    }

    /// Lines carrying one of `keywords` (and none of `exclude` that contains it), with the amount on the line or paired with it.
    static func find(_ keywords: [CompiledRules.Keyword], _ lines: [ParseLine], _ rules: CompiledRules,
                     exclude: [CompiledRules.Keyword] = [], allowNegative: Bool = false, all: Bool = false) -> [Found] {
        var out: [Found] = []
        for (i, l) in lines.enumerated() {
            guard let kw = rules.best(keywords, in: l.words) else { continue }
            // Matched one letter off ("change" in "charge") on a line that has an excluded word as printed: it is that word.
            if !l.words.has(kw.normalised), exclude.contains(where: { l.words.has($0.normalised) && EditDistance.levenshtein($0.normalised, kw.normalised, limit: 2) <= 1 }) { continue }
            // A distractor that includes the keyword ("sub total" ⊃ "total") takes the line away.
            let blocking = exclude.first { l.words.contains($0.normalised) && ($0.normalised.contains(kw.normalised) || kw.normalised.contains($0.normalised) == false && $0.normalised.count > kw.normalised.count) }
            if let b = blocking, b.normalised.contains(kw.normalised) { continue }
            var notes: [String] = []
            var score = kw.weight
            if let b = blocking { score *= 0.6; notes.append("also says '\(b.raw)'") }
            var amounts = l.amounts.filter { !$0.isPercent && (allowNegative || !$0.negative) }
            var source = l
            if amounts.isEmpty, let p = pairedValue(i, lines, rules) {
                amounts = p.amounts.filter { !$0.isPercent && (allowNegative || !$0.negative) }
                if !amounts.isEmpty { score *= p.factor; notes.append(p.note); source = p.line }
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

    /// A value taken from a column of values printed apart from their labels: the pairing may be off by a row.
    static func fromColumn(_ f: Found?) -> Bool { f?.notes.contains { $0.contains("in the column") } ?? false }

    /// Rounding, less any discount: what turns subtotal + tax into the total.
    var adjustment: Amount { (roundingFound?.amount ?? Amount(0)) - (discountFound?.amount.magnitude ?? Amount(0)) }

    /// Subtotal + tax + rounding − discount, when a subtotal and a tax were read.
    var taxedSubtotal: Amount? {
        guard let s = subtotalFound?.amount, let t = taxFound?.amount else { return nil }
        return s + t + adjustment
    }

    /// What the total should be by arithmetic, with the formula. Sums with a value paired from a
    /// column are left out: they are too unsure to overrule a printed total.
    func expectedTotals(lineItems: [LineItem]) -> [(String, Amount)] {
        var out: [(String, Amount)] = []
        guard ![subtotalFound, taxFound, roundingFound, discountFound, cashFound, changeFound].contains(where: Self.fromColumn) else { return [] }
        // A tax as large as what it is charged on is a misread line, not a tax.
        if let t = taxFound?.amount {
            if let s = subtotalFound?.amount, t < s, let sum = taxedSubtotal { out.append(("subtotal \(s) + tax \(t)", sum)) }
            else if subtotalFound == nil, !lineItems.isEmpty {
                let s = lineItems.reduce(Amount(0)) { $0 + $1.amount }
                if t < s { out.append(("line items \(s) + tax \(t)", s + t + adjustment)) }
            }
        }
        if let c = cashFound?.amount, let g = changeFound?.amount, c > g { out.append(("cash \(c) − change \(g)", c - g)) }
        // Paid exactly, no change given: what was paid is the total.
        if let c = cashFound?.amount, changeFound == nil { out.append(("paid \(c), no change", c)) }
        return out.filter { $0.1.value > 0 }
    }

    /// Digits OCR takes for one another.
    static let confusable: Set<String> = ["05", "50", "08", "80", "06", "60", "56", "65", "68", "86", "38", "83", "58", "85", "17", "71", "89", "98", "09", "90"]

    /// "6→5" when `a` and `b` are written with the same digits but one, and that one is a common OCR confusion.
    static func digitConfusion(_ a: Amount, _ b: Amount) -> String? {
        let x = Array(a.description.filter(\.isNumber)), y = Array(b.description.filter(\.isNumber))
        guard x.count == y.count, x != y else { return nil }
        let diff = zip(x, y).filter { $0 != $1 }
        guard diff.count == 1, let d = diff.first, confusable.contains("\(d.0)\(d.1)") else { return nil }
        return "\(d.0)→\(d.1)"
    }

    /// The total: keyword candidates ranked, then confirmed or re-ranked by arithmetic.
    func total(lineItems: [LineItem]) -> (Field<Amount>?, [String]) {
        var checks: [String] = []
        var candidates = totalCandidates
        // Arithmetic can name the total even when no keyword line has it right.
        if let expected = taxedSubtotal {
            if let l = lines.last(where: { $0.amounts.contains { Self.same($0.amount, expected) } }), !candidates.contains(where: { Self.same($0.amount, expected) }) {
                candidates.append(Found(amount: expected, keyword: .init(raw: "subtotal + tax", normalised: "", weight: 0.5), line: l, score: 0.45,
                                        notes: ["printed amount equal to subtotal + tax"]))
            }
        }
        if let c = cashFound?.amount, let g = changeFound?.amount, c > g {
            let expected = c - g
            if let l = lines.last(where: { $0.amounts.contains { $0.amount == expected } }), !candidates.contains(where: { $0.amount == expected }) {
                candidates.append(Found(amount: expected, keyword: .init(raw: "cash − change", normalised: "", weight: 0.5), line: l, score: 0.45,
                                        notes: ["printed amount equal to cash − change"]))
            }
        }
        // Rounding: the amount printed after the rounding line, one rounding step from a total above it, is the one paid.
        if let r = roundingFound, r.amount.value != 0, r.amount.magnitude < Amount(cents: 50) {
            let step = r.amount.magnitude
            for c in candidates where c.line.index <= r.line.index {
                for l in lines[r.line.index...] where l.index != r.line.index {
                    guard let a = l.amounts.first(where: { !$0.isPercent && !$0.negative && $0.amount > step * 10 && ($0.amount == c.amount + step || $0.amount == c.amount - step) }) else { continue }
                    if !candidates.contains(where: { $0.amount == a.amount }) {
                        candidates.append(Found(amount: a.amount, keyword: .init(raw: "total after rounding", normalised: "", weight: 0.6), line: l, score: 0.6,
                                                notes: ["\(c.amount) rounded by \(r.amount)"]))
                    }
                    break
                }
            }
        }
        // Every total below the subtotal and no discount: a total can't be less than its subtotal, so the
        // total line was misread and the subtotal (tax included) is the best reading left.
        if let s = subtotalFound, discountFound == nil, !candidates.isEmpty, candidates.allSatisfy({ $0.amount < s.amount }),
           s.amount.value > 0 {
            candidates.append(Found(amount: s.amount, keyword: .init(raw: "subtotal", normalised: "", weight: 0.55), line: s.line, score: 0.55,
                                    notes: ["every total read is below the subtotal \(s.amount)"]))
        }
        // Paid with no change given: what was paid may be the total.
        // Only an odd sum (a banknote, 50.00, says nothing), and only when no clean total line was read.
        if let c = cashFound, changeFound == nil, !candidates.contains(where: { $0.amount == c.amount }), c.amount.cents % 100 != 0,
           !candidates.contains(where: { $0.keyword.weight >= 0.8 && !$0.notes.contains { $0.hasPrefix("also says") } }) {
            candidates.append(Found(amount: c.amount, keyword: .init(raw: "amount paid", normalised: "", weight: 0.45), line: c.line, score: 0.45,
                                    notes: ["paid \(c.amount), no change given"]))
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
        let itemSum = lineItems.reduce(Amount(0)) { $0 + $1.amount }
        var scored: [(Found, Double, [String])] = []
        for c in candidates {
            var score = c.score
            var notes = c.notes
            let v = c.amount
            if let s = subtotalFound?.amount, let t = taxFound?.amount, let sum = taxedSubtotal {
                var formula = "subtotal \(s) + tax \(t)"
                if let r = roundingFound?.amount { formula += " + rounding \(r)" }
                if let d = discountFound?.amount { formula += " − discount \(d.magnitude)" }
                if Self.same(sum, v) { score += 0.3; notes.append("\(formula) = \(v)") }
                else if let r = roundingFound?.amount, Self.same(s + t, v) || Self.same(s + t + r, v) { score += 0.25; notes.append("subtotal \(s) + tax \(t) = \(v)") }
                else if Self.same(s, v) { score += 0.1; notes.append("equals the subtotal (tax included)") }
            } else if let s = subtotalFound?.amount {
                if Self.same(s, v) { score += 0.1; notes.append("equals the subtotal") }
                else if let r = roundingFound?.amount, Self.same(s + r, v) { score += 0.25; notes.append("subtotal \(s) + rounding \(r) = \(v)") }
                else if v < s, discountFound == nil { score -= 0.35; notes.append("below the subtotal \(s), and no discount") }
            }
            if let c = cashFound?.amount, let g = changeFound?.amount, c - g == v {
                score += 0.25; notes.append("cash \(c) − change \(g) = \(v)")
            } else if let c = cashFound?.amount, changeFound == nil, Self.same(c, v) {
                score += 0.1; notes.append("equals the amount paid")
            } else if let c = cashFound?.amount, v > c {
                // More than was handed over: with change given, impossible; without, the rest may be on a card.
                score -= (changeFound?.amount.value ?? 0) > 0 ? 0.3 : 0.1; notes.append("more than the \(c) paid")
            }
            if let r = roundingFound, r.amount.value != 0, r.amount.magnitude < Amount(cents: 50) {
                let step = r.amount.magnitude
                let later = lines[r.line.index...].contains { l in l.index > c.line.index && l.amounts.contains { !$0.isPercent && ($0.amount == v + step || $0.amount == v - step) } }
                let earlier = candidates.contains { $0.line.index < c.line.index && ($0.amount == v + step || $0.amount == v - step) }
                if later, c.line.index <= r.line.index { score -= 0.25; notes.append("before rounding: \(r.amount) is applied below") }
                else if earlier, c.line.index >= r.line.index { score += 0.2; notes.append("after rounding by \(r.amount)") }
            }
            // A total with a tax line below it and a somewhat larger total below that: the total before tax.
            if let later = candidates.first(where: { $0.line.index > c.line.index && $0.amount > v && $0.amount <= v * Decimal(1.3) && $0.keyword.weight >= 0.8 }),
               lines[(c.line.index + 1)..<later.line.index].contains(where: { rules.best(rules.tax, in: $0.words) != nil }) {
                score -= 0.2; notes.append("before tax: \(later.amount) below it includes a tax line")
            }
            // Two totals with the rounding line between them: the one below is what was paid.
            if let r = roundingFound, c.line.index > r.line.index, candidates.contains(where: { $0.line.index < r.line.index && $0.keyword.weight >= 0.8 }),
               c.keyword.weight >= 0.8, !notes.contains(where: { $0.hasPrefix("after rounding") }) {
                score += 0.1; notes.append("below the rounding line")
            }
            if let h = taxTableLine, c.line.index > h, candidates.contains(where: { $0.line.index < h }) {
                score -= 0.3; notes.append("in the tax breakdown table below line \(h)")
            }
            // Two priced items at least: one item's price equal to a total says little.
            if lineItems.count >= 2, Self.same(itemSum, v) { score += 0.1; notes.append("line items add up to \(v)") }
            // Printed more than once on total-like lines.
            let repeats = candidates.filter { $0.line.index != c.line.index && $0.amount == v }.count
            if repeats > 0 { score += min(0.1, 0.05 * Double(repeats)); notes.append("printed \(repeats + 1)×") }
            if v == maxAmount { score += 0.03 }
            if v.value == 0 { score -= 0.5 }
            scored.append((c, score, notes))
        }
        scored.sort { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0.line.index > $1.0.line.index) }
        // The winner agrees with no sum, but one sum differs from it by a single digit OCR often confuses
        // (5↔6, 0↔8, …): the digit was misread; take the sum.
        if !scored[0].2.contains(where: { $0.contains("=") || $0.hasPrefix("line items add up") || $0.hasPrefix("equals the") }) {
            let sums = expectedTotals(lineItems: lineItems)
            // Only when two independent sums agree: a sum's own inputs may be misread too.
            for (formula, e) in sums.sorted(by: { a, b in sums.filter { $0.1 == a.1 }.count > sums.filter { $0.1 == b.1 }.count }) {
                guard let swap = Self.digitConfusion(scored[0].0.amount, e) else { continue }
                var f = scored[0].0
                f.amount = e
                let notes = scored[0].2 + ["read \(scored[0].0.amount), taken as \(e): \(formula) = \(e), one digit apart (OCR often reads \(swap))"]
                checks.append("\(formula) = \(e) (digit repaired)")
                scored[0] = (f, scored[0].1 - 0.05, notes)
                break
            }
        }
        let best = scored[0]
        checks += best.2.filter { $0.contains("=") }
        if subtotalFound != nil, taxFound != nil, !best.2.contains(where: { $0.contains("=") && $0.contains("tax") }) {
            checks.append("subtotal + tax ≠ total")
        }
        let rejected = scored.dropFirst().filter { !Self.same($0.0.amount, best.0.amount) }.prefix(5).map {
            Candidate(value: $0.0.amount.description, score: $0.1, evidence: $0.0.line.evidence(rule: "total.keyword", notes: $0.2))
        }
        let rule = best.0.keyword.normalised.isEmpty ? "total.\(best.0.keyword.raw.replacingOccurrences(of: " ", with: "-"))" : "total.keyword"
        let field = Field(best.0.amount, confidence: min(0.99, max(0.02, 0.2 + 0.6 * best.1)), evidence: best.0.line.evidence(rule: rule, notes: best.2), rejected: Array(rejected))
        return (field, checks)
    }
}
