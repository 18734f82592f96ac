import Foundation
import ReceiptModel

// The vendor: among the header lines, a vendor the user listed; else a name ending in a legal form
// ("… SDN BHD", "… GmbH"), else the first name-like line. Which lines can be names and how a name is
// cleaned: `VendorText.swift`.

extension ReceiptParser {
    /// A company registration number line: "(004827316-K)", "(1093548-H)", "Co. Reg. 12345-X".
    static let registrationNumber = Pattern(#"^\W*(?:co(?:mpany)?\.?\s*(?:reg|no)\S*\s*:?\s*)?[\(\[{]?\s*\d{5,}-?[A-Z0-9]\s*[\)\]}]?\W*$"#,
                                            mayMatch: { Bytes.hasRun($0, 5, Bytes.isDigit) })

    static let registrationOnLine = Pattern(#"[\(\[{]\s*\d{5,}-?[A-Z]\s*[\)\]}]\W*$"#, mayMatch: { Bytes.hasRun($0, 5, Bytes.isDigit) && Bytes.has($0, "([{") })

    func vendor(_ lines: [ParseLine]) -> Field<String>? {
        // The header: the first lines, up to the first one with money or a date on it (where the items start).
        // (A name printed with its letters apart is read as one word first: "S U P E R M A R K E T".)
        // (Kept by line, as read, only for such lines: an array of optionals a line costs more than the check.)
        var spaced: [Int: String] = [:]
        let top = lines.prefix(15).map { l in
            guard let j = joiningSpacedLetters(l) else { return withoutScraps(l) }
            spaced[l.index] = j.asRead
            return withoutScraps(j.line)
        }
        let firstData = top.firstIndex { l in
            l.amounts.contains { !$0.isPercent } || !l.dates.isEmpty
        } ?? top.count
        // 1. A vendor the user listed, matched fuzzily.
        if let known = knownVendor(top) { return known }
        // 2. Generic rules: a name ending in a legal form, else the first name-like line.
        var candidates: [(String, Double, Evidence)] = []
        var firstNameLike = true
        // Each header line cleaned and judged once (a line is asked about again as the line above or below a name).
        let cleaned = top.map { compiled.vendorText.clean($0.text) }
        let kinds = top.indices.map { compiled.vendorLineKind(top[$0], cleaned: cleaned[$0]) }
        for (i, l) in top.enumerated() {
            guard let kind = kinds[i] else { continue }
            var name = cleaned[i]
            var score: Double
            var rule: String
            switch kind {
            case .legalForm(let onlyForm):
                score = 0.8
                if i < 5 { score += 0.1 }
                (name, rule) = legalFormName(compiled.vendorText.dropLabel(name), at: i, in: top, onlyForm: onlyForm, cleaned: cleaned, kinds: kinds)
            case .nameLike:
                score = firstNameLike ? 0.55 : 0.35
                rule = firstNameLike ? "vendor.first-name-line" : "vendor.name-line"
                if isUpperCased(l.text) { score += 0.05 }
                if i > firstData { score -= 0.2 }
                // "HOME HARDWARE &" / "ELECTRICAL": a name carried over to the next line.
                if l.text.hasSuffix("&"), i + 1 < top.count, kinds[i + 1] == .nameLike {
                    name += " " + cleaned[i + 1]
                }
                firstNameLike = false
            }
            score = looksLikeAName(name, at: i, in: top, score: score)
            name = Self.ampersandReadAsEight(compiled.repairName(name), words: l.ocrWords)
            // (On printable ASCII a character is a byte: counted as bytes.)
            guard Bytes.onPrintable(name, { $0.count >= 3 }) ?? (name.count >= 3) else { continue }
            candidates.append((name, score, l.evidence(rule: rule, notes: spaced.isEmpty ? [] : spaced[l.index].map { [.letterSpaced($0)] } ?? [])))
        }
        guard let best = candidates.max(by: { $0.1 < $1.1 }) else { return nil }
        // A line the chosen name was joined from ("TAMAN BUNGA FLORIST" above "(BUNGA RAYA GARDEN SDN BHD)") is part of it, not rejected.
        let rejected = candidates.filter { $0.0 != best.0 && !textContains(best.0, $0.0) }.sorted { $0.1 > $1.1 }.prefix(4).map { Candidate(value: $0.0, score: $0.1, evidence: $0.2) }
        return Field(best.0, confidence: min(0.95, max(0.05, best.1)), evidence: best.2, rejected: Array(rejected))
    }

    /// "S U P E RM A R K E T", "****** L A N T E R N A #***#**": a name printed with its letters spaced apart
    /// (wide print), read as a word a letter. The letters are joined into words: a new word where the gap between
    /// two letters is more than twice the line's usual gap ("T H E   S H O P"), one word without boxes. Only a line
    /// of such capitals (one or two letters a word, five single ones at least and most of them single: three are
    /// initials, "A B C"), with nothing beside them but symbols, which are dropped. Nil for any other line.
    func joiningSpacedLetters(_ l: ParseLine) -> (line: ParseLine, asRead: String)? {
        let words = l.ocrWords
        guard let run = Self.spacedLetters(words) else { return nil }
        let first = run.lowerBound, last = run.upperBound
        let letters = words[first...last]
        let boxes = letters.compactMap(\.box)
        var breaks = Set<Int>()
        if boxes.count == letters.count {
            let gaps = zip(boxes, boxes.dropFirst()).map { $1.x - $0.maxX }
            let usual = gaps.sorted()[gaps.count / 2]
            for (k, g) in gaps.enumerated() where g > 2 * max(usual, 1) { breaks.insert(first + k + 1) }
        }
        var out: [OCRWord] = [], group: [OCRWord] = []
        func close() {
            guard !group.isEmpty else { return }
            let box = group.compactMap(\.box).reduce(nil) { (acc: BoundingBox?, b) in acc.map { $0.union(b) } ?? b }
            out.append(OCRWord(text: group.map(\.text).joined(), box: box, confidence: group.map(\.confidence).reduce(0, +) / Double(group.count)))
            group = []
        }
        for k in first...last {
            if breaks.contains(k) { close() }
            group.append(words[k])
        }
        close()
        return (ParseLine(index: l.index, source: l.source, line: OCRLine(words: out), rules: compiled), l.text)
    }

    /// The words of a line printed with its letters apart (`joiningSpacedLetters`), first to last; nil for any other line.
    static func spacedLetters(_ words: [OCRWord]) -> ClosedRange<Int>? {
        guard words.count >= 5 else { return nil }
        var first = -1, last = -1, singles = 0
        for (k, w) in words.enumerated() {
            let u = w.text.utf8
            // (Most lines' first word is longer than two: asked before its bytes are.)
            if u.count > 2 {
                if u.contains(where: Bytes.isAlnum) { return nil }
                continue
            }
            if !u.contains(where: Bytes.isAlnum) { continue }
            // Capitals only, one or two, nothing else in the word; letters only between the first and the last.
            guard u.allSatisfy(Bytes.isCapital), last == -1 || last == k - 1 else { return nil }
            if first == -1 { first = k }
            last = k
            if u.count == 1 { singles += 1 }
        }
        guard first >= 0, singles >= 5, singles * 10 >= (last - first + 1) * 7 else { return nil }
        return first...last
    }

    /// "Car Wash 8 Detail": an "&" OCR read as "8", unsurely (under 0.8), alone between two words of letters it read
    /// surely (0.9 and over): "Tyre & Battery Hub". A name's own 8 ("ROUTE 8 DINER") is read as surely as its words.
    static func ampersandReadAsEight(_ name: String, words: [OCRWord]) -> String {
        guard words.count >= 3, name.utf8.contains(UInt8(ascii: "8")) else { return name }
        func lettered(_ w: OCRWord) -> Bool { w.text.count >= 2 && w.text.allSatisfy(\.isLetter) && w.confidence >= 0.9 }
        var out = name
        for i in 1..<(words.count - 1) where words[i].text == "8" && words[i].confidence < 0.8 && lettered(words[i - 1]) && lettered(words[i + 1]) {
            out = out.replacingOccurrences(of: "\(words[i - 1].text) 8 \(words[i + 1].text)", with: "\(words[i - 1].text) & \(words[i + 1].text)")
        }
        return out
    }

    /// The line without the scraps OCR reads at its ends from logos, edges and stains ("d i Jade Garden Express",
    /// "4 LA ROSA »"): symbols alone ("»", not "&"), and short words (three characters at most, read with
    /// under 0.9 confidence, not a legal form) that are lower-case beside capitalised words, or printed at a
    /// very different height from the rest of the line. A line ending in its legal form keeps its end; lines
    /// read without confidences (true text) keep every word.
    func withoutScraps(_ l: ParseLine) -> ParseLine {
        var words = l.ocrWords
        guard words.count >= 2, words.contains(where: { $0.confidence < 1 }) else { return l }
        func isScrap(_ w: OCRWord, among rest: ArraySlice<OCRWord>, leading: Bool) -> Bool {
            let alnum = w.text.filter { $0.isLetterQuick || $0.isNumber }.count
            if alnum == 0 { return !w.text.contains("&") }
            guard alnum <= 3, w.confidence < 0.9 else { return false }
            // Read unsurely beside words read far more surely, and not written as initials are ("Seaview Car
            // Wash Fes", "Pawprint Pd", "To) The Arcade", "Bee: KAMPUNG REST"): a logo or the paper's edge. Short
            // capitals ("CW KHOO", "'SH POWER", "-BP STATION") are initials printed bold, which OCR reads unsurely too.
            let sure = rest.filter { $0.text.contains(where: \.isLetterQuick) }.map(\.confidence)
            let letters = w.text.filter(\.isLetterQuick)
            // A legal form's letters first on the line are no initials: forms end names ("AS LAKESIDE GASOLINE").
            let formFirst = leading && compiled.vendorText.shortForms.contains(w.text.lowercased().trimmingCharacters(in: .punctuationCharacters))
            let initials = !letters.isEmpty && letters.allSatisfy(\.isUppercase) && !formFirst
            if !initials, w.confidence < 0.5, !sure.isEmpty, w.confidence < 0.6 * sure.reduce(0, +) / Double(sure.count) { return true }
            if compiled.vendorText.shortForms.contains(w.text.lowercased().trimmingCharacters(in: .punctuationCharacters)) { return false }
            // Lower-case beside a name in capitals or capitalised words ("d i Jade Garden Express", "bs Seaview Car Wash").
            if leading || w.confidence < 0.5, w.text.contains(where: \.isLowercase), !w.text.contains(where: \.isUppercase), rest.contains(where: { $0.text.first?.isUppercase == true && $0.text.count >= 3 }) { return true }
            // Printed (or read) at a very different height from the rest of the line ("4 LA ROSA", "P HILLTOP RED ROOSTER").
            let hs = rest.compactMap { $0.box?.height }.filter { $0 > 0 }.sorted()
            if alnum <= 2, let h = w.box?.height, !hs.isEmpty {
                let ratio = Double(h) / Double(hs[hs.count / 2])
                if ratio > 1.6 || ratio < 0.6 { return true }
            }
            return false
        }
        /// What stays must still hold a word of three letters read with confidence.
        func solid(_ ws: ArraySlice<OCRWord>) -> Bool { ws.contains { letterCount($0.text) >= 3 && $0.confidence >= 0.5 } }
        var changed = false
        while words.count >= 2, isScrap(words[0], among: words.dropFirst(), leading: true), solid(words.dropFirst()) { words.removeFirst(); changed = true }
        // A name that ends in its legal form keeps its end ("KAYU JATI HARDWARE & TIMBER SON. 8HD" is misread, not a scrap).
        let endsInForm = compiled.legalForms.contains { l.words.padded.hasSuffix($0.normalised) } || compiled.legalForms.contains { l.words.contains($0) && $0.normalised.count >= 6 }
        while !endsInForm, words.count >= 2, isScrap(words[words.count - 1], among: words.dropLast(), leading: false), solid(words.dropLast()) { words.removeLast(); changed = true }
        guard changed else { return l }
        return ParseLine(index: l.index, source: l.source, line: OCRLine(words: words), rules: compiled)
    }

    /// The best match among the user's known vendors (and their aliases) on the header lines, 80 % alike at least.
    func knownVendor(_ top: [ParseLine]) -> Field<String>? {
        guard !options.knownVendors.isEmpty else { return nil }
        var best: (KnownVendor, Double, ParseLine, String)?
        for l in top {
            let text = VendorText.normalise(l.text)
            guard text.count >= 3 else { continue }
            for v in options.knownVendors {
                for alias in [v.name] + v.aliases {
                    let a = VendorText.normalise(alias)
                    guard !a.isEmpty else { continue }
                    let s = text.contains(a) ? 1.0 : similarity(text, a)
                    if s >= 0.8, best == nil || s > best!.1 { best = (v, s, l, alias) }
                }
            }
        }
        guard let (v, s, l, alias) = best else { return nil }
        // Rounded as "%.0f" rounds: to the nearest, ties to even.
        let percent = Int((s * 100).rounded(.toNearestOrEven))
        return Field(v.name, confidence: 0.75 + 0.2 * s, evidence: l.evidence(rule: "vendor.known", notes: [.knownVendor(alias: alias, percent: percent)]))
    }

    /// The name on legal-form line `i` (`name`, cleaned), with the line above when the name starts there
    /// and the line below when it closes a bracket; and the rule that says which.
    /// `cleaned` and `kinds`: each line of `top` cleaned (`VendorText.clean`) and its `vendorLineKind`.
    func legalFormName(_ name: String, at i: Int, in top: [ParseLine], onlyForm: Bool, cleaned: [String],
                       kinds: [CompiledRules.VendorLineKind?]) -> (String, String) {
        let l = top[i]
        var name = name
        var rule = "vendor.legal-form"
        // "SDN BHD" alone on its line, or a line that reads as the end of a name ("& SPICE HOUSE (M) SDN BHD",
        // "KITCHEN SDN BHD"): the name starts on the line above.
        let rest = compiled.wordsBeforeLegalForm(l.words)
        let restWords = rest.count
        // Or only a business word before the form ("RESTAURANT SDN BHD", "COFFEE CO."): the tail of a name.
        let tail = restWords == 1 && compiled.hasNameWord(String(rest[0]))
        // Or the line starts with a long legal form ("ENTERPRISE (TAMAN"): the name began above.
        // (The word padded once, not once for every form it is compared with.)
        let startsWithForm = l.words.words.first.map { w in
            guard w.count >= 5 else { return false }
            let padded = " \(w) "
            return compiled.legalForms.contains { $0.normalised == padded }
        } ?? false
        let continues = onlyForm || restWords == 0 || tail || startsWithForm || l.text.first == "(" || l.text.first == "&" || top[max(0, i - 1)].text.hasSuffix("&")
        if continues, i > 0, namesAboveForm(top[i - 1], cleaned: cleaned[i - 1], kind: kinds[i - 1]), !top[i - 1].text.contains(":") {
            name = cleaned[i - 1] + " " + name
            rule = "vendor.legal-form-two-lines"
        }
        // "ENTERPRISE (TAMAN" / "MEWAH) SDN BHD": a bracket left open closes on the next line.
        if Self.opensMoreThanCloses(name), i + 1 < top.count,
           top[i + 1].text.contains(")"), top[i + 1].amounts.isEmpty {
            name += " " + cleaned[i + 1]
        }
        return (name, rule)
    }

    /// `name.filter { $0 == "(" }.count > name.filter { $0 == ")" }.count`, counted on the bytes when `name` is ASCII
    /// (there a bracket is a character of its own: only CR LF is two bytes in one character), without the strings
    /// `filter` made; any other name by its characters, as that.
    static func opensMoreThanCloses(_ name: String) -> Bool {
        var open = 0, close = 0
        for c in name.utf8 {
            if c >= 0x80 { return name.filter({ $0 == "(" }).count > name.filter({ $0 == ")" }).count }
            if c == UInt8(ascii: "(") { open += 1 } else if c == UInt8(ascii: ")") { close += 1 }
        }
        return open > close
    }

    /// Whether line `l`, above a legal form that continues a name, is that name's start: a name-like line,
    /// or one taken for an address only for a country or place word among more words of a name
    /// ("Rasa Ayam Panggang Malaysia" / "Sdn Bhd"), with no digits.
    /// `cleaned`, `kind`: the line cleaned and its `vendorLineKind`.
    func namesAboveForm(_ l: ParseLine, cleaned: String, kind: CompiledRules.VendorLineKind?) -> Bool {
        if kind == .nameLike { return true }
        let cw = cleaned == l.text ? l.words : WordLine(cleaned)
        guard cw.digitCount == 0, cw.letterCount >= 3, l.confidence >= 0.3, compiled.any(compiled.vendorSkip, in: cw) == nil,
              !CompiledRules.isCityLine(l.text), !CompiledRules.looksLikeNoise(cw), kind == nil else { return false }
        let places = cw.words.filter { word in compiled.anyExact(compiled.addressWords, in: WordLine(String(word))) != nil }.count
        return places > 0 && places * 2 < cw.spans.count
    }

    /// `score` raised or lowered by what names look like, whichever rule found the line: near the top, read
    /// with confidence, a business word ("RESTAURANT", "BAKERY"), a registration number on the next line or
    /// on it; not a short lower-case scrap ("tie") from a logo.
    func looksLikeAName(_ name: String, at i: Int, in top: [ParseLine], score: Double) -> Double {
        let l = top[i]
        var score = score
        score -= 0.02 * Double(i)
        if l.confidence < 0.6 { score -= 0.1 }

        if compiled.hasNameWord(name) { score += 0.15 }
        // A registration number below the line, or on it ("BRIGHT VOLT MALAYSIA (425917-B)").
        if i + 1 < top.count, Self.isRegistrationNumber(top[i + 1].text) { score += 0.1 }
        else if Self.hasRegistrationOnLine(l.text) { score += 0.1 }
        // (The letters counted, and asked for a capital, without making a string of them: on ASCII, a byte a letter.)
        let (letters, capital) = letterCountAndCapital(name)
        if letters <= 4 || (!capital && letters < 8) { score -= 0.15 }
        return score
    }
}

// The registration number lines a name is scored by, matched by hand on printable ASCII (a speed trick: the
// expressions ran on every header line with five digits in a row, a phone number as often as not). Each answers
// whether its expression matches, by the expression's own steps; any other text goes to the expression.
// `HandScannerTests` holds each to its expression.
extension ReceiptParser {
    /// Whether `registrationNumber` matches `s` (`matches(in:).first != nil`).
    static func isRegistrationNumber(_ s: String) -> Bool {
        Bytes.onPrintable(s, registrationNumberMatches) ?? (registrationNumber.matches(in: s).first != nil)
    }

    /// Whether `registrationOnLine` matches `s` (`matches(in:).first != nil`).
    static func hasRegistrationOnLine(_ s: String) -> Bool {
        Bytes.onPrintable(s, registrationOnLineMatches) ?? (registrationOnLine.matches(in: s).first != nil)
    }

    /// From `i` to the end, only `\W` (not a letter, digit or "_").
    private static func nonWordToEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var k = i
        while k < b.count {
            if VendorText.isWordByte(b[k]) { return false }
            k += 1
        }
        return true
    }

    /// `\d{5,}-?[A-Z0-9]\s*[\)\]}]?\W*$` (case-insensitive) from `d`: the digits (all of the run from `d`), then a
    /// dash and a letter or digit, or a letter, or the run's own last digit (six digits or more), then only `\W`
    /// (the spaces and the bracket are `\W` too). Each way the expression may take, asked in turn.
    private static func registrationTail(_ b: UnsafeBufferPointer<UInt8>, _ d: Int) -> Bool {
        let n = b.count
        var e = d
        while e < n, Bytes.isDigit(b[e]) { e += 1 }
        guard e - d >= 5 else { return false }
        if e + 1 < n, b[e] == UInt8(ascii: "-"), Bytes.isAlnum(b[e + 1]), nonWordToEnd(b, e + 2) { return true }
        if e < n, Bytes.isAlnum(b[e]), nonWordToEnd(b, e + 1) { return true }
        return e - d >= 6 && nonWordToEnd(b, e)
    }

    static let openingBrackets = ByteSet("([{"), closingBrackets = ByteSet(")]}")

    /// `registrationNumber` on printable ASCII: `^\W*`, then either "co" ("company"), a dot, spaces, "reg" or "no",
    /// any run of non-spaces (each place it may stop tried), spaces, a colon, spaces, a bracket, spaces; or nothing;
    /// then the number (`registrationTail`) at the first place left. (What `^\W*` and the optional marks take is
    /// all `\W`, so without the label the number starts at the first word character.)
    static func registrationNumberMatches(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var f = 0
        while f < n, !VendorText.isWordByte(b[f]) { f += 1 }
        if f < n, Bytes.isDigit(b[f]), registrationTail(b, f) { return true }
        func says(_ k: Int, _ w: StaticString) -> Bool { Bytes.says(b, k, w) }
        guard says(f, "co") else { return false }
        var k = f + 2
        if says(k, "mpany") { k += 5 }
        if k < n, b[k] == UInt8(ascii: ".") { k += 1 }
        while k < n, b[k] == 0x20 { k += 1 }
        if says(k, "reg") { k += 3 } else if says(k, "no") { k += 2 } else { return false }
        var m = k
        while m < n, b[m] != 0x20 { m += 1 }
        // `\S*` greedy: from the longest run down.
        var j = m
        while j >= k {
            var t = j
            while t < n, b[t] == 0x20 { t += 1 }
            if t < n, b[t] == UInt8(ascii: ":") { t += 1 }
            while t < n, b[t] == 0x20 { t += 1 }
            if t < n, openingBrackets.contains(b[t]) { t += 1 }
            while t < n, b[t] == 0x20 { t += 1 }
            if t < n, Bytes.isDigit(b[t]), registrationTail(b, t) { return true }
            j -= 1
        }
        return false
    }

    /// `registrationOnLine` on printable ASCII: somewhere an opening bracket, spaces, five digits or more, maybe a dash,
    /// a letter, spaces, a closing bracket, and only `\W` after it (case-insensitive; each step greedy, and what it
    /// takes cannot start the next, so no other way matches).
    static func registrationOnLineMatches(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        for q in 0..<n where openingBrackets.contains(b[q]) {
            var k = q + 1
            while k < n, b[k] == 0x20 { k += 1 }
            let d = k
            while k < n, Bytes.isDigit(b[k]) { k += 1 }
            guard k - d >= 5 else { continue }
            if k < n, b[k] == UInt8(ascii: "-") { k += 1 }
            guard k < n, Bytes.isLetter(b[k]) else { continue }
            k += 1
            while k < n, b[k] == 0x20 { k += 1 }
            guard k < n, closingBrackets.contains(b[k]) else { continue }
            if nonWordToEnd(b, k + 1) { return true }
        }
        return false
    }
}
