import Foundation
import ReceiptModel

// Subtotal and tax, settled against the chosen total by the receipt's own arithmetic: among the subtotal
// and tax lines (several tax rates added up, a tax table's row, a tax included in the prices) the pair
// whose sum is the total; else the amount printed above the tax that is total − tax (whatever its label
// says: "Merchandise", "Food Total", "Amount"); else one misread digit put right, or a value the receipt
// labels but OCR could not read worked out from the other two. Nothing the sums do not back replaces
// what the keyword lines gave.

extension MoneyFields {
    /// The subtotal and tax as settled, and the checks (the total's, with the sum that now holds or no longer fails).
    struct Settled {
        var subtotal: Field<Amount>?
        var tax: Field<Amount>?
        var checks: [Check]
    }

    /// "A=VAT@ 17.5 73.43 12.85 86.28", "10% 50.98 5.10 56.08": a tax table's row prints net, tax and gross;
    /// the tax is the middle one (the line's last amount, its gross, is what `find` took).
    static func taxTableRow(_ f: Found) -> Found {
        let a = f.line.amounts.filter { !$0.isPercent && !$0.negative }.map(\.amount)
        guard a.count >= 3 else { return f }
        for i in stride(from: a.count - 3, through: 0, by: -1) where a[i + 1] < a[i] && same(a[i] + a[i + 1], a[i + 2]) && a[i + 1].value > 0 {
            var out = f
            out.amount = a[i + 1]
            out.notes.append(.taxTableRow(net: a[i], tax: a[i + 1], gross: a[i + 2]))
            return out
        }
        return f
    }

    /// A tax the receipt may have charged: one line, or several rates added up.
    struct TaxOption {
        var amount: Amount
        var found: Found
        var notes: [Note]
        /// A tax table's row found by its rate, no tax word read on it (`rateRows`).
        var isRateRow: Bool { found.notes.contains { if case .taxAtRate = $0 { true } else { false } } }
    }

    /// The tax lines as options, best scored first, one per amount; then, when two or more lines print
    /// different taxes, their sum (several rates: "FOOD TAX 1.28", "LIQUOR TAX 0.12"; "CGST 27.00", "SGST
    /// 27.00"). One tax printed twice (the totals block and a summary table) is one tax.
    func taxOptions(below first: Int?) -> [TaxOption] {
        var seen: Set<Amount> = [], taxes: Set<String> = []
        var singles: [TaxOption] = [], distinct: [TaxOption] = []
        for t in taxLines.sorted(by: { $0.score > $1.score || ($0.score == $1.score && $0.line.index < $1.line.index) }) where t.amount.value > 0 {
            let o = TaxOption(amount: t.amount, found: t, notes: t.notes)
            if seen.insert(t.amount).inserted { singles.append(o) }
            // (A rate row is no rate of its own: it is the summary table's, whose taxes the lines above print.)
            if !o.isRateRow, taxes.insert("\(t.amount) \(t.keyword.normalised)").inserted, !distinct.contains(where: { $0.found.line.index == t.line.index }) {
                distinct.append(o)
            }
        }
        var out = singles
        // Several rates: the distinct taxes of the tax lines in the totals block, top to bottom.
        let block = distinct.filter { first == nil || $0.found.line.index >= first! }.sorted { $0.found.line.index < $1.found.line.index }
        if block.count >= 2, block.count <= 4, let last = block.last {
            let sum = block.reduce(Amount(0)) { $0 + $1.amount }
            if !seen.contains(sum) {
                out.append(TaxOption(amount: sum, found: last.found, notes: [.taxesAdded(block.map(\.amount))]))
            }
        }
        return out
    }

    /// The subtotal and tax that the total `total` (read on parser row `totalRow`) backs.
    func settle(total: Field<Amount>?, totalRow: Int?, checks: [Check], lineItems: [LineItem]) -> Settled {
        let kept = Settled(subtotal: subtotal, tax: tax, checks: checks)
        guard let total, let row = totalRow, total.value.value > 0,
              !total.evidence.notes.contains(where: { $0.isComputedSubtotalPlusTax || $0.isLargestAmount }) else { return kept }
        let t = total.value
        let adj = adjustment
        var subtotals = subtotalLines.filter { $0.amount.value > 0 && $0.line.index <= row }
        // No subtotal line: the row below the items that prints their sum is one, its word misread ("SubTor 48.35").
        if subtotals.isEmpty, let s = itemsSumRow(lineItems, before: row) { subtotals = [s] }
        // A rate and one amount that is that rate of the total less it ("B 7,0%" over "0,75" under "11,50"): one more
        // option, the net the rest of the total.
        let options = taxOptions(below: subtotals.first?.line.index) + rateSingles.compactMap { x -> TaxOption? in
            guard abs(x.amount.cents * Int64(1_000_000 + x.rate) - t.cents * Int64(x.rate)) <= Int64(1_000_000 + x.rate),
                  x.amount < t * Ratio.r0_3 else { return nil }
            let note = Note.taxAtRate(rate: Self.rateText(x.rate), net: t - x.amount, tax: x.amount)
            return TaxOption(amount: x.amount, found: Found(amount: x.amount, keyword: .derived("tax rate row", weight: 0.8), line: x.line, score: 0.8,
                                                            notes: [note]), notes: [note])
        }
        func fits(_ s: Amount, _ tax: Amount) -> Bool { Self.same(s + tax + adj, t) || Self.same(s + tax, t) }
        // The taxes a line names. A rate row alone says a tax was charged, not that it was added to a subtotal the
        // receipt prints: the rules for a receipt with no tax added ask these.
        let named = options.filter { !$0.isRateRow }

        // 0. A tax table's row whose gross is the total: its net is the subtotal, its middle amount the tax
        //    ("10% 50.98 5.10 56.08", a row with no tax word on it; often printed below the total).
        for l in lines.reversed() {
            let a = l.amounts.filter { !$0.isPercent && !$0.negative }.map(\.amount)
            guard a.count >= 3, let i = (0...(a.count - 3)).last(where: { a[$0 + 1] < a[$0] && Self.same(a[$0] + a[$0 + 1], a[$0 + 2]) && Self.same(a[$0 + 2], t) }) else { continue }
            let note = Note.taxTableRow(net: a[i], tax: a[i + 1], gross: a[i + 2])
            let s = Found(amount: a[i], keyword: .derived("tax table net", weight: 0.7), line: l, score: 0.7, notes: [note])
            let o = TaxOption(amount: a[i + 1], found: Found(amount: a[i + 1], keyword: .derived("tax table tax", weight: 0.7), line: l, score: 0.7, notes: [note]), notes: [note])
            if subtotals.contains(where: { fits($0.amount, o.amount) }) || (!subtotals.isEmpty && options.contains(where: { fits(a[i], $0.amount) })) { break }
            return settled(s, rule: "subtotal.tax-table", o, total: t, checks: checks, taxRule: "tax.tax-table")
        }
        // 0b. A tax table's total row whose gross is the total and whose net reads one digit off what the sum wants
        //     ("TOTAL 30.60 5.40 44.00" for 38.87 + 5.63 = 44.50, a 0 read for an 8), when the total is backed by
        //     something else and no subtotal line or tax line already adds up.
        if confirmed(total), !subtotals.contains(where: { s in options.contains { fits(s.amount, $0.amount) } }) {
            // (The row's amounts asked before its words: most lines hold fewer than three.)
            for l in lines.reversed() where l.amounts.count >= 3 {
                let a = l.amounts.filter { !$0.isPercent && !$0.negative }.map(\.amount)
                guard a.count >= 3, Self.same(a[a.count - 1], t), rules.best(rules.total, in: l.words) != nil else { continue }
                let net = a[a.count - 3], tax = a[a.count - 2], want = t - tax
                guard tax.value > 0, tax < t * Ratio.r0_3, !Self.same(net + tax, t),
                      let (swap, byEngine) = Self.digitConfusion(net, want, readFrom: l.ocrWords) else { continue }
                let row = Note.taxTableRow(net: want, tax: tax, gross: t)
                var notes: [Note] = [row, .digitRepaired(read: net, sum: .totalLessTax(total: t, tax: tax), equals: want, swap: swap)]
                if byEngine { notes.append(.engineWeighedDigit(String(swap.to))) }
                let s = Found(amount: want, keyword: .derived("tax table net", weight: 0.6), line: l, score: 0.6, notes: notes)
                let o = TaxOption(amount: tax, found: Found(amount: tax, keyword: .derived("tax table tax", weight: 0.6), line: l, score: 0.6, notes: [row]),
                                  notes: [row])
                return settled(s, rule: "subtotal.tax-table", o, total: t, checks: checks, taxRule: "tax.tax-table")
            }
        }
        // 1. A subtotal line and a tax that add up to the total.
        for s in subtotals {
            for o in options where o.amount < s.amount && fits(s.amount, o.amount) {
                return settled(s, rule: Self.rule(s), o, total: t, checks: checks)
            }
        }
        // 2. The amount printed above the tax that is total − tax, whatever its label says.
        //    Or, when no subtotal line was read, printed before the tax on the tax's own line ("Base: 94,55
        //    Cuota: 9,45", "GST S@6% 35.00 2.10").
        for o in options {
            let want = t - o.amount - adj
            guard want > o.amount, let (l, a) = printed(want, in: lines[..<min(row, o.found.line.index)].reversed())
                    ?? (subtotals.isEmpty || (subtotalLines.isEmpty && o.isRateRow) ? printed(want, before: o.amount, on: o.found.line) : nil)
            else { continue }
            let s = Found(amount: a, keyword: .derived("total less tax", weight: 0.6), line: l, score: 0.6, notes: [])
            return settled(s, rule: "subtotal.total-less-tax", o, total: t, checks: checks)
        }
        // 2b. The amount printed between the subtotal and the total that is total − subtotal, whatever its
        //     label says ("V.A.T", "Cuota", a tax word OCR garbled): the tax.
        for s in subtotals where s.line.index + 1 < row {
            let want = t - s.amount - adj
            guard want.value > 0, want < s.amount * Ratio.r0_3,
                  let (l, a) = printed(want, in: lines[(s.line.index + 1)..<row].filter { !isOtherCharge($0) }) else { continue }
            let o = TaxOption(amount: a, found: Found(amount: a, keyword: .derived("total less subtotal", weight: 0.6), line: l, score: 0.6, notes: []),
                              notes: [])
            return settled(s, rule: Self.rule(s), o, total: t, checks: checks, taxRule: "tax.total-less-subtotal")
        }
        // 2c. No subtotal line and no tax line: two lines of a lone amount right above the total (lines printing the
        //     total itself may stand between), the upper plus the lower the total, the lower a small part of it
        //     ("86.40" over "6.05" over "TOTAL 92.45": OCR lost their words).
        if subtotals.isEmpty, named.isEmpty, let (s, o) = loneAmountsAdding(above: row, total: t, fits: fits) {
            return settled(s, rule: "subtotal.lone-amounts-add-up", o, total: t, checks: checks, taxRule: "tax.lone-amounts-add-up")
        }
        // 3. One digit misread in the subtotal or the tax, when the total is backed by something else.
        if confirmed(total) {
            for s in subtotals {
                for o in options where o.amount < s.amount {
                    let wantTax = t - s.amount - adj
                    if let (swap, byEngine) = Self.digitConfusion(o.amount, wantTax, readFrom: o.found.line.ocrWords), wantTax.value > 0 {
                        var r = o
                        r.amount = wantTax
                        r.notes.append(.digitRepaired(read: o.amount, sum: .totalLessSubtotal(total: t, subtotal: s.amount), equals: wantTax, swap: swap))
                        if byEngine { r.notes.append(.engineWeighedDigit(String(swap.to))) }
                        return settled(s, rule: Self.rule(s), r, total: t, checks: checks)
                    }
                    let wantSub = t - o.amount - adj
                    if let (swap, byEngine) = Self.digitConfusion(s.amount, wantSub, readFrom: s.line.ocrWords) {
                        var r = s
                        r.amount = wantSub
                        r.notes.append(.digitRepaired(read: s.amount, sum: .totalLessTax(total: t, tax: o.amount), equals: wantSub, swap: swap))
                        if byEngine { r.notes.append(.engineWeighedDigit(String(swap.to))) }
                        return settled(r, rule: Self.rule(r), o, total: t, checks: checks)
                    }
                }
            }
        }
        // 3b. No tax on the receipt, nothing between the subtotal and the total: they are the same amount, one
        //     digit of the subtotal misread ("SUBTOTAL $15.83" above "TOTAL $17.83").
        if named.isEmpty, adj.value == 0, let s = subtotals.last, s.line.index < row, onlyTaxBetween(s.line.index, row),
           unreadTaxLine(after: s.line.index, before: row) == nil, let (swap, byEngine) = Self.digitConfusion(s.amount, t, readFrom: s.line.ocrWords), confirmed(total) {
            var r = s
            r.amount = t
            r.notes.append(.digitRepaired(read: s.amount, sum: .totalLessTax(total: t, tax: Amount(0)), equals: t, swap: swap))
            if byEngine { r.notes.append(.engineWeighedDigit(String(swap.to))) }
            return settledWithoutTax(r, rule: Self.rule(r), total: t, checks: checks, options: options)
        }
        // 4. A subtotal line, and a tax line whose amount OCR could not read: the tax is what is left.
        if let s = subtotals.last, options.isEmpty, let taxLine = unreadTaxLine(after: s.line.index, before: row) {
            let rest = t - s.amount - adj
            if rest.value > 0, rest < s.amount * Ratio.r0_25, onlyTaxBetween(s.line.index, row) {
                let o = TaxOption(amount: rest, found: Found(amount: rest, keyword: .derived("total less subtotal", weight: 0.5), line: taxLine,
                                                              score: 0.5, notes: []),
                                  notes: [.workedOut(.totalLessSubtotal(total: t, subtotal: s.amount), equals: rest)])
                return settled(s, rule: Self.rule(s), o, total: t, checks: checks, taxRule: "tax.total-less-subtotal")
            }
        }
        // 4a. A subtotal line whose amount OCR could not read ("Sub Total e: 1."), no tax line on the receipt and
        //     nothing but blank or unreadable lines between it and the total: the subtotal is the total.
        if subtotals.isEmpty, named.isEmpty, tax == nil, adj.value == 0, row > 0,
           let l = lines[..<row].last(where: { rules.isSubtotal($0.words) }),
           !l.amounts.contains(where: { !$0.isPercent && $0.amount.value > 0 }), onlyTaxBetween(l.index, row),
           unreadTaxLine(after: l.index, before: row) == nil {
            let s = Found(amount: t, keyword: .derived("subtotal unread", weight: 0.5), line: l, score: 0.5, notes: [.unreadEqualsTotal])
            return settledWithoutTax(s, rule: "subtotal.unread-equals-total", total: t, checks: checks, options: options)
        }
        // 4b. The items' sum printed above the total, no tax added: the subtotal, the total's amount.
        if subtotalLines.isEmpty, let s = subtotals.first, named.isEmpty, Self.same(s.amount + adj, t) {
            return settledWithoutTax(s, rule: Self.rule(s), total: t, checks: checks, options: options)
        }
        // 5. No subtotal line, no tax added: the total printed above its own line ("Amount 141.00", "Food
        //    Total 245.00", "Net Total 105.00" over "TOTAL 105.00") is the sum before tax, which is the total.
        //    Or the total was taken from the upper of two such lines ("Total Sales 180.00" over "TOTAL 180.00"):
        //    its own line is the sum before tax.
        if subtotals.isEmpty, !named.contains(where: { fits(t - $0.amount - adj, $0.amount) }), adj.value == 0 {
            func printsTotal(_ l: ParseLine) -> Bool {
                l.amounts.contains { !$0.isPercent && !$0.negative && $0.amount == t } && !isOtherCharge(l) && rules.best(rules.total, in: l.words) != nil
            }
            if let l = lines[..<row].last(where: printsTotal) {
                let s = Found(amount: t, keyword: .derived("total printed above", weight: 0.5), line: l, score: 0.5, notes: [.equalsTotal])
                return settledWithoutTax(s, rule: "subtotal.total-printed-above", total: t, checks: checks, options: options)
            }
            if row + 1 < lines.count, printsTotal(lines[row]), lines[(row + 1)...].contains(where: printsTotal) {
                let s = Found(amount: t, keyword: .derived("total printed below", weight: 0.5), line: lines[row], score: 0.5, notes: [.totalPrintedAgainBelow])
                return settledWithoutTax(s, rule: "subtotal.total-printed-below", total: t, checks: checks, options: options)
            }
        }
        // 5b. The subtotal line prints the total (or the total before its rounding), on a line of its own: the tax,
        //     if any, is included in it ("Sub Total 118.20", "GST @6% 6.69", "Total 118.20"; "Subtotal 7.00", "Total
        //     Incl. of GST 7.00"). Two lines agree on the total: nothing is amiss, no mismatch to look again for.
        if let s = subtotalLines.first(where: { $0.line.index != row && (Self.same($0.amount, t) || Self.same($0.amount + adj, t)) }) {
            var out = Settled(subtotal: Field(s.amount, confidence: min(0.99, 0.6 + 0.3 * s.score),
                                              evidence: s.line.evidence(rule: Self.rule(s), notes: s.notes + [.equalsTotal])),
                              tax: nil, checks: checks.filter { $0 != .subtotalTaxMismatch })
            if let o = options.first(where: { $0.amount < t * Ratio.r0_3 }) {
                out.tax = Field(o.amount, confidence: min(0.99, 0.5 + 0.3 * o.found.score),
                                evidence: o.found.line.evidence(rule: "tax.included", notes: o.notes + [.taxIncluded]))
            } else if let x = tax, x.value < t * Ratio.r0_3 {
                out.tax = x   // "Tax 0.00"
            } else if let (l, a) = includedTax(below: s.line.index, total: t) {
                out.tax = Field(a, confidence: 0.7, evidence: l.evidence(rule: "tax.included", notes: [.taxIncluded]))
            }
            return out
        }
        var out = kept
        // A tax as large as half the total is no tax: a total line that names the tax ("Total Sales (Excluding GST)").
        if let x = out.tax, x.value >= t * Ratio.r0_5 { out.tax = nil }
        // 6. No tax added: the tax included in the prices, as the receipt states it ("VAT 20% included 1.99",
        //    "TOTAL INCLUDES 6% GOVT TAX OF 0.57"), a small part of the total.
        if out.tax == nil, let (l, a) = includedTax(below: subtotals.first?.line.index, total: t) {
            out.tax = Field(a, confidence: 0.7, evidence: l.evidence(rule: "tax.included", notes: [.taxIncluded]))
        }
        // 7. A tax table's row its rate backs, the sums silent: the tax charged.
        if out.tax == nil { out.tax = rateRowTax(options, total: t) }
        // 8. No subtotal line, the sums silent (a service charge or a tax OCR misread between): the row under the
        //    items printing their sum is the subtotal.
        if out.subtotal == nil, subtotalLines.isEmpty, let s = subtotals.first, s.amount < t {
            out.subtotal = Field(s.amount, confidence: min(0.99, 0.5 + 0.3 * s.score), evidence: s.line.evidence(rule: Self.rule(s), notes: s.notes))
        }
        return out
    }

    /// Two lines of one amount each right above the total's row `row` (skipping lines of the total `t`'s amount alone),
    /// the upper and the lower adding up to the total (`fits`, settle's sum), the lower over nothing and under 30 % of
    /// the upper: the subtotal and the tax whose words OCR lost.
    func loneAmountsAdding(above row: Int, total t: Amount, fits: (Amount, Amount) -> Bool) -> (Found, TaxOption)? {
        func lone(_ l: ParseLine) -> Amount? {
            guard l.amounts.count == 1, let a = l.amounts.first, !a.isPercent, !a.negative, Self.isAmountOnly(l, rules) else { return nil }
            return a.amount
        }
        var j = row - 1
        while j >= 0, let a = lone(lines[j]), Self.same(a, t) { j -= 1 }
        guard j >= 1, let tax = lone(lines[j]), let sub = lone(lines[j - 1]), tax.value > 0, tax < sub * Ratio.r0_3, fits(sub, tax) else { return nil }
        let s = Found(amount: sub, keyword: .derived("lone amounts add up", weight: 0.5), line: lines[j - 1], score: 0.5, notes: [])
        let o = TaxOption(amount: tax, found: Found(amount: tax, keyword: .derived("lone amounts add up", weight: 0.5), line: lines[j], score: 0.5,
                                                    notes: []), notes: [])
        return (s, o)
    }

    static let inclusionWords: Set<Substring> = ["incl", "includes", "included", "including", "inclusive", "inkl", "enthalten", "inclus", "incluido", "incluso"]

    /// A line naming a tax and that it is included, with an amount under 30 % of the total (not the total itself).
    func includedTax(below first: Int?, total t: Amount) -> (ParseLine, Amount)? {
        for l in lines where first == nil || l.index >= first! {
            guard rules.best(rules.tax, in: l.words) != nil, l.words.words.contains(where: Self.inclusionWords.contains) else { continue }
            if let a = l.amounts.last(where: { $0.isPositiveMoney && $0.amount < t * Ratio.r0_3 }) {
                return (l, a.amount)
            }
        }
        return nil
    }

    /// The subtotal's rule: its keyword line, or how it was found ("subtotal.line-items'-sum").
    static func rule(_ s: Found) -> String {
        s.keyword.isDerived ? "subtotal." + replacingOccurrences(in: replacingOccurrences(in: s.keyword.raw, of: " ", with: "-"), of: "'", with: "") : "subtotal.keyword"
    }

    /// The row between the last item and the total's row printing the items' sum (two items at least).
    func itemsSumRow(_ items: [LineItem], before row: Int) -> Found? {
        guard items.count >= 2, let last = items.last?.evidence.line,
              let lastRow = lines.first(where: { $0.source == last })?.index, lastRow + 1 < row else { return nil }
        let sum = items.reduce(Amount(0)) { $0 + $1.net }
        guard sum.value > 0, let (l, a) = printed(sum, in: lines[(lastRow + 1)..<row]) else { return nil }
        return Found(amount: a, keyword: .derived("line items' sum", weight: 0.7), line: l, score: 0.7, notes: [.lineItemsAddUp(a)])
    }

    /// The first of `lines` printing an amount within a cent of `want`, with the amount as printed.
    func printed<S: Sequence>(_ want: Amount, in lines: S) -> (ParseLine, Amount)? where S.Element == ParseLine {
        for l in lines {
            if let a = l.amounts.first(where: { !$0.isPercent && !$0.negative && Self.same($0.amount, want) }) { return (l, a.amount) }
        }
        return nil
    }

    /// `want` printed on `l` before the amount `tax` (the subtotal and the tax on one line).
    func printed(_ want: Amount, before tax: Amount, on l: ParseLine) -> (ParseLine, Amount)? {
        let a = l.amounts.filter { !$0.isPercent && !$0.negative }
        guard let i = a.firstIndex(where: { $0.amount == tax }),
              let s = a[..<i].last(where: { Self.same($0.amount, want) }) else { return nil }
        return (l, s.amount)
    }

    /// A subtotal with no tax added (the tax field is left as the keyword lines gave it; with none, a tax table's row
    /// its rate backs is the tax included in the total).
    func settledWithoutTax(_ s: Found, rule: String, total t: Amount, checks: [Check], options: [TaxOption]) -> Settled {
        Settled(subtotal: Field(s.amount, confidence: min(0.99, 0.5 + 0.3 * s.score), evidence: s.line.evidence(rule: rule, notes: s.notes)),
                tax: tax ?? rateRowTax(options, total: t, notes: [.taxIncluded]), checks: checks)
    }

    /// The first tax table's row among `options` found by its rate (`rateRows`), under 30 % of the total `t`, as the
    /// tax field (rule `tax.rate-row`, its notes and `notes`).
    func rateRowTax(_ options: [TaxOption], total t: Amount, notes: [Note] = []) -> Field<Amount>? {
        options.first { $0.isRateRow && $0.amount < t * Ratio.r0_3 }.map { o in
            Field(o.amount, confidence: min(0.99, 0.5 + 0.3 * o.found.score), evidence: o.found.line.evidence(rule: "tax.rate-row", notes: o.notes + notes))
        }
    }

    /// The subtotal and tax fields of a pair that adds up, with the sum in their evidence and among the checks.
    func settled(_ s: Found, rule: String, _ o: TaxOption, total t: Amount, checks: [Check], taxRule: String = "tax.keyword") -> Settled {
        let plain = Self.same(s.amount + o.amount, t)
        let sum = Sum.subtotalTax(subtotal: s.amount, tax: o.amount, rounding: plain ? nil : roundingFound?.amount,
                                  discount: plain ? nil : discountFound?.amount.magnitude, charges: plain ? nil : charges)
        let agree = Note.sum(sum, equals: t)
        let sub = Field(s.amount, confidence: min(0.99, 0.6 + 0.3 * s.score), evidence: s.line.evidence(rule: rule, notes: s.notes + [agree]))
        let tax = Field(o.amount, confidence: min(0.99, 0.6 + 0.3 * o.found.score),
                        evidence: o.found.line.evidence(rule: o.isRateRow ? "tax.rate-row" : taxRule, notes: o.notes + [agree]))
        var out = checks.filter { $0 != .subtotalTaxMismatch }
        if !out.contains(.sum(sum, equals: t)) { out.append(.sum(sum, equals: t)) }
        return Settled(subtotal: sub, tax: tax, checks: out)
    }

    /// The total is backed by more than its own line: a sum, the line items, what was paid, or printed twice.
    func confirmed(_ total: Field<Amount>) -> Bool {
        total.evidence.notes.contains { n in
            switch n {
            case .sum, .lineItemsAddUp, .equalsAmountPaid, .printed: true
            default: false
            }
        }
    }

    static let otherChargeWords = [" tip ", " tips ", " gratuity ", " service ", " svc ", " charge ", " deposit ", " fee "]

    /// A line of the totals block that is some other money than tax: a tip, a service charge, a discount, a payment.
    func isOtherCharge(_ l: ParseLine) -> Bool {
        if rules.best(rules.tax, in: l.words) != nil { return false }
        // (The sets asked one after another, and the words from a list made once: not arrays made for every line.)
        if rules.any(rules.rounding, in: l.words) != nil || rules.any(rules.discount, in: l.words) != nil
            || rules.any(rules.cash, in: l.words) != nil || rules.any(rules.change, in: l.words) != nil { return true }
        return Self.otherChargeWords.contains { l.words.holds(text: $0) }
    }

    /// A tax line between the subtotal's row and the total's with no amount OCR could read.
    func unreadTaxLine(after s: Int, before t: Int) -> ParseLine? {
        guard s + 1 < t else { return nil }
        return lines[(s + 1)..<t].first { l in
            rules.best(rules.tax, in: l.words) != nil && rules.any(rules.taxExclude, in: l.words) == nil
                && !l.amounts.contains { !$0.isPercent && $0.amount.value > 0 }
        }
    }

    /// Between the subtotal and the total, nothing but tax, blank or unreadable lines: no tip, service
    /// charge, discount or deposit whose amount would be taken for the tax.
    func onlyTaxBetween(_ s: Int, _ t: Int) -> Bool {
        guard s + 1 < t else { return true }
        return lines[(s + 1)..<t].allSatisfy { l in
            rules.best(rules.tax, in: l.words) != nil || !rules.isMoneyLabel(l.words) && !rules.isSummaryOrMeta(l.words) && l.amounts.isEmpty
        }
    }
}
