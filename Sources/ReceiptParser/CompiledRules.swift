import Foundation
import ReceiptModel

/// The rules, normalised once for fast whole-word matching.
struct CompiledRules: Sendable {
    struct Keyword: Sendable { let raw: String; let normalised: String; let weight: Double }

    let total: [Keyword]
    let totalDistractors: [Keyword]
    let totalTables: [Keyword]
    let subtotal: [Keyword]
    let tax: [Keyword]
    let taxExclude: [Keyword]
    let rounding: [Keyword]
    let discount: [Keyword]
    let cash: [Keyword]
    let change: [Keyword]
    let changeExclude: [Keyword]
    let cashExclude: [Keyword]
    let dateKeywords: [Keyword]
    let dateDistractors: [Keyword]
    let months: [String: Int]
    let legalForms: [Keyword]
    let vendorSkip: [Keyword]
    let addressWords: [Keyword]
    /// Upper-cased business words, by length (for one-edit look-ups).
    let nameWords: [Int: [String]]
    let currencySymbols: [(String, String)]   // raw symbol, code
    let currencyWords: Set<String>
    let monthFirstCurrencies: Set<String>
    let dollarHints: [(String, String)]   // normalised word, code
    let cardWords: [String]
    let cashWords: [String]
    let receiptNumberKeywords: [(Keyword, Double)]

    init(_ r: ParserRules) {
        func kws(_ d: [String: Double]) -> [Keyword] {
            d.map { Keyword(raw: $0.key, normalised: WordLine.normalise($0.key), weight: $0.value) }
                .filter { $0.normalised.count > 2 }
                .sorted { $0.normalised.count > $1.normalised.count }
        }
        func list(_ a: [String]?) -> [Keyword] { kws(Dictionary((a ?? []).map { ($0, 1.0) }, uniquingKeysWith: max)) }
        total = kws(r.total.keywords)
        totalDistractors = list(r.total.distractors)
        totalTables = list(r.total.tables)
        subtotal = kws(r.subtotal.keywords)
        tax = kws(r.tax.keywords)
        taxExclude = list(r.tax.exclude)
        rounding = kws(r.rounding.keywords)
        discount = kws(r.discount.keywords)
        cash = kws(r.cash.keywords)
        change = kws(r.change.keywords)
        changeExclude = list(r.change.exclude)
        cashExclude = list(r.cash.exclude)
        dateKeywords = kws(r.date.keywords)
        dateDistractors = list(r.date.distractors)
        months = Dictionary(r.date.months.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        legalForms = list(r.vendor.legalForms)
        vendorSkip = list(r.vendor.skip)
        addressWords = list(r.vendor.addressWords)
        nameWords = Dictionary(grouping: Set((r.vendor.nameWords ?? []).map { $0.uppercased() }).sorted(), by: \.count)
        currencySymbols = r.currency.symbols.map { ($0.key.lowercased(), $0.value) }.sorted { $0.0.count > $1.0.count }
        currencyWords = Set(r.currency.symbols.keys.map { $0.lowercased() }.filter { $0.allSatisfy(\.isLetter) })
        monthFirstCurrencies = Set(r.currency.monthFirst)
        dollarHints = (r.currency.dollarHints ?? [:]).map { (WordLine.normalise($0.key), $0.value) }.sorted { $0.0 < $1.0 }
        cardWords = r.payment.card.map(WordLine.normalise)
        cashWords = r.payment.cash.map(WordLine.normalise)
        receiptNumberKeywords = r.receiptNumber.keywords.enumerated().map { i, k in
            (Keyword(raw: k, normalised: WordLine.normalise(k), weight: 1), 1 - Double(i) / Double(max(1, r.receiptNumber.keywords.count)) * 0.5)
        }.filter { $0.0.normalised.count > 2 }
    }

    /// The best-weighted keyword matching the line, if any.
    /// Exact matches win over matches one OCR slip away ("totale" must not claim "total").
    func best(_ set: [Keyword], in w: WordLine) -> Keyword? {
        let order: (Keyword, Keyword) -> Bool = { $0.weight < $1.weight || ($0.weight == $1.weight && $0.normalised.count < $1.normalised.count) }
        if let exact = set.filter({ w.has($0.normalised) }).max(by: order) { return exact }
        return set.filter { w.contains($0.normalised) }.max(by: order)
    }

    func any(_ set: [Keyword], in w: WordLine) -> Keyword? { set.first { w.contains($0.normalised) } }

    func dateKeyword(_ w: WordLine) -> Double { best(dateKeywords, in: w)?.weight ?? 0 }
    func isDateDistractor(_ w: WordLine) -> Bool { any(dateDistractors, in: w) != nil }

    /// Labels of the totals block whose value is money: total, subtotal, tax, rounding, discount, cash, change.
    func isMoneyLabel(_ w: WordLine) -> Bool {
        for set in [total, subtotal, rounding, discount, cash, change] where any(set, in: w) != nil { return true }
        return any(tax, in: w) != nil && any(taxExclude, in: w) == nil
    }

    /// Lines that are totals, taxes, payments: not line items.
    func isSummaryOrMeta(_ w: WordLine) -> Bool {
        for set in [total, subtotal, rounding, cash, change] where any(set, in: w) != nil { return true }
        if any(tax, in: w) != nil, any(taxExclude, in: w) == nil { return true }
        return any(totalDistractors, in: w) != nil || any(vendorSkip, in: w) != nil
    }

    func currencies(in l: ParseLine) -> [String] {
        var out: [String] = []
        let lower = l.text.lowercased()
        let lowerBytes = Array(lower.utf8)
        for (sym, code) in currencySymbols where bytesContain(lowerBytes, sym) {
            if sym.allSatisfy(\.isLetter) {
                if l.words.has(" \(sym) ") || (sym.count >= 2 && Self.wordBeforeNumber(lower, sym)) { out.append(code) }
            } else if lower.contains(sym), Self.nextToDigit(lower, sym) {
                // "s$" inside "us$" is not Singapore's: a prefixed dollar must start its word.
                if sym.count > 1, sym.first?.isLetter == true, !Self.startsWord(lower, sym) { continue }
                // "$" inside "S$", "A$", "HK$" belongs to those.
                if sym == "$", currencySymbols.contains(where: { $0.0.count > 1 && $0.0.hasSuffix("$") && lower.contains($0.0) }) { continue }
                out.append(code)
            }
        }
        return out
    }

    static func startsWord(_ text: String, _ sym: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: sym, range: from..<text.endIndex) {
            if r.lowerBound == text.startIndex || !text[text.index(before: r.lowerBound)].isLetter { return true }
            from = r.upperBound
        }
        return false
    }

    /// "rm12.50", "rm 12.50": the currency word starts a word and a digit follows.
    static func wordBeforeNumber(_ text: String, _ word: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: word, range: from..<text.endIndex) {
            let startsWord = r.lowerBound == text.startIndex || !(text[text.index(before: r.lowerBound)].isLetter)
            let after = text[r.upperBound...]
            let next = after.first == " " ? after.dropFirst().first : after.first
            if startsWord, next?.isNumber == true { return true }
            from = r.upperBound
        }
        return false
    }

    /// A currency sign counts only next to a number ("$12.50", "12,50 €"): a lone "$" is often OCR noise.
    /// "12.50", "1,234.50", "12,50": with cents, as receipts print money ("Lot $319," is an address).
    static func looksLikeMoney(_ n: String) -> Bool {
        let t = n.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
        guard let first = t.first, first.isNumber, !t.allSatisfy(\.isNumber) else { return false }
        let parts = t.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        guard let last = parts.last, last.count == 2, parts.dropLast().allSatisfy({ !$0.isEmpty && $0.count <= 7 }) else { return false }
        return parts.first.map { $0.count <= 7 && ($0.first != "0" || $0.count == 1) } ?? false
    }

    static func nextToDigit(_ text: String, _ sym: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: sym, range: from..<text.endIndex) {
            // The number must look like money: "$12.50", "12,50 €", "$5"; not "$000022185" (a document number
            // whose S was read as $).
            let after = String(text[r.upperBound...].drop { $0 == " " || $0 == "-" }.prefix { $0.isNumber || $0 == "." || $0 == "," })
            let before = String(text[..<r.lowerBound].reversed().drop { $0 == " " }.prefix { $0.isNumber || $0 == "." || $0 == "," }.reversed())
            // A dollar is written before the amount, except with a decimal comma ("12,50 $" in Québec); after a
            // point amount it is the tax code S misread ("5.60 $").
            let trailingOK = !sym.hasSuffix("$") || before.dropLast(2).hasSuffix(",")
            if Self.looksLikeMoney(after) || (trailingOK && Self.looksLikeMoney(before)) { return true }
            from = r.upperBound
        }
        return false
    }

    /// The words of a legal-form line besides the legal form itself.
    func wordsBeforeLegalForm(_ w: WordLine) -> [Substring] {
        var rest = w.padded
        for f in legalForms where rest.contains(f.normalised) { rest = rest.replacingOccurrences(of: f.normalised, with: " ") }
        return rest.split(separator: " ").filter { $0.count > 1 && $0.contains(where: \.isLetter) }
    }

    /// Mostly one- and two-letter scraps, or letters run together ("eee"): what OCR makes of logos and pictures.
    static func looksLikeNoise(_ w: WordLine) -> Bool {
        let words = w.words.filter { $0.contains(where: \.isLetter) }
        guard !words.isEmpty else { return true }
        let short = words.filter { $0.count <= 2 }.count
        if words.count >= 2, short * 2 > words.count, (words.map(\.count).max() ?? 0) < 5 { return true }
        let vowels = Set("aeiouy")
        var odd = 0
        for word in words where word.count >= 3 {
            let noVowel = word.count > 3 && !word.contains { vowels.contains($0) }
            let oneLetter = Set(word).count == 1
            if noVowel || oneLetter { odd += 1 }
        }
        return odd * 2 > words.count
    }

    enum VendorLineKind: Equatable { case legalForm(onlyForm: Bool), nameLike }

    /// Whether a top line can be the vendor's name, and why.
    func vendorLineKind(_ l: ParseLine) -> VendorLineKind? {
        let w = l.words
        let letters = w.letterCount, digits = w.digitCount
        guard letters >= 2 else { return nil }
        // Judged without a trailing registration number: "NAME S/B (81497-P)" ends in its legal form.
        let cw = WordLine(VendorText.clean(l.text))
        if let form = legalForms.first(where: { cw.padded.hasSuffix($0.normalised) || cw.contains($0.normalised) && $0.normalised.count >= 6 }) {
            if any(vendorSkip, in: cw) != nil, letters < 12 || digits >= 4 { return nil }
            // "COMPANY REG NO 12345-X" (however misread): a form word first, then a number, is a registration line.
            if digits >= 4, cw.words.count > 1, let first = cw.words.first {
                let formWord = String(form.normalised.dropFirst().dropLast())
                if formWord == String(first) || EditDistance.levenshtein(String(first), formWord, limit: 1) <= 1 { return nil }
            }
            let w = cw
            let rest = w.padded.replacingOccurrences(of: form.normalised, with: " ").filter(\.isLetter)
            // Short legal forms ("sa", "as", "ag") only at the end of a line with a name before them.
            if form.normalised.count <= 4, !w.padded.hasSuffix(form.normalised) { return nil }
            if form.normalised.count <= 4, rest.count < 3 { return nil }
            return .legalForm(onlyForm: rest.count < 3)
        }
        if any(vendorSkip, in: w) != nil { return nil }
        // One money word alone ("CASH"), or OCR noise from a logo: not a name.
        if w.words.count == 1, isMoneyLabel(w) { return nil }
        if Self.looksLikeNoise(w) { return nil }
        // Address and digit checks without a trailing registration number ("NAME MALAYSIA (308282-A)").
        let cDigits = cw.digitCount
        if any(addressWords, in: cw) != nil, cDigits > 0 || cw.words.count > 3 { return nil }
        if cDigits > 4 || Double(cDigits) > Double(letters) * 0.5 { return nil }
        if !l.amounts.isEmpty { return nil }
        if letters < 3 { return nil }
        // Mostly noise: few letters among many symbols.
        let symbols = l.text.filter { !$0.isLetter && !$0.isNumber && $0 != " " && $0 != "&" && $0 != "." && $0 != "'" && $0 != "-" }.count
        if symbols * 2 > letters { return nil }
        return .nameLike
    }
}

extension CompiledRules {
    /// Puts right OCR slips inside the words of a vendor's name: a lone 0, 1, 5 or 8 among letters
    /// ("D.1.Y.", "0ISTRIBUTION"), and a word one letter off exactly one common business word
    /// ("HARDHARE" → "HARDWARE", "CONFECTIUNERY" → "CONFECTIONERY").
    func repairName(_ name: String) -> String {
        name.split(separator: " ").map { repairWord(String($0)) }.joined(separator: " ")
    }

    /// Whether a name holds one of the common business words ("HARDWARE", "Restaurant").
    func hasNameWord(_ name: String) -> Bool {
        name.split(whereSeparator: { !$0.isLetter }).contains { w in nameWords[w.count]?.contains(w.uppercased()) ?? false }
    }

    static let digitAsLetterInside: [Character: Character] = ["0": "O", "1": "I", "5": "S", "8": "B"]
    static let digitAsLetterFirst: [Character: Character] = ["0": "O"]

    func repairWord(_ word: String) -> String {
        var chars = Array(word)
        let letters = chars.filter(\.isLetter).count
        let digits = chars.indices.filter { chars[$0].isNumber }
        if letters >= 2, digits.count == 1, let i = digits.first,
           chars.allSatisfy({ $0.isLetter || $0.isNumber || ".'&-".contains($0) }) {
            // Inside a word (after a letter or a dot); at the start only 0, as numbers do not start with it.
            let inside = i > 0 && (chars[i - 1].isLetter || chars[i - 1] == ".")
            let map = inside ? Self.digitAsLetterInside : Self.digitAsLetterFirst
            if let c = map[chars[i]], i + 1 < chars.count, chars[i + 1].isLetter || chars[i + 1] == "." { chars[i] = c }
        }
        // The letters of the word, without trailing punctuation, against the business words of the same length.
        let core = chars.prefix { $0.isLetter }
        guard core.count >= 5, core.count == chars.count || chars[core.count...].allSatisfy({ !$0.isLetter && !$0.isNumber }) else { return String(chars) }
        let upper = String(core).uppercased()
        guard let same = nameWords[upper.count], !same.contains(upper) else { return String(chars) }
        // One letter off, and that letter one OCR often mistakes for the other: "PASIR" stays, "HUUSE" does not.
        let near = same.filter { w in
            let diff = zip(w, upper).filter { $0.0 != $0.1 }
            return diff.count == 1 && Self.confusable(diff[0].0, diff[0].1)
        }
        guard near.count == 1, let fix = near.first else { return String(chars) }
        let styled = String(core) == upper ? fix : (String(core) == upper.lowercased() ? fix.lowercased() : fix.capitalized)
        return styled + String(chars[core.count...])
    }

    /// Letters Tesseract confuses on receipt print (each group reads as any other in it).
    static let confusions: [Set<Character>] = [
        Set("OUDQC0"), Set("IJLT1!"), Set("HW"), Set("MN"), Set("HN"), Set("S5"), Set("B83"), Set("G6C"), Set("EF"), Set("Z2"), Set("A4"), Set("RK"), Set("VY"), Set("PF"),
    ]

    static func confusable(_ a: Character, _ b: Character) -> Bool {
        confusions.contains { $0.contains(a) && $0.contains(b) }
    }
}
