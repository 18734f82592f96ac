import Foundation
import ReceiptModel
import ReceiptSupport

/// Total, subtotal, tax, rounding, cash and change, read from keyword lines and
/// checked against each other by arithmetic. Here: finding the keyword lines and their amounts, the
/// subtotal and tax fields; the total, ranked and checked: `TotalField.swift`.
struct MoneyFields {
    struct Found {
        var amount: Amount
        var keyword: CompiledRules.Keyword
        var line: ParseLine
        var score: Double
        var notes: [Note]
    }

    let lines: [ParseLine]
    let rules: CompiledRules
    var subtotalFound: Found?
    var taxFound: Found?
    /// Every subtotal line and every tax line with an amount, top to bottom (the settled subtotal and tax are chosen among them).
    var subtotalLines: [Found] = []
    var taxLines: [Found] = []
    /// A rate and one amount, no tax word: a tax if the total backs it (`rateRows`).
    var rateSingles: [RateSingle] = []
    var roundingFound: Found?
    /// The rounding line: `roundingFound`'s, or a line saying "rounding" whose adjustment OCR could not read
    /// ("Rounding Adj: ~0.0)"): it still parts the total before rounding from the one paid.
    var roundingLine: Int?
    var discountFound: Found?
    var cashFound: Found?
    var changeFound: Found?
    /// The sum of the service charges, tips and gratuities printed between the subtotal and the total, nil without
    /// any: added to the subtotal like the tax ("Subtotal 96.00", "10% SERVICE CHARGE 9.60", "GST 7.39", "Total 112.99").
    var charges: Amount?
    var totalCandidates: [Found] = []
    /// A heading of the tax breakdown table ("GST SUMMARY"): "TOTAL" lines below it are the table's.
    var taxTableLine: Int?
    /// What was left out of an enormous input (more total lines than `maxTotalCandidates`).
    var warnings: [String] = []
    /// `taxLinesBefore[i]`: how many of the lines before line i name a tax (the total's place is judged by them).
    let taxLinesBefore: [Int]

    /// Total lines scored at most: every candidate is weighed against the others and against the
    /// lines between them, so an input with thousands of "TOTAL" lines (a text dump, not a receipt)
    /// would cost their square. Real receipts have a handful; the last ones are kept (totals are at the bottom).
    static let maxTotalCandidates = 100

    /// `quick: false` asks every line each set (for the test that holds the two ways together).
    init(lines: [ParseLine], rules: CompiledRules, quick: Bool = true) {
        self.lines = lines
        self.rules = rules
        // The lines that hold no keyword of the sets below as printed or one slip away (the subtotal's two, as it is
        // asked loosely), read from the line's bits at once: most of a receipt's lines. Every set's `best` of them is
        // nil, and `find` passes them over. (A speed trick: each of the seven sets' `best` was asked of every line,
        // some 400 instructions an ask.)
        let quiet: [Bool]? = quick ? rules.moneySlots.map { slots in
            lines.map { l in
                guard let h = l.words.hits(rules.subtotal, rules.keywordIndex) else { return false }
                return h.holdsNone(ofSlots: slots, loose: rules.subtotal, l.words)
            }
        } : nil
        // A label line's value found once for every keyword set that names the line.
        let paired = PairedValues(count: lines.count)
        subtotalLines = Self.find(rules.subtotal, lines, rules, all: true, loosely: true, paired: paired, quiet: quiet)
        subtotalFound = subtotalLines.first
        // The best tax line, not the first: "Total (incl. GST) 31.47" says GST too, but is a total.
        // Each line's best tax and rounding keyword, once: `find` reads its lines by them, and so do
        // `taxLinesBefore` and `roundingLine` below.
        let taxKeywords = lines.indices.map { i in quiet?[i] == true ? nil : rules.best(rules.tax, in: lines[i].words) }
        let roundingKeywords = lines.indices.map { i in quiet?[i] == true ? nil : rules.best(rules.rounding, in: lines[i].words) }
        let taxLines = Self.find(rules.tax, lines, rules, exclude: rules.taxExclude, all: true, paired: paired, best: taxKeywords).map(Self.taxTableRow)
        // A line that is also a strong total ("Total Amt incl. GST @ 6%") is the total, not the tax.
        let taxScored = taxLines.map { t in (t, t.score - ((rules.best(rules.total, in: t.line.words)?.weight ?? 0) >= 0.9 ? 0.5 : 0)) }
        let bestTax = taxScored.map(\.1).max()
        taxFound = taxScored.first { $0.1 == bestTax }?.0
        self.taxLines = taxScored.map { var t = $0.0; t.score = $0.1; return t }
        // A tax table's row with no tax word OCR read ("SR @ 6% 80.00 4.80", "A 19% Must 7,48 1,42"): its rate
        // makes it one. Each is one more tax line the sums choose among (not `taxFound`, the tax a keyword names).
        let rated = Self.rateRows(lines, rules, taxKeywords: taxKeywords)
        self.taxLines.append(contentsOf: rated.rows)
        rateSingles = rated.singles
        // A rounding adjustment is less than the smallest note; "Rounding RM 177.20" is the rounded total.
        let roundingLines = Self.find(rules.rounding, lines, rules, allowNegative: true, all: true, paired: paired, best: roundingKeywords)
        roundingFound = roundingLines.first { $0.amount.magnitude < Amount(1) }
        discountFound = Self.find(rules.discount, lines, rules, allowNegative: true, paired: paired, quiet: quiet).first
        cashFound = Self.find(rules.cash, lines, rules, exclude: rules.cashExclude, paired: paired, quiet: quiet).first
        // Change is printed with a sign now and then ("20.00-"): it is never owed the other way.
        changeFound = Self.find(rules.change, lines, rules, exclude: rules.changeExclude, allowNegative: true, paired: paired, quiet: quiet).first.map { f in var f = f; f.amount = f.amount.magnitude; return f }
        totalCandidates = Self.find(rules.total, lines, rules, exclude: rules.totalDistractors, all: true, paired: paired, slippedDistractors: true,
                                   quiet: quiet)
        let totalLines = Set(totalCandidates.map(\.line.index))
        for r in roundingLines where r.amount >= Amount(1) && !totalLines.contains(r.line.index) {
            totalCandidates.append(Found(amount: r.amount, keyword: .derived("rounded total", weight: 0.75), line: r.line,
                                         score: 0.75 * r.keyword.weight, notes: r.notes + [.roundingLineHoldsTotal]))
        }
        roundingLine = roundingFound?.line.index ?? lines.indices.first { i in
            let l = lines[i]
            return (roundingKeywords[i]?.weight ?? 0) >= 0.7 && !totalLines.contains(l.index)
                && !l.amounts.contains { !$0.isPercent && $0.amount.magnitude >= Amount(1) }
        }.map { lines[$0].index }
        taxTableLine = lines.first { l in l.amounts.isEmpty && rules.any(rules.totalTables, in: l.words) != nil }?.index
        charges = Self.charges(lines, after: subtotalFound?.line.index, totals: totalCandidates, taxKeywords: taxKeywords)
        if totalCandidates.count > Self.maxTotalCandidates {
            warnings.append("\(totalCandidates.count) lines read as totals; only the last \(Self.maxTotalCandidates) were weighed")
            totalCandidates = Array(totalCandidates.sorted { $0.line.index < $1.line.index }.suffix(Self.maxTotalCandidates))
        }
        var counts = [0]
        counts.reserveCapacity(lines.count + 1)
        for k in taxKeywords { counts.append(counts.last! + (k != nil ? 1 : 0)) }
        taxLinesBefore = counts
    }

    /// Where a label line's value is, when the line itself holds none.
    struct Paired { var line: ParseLine; var amounts: [FoundAmount]; var factor: Double; var note: Note }

    /// Lines with no letters beyond a currency word ("RM", ":", "(RM)"): layout filler between a label and its value.
    static func isFiller(_ l: ParseLine, _ rules: CompiledRules) -> Bool {
        guard l.amounts.isEmpty, !isBareNumber(l) else { return false }
        // (The words counted by their places; only a line of one word is split for it.)
        let w = l.words
        if w.spans.isEmpty { return true }
        guard w.spans.count == 1 else { return false }
        let words = w.words
        return words.count == 1 && (rules.currencyWords.contains(String(words[0])) || words[0].count <= 1) && l.words.digitCount == 0
    }

    /// A value with at most a currency's letters beside it; not a short label with its own amount ("GST 1.30", "Tip 2.00").
    static func isAmountOnly(_ l: ParseLine, _ rules: CompiledRules) -> Bool {
        (l.amounts.notPercentCount > 0 && l.words.letterCount <= 3 && !rules.isMoneyLabel(l.words)
            && rules.any(rules.totalDistractors, in: l.words) == nil) || isBareNumber(l)
    }

    static let trimSpaces = Trim(.whitespaces)

    /// "0" on its own line: a value printed without decimals; it holds a place in a column of values.
    /// (On ASCII, its bytes in place, `bareNumberBytes`: the trimmed copy and the walks of its characters were some
    /// 900 instructions a line, asked of many lines around each label.)
    static func isBareNumber(_ l: ParseLine) -> Bool {
        if let r = l.text.utf8.withContiguousStorageIfAvailable(bareNumberBytes), let r { return r }
        return isBareNumberByCharacters(l.text)
    }

    /// `isBareNumberByCharacters` of ASCII bytes (nil for any other): trimmed as `trimSpaces` trims ASCII, one to
    /// three bytes, each a digit or "-", one a digit (there a character is a byte, and only 0-9 are numbers; the
    /// one character of two bytes, CR LF, is neither).
    static func bareNumberBytes(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
        let space = trimSpaces.ascii
        var lo = 0, hi = b.count
        while lo < hi, space[Int(b[lo])] { lo += 1 }
        while hi > lo, space[Int(b[hi - 1])] { hi -= 1 }
        guard hi > lo, hi - lo <= 3 else { return false }
        var digit = false
        for k in lo..<hi {
            if Bytes.isDigit(b[k]) { digit = true } else if b[k] != UInt8(ascii: "-") { return false }
        }
        return digit
    }

    /// `isBareNumber` of a line's text, by characters.
    static func isBareNumberByCharacters(_ text: String) -> Bool {
        let t = Self.trimSpaces(text)
        return !t.isEmpty && t.count <= 3 && t.allSatisfy { $0.isNumber || $0 == "-" } && t.contains(where: \.isNumber)
    }

    static func isLabel(_ l: ParseLine) -> Bool {
        l.amounts.notPercentCount == 0 && l.words.letterCount >= 2
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
            guard isAmountOnly(lines[j], rules) else { break }
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
        guard v.amounts.notPercentCount == 1 else { return nil }
        if labels.count == 1 { return Paired(line: v, amounts: v.amounts, factor: 0.9, note: .amountOnNextLine) }
        let exact = values.count == labels.count
        return Paired(line: v, amounts: v.amounts, factor: exact ? 0.85 : 0.7,
                      note: .amountInColumn(position: k + 1, of: values.count, afterLabels: labels.count))
    }

    /// `pairedValue(i, lines, rules)` for each line `i`, worked out when first asked (it depends on the lines and
    /// the rules alone: `init` asks it again for a line each set of keywords finds). A class: shared by the calls of `find`.
    /// (Line i's value is `found[slots[i] - 1]`; slot 0: not asked yet, -1: none. An array of `Paired?` a line long,
    /// made for every parse, copied a nil into each place through the type's value witness: some 270 instructions a
    /// line, and few lines are ever asked.)
    final class PairedValues {
        private var slots: [Int32]
        private var found: [Paired] = []
        init(count: Int) {
            slots = Array(repeating: 0, count: count)
        }
        func value(_ i: Int, _ lines: [ParseLine], _ rules: CompiledRules) -> Paired? {
            let slot = slots[i]
            if slot > 0 { return found[Int(slot) - 1] }
            if slot < 0 { return nil }
            let p = MoneyFields.pairedValue(i, lines, rules)
            if let p {
                found.append(p)
                slots[i] = Int32(found.count)
            } else {
                slots[i] = -1
            }
            return p
        }
    }

    /// Lines carrying one of `keywords` (and none of `exclude` that contains it), with the amount on the line or paired with it.
    /// `paired`: the label lines' values already found, for these `lines` (nil: each found anew). `slippedDistractors`: the
    /// excluded phrases asked one slipped word away too (the total's: "Total Itemis)"). `quiet`: the lines known to hold
    /// none of `keywords` (`init`'s), passed over.
    static func find(_ keywords: CompiledRules.KeywordSet, _ lines: [ParseLine], _ rules: CompiledRules,
                     exclude: CompiledRules.KeywordSet = .none, allowNegative: Bool = false, all: Bool = false, loosely: Bool = false,
                     paired: PairedValues? = nil, best: [CompiledRules.Keyword?]? = nil, slippedDistractors: Bool = false,
                     quiet: [Bool]? = nil) -> [Found] {
        var out: [Found] = []
        for (i, l) in lines.enumerated() {
            if let quiet, quiet[i] { continue }
            // (`best`: each line's `rules.best(keywords, in:, loosely:)`, found already.)
            guard let kw = best.map({ $0[i] }) ?? rules.best(keywords, in: l.words, loosely: loosely) else { continue }
            // Matched one letter off ("change" in "charge") on a line that has an excluded word as printed: it is that word.
            if !l.words.has(kw), exclude.contains(where: { l.words.has($0) && EditDistance.levenshtein($0.normalised, kw.normalised, limit: 2) <= 1 }) { continue }
            // A distractor that includes the keyword ("sub total" ⊃ "total") takes the line away.
            // (Asked of the excluded words the line may hold, by their signs; one keyword inside another found as bytes
            // when both are ASCII, Foundation's String.contains otherwise.)
            func holds(_ a: CompiledRules.Keyword, _ b: CompiledRules.Keyword) -> Bool {
                a.isASCII && b.isASCII ? bytesContain(a.bytes, b.bytes) : a.normalised.contains(b.normalised)
            }
            var blocking: CompiledRules.Keyword?
            for j in exclude.indices where l.words.may(exclude.signs[j], loosely: false) {
                let e = exclude.keywords[j]
                if l.words.contains(e) && (holds(e, kw) || holds(kw, e) == false && e.normalised.count > kw.normalised.count) { blocking = e; break }
            }
            if let b = blocking, holds(b, kw) { continue }
            var notes: [Note] = []
            var score = kw.weight
            if let b = blocking { score *= 0.6; notes.append(.alsoSays(b.raw)) }
            func usable(_ a: FoundAmount) -> Bool { !a.isPercent && (allowNegative || !a.negative) }
            var amounts = l.amounts.filter(usable)
            var source = l
            if amounts.isEmpty, let p = paired.map({ $0.value(i, lines, rules) }) ?? pairedValue(i, lines, rules) {
                amounts = p.amounts.filter(usable)
                if !amounts.isEmpty { score *= p.factor; notes.append(p.note); source = p.line }
            }
            guard let last = amounts.last else { continue }
            let a = source === l ? Self.amountAfterLabel(kw, on: l, among: amounts) ?? last : last
            // A longer distractor of several words read through an OCR slip ("Total Sales (Exclubing GST)", "Total
            // Itemis)"): it says what the line is as its words as printed would. (Asked only of a line with an amount.)
            if slippedDistractors, blocking == nil, let b = Self.slippedDistractor(exclude, longerThan: kw, on: l.words) {
                if holds(b, kw) { continue }
                score *= 0.6; notes.append(.alsoSays(b.raw))
            }
            if !a.repairs.isEmpty { score -= 0.1 * Double(a.repairs.count); notes += a.repairs }
            let value = a.negative ? Amount(0) - a.amount : a.amount
            out.append(Found(amount: value, keyword: kw, line: source, score: score, notes: [.keyword(kw.raw)] + notes))
            if !all { break }
        }
        return out
    }

    /// On a row of two labels and their amounts ("Total 25.00 Cash 30.00", "NET SALES 98.20 GRAND TOTAL 109.60"),
    /// the amount after the keyword `kw`, before the next label's word (three letters or more); nil on any other line
    /// (its last amount is the value: "Total 2 x 4.50 9.00").
    static func amountAfterLabel(_ kw: CompiledRules.Keyword, on l: ParseLine, among amounts: [FoundAmount]) -> FoundAmount? {
        guard amounts.count >= 2 else { return nil }
        let text = Array(l.text.lowercased())
        let key = Array(kw.raw)
        guard !key.isEmpty, text.count >= key.count,
              let k = (0...(text.count - key.count)).first(where: { i in text[i..<(i + key.count)].elementsEqual(key) }),
              let i = amounts.firstIndex(where: { $0.position >= k + key.count }), i + 1 < amounts.count else { return nil }
        // Letters between this amount and the next: another label.
        var run = 0
        for c in text[min(amounts[i].position, text.count)..<min(amounts[i + 1].position, text.count)] {
            run = c.isLetter ? run + 1 : 0
            if run >= 3 { return amounts[i] }
        }
        return nil
    }

    /// The first distractor of `exclude` of several words, longer than `kw`, on the line with one word slipped (`holdsSlipped`).
    static func slippedDistractor(_ exclude: CompiledRules.KeywordSet, longerThan kw: CompiledRules.Keyword, on w: WordLine) -> CompiledRules.Keyword? {
        var have: [[UInt8]]?
        for j in exclude.indices where exclude.signs[j].phrase {
            // (One word slipped leaves one of the phrase's word bits and at most one of its bytes off the line: most
            // phrases are refused by those, read from the set's signs without touching the keyword.)
            let sign = exclude.signs[j]
            guard (sign.words & ~w.wordMask).nonzeroBitCount == 1, (sign.coreBytes & ~w.lineByteMask).nonzeroBitCount <= 1 else { continue }
            let e = exclude.keywords[j]
            guard e.length > kw.length else { continue }
            if have == nil { have = w.wordBytes }
            if holdsSlipped(e, have!) { return e }
        }
        return nil
    }

    /// The words of `phrase` side by side on the line, all as printed but one, which is one OCR slip away before its
    /// last letter and five letters or more (the phrase as printed is `contains`'s).
    /// `have`: the line's words (`WordLine.wordBytes`).
    static func holdsSlipped(_ phrase: CompiledRules.Keyword, _ have: [[UInt8]]) -> Bool {
        let want = phrase.phraseWords
        guard want.count >= 2, have.count >= want.count else { return false }
        for start in 0...(have.count - want.count) {
            var slipped = 0
            for k in want.indices {
                let a = have[start + k], b = want[k]
                if a == b { continue }
                // (Its last letter as printed: "includes" is no slip of "included", but another word.)
                guard b.count >= 5, abs(a.count - b.count) <= 1, a.last == b.last, WordLine.oneSlip(a, b) else { slipped = 2; break }
                slipped += 1
            }
            if slipped == 1 { return true }
        }
        return false
    }

    var subtotal: Field<Amount>? { subtotalFound.map(field(rule: "subtotal.keyword")) }
    var tax: Field<Amount>? { taxFound.map(field(rule: "tax.keyword")) }

    func field(rule: String) -> (Found) -> Field<Amount> {
        { f in Field(f.amount, confidence: 0.5 + 0.4 * f.score, evidence: f.line.evidence(rule: rule, notes: f.notes)) }
    }

    static func same(_ a: Amount, _ b: Amount) -> Bool {
        if let x = a.knownCents, let y = b.knownCents {
            let (d, o) = x.subtractingReportingOverflow(y)
            if !o { return d.magnitude <= 1 }
        }
        return (a - b).magnitude <= oneCent
    }
    /// Made once: `Amount(cents:)` divides a Decimal, and `same` is asked for every pair of amounts compared.
    static let oneCent = Amount(cents: 1)

    /// A value taken from a column of values printed apart from their labels: the pairing may be off by a row.
    static func fromColumn(_ f: Found?) -> Bool {
        f?.notes.contains { if case .amountInColumn = $0 { return true } else { return false } } ?? false
    }

    /// Rounding and service charges, less any discount: what turns subtotal + tax into the total.
    var adjustment: Amount { (roundingFound?.amount ?? Amount(0)) - (discountFound?.amount.magnitude ?? Amount(0)) + (charges ?? Amount(0)) }

    static let chargeWords = [" service ", " svc ", " sv chg ", " serv chg ", " gratuity ", " tip ", " tips "]

    /// The sum of the amounts on the lines below the subtotal's (or any, without one) and above a total line below
    /// them that charge a service, a tip or a gratuity: no tax or total word on them, not a rate alone; nil without
    /// any. Below the totals they are suggestions ("Tip 18%: 8.43") or a total of their own ("Total incl. service"),
    /// not added.
    static func charges(_ lines: [ParseLine], after subtotal: Int?, totals: [Found], taxKeywords: [CompiledRules.Keyword?]) -> Amount? {
        guard let lastTotal = totals.filter({ $0.keyword.weight >= 0.8 }).map(\.line.index).max() else { return nil }
        let start = subtotal.map { $0 + 1 } ?? 0
        guard start < lastTotal else { return nil }
        let totalLines = Set(totals.map(\.line.index))
        var sum: Amount?
        for l in lines[start..<lastTotal] where taxKeywords[l.index] == nil && !totalLines.contains(l.index) {
            // (The amount asked first: most lines have none, and the words are asked seven times.)
            guard let a = l.amounts.last(where: \.isPositiveMoney),
                  chargeWords.contains(where: { l.words.holds(text: $0) }) else { continue }
            sum = (sum ?? Amount(0)) + a.amount
        }
        return sum
    }

    /// Words of a line whose rate and amounts are not a tax's: a discount, a service charge, a tip ("10% OFF
    /// 20.00 2.00", "SVC CHG 10% 50.00 5.00", "18% 45.00 8.10" under "Suggested tip").
    static let notTaxRateWords = [" off ", " disc ", " discount ", " save ", " saving ", " savings ", " member ", " promo ", " coupon "]

    /// Lines naming no tax that print a rate and, side by side, a net amount and that rate of it to the cent ("SR @
    /// 6% 80.00 4.80", "A 19% Must 7,48 1,42 8,90" with the word misread), or a rate line with no amount (its word
    /// read or not) over such amounts ("GST (6.000%)" over "35.00 2.10"): a tax table's row, its tax at 0.85 (the
    /// rate is checked, the word is not read). With one amount instead of two, the row is set aside (`singles`)
    /// for the total to judge. Not a line of a discount, a service charge, a tip or a payment, which print the
    /// same arithmetic.
    static func rateRows(_ lines: [ParseLine], _ rules: CompiledRules, taxKeywords: [CompiledRules.Keyword?]) -> (rows: [Found], singles: [RateSingle]) {
        var rows: [Found] = [], singles: [RateSingle] = []
        func usable(_ l: ParseLine) -> [Amount] { l.amounts.filter(\.isPositiveMoney).map(\.amount) }
        func notTax(_ l: ParseLine) -> Bool {
            rules.any(rules.discount, in: l.words) != nil || rules.any(rules.rounding, in: l.words) != nil
                || rules.any(rules.cash, in: l.words) != nil || rules.any(rules.change, in: l.words) != nil
                || chargeWords.contains(where: { l.words.holds(text: $0) }) || notTaxRateWords.contains(where: { l.words.holds(text: $0) })
        }
        for l in lines {
            // (An amount on the line or the next asked first, then a "%" among its bytes, found in place: few lines
            // print one, and the UTF-8 view's own `contains` cost some 650 instructions a line.)
            guard !l.amounts.isEmpty || (l.index + 1 < lines.count && !lines[l.index + 1].amounts.isEmpty),
                  l.text.utf8.withContiguousStorageIfAvailable({ $0.contains(UInt8(ascii: "%")) }) ?? l.text.contains("%") else { continue }
            let rates = percentRates(l.text)
            guard !rates.isEmpty else { continue }
            // The row's amounts on its own line, or, with none there, on the next line ("GST (6.000%)" over "35.00 2.10").
            var row = l, a = usable(l)
            if a.isEmpty, l.index + 1 < lines.count, percentRates(lines[l.index + 1].text).isEmpty, taxKeywords[l.index + 1] == nil {
                row = lines[l.index + 1]
                a = usable(row)
            } else if taxKeywords[l.index] != nil {
                continue   // a tax line of its own, with its amount: the keyword found it
            }
            guard !a.isEmpty else { continue }
            if notTax(l) || (row !== l && notTax(row)) || (l.index > 0 && chargeWords.contains(where: { lines[l.index - 1].words.holds(text: $0) })) { continue }
            if a.count == 1 {
                // One amount: a tax, if the total says so (`MoneyFields.settle`).
                singles.append(RateSingle(line: row, rate: rates[0], amount: a[0]))
                continue
            }
            var hit: (net: Amount, tax: Amount, rate: Int)?
            search: for i in 0..<(a.count - 1) where a[i + 1] < a[i] {
                for r in rates where abs(a[i].cents * Int64(r) - a[i + 1].cents * 1_000_000) <= 1_000_000 {
                    hit = (a[i], a[i + 1], r)
                    break search
                }
            }
            guard let hit else { continue }
            let note = Note.taxAtRate(rate: Self.rateText(hit.rate), net: hit.net, tax: hit.tax)
            rows.append(Found(amount: hit.tax, keyword: .derived("tax rate row", weight: 0.85), line: row, score: 0.85, notes: [note]))
        }
        return (rows, singles)
    }

    /// A rate and one amount beside it or on the next line, no tax word on the amount's line ("B 7,0%" over "0,75"):
    /// a tax when it is that rate of the total less it (`MoneyFields.settle`).
    struct RateSingle {
        var line: ParseLine
        /// Ten-thousandths of a percent (`percentRates`).
        var rate: Int
        var amount: Amount
    }

    /// The rates printed on a line ("6%", "19.00%", "17,5 %", "8.875%", "7.5000%") in ten-thousandths of a percent
    /// (6 % is 60,000), each above 0 and at most 30 %.
    static func percentRates(_ text: String) -> [Int] {
        var out: [Int] = []
        var text = text
        text.withUTF8 { b in
            for p in b.indices where b[p] == UInt8(ascii: "%") {
                var end = p
                if end > 0, b[end - 1] == UInt8(ascii: " ") { end -= 1 }
                // Digits, then at most one point or comma with up to four digits after it.
                var k = end
                while k > 0, Bytes.isDigit(b[k - 1]) { k -= 1 }
                var fraction = 0
                if k < end, k > 1, b[k - 1] == UInt8(ascii: ".") || b[k - 1] == UInt8(ascii: ","), Bytes.isDigit(b[k - 2]), end - k <= 4 {
                    for c in b[k..<end] { fraction = fraction * 10 + Int(c - UInt8(ascii: "0")) }
                    for _ in (end - k)..<4 { fraction *= 10 }
                    end = k - 1
                    k = end
                    while k > 0, Bytes.isDigit(b[k - 1]) { k -= 1 }
                }
                guard k < end, end - k <= 2, k == 0 || !Bytes.isDigit(b[k - 1]) else { continue }
                var whole = 0
                for c in b[k..<end] { whole = whole * 10 + Int(c - UInt8(ascii: "0")) }
                let r = whole * 10_000 + fraction
                if r > 0, r <= 300_000 { out.append(r) }
            }
        }
        return out
    }

    /// "6", "17.5", "8.875" for 60,000, 175,000, 88,750 ten-thousandths of a percent.
    static func rateText(_ r: Int) -> String {
        var fraction = String(r % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(r / 10_000)" : "\(r / 10_000).\(fraction)"
    }

    /// Subtotal + tax + rounding − discount, when a subtotal and a tax were read.
    var taxedSubtotal: Amount? {
        guard let s = subtotalFound?.amount, let t = taxFound?.amount else { return nil }
        return s + t + adjustment
    }
}

/// The ratios amounts are compared by, each made once: `Decimal(Double)` costs thousands of instructions, and
/// some were made again for every candidate amount (a speed trick; the same initialiser, so the same values).
enum Ratio {
    static let r0_25 = Decimal(0.25)
    static let r0_3 = Decimal(0.3)
    static let r0_5 = Decimal(0.5)
    static let r0_9 = Decimal(0.9)
    static let r1_3 = Decimal(1.3)
    static let r1_35 = Decimal(1.35)
}
