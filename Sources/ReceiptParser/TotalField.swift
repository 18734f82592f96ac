import Foundation
import ReceiptModel

// The total: the keyword lines (`MoneyFields`), with amounts that arithmetic names (subtotal + tax,
// cash − change, a rounded total) added as candidates; each scored by the sums it agrees with and its
// place on the receipt; a winner one misread digit from two agreeing sums repaired; the checks recorded.

extension MoneyFields {
    typealias Scored = (found: Found, score: Double, notes: [Note])

    /// The total: keyword candidates ranked, then confirmed or re-ranked by arithmetic; with the parser
    /// row it was read on.
    func total(lineItems: [LineItem]) -> (Field<Amount>?, [Check], row: Int?, trusted: Bool) {
        let candidates = totalCandidatesWithArithmetic()
        guard !candidates.isEmpty else { return (nil, [.noTotalCandidate], nil, false) }
        let maxAmount = candidates.map(\.amount).max()!
        let itemSum = lineItems.reduce(Amount(0)) { $0 + $1.amount }
        // How often each amount is printed on total lines, and on which: "printed twice" without a pass over the others per candidate.
        var printedOn: [Amount: [Int: Int]] = [:]
        for c in candidates { printedOn[c.amount, default: [:]][c.line.index, default: 0] += 1 }
        // The last line after the rounding line printing each amount (for "a rounded total follows").
        var lastAfterRounding: [Amount: Int] = [:]
        if let r = roundingFound {
            for l in lines[r.line.index...] { for a in l.amounts where !a.isPercent { lastAfterRounding[a.amount] = l.index } }
        }
        let context = ScoringContext(printedOn: printedOn, lastAfterRounding: lastAfterRounding)
        var scored = candidates.map { scoreTotal($0, among: candidates, context: context, maxAmount: maxAmount, itemSum: itemSum, itemCount: lineItems.count) }
        scored.sort { $0.score > $1.score || ($0.score == $1.score && $0.found.line.index > $1.found.line.index) }
        var checks = repairMisreadDigit(&scored, lineItems: lineItems)
        let best = scored[0]
        checks += best.notes.compactMap(Check.init)
        if subtotalFound != nil, taxFound != nil, !best.notes.contains(where: { $0.checkedSum?.involvesTax == true }) {
            checks.append(.subtotalTaxMismatch)
        }
        let rejected = scored.dropFirst().filter { !Self.same($0.found.amount, best.found.amount) }.prefix(5).map {
            Candidate(value: $0.found.amount.description, score: $0.score, evidence: $0.found.line.evidence(rule: "total.keyword", notes: $0.notes))
        }
        let keyword = best.found.keyword
        let rule = keyword.isDerived ? "total." + replacingOccurrences(in: keyword.raw, of: " ", with: "-") : "total.keyword"
        var confidence = min(0.99, max(0.02, 0.2 + 0.6 * best.score))
        // A sum no line prints is a guess the sums cannot confirm (they made it): keep it in doubt, so the rows
        // are read again and a second look is taken.
        if best.found.notes.contains(where: \.isComputedSubtotalPlusTax) { confidence = min(confidence, 0.4) }
        let field = Field(best.found.amount, confidence: confidence,
                          evidence: best.found.line.evidence(rule: rule, notes: best.notes), rejected: Array(rejected))
        // Its row ends the line items when its word was read as printed and is a strong one, or a sum backs it.
        let exact = !keyword.isDerived && keyword.weight >= 0.8 && best.found.line.words.has(keyword)
        return (field, checks, best.found.line.index, exact || best.notes.contains(where: \.agreesWithArithmetic))
    }

    // MARK: candidates

    /// The keyword lines, and the amounts arithmetic names even when no keyword line has them right.
    func totalCandidatesWithArithmetic() -> [Found] {
        var candidates = totalCandidates
        addOneDecimalTotals(&candidates)
        addPrintedSums(&candidates)
        addRoundedTotals(&candidates)
        addFallbacks(&candidates)
        return candidates
    }

    /// "NET TOTAL 163.8", "Total $10.7": a total line ending in a number with one decimal, no amount
    /// read on it. OCR lost the last digit, most often a 0 (faint, or run into the paper's edge): read
    /// as 163.80, weaker than its keyword. A ")" after the digit is a misread digit, not an end.
    static let oneDecimalAtEnd = Pattern(#"(?<![\d.,])(\d{1,6})[.,](\d)(?![\d)])\W{0,3}$"#, mayMatch: { b in
        // a digit, "." or ",", a digit, then at most three bytes to the end (`\W{0,3}$`: asked where those three stand,
        // not along the whole line)
        let n = b.count
        for k in 0...3 where n - k >= 3 {
            let e = n - k
            if Bytes.isDigit(b[e - 1]), b[e - 2] == UInt8(ascii: ".") || b[e - 2] == UInt8(ascii: ","), Bytes.isDigit(b[e - 3]) { return true }
        }
        return false
    })

    func addOneDecimalTotals(_ candidates: inout [Found]) {
        let taken = Set(candidates.map(\.line.index))
        // (The amounts counted in place, then the expression's cheap test, before the set and the keywords: most lines
        // hold an amount or no "digit, point, digit" at their end.)
        for l in lines where l.amounts.notPercentCount == 0 && Self.oneDecimalAtEnd.worthRunning(l.text) && !taken.contains(l.index) {
            guard let kw = rules.best(rules.total, in: l.words), rules.any(rules.totalDistractors, in: l.words) == nil,
                  let m = Self.oneDecimalAtEnd.matches(in: l.text).last, let whole = m.groups[1], let tenth = m.groups[2],
                  let a = Amount("\(whole).\(tenth)0") else { continue }
            candidates.append(Found(amount: a, keyword: kw, line: l, score: kw.weight * 0.6,
                                    notes: [.keyword(kw.raw), .oneDecimalRead("\(whole).\(tenth)")]))
        }
    }

    /// A printed amount equal to subtotal + tax (+ service, rounding − discount), or to cash − change.
    func addPrintedSums(_ candidates: inout [Found]) {
        if let expected = taxedSubtotal {
            if let l = lines.last(where: { $0.amounts.contains { Self.same($0.amount, expected) } }), !candidates.contains(where: { Self.same($0.amount, expected) }) {
                candidates.append(Found(amount: expected, keyword: .derived("subtotal + tax", weight: 0.5), line: l, score: 0.6,
                                        notes: [.printedSubtotalPlusTax]))
            }
        }
        if let c = cashFound?.amount, let g = changeFound?.amount, c > g {
            let expected = c - g
            if let l = lines.last(where: { $0.amounts.contains { $0.amount == expected } }), !candidates.contains(where: { $0.amount == expected }) {
                candidates.append(Found(amount: expected, keyword: .derived("cash − change", weight: 0.5), line: l, score: 0.45,
                                        notes: [.printedCashMinusChange]))
            }
        }
    }

    /// Rounding: the amount printed after the rounding line, one rounding step from a total above it, is the one paid.
    func addRoundedTotals(_ candidates: inout [Found]) {
        guard let r = roundingFound, r.amount.value != 0, r.amount.magnitude < Self.fiftyCents else { return }
        let step = r.amount.magnitude
        // (Ten steps worked out once, not for every amount asked: a Decimal product each; in cents where the step's are
        // known, so that each comparison is of cents, not of Decimals: the same value, under fifty cents.)
        let tenSteps = step.knownCents.map { Amount(significand: UInt64($0 * 10), fractionDigits: 2) } ?? step * 10
        func fits(_ a: FoundAmount) -> Bool { !a.isPercent && !a.negative && a.amount > tenSteps }
        // The first line after the rounding line that prints each amount (one pass, not one per candidate).
        var firstLine: [Amount: Int] = [:]
        for (k, l) in lines[r.line.index...].enumerated() where l.index != r.line.index {
            for a in l.amounts where fits(a) && firstLine[a.amount] == nil { firstLine[a.amount] = r.line.index + k }
        }
        for c in candidates where c.line.index <= r.line.index {
            guard let at = [firstLine[c.amount + step], firstLine[c.amount - step]].compactMap({ $0 }).min() else { continue }
            let l = lines[at]
            guard let a = l.amounts.first(where: { fits($0) && ($0.amount == c.amount + step || $0.amount == c.amount - step) }) else { continue }
            if !candidates.contains(where: { $0.amount == a.amount }) {
                candidates.append(Found(amount: a.amount, keyword: .derived("total after rounding", weight: 0.6), line: l, score: 0.6,
                                        notes: [.roundedBy(total: c.amount, rounding: r.amount)]))
            }
        }
    }

    /// When the keyword lines leave doubt: the subtotal, what was paid, or the largest amount.
    func addFallbacks(_ candidates: inout [Found]) {
        // Every total below the subtotal and no discount: a total can't be less than its subtotal, so the
        // total line was misread and the subtotal (tax included) is the best reading left.
        // Not when the subtotal is more than the cash handed over (the subtotal is the misread one: "SUBTOTAL 917.83",
        // "CASH 20.05"), nor when a total line names a total a little below it (a discount or coupon not read).
        if let s = subtotalFound, discountFound == nil, !candidates.isEmpty, candidates.allSatisfy({ Self.below($0.amount, s.amount) }),
           s.amount.value > 0, !(cashFound.map { Self.below($0.amount, s.amount) } ?? false),
           !candidates.contains(where: { !$0.keyword.isDerived && $0.keyword.weight >= 0.85 && $0.amount >= s.amount * Ratio.r0_9 }) {
            candidates.append(Found(amount: s.amount, keyword: .derived("subtotal", weight: 0.55), line: s.line, score: 0.55,
                                    notes: [.everyTotalBelowSubtotal(s.amount)]))
        }
        // Paid with no change given: what was paid may be the total.
        // Only an odd sum (a banknote, 50.00, says nothing), and only when no clean total line was read.
        if let c = cashFound, changeFound == nil, !candidates.contains(where: { $0.amount == c.amount }), c.amount.cents % 100 != 0,
           !candidates.contains(where: { $0.keyword.weight >= 0.8 && !$0.notes.contains { if case .alsoSays = $0 { return true } else { return false } } }) {
            candidates.append(Found(amount: c.amount, keyword: .derived("amount paid", weight: 0.45), line: c.line, score: 0.45,
                                    notes: [.paidNoChangeGiven(c.amount)]))
        }
        // No total line read, but a subtotal and a tax below it were: their sum is the total (a photo's
        // total line is the one most often lost: printed larger, or in the fold).
        if candidates.isEmpty, let s = subtotalFound, let t = taxFound, let expected = taxedSubtotal,
           t.amount.value > 0, t.amount < s.amount, t.line.index >= s.line.index, Self.addsTaxOnTop(t.line.words) {
            candidates.append(Found(amount: expected, keyword: .derived("subtotal + tax", weight: 0.45), line: t.line, score: 0.45,
                                    notes: [.computedSubtotalPlusTax]))
        }
        // No total line read: what a card paid ("Credit $4.32", "VISA 24.50") is the total: a card is charged it, no
        // change given. A better guess than the largest amount, still a low one.
        if candidates.isEmpty, let (l, a) = cardPayment() {
            candidates.append(Found(amount: a, keyword: .derived("amount paid by card", weight: 0.35), line: l, score: 0.35,
                                    notes: [.paidNoChangeGiven(a)]))
        }
        if candidates.isEmpty {
            // No keyword: the largest amount on the receipt, outside payment lines; low confidence.
            let pool = lines.filter { !$0.words.holds(text: " change ") && rules.any(rules.cash, in: $0.words) == nil }
            if let (a, l) = pool.flatMap({ l in l.amounts.filter { !$0.isPercent && !$0.negative }.map { ($0, l) } }).max(by: { $0.0.amount < $1.0.amount }) {
                candidates.append(Found(amount: a.amount, keyword: .derived("largest amount", weight: 0.3), line: l, score: 0.3,
                                        notes: [.largestAmount]))
            }
        }
    }

    /// The first line naming a card with an amount on it, and that amount (its last, more than zero).
    func cardPayment() -> (ParseLine, Amount)? {
        for l in lines {
            // (The amount asked first: most lines have none.)
            guard let a = l.amounts.last(where: \.isPositiveMoney),
                  rules.any(rules.cardWords, in: l.words) != nil else { continue }
            return (l, a.amount)
        }
        return nil
    }

    /// Value-added taxes (VAT, GST, SST, MwSt …) are in the prices, so a subtotal with one is often the total already;
    /// a sales tax (US "TAX", "SALES TAX", Canada's HST/PST) is added at the till.
    static let inclusiveTaxWords = [" vat ", " gst ", " sst ", " mwst ", " ust ", " tva ", " iva ", " btw ", " moms ", " incl ", " inclusive ", " included "]
    static func addsTaxOnTop(_ w: WordLine) -> Bool { !inclusiveTaxWords.contains { w.holds(text: $0) } }

    /// The most a total paid in cash is rounded down from its subtotal: where the smallest coin is 5 or
    /// 10 cents (Malaysia, Australia, Canada, New Zealand …), 37.04 is paid as 37.00.
    static let cashRounding = Amount(cents: 5)
    /// The most a rounding adjustment is.
    static let fiftyCents = Amount(cents: 50)

    /// `v` is less than the subtotal `s` by more than cash rounding: a total that cannot be right without a discount.
    static func below(_ v: Amount, _ s: Amount) -> Bool { v + cashRounding < s }

    // MARK: scoring

    /// What scoring one candidate needs to know about all of them, computed once.
    struct ScoringContext {
        /// amount -> line index -> how many candidates print it there.
        var printedOn: [Amount: [Int: Int]]
        /// amount -> the last line at or after the rounding line that prints it.
        var lastAfterRounding: [Amount: Int]
    }

    /// A candidate's score: its keyword's, raised by the sums it agrees with, lowered by what makes it unlikely.
    func scoreTotal(_ c: Found, among candidates: [Found], context: ScoringContext, maxAmount: Amount, itemSum: Amount, itemCount: Int) -> Scored {
        var score = c.score
        var notes = c.notes
        scoreBySums(c, &score, &notes)
        scoreByPlace(c, among: candidates, context: context, &score, &notes)
        let v = c.amount
        // Two priced items at least: one item's price equal to a total says little.
        if itemCount >= 2, Self.same(itemSum, v) { score += 0.1; notes.append(.lineItemsAddUp(v)) }
        // Printed more than once on total-like lines.
        let onLines = context.printedOn[v] ?? [:]
        let repeats = onLines.values.reduce(0, +) - (onLines[c.line.index] ?? 0)
        if repeats > 0 { score += min(0.1, 0.05 * Double(repeats)); notes.append(.printed(times: repeats + 1)) }
        if v == maxAmount { score += 0.03 }
        if v.value == 0 { score -= 0.5 }
        return (c, score, notes)
    }

    /// Subtotal + tax (+ rounding − discount), the subtotal alone, cash − change, the amount paid.
    func scoreBySums(_ c: Found, _ score: inout Double, _ notes: inout [Note]) {
        let v = c.amount
        if let s = subtotalFound?.amount, let t = taxFound?.amount, let sum = taxedSubtotal {
            let formula = Sum.subtotalTax(subtotal: s, tax: t, rounding: roundingFound?.amount, discount: discountFound?.amount.magnitude, charges: charges)
            if Self.same(sum, v) { score += 0.3; notes.append(.sum(formula, equals: v)) }
            else if let r = roundingFound?.amount, Self.same(s + t, v) || Self.same(s + t + r, v) { score += 0.25; notes.append(.sum(.subtotalTax(subtotal: s, tax: t), equals: v)) }
            else if Self.same(s, v) { score += 0.1; notes.append(.equalsSubtotal(taxIncluded: true)) }
        } else if let s = subtotalFound?.amount {
            if Self.same(s, v) { score += 0.1; notes.append(.equalsSubtotal(taxIncluded: false)) }
            else if let r = roundingFound?.amount, Self.same(s + r, v) { score += 0.25; notes.append(.sum(.subtotalRounding(subtotal: s, rounding: r), equals: v)) }
            else if Self.below(v, s), discountFound == nil { score -= 0.35; notes.append(.belowSubtotal(s)) }
        }
        if let c = cashFound?.amount, let g = changeFound?.amount, c - g == v {
            score += 0.25; notes.append(.sum(.cashChange(cash: c, change: g), equals: v))
        } else if let c = cashFound?.amount, changeFound == nil, Self.same(c, v) {
            score += 0.1; notes.append(.equalsAmountPaid)
        } else if let c = cashFound?.amount, v > c {
            // More than was handed over: with change given, impossible; without, the rest may be on a card.
            score -= (changeFound?.amount.value ?? 0) > 0 ? 0.3 : 0.1; notes.append(.moreThanPaid(c))
        }
    }

    /// Where the candidate stands: before or after the rounding line, above a tax line and a larger total,
    /// inside the tax breakdown table.
    func scoreByPlace(_ c: Found, among candidates: [Found], context: ScoringContext, _ score: inout Double, _ notes: inout [Note]) {
        let v = c.amount
        if let r = roundingFound, r.amount.value != 0, r.amount.magnitude < Self.fiftyCents {
            let step = r.amount.magnitude
            let later = [context.lastAfterRounding[v + step], context.lastAfterRounding[v - step]].contains { ($0 ?? -1) > c.line.index }
            let earlier = candidates.contains { $0.line.index < c.line.index && ($0.amount == v + step || $0.amount == v - step) }
            if later, c.line.index <= r.line.index { score -= 0.25; notes.append(.beforeRounding(r.amount)) }
            else if earlier, c.line.index >= r.line.index { score += 0.2; notes.append(.afterRounding(r.amount)) }
        }
        // A total with a tax line below it and a somewhat larger total below that: the total before tax.
        if let later = candidates.first(where: { $0.line.index > c.line.index && $0.amount > v && $0.amount <= v * Ratio.r1_3 && $0.keyword.weight >= 0.8 }),
           later.line.index > c.line.index + 1, taxLinesBefore[later.line.index] - taxLinesBefore[c.line.index + 1] > 0 {
            score -= 0.2; notes.append(.beforeTax(later.amount))
        }
        // Two totals with the rounding line between them: the one below is what was paid.
        if let r = roundingLine, c.line.index > r, candidates.contains(where: { $0.line.index < r && $0.keyword.weight >= 0.8 }),
           c.keyword.weight >= 0.8, !notes.contains(where: { if case .afterRounding = $0 { return true } else { return false } }) {
            score += 0.1; notes.append(.belowRoundingLine)
        }
        if let h = taxTableLine, c.line.index > h, candidates.contains(where: { $0.line.index < h }) {
            score -= 0.3; notes.append(.inTaxTable(belowLine: h))
        }
    }

    // MARK: digit repair

    /// What the total should be by arithmetic, with the formula. Sums with a value paired from a
    /// column are left out: they are too unsure to overrule a printed total.
    func expectedTotals(lineItems: [LineItem]) -> [(Sum, Amount)] {
        var out: [(Sum, Amount)] = []
        guard ![subtotalFound, taxFound, roundingFound, discountFound, cashFound, changeFound].contains(where: Self.fromColumn) else { return [] }
        // A tax as large as what it is charged on is a misread line, not a tax.
        if let t = taxFound?.amount {
            if let s = subtotalFound?.amount, t < s, let sum = taxedSubtotal { out.append((.subtotalTax(subtotal: s, tax: t), sum)) }
            else if subtotalFound == nil, !lineItems.isEmpty {
                let s = lineItems.reduce(Amount(0)) { $0 + $1.amount }
                if t < s { out.append((.lineItemsTax(items: s, tax: t), s + t + adjustment)) }
            }
        }
        if let c = cashFound?.amount, let g = changeFound?.amount, c > g { out.append((.cashChange(cash: c, change: g), c - g)) }
        // Paid exactly, no change given: what was paid is the total.
        if let c = cashFound?.amount, changeFound == nil { out.append((.paidNoChange(c), c)) }
        return out.filter { $0.1.value > 0 }
    }

    /// Digits OCR takes for one another.
    static let confusable: Set<String> = ["05", "50", "08", "80", "06", "60", "56", "65", "68", "86", "38", "83", "58", "85", "17", "71", "89", "98", "09", "90"]

    /// "6→5" when `a` and `b` are written with the same digits but one, and OCR may have read that
    /// one for the other. Where the engine kept its other readings of the digits of the word `a`
    /// was read from (`OCRWord.alternatives`), they decide: the swap stands only if the engine
    /// weighed `b`'s digit there (`byEngine`); without them, a digit pair OCR often confuses
    /// (`confusable`) does.
    static func digitConfusion(_ a: Amount, _ b: Amount, readFrom words: [OCRWord] = []) -> (swap: DigitSwap, byEngine: Bool)? {
        let x = Array(a.description.filter(\.isNumber)), y = Array(b.description.filter(\.isNumber))
        guard x.count == y.count, x != y else { return nil }
        let diff = zip(x, y).enumerated().filter { $0.element.0 != $0.element.1 }
        guard diff.count == 1, let d = diff.first else { return nil }
        let swap = DigitSwap(from: d.element.0, to: d.element.1)
        if let word = words.first(where: { $0.alternatives != nil && $0.text.filter(\.isNumber).hasSuffix(String(x)) }),
           let alternatives = word.alternatives {
            // The word's digits end with the amount's ("RM47.05", "47.05"): the k-th digit of the amount is this character of the word.
            let digitOffsets = word.text.enumerated().filter { $0.element.isNumber }.map(\.offset)
            let at = digitOffsets[digitOffsets.count - x.count + d.offset]
            guard let alt = alternatives.first(where: { $0.at == at }), alt.characters.contains(swap.to) else { return nil }
            return (swap, true)
        }
        return confusable.contains("\(swap.from)\(swap.to)") ? (swap, false) : nil
    }
}

extension ReceiptParser {
    /// "6→8" when `read` and `printed` are the same digits but one, and that one is a slip OCR often
    /// makes (5↔6, 0↔8, 3↔8, …); nil otherwise.
    public static func digitSlip(_ read: String, _ printed: String) -> DigitSwap? {
        let x = Array(read), y = Array(printed)
        guard x.count == y.count, x != y else { return nil }
        let diff = zip(x, y).filter { $0 != $1 }
        guard diff.count == 1, let d = diff.first, MoneyFields.confusable.contains("\(d.0)\(d.1)") else { return nil }
        return DigitSwap(from: d.0, to: d.1)
    }
}

extension MoneyFields {

    /// The winner agrees with no sum, but one sum differs from it by a single digit OCR often confuses
    /// (5↔6, 0↔8, …): the digit was misread; take the sum. Returns the check it records.
    func repairMisreadDigit(_ scored: inout [Scored], lineItems: [LineItem]) -> [Check] {
        guard !scored[0].notes.contains(where: \.agreesWithArithmetic) else { return [] }
        // Printed alike on two total lines or more ("Total : 6.00", "Rounded Total (RM): 6.00"): OCR does not
        // misread the same digit twice the same way; the sum's inputs (cash, change) are the likelier misreads.
        // (Lines whose keyword is a strong total's, their amount on them, and no other word that takes it: "Total GST
        // 0.34" is no second print, nor a value paired with its label from a column.)
        let clean = scored.filter { c in
            Self.same(c.found.amount, scored[0].found.amount) && !c.found.keyword.isDerived && c.found.keyword.weight >= 0.8
                && !c.found.notes.contains {
                    switch $0 { case .alsoSays, .amountOnNextLine, .amountInColumn: return true; default: return false }
                }
        }
        if Set(clean.map(\.found.line.index)).count >= 2 { return [] }
        let sums = expectedTotals(lineItems: lineItems)
        // Only when two independent sums agree: a sum's own inputs may be misread too.
        for (formula, e) in sums.sorted(by: { a, b in sums.filter { $0.1 == a.1 }.count > sums.filter { $0.1 == b.1 }.count }) {
            guard let (swap, byEngine) = Self.digitConfusion(scored[0].found.amount, e, readFrom: scored[0].found.line.ocrWords) else { continue }
            var f = scored[0].found
            f.amount = e
            let notes = scored[0].notes + [.digitRepaired(read: scored[0].found.amount, sum: formula, equals: e, swap: swap)]
                + (byEngine ? [.engineWeighedDigit(String(swap.to))] : [])
            scored[0] = (f, scored[0].score - 0.05, notes)
            return [.sumAfterDigitRepair(formula, equals: e)]
        }
        // The winner's digits end one sum's digits ("7.30" of "27.30"): OCR lost the first digits of the
        // amount (a faded edge, a "$" or "RM" run into it). A cents-only reading ("0.30") says too little, and a
        // round sum handed over ("15.00" for a "5.00" total, its change unread) says nothing.
        for (formula, e) in sums {
            if case .paidNoChange = formula, e.cents % 100 == 0 { continue }
            let read = scored[0].found.amount
            guard read.value > 0, Self.lostLeadingDigits(read, e) else { continue }
            var f = scored[0].found
            f.amount = e
            let notes = scored[0].notes + [.leadingDigitsLost(read: read, sum: formula, equals: e)]
            scored[0] = (f, scored[0].score - 0.05, notes)
            return [.sumAfterDigitRepair(formula, equals: e)]
        }
        return []
    }

    /// `e` is `read` with digits before it: "27.30" for "7.30", "121.20" for "21.20"; `read` has a digit
    /// before its cents.
    static func lostLeadingDigits(_ read: Amount, _ e: Amount) -> Bool {
        let r = read.description.filter(\.isNumber), x = e.description.filter(\.isNumber)
        return read.value >= 1 && x.count > r.count && x.hasSuffix(r)
    }
}

extension Note {
    /// The sum this note says the value agrees with (or was repaired to).
    var checkedSum: Sum? {
        switch self {
        case let .sum(sum, _), let .digitRepaired(_, sum, _, _), let .leadingDigitsLost(_, sum, _): return sum
        default: return nil
        }
    }

    /// The value agrees with a sum, the subtotal or amount paid: no digit repair needed. (Not the line items
    /// adding up to it: their amounts are OCR's readings too, and a misread one can add up to a misread total.)
    var agreesWithArithmetic: Bool {
        switch self {
        case .sum, .digitRepaired, .leadingDigitsLost, .equalsSubtotal, .equalsAmountPaid: return true
        default: return false
        }
    }

    /// `self == .largestAmount` and `self == .computedSubtotalPlusTax`, asked of the case alone (`contains` of such a
    /// note went through Note's `==`, a note of any case copied and compared: some 1,900 instructions a total's notes).
    var isLargestAmount: Bool { if case .largestAmount = self { true } else { false } }
    var isComputedSubtotalPlusTax: Bool { if case .computedSubtotalPlusTax = self { true } else { false } }
}
