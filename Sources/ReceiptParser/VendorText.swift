import Foundation
import ReceiptModel
import ReceiptSupport

// Reading a vendor's name off a line: which top lines can be names (`vendorLineKind`), the name
// cleaned of OCR noise and registration numbers (`VendorText`), misread letters put right (`repairName`).

extension CompiledRules {
    /// The words of a legal-form line besides the legal form itself.
    func wordsBeforeLegalForm(_ w: WordLine) -> [Substring] {
        var rest = w.padded
        // (On ASCII and on Latin letters, a byte search is Foundation's `contains` (`Bytes.printableOrLatinLetters`: the
        // line's padded letters, digits and spaces are such). Taking forms out leaves some of the line's words, so a
        // form with a word the line lacks (`wordMask`, as `WordLine.has` asks) is never searched for: most are not.)
        let simple = w.simpleScalars
        var restBytes = w.bytes
        let lineWords = w.wordMask
        for f in legalForms where simple && f.comparesOnBytes ? f.wordMask & ~lineWords == 0 && bytesContain(restBytes, f.bytes)
                                                              : rest.contains(f.normalised) {
            rest = replacingOccurrences(in: rest, of: f.normalised, with: " ")
            restBytes = Array(rest.utf8)
        }
        return splitOnSpaces(rest).filter { $0.count > 1 && $0.contains(where: \.isLetterQuick) }
    }

    /// Mostly one- and two-letter scraps, or letters run together ("eee"): what OCR makes of logos and pictures.
    static func looksLikeNoise(_ w: WordLine) -> Bool {
        if w.simpleScalars { return looksLikeNoiseOnBytes(w) }
        let words = w.words.filter { $0.contains(where: \.isLetterQuick) }
        guard !words.isEmpty else { return true }
        let short = words.filter { $0.count <= 2 }.count
        if words.count >= 2, short * 2 > words.count, (words.map(\.count).max() ?? 0) < 5 { return true }
        let vowels = Self.vowels
        var odd = 0
        for word in words where word.count >= 3 {
            let noVowel = word.count > 3 && !word.contains { vowels.contains($0) }
            let oneLetter = Set(word).count == 1
            if noVowel || oneLetter { odd += 1 }
        }
        return odd * 2 > words.count
    }

    static let vowels = Set("aeiouy")

    /// `looksLikeNoise` for a line of ASCII or of Latin letters (`WordLine.simpleScalars`), on its words' bytes (lower-case
    /// letters and digits: an ASCII byte a character, a Latin letter two bytes, `Bytes.latinLower`), in one walk of
    /// them: the words with a letter counted, the short ones, the longest, and the odd ones (more than three letters
    /// without a vowel, or one letter over and over), without an array of the words made. (A line of Latin letters
    /// went the characters' way: a string and its words made, each word walked as characters, some 17,000
    /// instructions a header line of a German or French receipt.)
    static func looksLikeNoiseOnBytes(_ w: WordLine) -> Bool {
        var count = 0, short = 0, longest = 0, odd = 0
        let vowels = Self.vowelBytes
        w.bytes.withUnsafeBufferPointer { b in
            for s in w.spans {
                var letter = false, vowel = false, same = true, n = 0
                // (The first character's bytes: one, or a lead byte and one more.)
                let first = b[s.start], firstNext: UInt8 = first < 0x80 ? 0 : b[s.start + 1]
                var i = s.start
                while i < s.end {
                    let c = b[i]
                    if c < 0x80 {
                        if c >= 0x61 && c <= 0x7A { letter = true }
                        if vowels.contains(c) { vowel = true }
                        if c != first { same = false }
                        i += 1
                    } else {
                        // (A Latin letter: no ASCII vowel.)
                        letter = true
                        if c != first || b[i + 1] != firstNext { same = false }
                        i += 2
                    }
                    n += 1
                }
                guard letter else { continue }
                count += 1
                if n <= 2 { short += 1 }
                longest = max(longest, n)
                if n >= 3, (n > 3 && !vowel) || same { odd += 1 }
            }
        }
        guard count > 0 else { return true }
        if count >= 2, short * 2 > count, longest < 5 { return true }
        return odd * 2 > count
    }

    static let vowelBytes = ByteSet("aeiouy")

    /// Two-letter codes of US states and territories, Canadian provinces, and Australian states (with their
    /// three-letter ones), as printed after a city on an address line.
    static let regionCodes: Set<String> = Set(("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI "
        + "AB BC MB NB NL NS NT NU ON PE QC SK YT NSW VIC QLD TAS ACT").split(separator: " ").map(String.init))

    /// Two or three ASCII letters, upper-cased, packed into a number (the first in the lowest byte).
    static func regionKey<C: Collection<UInt8>>(_ letters: C) -> UInt32 {
        var key: UInt32 = 0, shift: UInt32 = 0
        for c in letters {
            key |= UInt32(Bytes.upper(c)) << shift
            shift += 8
        }
        return key
    }

    /// `regionCodes` as `regionKey`s.
    static let regionCodeKeys: Set<UInt32> = Set(regionCodes.map { regionKey($0.utf8) })

    /// "City, ST", "City, ST 12345", "City ST 12345-6789", "City, ON K1A 0B1": a city, a region code, a postcode.
    static let cityStatePostcode = Pattern(#"^\W*[A-Za-z][A-Za-z .'-]{1,30}?(,)?\s+([A-Za-z]{2,3})\.?(\s+(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d|\d{4}))?\W*$"#,
                                           mayMatch: mayBeCityLine)
    /// A British postcode at the end of a line: "LONDON W1D 4HS", "Leeds LS1 6AZ".
    static let ukPostcode = Pattern(#"\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\W*$"#, caseInsensitive: false, mayMatch: { b in
        // the line's last word characters: a digit and two capitals
        let core = wordCore(b)
        guard core.count >= 3 else { return false }
        let n = core.upperBound
        return Bytes.isDigit(b[n - 3]) && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b[n - 2]) && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b[n - 1])
    })

    /// The line without the non-word characters (`\W`: not a letter, digit or "_") at its ends.
    static func wordCore(_ b: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        func word(_ c: UInt8) -> Bool { Bytes.isAlnum(c) || c == UInt8(ascii: "_") }
        var lo = 0, hi = b.count
        while lo < hi, !word(b[lo]) { lo += 1 }
        while hi > lo, !word(b[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// What a `cityStatePostcode` line needs: between its non-word ends it starts with a letter, holds a
    /// space, and only letters, spaces and . ' - , (a name, a region code) but for digits in its last ten
    /// characters (the postcode); ending in letters, the last run of them is the region code's two or three.
    @Sendable static func mayBeCityLine(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let core = wordCore(b)
        guard core.count >= 4, Bytes.isLetter(b[core.lowerBound]) else { return false }
        var space = false
        for i in core {
            let c = b[i]
            if c == 0x20 { space = true; continue }
            if Bytes.isLetter(c) || cityMarks.contains(c) { continue }
            if Bytes.isDigit(c), core.upperBound - i <= 10 { continue }
            return false
        }
        guard space else { return false }
        if Bytes.isLetter(b[core.upperBound - 1]) {
            var i = core.upperBound
            while i > core.lowerBound, Bytes.isLetter(b[i - 1]) { i -= 1 }
            return (2...3).contains(core.upperBound - i)
        }
        return true
    }

    static let cityMarks = ByteSet(" .'-,")

    static func isCityLine(_ text: String) -> Bool {
        // Printable ASCII: the match found by hand (`cityStatePostcodeMatch`), its code looked up packed (`regionKey`).
        func byHand(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            if mayCountAsCityPrintable(b), let m = cityStatePostcodeMatch(b) {
                if regionCodeKeys.contains(regionKey(UnsafeBufferPointer(rebasing: b[m.code]))), m.comma || m.postcode { return true }
                if m.comma && m.postcode { return true }
            }
            return ukPostcodeAtEnd(b)
        }
        if let city = Bytes.onPrintable(text, byHand) { return city }
        // A line of Latin letters and signs (`Bytes.kinds`): by hand on its stand-in, a byte a character, a Latin letter
        // "_" (a word character in none of the expressions' classes: no `\W`, `[A-Za-z]`, `[A-Z]`, digit or space, and a
        // word's for `\b`, as the letter is) and a sign "#" (`\W`, in none of their other classes). (A speed trick: both
        // expressions ran on every header line of a German or French receipt, some 9,000 instructions a line.)
        let onStandIn = text.utf8.withContiguousStorageIfAvailable { b -> Bool? in
            guard Bytes.kinds(b).signsOrLetters else { return nil }
            return Bytes.standIn(b) { Bytes.latinLower($0) != nil ? UInt8(ascii: "_") : UInt8(ascii: "#") }.withUnsafeBufferPointer(byHand)
        }
        if case let .some(.some(city)) = onStandIn { return city }
        return isCityLineByExpression(text)
    }

    /// `ukPostcode.hasMatch` on printable ASCII, by hand (a speed trick: the expression's compile alone was some 8 M
    /// instructions, and it ran on the lines `mayMatch` let through). There `\s` is a space, `\d` a digit, `\W` any byte
    /// not a letter, digit or "_", and `$` the end: the match's two capitals end the line's last word character
    /// (`wordCore`), a digit before them, the run of spaces before that all of `\s+`; before those spaces the outward
    /// code, `[A-Z]{1,2}\d[A-Z\d]?`, each of its shapes tried, with a word boundary (`\b`) before its first capital.
    static func ukPostcodeAtEnd(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // (Each place asked holds a capital, a word byte: a boundary there is a byte before it that is none.)
        let n = wordCore(b).upperBound
        guard n >= 3, Bytes.isDigit(b[n - 3]), Bytes.isCapital(b[n - 2]), Bytes.isCapital(b[n - 1]) else { return false }
        var e = n - 3
        while e > 0, b[e - 1] == 0x20 { e -= 1 }
        guard e < n - 3, e >= 2 else { return false }
        // The code without its last, optional character: a digit last, one or two capitals before it.
        if Bytes.isDigit(b[e - 1]), Bytes.isCapital(b[e - 2]) {
            if VendorText.isBoundary(b, e - 2) || (e >= 3 && Bytes.isCapital(b[e - 3]) && VendorText.isBoundary(b, e - 3)) { return true }
        }
        // With it: a capital or digit last, a digit before it, one or two capitals before that.
        if e >= 3, Bytes.isCapital(b[e - 1]) || Bytes.isDigit(b[e - 1]), Bytes.isDigit(b[e - 2]), Bytes.isCapital(b[e - 3]) {
            if VendorText.isBoundary(b, e - 3) || (e >= 4 && Bytes.isCapital(b[e - 4]) && VendorText.isBoundary(b, e - 4)) { return true }
        }
        return false
    }

    /// `isCityLine` by the expressions alone (`HandScannerTests` holds the hand matcher to it).
    static func isCityLineByExpression(_ text: String) -> Bool {
        if mayCountAsCity(text), let m = cityStatePostcode.matches(in: text).first, let code = m.groups[2] {
            let comma = m.groups[1] != nil, postcode = m.groups[3] != nil
            if regionCodes.contains(code.uppercased()), comma || postcode { return true }
            if comma, postcode { return true }
        }
        return ukPostcode.hasMatch(in: text)
    }

    /// Whether a `cityStatePostcode` match in `text` may make `isCityLine` say yes, asked on printable ASCII
    /// (any other text: yes). A line whose last word character is a letter has no postcode (every postcode ends
    /// in a digit): its code is its last word, of two or three letters, and it counts only as a region code
    /// after a comma and spaces ("Denver, CO"), never "NAME SDN BHD".
    static func mayCountAsCity(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { b -> Bool in
            guard b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return true }
            return mayCountAsCityPrintable(b)
        } ?? true
    }

    /// `mayCountAsCity` on printable ASCII.
    static func mayCountAsCityPrintable(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let core = wordCore(b)
        guard !core.isEmpty, Bytes.isLetter(b[core.upperBound - 1]) else { return true }
        var i = core.upperBound
        while i > core.lowerBound, Bytes.isLetter(b[i - 1]) { i -= 1 }
        // (The code's letters upper-cased and packed into a number, looked up among the codes packed alike: no
        // string made and hashed for every line.)
        guard (2...3).contains(core.upperBound - i), regionCodeKeys.contains(regionKey(UnsafeBufferPointer(rebasing: b[i..<core.upperBound]))) else { return false }
        var j = i
        while j > core.lowerBound, b[j - 1] == 0x20 { j -= 1 }
        return j < i && j > core.lowerBound && b[j - 1] == UInt8(ascii: ",")
    }

    /// `cityStatePostcode`'s first match in printable ASCII `b`, found by hand (a speed trick: the expression ran on
    /// some 2,600 header lines of a set, 5,600 instructions a run): whether its comma and postcode groups took part,
    /// and where its region code is. The expression's own steps, each way tried in its order: after `^\W*` a letter
    /// (`\W*` stops at the first word character), then the city's 1 to 30 characters, fewest first; a comma when there
    /// is one, then; the spaces (all of them: a code or postcode never starts with a space), three letters or two, a
    /// dot when there is one, the postcode when one follows, and only `\W` to the end. (Case-insensitive: a postcode's
    /// [A-Z] is any letter.)
    static func cityStatePostcodeMatch(_ b: UnsafeBufferPointer<UInt8>) -> (comma: Bool, code: Range<Int>, postcode: Bool)? {
        let n = b.count
        func nonWordToEnd(_ k: Int) -> Bool {
            var k = k
            while k < n { if VendorText.isWordByte(b[k]) { return false }; k += 1 }
            return true
        }
        func digit(_ k: Int) -> Bool { k < n && Bytes.isDigit(b[k]) }
        func letter(_ k: Int) -> Bool { k < n && Bytes.isLetter(b[k]) }
        func spacesFrom(_ k: Int) -> Int {
            var e = k
            while e < n, b[e] == 0x20 { e += 1 }
            return e
        }
        // `(\s+(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d|\d{4}))?\W*$` with the group, from `t`.
        func postcodeToEnd(_ t: Int) -> Bool {
            let k = spacesFrom(t)
            guard k > t else { return false }
            if (k..<(k + 5)).allSatisfy(digit) {
                if k + 5 < n, b[k + 5] == UInt8(ascii: "-"), ((k + 6)..<(k + 10)).allSatisfy(digit), nonWordToEnd(k + 10) { return true }
                if nonWordToEnd(k + 5) { return true }
            }
            if letter(k), digit(k + 1), letter(k + 2) {
                if k + 3 < n, b[k + 3] == 0x20, digit(k + 4), letter(k + 5), digit(k + 6), nonWordToEnd(k + 7) { return true }
                if digit(k + 3), letter(k + 4), digit(k + 5), nonWordToEnd(k + 6) { return true }
            }
            return (k..<(k + 4)).allSatisfy(digit) && nonWordToEnd(k + 4)
        }
        var f = 0
        while f < n, !VendorText.isWordByte(b[f]) { f += 1 }
        guard letter(f) else { return nil }
        for length in 1...30 {
            let pos = f + 1 + length
            // (`[A-Za-z .'-]`: `cityMarks` but its comma.)
            guard pos <= n, Bytes.isLetter(b[pos - 1]) || (cityMarks.contains(b[pos - 1]) && b[pos - 1] != UInt8(ascii: ",")) else { break }
            for withComma in 0..<2 {
                let comma = withComma == 0
                if comma, !(pos < n && b[pos] == UInt8(ascii: ",")) { continue }
                let p = comma ? pos + 1 : pos
                let q = spacesFrom(p)
                guard q > p else { continue }
                for c in stride(from: 3, through: 2, by: -1) where (q..<(q + c)).allSatisfy(letter) {
                    let r = q + c
                    let dot = r < n && b[r] == UInt8(ascii: ".")
                    for t in stride(from: dot ? r + 1 : r, through: r, by: -1) {
                        if postcodeToEnd(t) { return (comma, q..<r, true) }
                        if nonWordToEnd(t) { return (comma, q..<r, false) }
                    }
                }
            }
        }
        return nil
    }

    /// A word of the skip-list misread in letters OCR confuses ("TAX LHVOICE", "RECEIPI"): two such
    /// slips at most, in a word of five letters or more, the rest as printed.
    func misreadSkipWord(_ w: WordLine) -> Bool {
        // Plain ASCII (the skip words and the line): the same comparison on bytes.
        // (Each word against the targets of its length only, the table asked without going through its global each time.)
        // A line of Latin letters as well (`simpleScalars`), but for one with "ß" (upper-cased, "SS"): a word with a letter
        // not ASCII is no target's, its upper case not ASCII where the target's is, and no such pair confusable; the
        // others are as on ASCII.
        if let targets = misreadSkipTargetBytes, w.simpleScalars, w.isASCII || !Self.holdsSharpS(w.bytes) {
            // (Each word upper-cased as it is compared, in place: a copy of it upper-cased was an array made and freed
            // for every word of five letters or more of every header line.)
            let table = Self.confusableBytes
            let ascii = w.isASCII
            return w.bytes.withUnsafeBufferPointer { b in
                for span in w.spans where span.count >= 5 && span.count < targets.count
                    && (ascii || !UnsafeBufferPointer(rebasing: b[span.start..<span.end]).contains(where: { $0 >= 0x80 })) {
                    for target in targets[span.count] {
                        var slips = 0, confusable = true
                        for (k, t) in target.enumerated() {
                            let a = Bytes.upper(b[span.start + k])
                            guard a != t else { continue }
                            guard table[Int(a) * 128 + Int(t)] else { confusable = false; break }
                            slips += 1
                        }
                        if confusable, slips <= 2 { return true }
                    }
                }
                return false
            }
        }
        let words = w.words.filter { $0.count >= 5 }.map { Array($0.uppercased()) }
        guard !words.isEmpty else { return false }
        return misreadSkipTargets.contains { target in
            words.contains { word in
                guard word.count == target.count else { return false }
                var slips = 0
                for (a, b) in zip(word, target) where a != b {
                    guard Self.confusable(a, b) else { return false }
                    slips += 1
                }
                return slips <= 2
            }
        }
    }

    /// Whether UTF-8 bytes hold "ß" (C3 9F).
    static func holdsSharpS(_ b: [UInt8]) -> Bool {
        guard b.count >= 2 else { return false }
        for i in 0..<(b.count - 1) where b[i] == 0xC3 && b[i + 1] == 0x9F { return true }
        return false
    }

    /// The skip-list's single words of five letters or more, upper-cased, for `misreadSkipWord`.
    static func misreadSkipTargets(_ vendorSkip: KeywordSet) -> [[Character]] {
        vendorSkip.compactMap { k in
            let kw = k.normalised.dropFirst().dropLast()
            guard kw.count >= 5, !kw.contains(" ") else { return nil }
            return Array(kw.uppercased())
        }
    }

    enum VendorLineKind: Equatable { case legalForm(onlyForm: Bool), nameLike }

    /// What a name holds besides letters and digits without counting as a symbol.
    static let nameMarks = ByteSet(" &.'-")

    /// The first legal form (in the rules' order) the line ends in, or holds when it is six characters or more;
    /// on an ASCII line asked only of the forms it may hold by their signs (ending in one, the line holds it,
    /// byte for byte there; elsewhere `endsWith` compares characters, and every form is asked).
    func firstLegalForm(ending w: WordLine) -> Keyword? {
        // From the line's bits where it has them (`KeywordHits`): the forms on it as printed or one slip away, in order
        // (a form at the end is on it as printed; `contains` is the one or the other).
        if let h = w.hits(legalForms, keywordIndex) {
            var found: Keyword?
            let exact = h.exact(legalForms)
            h.forEachBit(of: exact, or: h.slipped(legalForms, w, loosely: false), legalForms) { i in
                let form = legalForms.keywords[i]
                guard form.length >= 6 || (exact.bit(i) && w.endsWith(form)) else { return true }
                found = form
                return false
            }
            return found
        }
        // (`may` says no only where `contains` does, on any line; `endsWith` is on the bytes where the form is ASCII and the
        // line's characters single scalars, and then a form it is true of is on the line as printed, `may` says yes.)
        let simple = w.simpleScalars
        for i in legalForms.indices where !(simple && legalForms.keywords[i].isASCII) || w.may(legalForms.signs[i], loosely: false) {
            let form = legalForms.keywords[i]
            if w.endsWith(form) || w.contains(form) && form.length >= 6 { return form }
        }
        return nil
    }

    /// Whether a top line can be the vendor's name, and why.
    /// `cleaned`: `vendorText.clean(l.text)` (the caller has it: the vendor's header lines are cleaned once).
    func vendorLineKind(_ l: ParseLine, cleaned: String) -> VendorLineKind? {
        let w = l.words
        let letters = w.letterCount, digits = w.digitCount
        guard letters >= 2 else { return nil }
        // "Las Vegas, NV 89104", "Denver, CO", "London SW1A 1AA": a city line, not a name (and "CO" there is a state).
        if Self.isCityLine(l.text) { return nil }
        // Judged without a trailing registration number: "NAME S/B (62318-J)" ends in its legal form.
        // (The words of a line cleaning left as it was are the line's own.)
        let cw = cleaned == l.text ? w : WordLine(cleaned)
        if let form = firstLegalForm(ending: cw) {
            if any(vendorSkip, in: cw) != nil, letters < 12 || digits >= 4 { return nil }
            // Read with under 30 % confidence: a logo that happens to hold a form's letters ("SS ee bs >. Balas & AS ae").
            if l.confidence < 0.3 { return nil }
            // "COMPANY REG NO 12345-X" (however misread): a form word first, then a number, is a registration line.
            if digits >= 4, cw.spans.count > 1, let first = cw.words.first {
                let formWord = String(form.normalised.dropFirst().dropLast())
                if formWord == String(first) || EditDistance.levenshtein(String(first), formWord, limit: 1) <= 1 { return nil }
            }
            let w = cw
            // (The letters left counted, `letterCount`: a string of them made a character at a time was most of the cost.)
            let rest = letterCount(replacingOccurrences(in: w.padded, of: form.normalised, with: " "))
            // Short legal forms ("sa", "as", "ag") only at the end of a line with a name before them.
            if form.length <= 4, !w.endsWith(form) { return nil }
            if form.length <= 4, rest < 3 { return nil }
            return .legalForm(onlyForm: rest < 3)
        }
        if any(vendorSkip, in: w) != nil || misreadSkipWord(w) { return nil }
        // One money word alone ("CASH"), or OCR noise from a logo: not a name.
        if w.spans.count == 1, isMoneyLabel(w) { return nil }
        if Self.looksLikeNoise(w) { return nil }
        // Read with under 30 % confidence: what OCR makes of a logo or a picture ("FESEREAFSSSEPEEFES ESE ESSE").
        if l.confidence < 0.3 { return nil }
        // Address and digit checks without a trailing registration number ("NAME MALAYSIA (425917-B)").
        let cDigits = cw.digitCount
        // Address words as printed only: one letter off is a name's word as often ("KANDAR" is no "BANDAR").
        if anyExact(addressWords, in: cw) != nil, cDigits > 0 || cw.spans.count > 3 { return nil }
        if cDigits > 4 || Double(cDigits) > Double(letters) * 0.5 { return nil }
        if !l.amounts.isEmpty { return nil }
        if letters < 3 { return nil }
        // Mostly noise: few letters among many symbols.
        // (ASCII without a line break, a byte a character: counted on bytes.)
        let u = l.text.utf8
        let symbols = u.allSatisfy({ $0 < 0x80 && $0 != 0x0A })
            ? u.filter { !Bytes.isAlnum($0) && !Self.nameMarks.contains($0) }.count
            : l.text.filter { !$0.isLetterQuick && !$0.isNumber && $0 != " " && $0 != "&" && $0 != "." && $0 != "'" && $0 != "-" }.count
        if symbols * 2 > letters { return nil }
        return .nameLike
    }
}

extension CompiledRules {
    /// Puts right OCR slips inside the words of a vendor's name: a lone 0, 1, 5 or 8 among letters
    /// ("D.1.Y.", "0ISTRIBUTION"), and a word one letter off exactly one common business word
    /// ("HARDHARE" → "HARDWARE", "CONFECTIUNERY" → "CONFECTIONERY").
    func repairName(_ name: String) -> String {
        if name.utf8.withContiguousStorageIfAvailable({ keepsEveryWord($0) }) == true { return name }
        return splitOnSpaces(name).map { repairWord(String($0)) }.joined(separator: " ")
    }

    /// Whether `repairName` gives the ASCII name `b` back as it is, found in one walk of its bytes (a speed trick: most
    /// names need no repair, and each word was copied, upper-cased into an array and joined again): its words joined by
    /// single spaces, and each word one `repairWord` leaves alone by its ASCII steps: no digit in it, and fewer than
    /// five letters first, or a letter or digit after its first letters, or no business word as long as its letters, or
    /// its letters one of them, or not exactly one of them a confusable letter away.
    /// False: not known (the words are repaired). `HandScannerTests` holds it to `repairWord`.
    func keepsEveryWord(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        guard n > 0, b[0] != 0x20, b[n - 1] != 0x20 else { return false }
        var i = 0
        while i < n {
            var j = i
            while j < n, b[j] != 0x20 {
                guard b[j] < 0x80, !Bytes.isDigit(b[j]) else { return false }
                j += 1
            }
            // (One space between words: a word starts right after it.)
            guard j == n || (j + 1 < n && b[j + 1] != 0x20) else { return false }
            var lead = i
            while lead < j, Bytes.isLetter(b[lead]) { lead += 1 }
            var alnumAfter = false
            for k in lead..<j where Bytes.isAlnum(b[k]) { alnumAfter = true; break }
            // Five letters or more, then punctuation alone: kept unless exactly one business word as long is one
            // confusable letter from the letters upper-cased (none is when they are one of them).
            if lead - i >= 5, !alnumAfter, let same = nameWordBytes[lead - i] {
                var near = 0, known = false
                for w in same where w.count == lead - i {
                    var slip: (UInt8, UInt8)?, twice = false
                    for k in 0..<w.count {
                        let u = Bytes.upper(b[i + k])
                        guard w[k] != u else { continue }
                        if slip != nil { twice = true; break }
                        slip = (w[k], u)
                    }
                    guard !twice else { continue }
                    guard let (x, y) = slip else { known = true; break }
                    if x < 0x80, Self.confusableBytes[Int(x) * 128 + Int(y)] { near += 1 }
                }
                guard known || near != 1 else { return false }
            }
            i = j + 1
        }
        return true
    }

    /// Whether a name holds one of the common business words ("HARDWARE", "Restaurant").
    func hasNameWord(_ name: String) -> Bool {
        // ASCII: the runs of letters found on bytes, upper-cased only where a business word is that long. So too with
        // Latin letters (`Bytes.latinLower`, each one character) and signs (`Bytes.isStandAloneSign`: no letters) among
        // them: a run with a Latin letter upper-cased as a string ("ß" is "SS").
        let ascii: Bool? = name.utf8.withContiguousStorageIfAvailable { b -> Bool? in
            var i = 0
            while i < b.count {
                if b[i] >= 0x80 {
                    guard let (u, k) = Bytes.scalar(b, at: i) else { return nil }
                    if Bytes.latinLower(u) == nil {
                        guard Bytes.isStandAloneSign(u) else { return nil }
                        i += k
                        continue
                    }
                }
                guard b[i] >= 0x80 || Bytes.isLetter(b[i]) else { i += 1; continue }
                // (The run of letters: ASCII ones, and Latin ones of two bytes.)
                var j = i, count = 0, latin = false
                while j < b.count {
                    if b[j] < 0x80 {
                        guard Bytes.isLetter(b[j]) else { break }
                        j += 1
                    } else {
                        guard let (u, k) = Bytes.scalar(b, at: j), Bytes.latinLower(u) != nil else { break }
                        latin = true
                        j += k
                    }
                    count += 1
                }
                if latin {
                    if nameWords[count]?.contains(String(decoding: UnsafeBufferPointer(rebasing: b[i..<j]), as: UTF8.self).uppercased()) == true {
                        return true
                    }
                } else if let same = nameWordBytes[j - i] {
                    // (A word of the list equal to the run upper-cased: its bytes, the same.)
                    let run = UnsafeBufferPointer(rebasing: b[i..<j])
                    if same.contains(where: { w in w.count == run.count && zip(w, run).allSatisfy { $0 == ($1 >= 0x61 && $1 <= 0x7A ? $1 - 0x20 : $1) } }) {
                        return true
                    }
                }
                i = j
            }
            return false
        } ?? nil
        if let ascii { return ascii }
        return name.split(whereSeparator: { !$0.isLetterQuick }).contains { w in nameWords[w.count]?.contains(w.uppercased()) ?? false }
    }

    static let digitAsLetterInside: [Character: Character] = ["0": "O", "1": "I", "5": "S", "8": "B"]
    static let digitAsLetterFirst: [Character: Character] = ["0": "O"]

    /// `byBytes` false: every word by characters (for the test that holds the byte paths to them).
    func repairWord(_ word: String, byBytes: Bool = true) -> String {
        // A word of ASCII with a digit: the lone digit's repair on bytes, as below by characters; then a word with a
        // digit left is given back (its letters end before the digit: none of the steps after applies), one without
        // goes on as a word of ASCII without digits (some 340 instructions a character were `isNumber`'s).
        if byBytes, word.utf8.allSatisfy({ $0 < 0x80 }), let r = repairedDigit(Array(word.utf8)) {
            return r.digitLeft ? (r.changed ? String(decoding: r.bytes, as: UTF8.self) : word) : repairWord(String(decoding: r.bytes, as: UTF8.self))
        }
        // A word of ASCII letters (and no digits) whose leading letters are under five, or are followed by a
        // letter or digit later on, is left as it is by what follows: said at once, on bytes.
        if byBytes, word.utf8.allSatisfy({ $0 < 0x80 && !Bytes.isDigit($0) }) {
            let u = Array(word.utf8)
            let lead = u.prefix(while: Bytes.isLetter).count
            if lead < 5 || u[lead...].contains(where: Bytes.isAlnum) { return word }
            // Else five letters or more, then punctuation alone: what follows, on bytes (no digit to repair).
            let upperBytes = u[..<lead].map(Bytes.upper)
            // (The common words compared as bytes: `nameWordBytes`, the same words as `nameWords`.)
            guard let same = nameWordBytes[lead], !same.contains(upperBytes) else { return word }
            // The one word of the list one confusable letter away, if exactly one is.
            var near = 0, found: [UInt8]?
            for w in same where w.count == lead {
                var slip: (UInt8, UInt8)?, twice = false
                for k in 0..<lead where w[k] != upperBytes[k] {
                    if slip != nil { twice = true; break }
                    slip = (w[k], upperBytes[k])
                }
                guard !twice, let (a, b) = slip, a < 0x80, Self.confusableBytes[Int(a) * 128 + Int(b)] else { continue }
                near += 1
                found = w
            }
            guard near == 1, let fixBytes = found else { return word }
            let fix = String(decoding: fixBytes, as: UTF8.self)
            let upper = String(decoding: upperBytes, as: UTF8.self)
            let core = String(decoding: u[..<lead], as: UTF8.self)
            let styled = core == upper ? fix : (core == upper.lowercased() ? fix.lowercased() : fix.capitalized)
            return styled + String(decoding: u[lead...], as: UTF8.self)
        }
        var chars = Array(word)
        let letters = letterCount(word)
        let digits = chars.indices.filter { chars[$0].isNumber }
        if letters >= 2, digits.count == 1, let i = digits.first,
           chars.allSatisfy({ $0.isLetterQuick || $0.isNumber || ".'&-".contains($0) }) {
            // Inside a word (after a letter or a dot); at the start only 0, as numbers do not start with it.
            let inside = i > 0 && (chars[i - 1].isLetterQuick || chars[i - 1] == ".")
            let map = inside ? Self.digitAsLetterInside : Self.digitAsLetterFirst
            if let c = map[chars[i]], i + 1 < chars.count, chars[i + 1].isLetterQuick || chars[i + 1] == "." { chars[i] = c }
        }
        // The letters of the word, without trailing punctuation, against the business words of the same length.
        let core = chars.prefix { $0.isLetterQuick }
        guard core.count >= 5, core.count == chars.count || chars[core.count...].allSatisfy({ !$0.isLetterQuick && !$0.isNumber }) else { return String(chars) }
        let upper = String(core).uppercased()
        guard let same = nameWords[upper.count], !same.contains(upper) else { return String(chars) }
        // One letter off, and that letter one OCR often mistakes for the other: "PASIR" stays, "HUUSE" does not.
        let upperBytes = Array(upper.utf8)
        // (A word not ASCII is one confusable letter from no ASCII word: the letter that differs would be one not ASCII,
        // and every confusable letter is ASCII. Only the words not ASCII are compared, character by character: each
        // of the others was a walk of both as characters, most of the cost of a header of German or French.)
        let upperIsASCII = upperBytes.count == upper.count
        let candidates = upperIsASCII ? same : nameWordsNotASCII[upper.count] ?? []
        let near = candidates.filter { w in
            // (ASCII both: the same comparison on bytes, without collecting the differences.)
            if upperIsASCII, w.utf8.count == upperBytes.count {
                var slip: (UInt8, UInt8)?
                for (a, b) in zip(w.utf8, upperBytes) where a != b {
                    if slip != nil { return false }
                    slip = (a, b)
                }
                guard let (a, b) = slip else { return false }
                return a < 0x80 && b < 0x80 && Self.confusableBytes[Int(a) * 128 + Int(b)]
            }
            let diff = zip(w, upper).filter { $0.0 != $0.1 }
            return diff.count == 1 && Self.confusable(diff[0].0, diff[0].1)
        }
        guard near.count == 1, let fix = near.first else { return String(chars) }
        let styled = String(core) == upper ? fix : (String(core) == upper.lowercased() ? fix.lowercased() : fix.capitalized)
        return styled + String(chars[core.count...])
    }

    /// The lone-digit step of `repairWord` on the bytes of a word of ASCII that holds a digit (nil: it holds none): two
    /// letters or more, one digit, nothing else but `.'&-`; the digit inside a word (after a letter or a point) read
    /// as the letter it looks like, at its start only a 0, when a letter or a point follows. With whether a digit is
    /// left and whether the step changed a byte.
    private func repairedDigit(_ u: [UInt8]) -> (bytes: [UInt8], digitLeft: Bool, changed: Bool)? {
        var digits = 0, at = -1, letters = 0, others = false
        for (k, c) in u.enumerated() {
            if Bytes.isDigit(c) { digits += 1; at = k }
            else if Bytes.isLetter(c) { letters += 1 }
            else if c != UInt8(ascii: ".") && c != UInt8(ascii: "'") && c != UInt8(ascii: "&") && c != UInt8(ascii: "-") { others = true }
        }
        guard digits > 0 else { return nil }
        guard letters >= 2, digits == 1, !others, at + 1 < u.count, Bytes.isLetter(u[at + 1]) || u[at + 1] == UInt8(ascii: ".") else {
            return (u, true, false)
        }
        let inside = at > 0 && (Bytes.isLetter(u[at - 1]) || u[at - 1] == UInt8(ascii: "."))
        // (The letters the character path reads, from its own tables.)
        let map = inside ? Self.digitAsLetterInside : Self.digitAsLetterFirst
        guard let letter = map[Character(Unicode.Scalar(u[at]))]?.asciiValue else { return (u, true, false) }
        var out = u
        out[at] = letter
        return (out, false, true)
    }

    /// Letters Tesseract confuses on receipt print (each group reads as any other in it).
    static let confusions: [Set<Character>] = [
        Set("OUDQC0"), Set("IJLT1!"), Set("HW"), Set("MN"), Set("HN"), Set("S5"), Set("B83"), Set("G6C"), Set("EF"), Set("Z2"), Set("A4"), Set("RK"), Set("VY"), Set("PF"),
    ]

    /// `confusable` for ASCII, as a table: `[a * 128 + b]`.
    static let confusableBytes: [Bool] = {
        // Every pair of ASCII characters of a group (`confusable`'s answer; a character with itself too).
        var table = [Bool](repeating: false, count: 128 * 128)
        for group in confusions {
            let ascii = group.compactMap(\.asciiValue)
            for a in ascii { for b in ascii { table[Int(a) * 128 + Int(b)] = true } }
        }
        return table
    }()

    /// `misreadSkipTargets` as bytes, by length (those of length n at n, in order), when every one is ASCII. (An
    /// array, not a Dictionary: a lookup hashed the length, for every word of five letters or more of every header line.)
    static func misreadSkipTargetBytes(_ targets: [[Character]]) -> [[[UInt8]]]? {
        guard targets.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
        let bytes = targets.map { Array(String($0).utf8) }
        var byLength = [[[UInt8]]](repeating: [], count: (bytes.map(\.count).max() ?? 0) + 1)
        for b in bytes { byLength[b.count].append(b) }
        return byLength
    }

    static func confusable(_ a: Character, _ b: Character) -> Bool {
        confusions.contains { $0.contains(a) && $0.contains(b) }
    }
}

/// Vendor names as read, cleaned: OCR noise at the ends, registration numbers, scraps after a legal form.
/// Made from the rules' legal forms (`vendor.legal_forms`), so a form added with `--rules` is kept and
/// ends a name like the built-in ones.
struct VendorText: Sendable {
    /// Legal forms and words of legal forms of up to three letters ("bhd", "co", "s/b"): never dropped
    /// as lower-case scraps after a name.
    let shortForms: Set<String>
    /// A legal form that ends the name, then one or two short scraps: "NAME SDN BHD ab 1".
    let scrapsAfterForm: Pattern
    /// A legal form that ends the name, then anything with a digit (a registration number, noise):
    /// "SDN BHD 1110644-¥", "Sdn Bhd {318459-R)", "SDN BHD (Ca. No:31872-E)".
    let numberAfterForm: Pattern
    /// `numberAfterForm`'s alternatives as lower-case bytes, in its order (longest first), for `numberAfterFormEnd`;
    /// nil when one is not ASCII (the expression is run then).
    let numberAfterFormList: FormList?
    /// `scrapsAfterForm`'s alternatives, lower-cased, in its order (`scrapsAfterFormEnd`); nil when one is not ASCII.
    let scrapsAfterFormList: FormList?
    /// Whether a line whose only characters not ASCII are signs is cleaned on a stand-in (`cleanPrintable`): no legal form
    /// of the rules holds a stand-in's byte.
    let signsStandIn: Bool

    /// `legalForms` as the rules list them; `nameWords`, the rules' common words of business names.
    init(legalForms: [String], nameWords: [String]) {
        let forms = legalForms.map { $0.lowercased() }
        var short = Set<String>()
        for form in forms {
            let whole = form.trimmingCharacters(in: .punctuationCharacters)
            if whole.count <= 3, !whole.contains(" ") { short.insert(whole) }
            let words = form.split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) }
            if words.count > 1 { short.formUnion(words.filter { (2...3).contains($0.count) }) }
        }
        shortForms = short
        // Forms that end a name, less the common words of business names ("trading", "company": "COMPANY NO: 123" is
        // no name). A form of one or two letters counts only when the rules write it as an abbreviation ("co.",
        // "s.a."): plain ("sa", "as", "kg", "oy") it may as well be a word, a unit or an OCR scrap, and
        // `vendorLineKind` too takes those only at the end of a name.
        let names = Set(nameWords.map { $0.lowercased() })
        let ending = forms.filter { !names.contains($0) }
        let isShort = { (form: String) in WordLine.normalise(form).count <= 4 }
        // After such a form, one or two scraps of one or two letters or digits go.
        let abbreviated = ending.filter { !isShort($0) || $0.contains(where: \.isPunctuation) }
        let abbreviatedForms = Self.literals(abbreviated)
        let abbreviatedSets = abbreviatedForms?.map { ByteSet(bytes: $0) }
        scrapsAfterForm = Pattern(#"(\b(?:"# + Self.alternation(abbreviated) + #")\.?)(?:\s+[A-Za-z0-9]{1,2}){1,2}$"#,
                                  mayMatch: { Self.endsInShortScraps($0) && Self.holdsOne($0, of: abbreviatedForms, sets: abbreviatedSets) })
        scrapsAfterFormList = FormList(ascii: Self.alternatives(abbreviated))
        // After a form of three letters or more, anything with a digit goes (a registration number, noise);
        // not after "co.": "CO. NO: 12345" is a registration line, not a name.
        let certain = ending.filter { !isShort($0) }
        let certainForms = Self.literals(certain)
        let certainSets = certainForms?.map { ByteSet(bytes: $0) }
        numberAfterForm = Pattern(#"(\b(?:"# + Self.alternation(certain) + #")\b\.?)\s+.*\d.*$"#,
                                  mayMatch: { $0.contains(where: Bytes.isDigit) && Self.holdsOne($0, of: certainForms, sets: certainSets) })
        numberAfterFormList = FormList(ascii: Self.alternatives(certain))
        // (A form holding one of the signs' stand-ins would match the stand-in of a sign: such rules clean lines with signs step by step.)
        signsStandIn = [scrapsAfterFormList, numberAfterFormList].allSatisfy { $0?.bytes.allSatisfy { !Self.signStandIns.contains($0) } ?? false }
    }

    /// The alternatives of `alternation(words)` as lower-case bytes: a line matching it holds one of them.
    /// Nil when one is not ASCII (case-insensitive, a "K" sign matches a "k": no line is ruled out then).
    static func literals<S: Sequence<String>>(_ words: S) -> [[UInt8]]? {
        let all = Set(words.map { String($0.reversed().drop { $0 == "." }.reversed()).lowercased() }.filter { !$0.isEmpty }).sorted()
        return all.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } ? all.map { Array($0.utf8) } : nil
    }

    /// Whether the printable-ASCII line, lower-cased, holds one of `literals` (the expressions are case-insensitive).
    /// `sets`: each literal's `ByteSet`, made once with them (nil: made here).
    static func holdsOne(_ b: UnsafeBufferPointer<UInt8>, of literals: [[UInt8]]?, sets: [ByteSet]? = nil) -> Bool {
        guard let literals else { return true }
        // (A literal with a byte the line lacks is not in it: most lines are refused without lower-casing them.)
        let present = ByteSet(bytes: b.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        guard (sets ?? literals.map { ByteSet(bytes: $0) }).contains(where: present.holds) else { return false }
        let lower = b.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return literals.contains { bytesContain(lower, $0) }
    }

    /// A regular-expression alternation of `words` as written (trailing dots dropped: the patterns allow one), longest first.
    static func alternation<S: Sequence<String>>(_ words: S) -> String {
        alternatives(words).map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
    }

    /// The alternatives of `alternation(words)`, unescaped, in its order.
    static func alternatives<S: Sequence<String>>(_ words: S) -> [String] {
        Set(words.map { String($0.reversed().drop { $0 == "." }.reversed()) }.filter { !$0.isEmpty })
            .sorted { ($0.count, $0) > ($1.count, $1) }
    }

    static let misreadSdnBhd = Pattern(#"\bS(?:[O0DIEU]N|DIV|DM|DIi|DR|C)\b[.,':]{0,3}\s*(?:[B83][HN][DO0]|[B83]H[A])\b"#,
                                       // (A pair of "BHD" first; then the hand matcher, which is the expression on printable ASCII: a
                                       // line of Latin letters asks it of its stand-in, where ICU's run cost some 200,000 instructions.)
                                       mayMatch: { Bytes.hasPair($0, { VendorText.bhdFirst.contains($0) }, { VendorText.bhdSecond.contains($0) })
                                                       && !VendorText.misreadSdnBhdMatches($0).isEmpty })
    static let bhdFirst = ByteSet("Bb83"), bhdSecond = ByteSet("HhNn")

    // What `clean` and `dropLabel` take away, compiled once (not once a line).
    /// A registration number in brackets at the end: "(73526-C)", "(Co. Reg. 12345-X".
    // (`mayMatch`: what any match needs, on printable ASCII.)
    static let registrationAtEnd = Pattern(#"\s*[\(\[]\s*(?:co\.?\s*(?:reg|no)\.?\s*:?\s*)?[0-9][0-9A-Z\-\s]*[\)\]]?\s*$"#, caseInsensitive: true,
                                           mayMatch: { b in
        // After the last "(" or "[" (nothing after the match's holds one): letters, digits, " -.:" (a digit among
        // them), then maybe ")" or "]" and spaces.
        guard let open = b.lastIndex(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "[") }) else { return false }
        var end = b.count
        while end > open + 1, b[end - 1] == 0x20 { end -= 1 }
        if end > open + 1, b[end - 1] == UInt8(ascii: ")") || b[end - 1] == UInt8(ascii: "]") { end -= 1 }
        let tail = b[(open + 1)..<end]
        return tail.contains(where: Bytes.isDigit) && tail.allSatisfy { Bytes.isAlnum($0) || VendorText.registrationMarks.contains($0) }
    })
    static let registrationMarks = ByteSet(" -.:")
    static let branchCodeAtEnd = Pattern(#"\s*[\(\[][A-Z]{0,3}\d[0-9A-Z\-]{0,8}[\)\]]$"#, caseInsensitive: false, mayMatch: { b in
        // a closing bracket last; between it and the last opening one, 2 to 12 of digits, capitals and "-", a digit among them
        guard let last = b.last, last == UInt8(ascii: ")") || last == UInt8(ascii: "]"),
              let open = b.lastIndex(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "[") }) else { return false }
        let code = b[(open + 1)..<(b.count - 1)]
        return (1...12).contains(code.count) && code.contains(where: Bytes.isDigit)
            && code.allSatisfy { Bytes.isDigit($0) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "-") }
    })
    static let bareNumberAtEnd = Pattern(#"\s+[A-Z]{0,3}\d{4,}-?[A-Z]?$"#, caseInsensitive: false,
                                         mayMatch: { VendorText.bareNumberAtEndStart($0) != nil })
    static let spaces = Pattern(#"\s+"#, caseInsensitive: false)
    static let ruleToEnd = Pattern(#"\s*[-=_~*—–]{3,}.*$"#, caseInsensitive: false, mayMatch: { Bytes.hasRun($0, 3) { VendorText.ruleMarks.contains($0) } })
    static let ruleMarks = ByteSet("-=_~*")
    static let leadingDots = Pattern(#"^[.\s]+(?=\S)"#, caseInsensitive: false, mayMatch: { $0.first == UInt8(ascii: ".") || $0.first == 0x20 })
    static let leadingScrap = Pattern(#"^[a-z]{1,2}\s+(?=[A-Z]{2})"#, caseInsensitive: false,
                                      mayMatch: { $0.first.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } ?? false })
    static let numberLabel = Pattern(#"^\s*#\S*\d\S*\s+"#, caseInsensitive: false, mayMatch: { Bytes.has($0, "#") })
    static let trimEnds = Trim(CharacterSet(charactersIn: " ,.;:"))
    static let junk = CharacterSet(charactersIn: " *~|_=-—–:;,'\"`!^<>{}[]\\/©®•»«‘’“”")
    static let trimJunk = Trim(junk)
    static let trimJunkKeepingDots = Trim(junk.union(CharacterSet(charactersIn: ".")).subtracting(CharacterSet(charactersIn: ".")))
    /// "… SDN BHD ab 1": the name's end, then one or two scraps of one or two letters or digits, each after a space.
    static func endsInShortScraps(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = b.count
        while i > 0, Bytes.isAlnum(b[i - 1]) { i -= 1 }
        return (1...2).contains(b.count - i) && i > 0 && b[i - 1] == 0x20
    }

    /// Strips OCR noise at the ends and a trailing registration number "(73526-C)".
    func clean(_ s: String) -> String {
        cleanPrintable(s) ?? cleanStepByStep(s)
    }

    /// `clean` of a printable-ASCII line in one copy of its bytes, each step a cut or trim of the part left (a speed
    /// trick: step by step, each step's text was a string of its own, and each cut walked it again; some 6,000
    /// instructions a header line). The steps are `cleanStepByStep`'s, in its order, each by its hand matcher; only
    /// collapsing spaces and putting "SDN BHD" right write bytes. A line whose only characters not ASCII are signs
    /// ("£12.50", "— CAFE —": `Bytes.printableWithNeutralSigns`) is cleaned so on its stand-in (`signStandIn`), and its
    /// signs put back in what is left. Nil for any other line, or rules whose legal forms are not ASCII
    /// (`cleanStepByStep` then). `HandScannerTests` holds it to `cleanStepByStep`.
    func cleanPrintable(_ s: String) -> String? {
        guard let scrapForms = scrapsAfterFormList, let numberForms = numberAfterFormList else { return nil }
        let made = s.utf8.withContiguousStorageIfAvailable { src -> String?? in
            var a: [UInt8]
            // On a stand-in: for each byte of `a`, the place in `src` of the sign it stands for (-1: the byte is its own).
            var from: [Int32] = []
            if src.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
                a = Array(src)
            } else {
                guard signsStandIn, Bytes.printableWithNeutralSigns(src) else { return .none }
                (a, from) = Self.signStandIn(src)
            }
            var lo = 0, hi = a.count, edited = false
            // A step's answer on the part left, `a[lo..<hi]`, as a place in it.
            func ask<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
                a.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lo..<hi])) }
            }
            func trim(_ t: Trim) {
                while lo < hi, t.ascii[Int(a[lo])] { lo += 1 }
                while hi > lo, t.ascii[Int(a[hi - 1])] { hi -= 1 }
            }
            if let k = ask(Self.registrationAtEndStart) { hi = lo + k }
            trim(Self.trimEnds)
            if let k = ask(Self.registrationAtEndStart) { hi = lo + k }
            if let k = ask(Self.branchCodeAtEndStart) { hi = lo + k }
            if let k = ask(Self.bareNumberAtEndStart) { hi = lo + k }
            // Each run of spaces one space (`collapsingSpaces`).
            if ask({ Bytes.hasRun($0, 2, { $0 == 0x20 }) }) {
                var w = lo
                for r in lo..<hi where a[r] != 0x20 || w == lo || a[w - 1] != 0x20 {
                    a[w] = a[r]
                    if !from.isEmpty { from[w] = from[r] }
                    w += 1
                }
                hi = w
                edited = true
            }
            trim(Self.trimJunk)
            if let k = ask(Self.ruleToEndStart) { hi = lo + k }
            if let k = ask(Self.leadingDotsEnd) { lo += k }
            if let k = ask(Self.leadingScrapEnd) { lo += k }
            if let k = ask({ Self.scrapsAfterFormEnd($0, forms: scrapForms) }) { hi = lo + k }
            let misread = ask { b in Self.misreadSdnBhdMatches(b).filter { !Self.readsSdnBhd(b, $0) } }
            if !misread.isEmpty {
                var out: [UInt8] = [], outFrom: [Int32] = []
                var at = lo
                for r in misread {
                    out.append(contentsOf: a[at..<(lo + r.lowerBound)])
                    out.append(contentsOf: Self.sdnBhdWritten)
                    if !from.isEmpty {
                        outFrom.append(contentsOf: from[at..<(lo + r.lowerBound)])
                        outFrom.append(contentsOf: repeatElement(-1, count: Self.sdnBhdWritten.count))
                    }
                    at = lo + r.upperBound
                }
                out.append(contentsOf: a[at..<hi])
                if !from.isEmpty { outFrom.append(contentsOf: from[at..<hi]) }
                a = out
                from = outFrom
                lo = 0; hi = a.count
                edited = true
            }
            if let k = ask({ Self.numberAfterFormEnd($0, forms: numberForms) }) { hi = lo + k }
            trim(Self.trimJunkKeepingDots)
            if from.isEmpty {
                let t = !edited && lo == 0 && hi == src.count ? s : String(decoding: a[lo..<hi], as: UTF8.self)
                return .some(droppingLowerScrapsASCII(t))
            }
            // The scraps dropped from the stand-in: what is left is a first part of it (its words are joined by single
            // spaces, none at either end, by now), and that part is given back with its signs.
            let standIn = String(decoding: a[lo..<hi], as: UTF8.self)
            guard let kept = droppingLowerScrapsASCII(standIn), standIn.utf8.starts(with: kept.utf8) else { return .none }
            var out: [UInt8] = []
            out.reserveCapacity(src.count)
            for i in lo..<(lo + kept.utf8.count) {
                let f = Int(from[i])
                if f < 0 { out.append(a[i]); continue }
                out.append(contentsOf: src[f..<(f + Bytes.scalar(src, at: f)!.1)])
            }
            return .some(String(decoding: out, as: UTF8.self))
        }
        guard case let t?? = made else { return nil }
        return t
    }

    /// The bytes that stand for signs (`signStandIn`).
    static let signStandIns = ByteSet("*!|#$")
    /// The signs not ASCII that `ruleToEnd` names.
    static let ruleSigns: Set<Unicode.Scalar> = ["\u{2014}", "\u{2013}"]

    /// A line `Bytes.printableWithNeutralSigns` holds with each sign one byte of ASCII that every step of the cleaning
    /// takes as it takes the sign: a byte that no step's expression or hand matcher names but as it names the sign (each
    /// matches a sign only with `.`, `\S` or `\W`, never as a letter, digit, space or word character), taken away by the
    /// same trims (`junk`), marking a rule where the sign does (`ruleToEnd`: "—", "–"), and punctuation where the sign
    /// is (the scraps after a name keep a short legal form less its punctuation): "*" for a sign of a rule, "!" and "|"
    /// for other junk that is punctuation or not, "#" and "$" for the rest. With, for each byte, the place in the line of
    /// the sign it stands for (-1: none).
    static func signStandIn(_ src: UnsafeBufferPointer<UInt8>) -> ([UInt8], [Int32]) {
        var a: [UInt8] = [], from: [Int32] = []
        a.reserveCapacity(src.count)
        from.reserveCapacity(src.count)
        var i = 0
        while i < src.count {
            let c = src[i]
            if c < 0x80 { a.append(c); from.append(-1); i += 1; continue }
            // (A line `printableWithNeutralSigns` holds: each scalar well formed.)
            let (u, n) = Bytes.scalar(src, at: i)!
            let punctuation = CharacterSet.punctuationCharacters.contains(u)
            a.append(ruleSigns.contains(u) ? UInt8(ascii: "*")
                     : junk.contains(u) ? (punctuation ? UInt8(ascii: "!") : UInt8(ascii: "|"))
                     : punctuation ? UInt8(ascii: "#") : UInt8(ascii: "$"))
            from.append(Int32(i))
            i += n
        }
        return (a, from)
    }

    static let sdnBhdWritten: [UInt8] = Array("SDN BHD".utf8)

    /// `clean` step by step, each step's text a string (any line; `cleanPrintable` stands for it on printable ASCII).
    func cleanStepByStep(_ s: String) -> String {
        // Whether `s` is printable ASCII, asked once: every step below only takes text away, trims it, collapses
        // spaces, or puts back a piece of it or "SDN BHD", so what is left of printable ASCII stays so, and each
        // expression's `mayMatch` may be asked without walking the text again.
        let p = s.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } } ?? false
        // (Any other text: the expressions' pretests asked of its stand-in, made once for each text the steps make.)
        let pretests = Pattern.Pretests(printable: p)
        // (The registration numbers found by hand on printable ASCII: `registrationAtEndStart`, `numberAfterFormEnd`.)
        var t = (p ? Self.cut(s, at: Self.registrationAtEndStart) : nil) ?? Self.registrationAtEnd.replacing(in: s, with: "", pretests: pretests)
        t = Self.trimEnds(t)
        t = (p ? Self.cut(t, at: Self.registrationAtEndStart) : nil) ?? Self.registrationAtEnd.replacing(in: t, with: "", pretests: pretests)
        // A branch code "(KJ1)", then a bare registration number at the end: "NAME SDN BHD 1207385-N".
        t = Self.branchCodeAtEnd.replacing(in: t, with: "", pretests: pretests)
        t = (p ? Self.cut(t, at: Self.bareNumberAtEndStart) : nil) ?? Self.bareNumberAtEnd.replacing(in: t, with: "", pretests: pretests)
        t = collapsingSpaces(t, Self.spaces)
        t = Self.trimJunk(t)
        // A rule of dashes after the name ends it: "QS STATION DE WIT------------:-rm".
        t = Self.ruleToEnd.replacing(in: t, with: "", pretests: pretests)
        // Leading dots and a stray lower-case scrap before an upper-case name ("ri TASTEVILLE"), trailing scraps after a legal form.
        t = Self.leadingDots.replacing(in: t, with: "", pretests: pretests)
        t = Self.leadingScrap.replacing(in: t, with: "", pretests: pretests)
        if p, let forms = scrapsAfterFormList, let cut = Self.cut(t, at: { Self.scrapsAfterFormEnd($0, forms: forms) }) {
            t = cut
        } else {
            t = scrapsAfterForm.replacing(in: t, with: "$1", pretests: pretests)
        }
        // OCR's "SON BHD", "SIN BHD", "SDIi BHD", "SEN 3HD", "SDN BHO" for SDN BHD (Malaysia's private limited).
        // (Read right, "Sdn. Bhd." is left as printed.) On printable ASCII the matches found by hand, as byte offsets.
        if p, let misread = t.utf8.withContiguousStorageIfAvailable({ b in Self.misreadSdnBhdMatches(b).filter { !Self.readsSdnBhd(b, $0) } }) {
            for r in misread.reversed() {
                let u = t.utf8
                t.replaceSubrange(u.index(u.startIndex, offsetBy: r.lowerBound)..<u.index(u.startIndex, offsetBy: r.upperBound), with: "SDN BHD")
            }
        } else {
            for m in Self.misreadSdnBhd.matches(in: t, pretests: pretests).reversed() where m.groups[0].map({ $0.uppercased().filter(\.isLetterQuick) }) != "SDNBHD" {
                t.replaceSubrange(m.range, with: "SDN BHD")
            }
        }
        // After a legal form ends the name, anything with a digit is a registration number or noise.
        if p, let forms = numberAfterFormList, let cut = Self.cut(t, at: { Self.numberAfterFormEnd($0, forms: forms) }) {
            t = cut
        } else {
            t = numberAfterForm.replacing(in: t, with: "$1", pretests: pretests)
        }
        t = Self.trimJunkKeepingDots(t)
        // "RESTORAN TELAGA VILLAGE oo": short lower-case scraps after a name printed in capitals.
        if let ascii = droppingLowerScrapsASCII(t) { return ascii }
        if Self.keepsLatinWhole(t) { return t }
        var words = t.split(separator: " ")
        if words.filter({ w in
            // (ASCII: the same, on bytes.)
            w.utf8.allSatisfy { $0 < 0x80 }
                ? w.utf8.count >= 2 && w.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } && !w.utf8.contains { $0 >= 0x61 && $0 <= 0x7A }
                : w.count >= 2 && w.contains(where: \.isUppercase) && !w.contains(where: \.isLowercase)
        }).count >= 2 {
            while words.count > 2, let last = words.last, last.count <= 3, last.contains(where: \.isLowercase),
                  !shortForms.contains(last.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
                words.removeLast()
            }
            t = words.joined(separator: " ")
        }
        return t
    }

    /// The end of `clean` on ASCII, the words found as bytes (a character a byte: the same words as
    /// `split(separator: " ")`, without walking the text by characters). Nil when the text is not ASCII.
    func droppingLowerScrapsASCII(_ t: String) -> String? {
        // A speed trick: most names have fewer than two words in capitals, or no short scrap last, and are `t` as it
        // is; that is found in one walk of its bytes, without copying them or listing the words (`keepsWhole`: nil, not
        // ASCII; true, `t`; false, the whole walk below answers).
        if let quick = t.utf8.withContiguousStorageIfAvailable({ Self.keepsWhole($0, latin: false) }) {
            guard let same = quick else { return nil }
            if same { return t }
        }
        return droppingLowerScrapsWalk(t)
    }

    /// Whether the end of `clean` (below `droppingLowerScrapsASCII`) gives a name of ASCII, Latin letters
    /// (`Bytes.latinCase`) and signs (`Bytes.isStandAloneSign`) back as it is: `keepsWhole` with `latin`. False: not
    /// known (any other character, or a scrap that may go), and the words are listed as characters. (A speed trick:
    /// that listing, the words split and each walked as characters twice, was some 20,000 instructions a name.)
    static func keepsLatinWhole(_ t: String) -> Bool {
        t.utf8.withContiguousStorageIfAvailable { keepsWhole($0, latin: true) == true } ?? false
    }

    /// The quick answer of the end of `clean`, in one walk of a name's bytes: true when it gives the name back as it is
    /// (fewer than two words in capitals, or no short scrap last and the words joined by single spaces), false when a
    /// scrap may go, nil when the walk cannot tell. A word's characters are counted as its bytes on ASCII; with `latin`,
    /// a Latin letter (its case from `Bytes.latinCase`) or a sign (no case) is one character too, nothing joining it,
    /// and a control character is not told ("\r\n" is one character); without it, a byte past ASCII is not told.
    private static func keepsWhole(_ b: UnsafeBufferPointer<UInt8>, latin: Bool) -> Bool? {
        let n = b.count
        var i = 0, words = 0, capitalWords = 0, lastCount = 0, lastLower = false, joined = true
        while i < n {
            if b[i] == 0x20 {
                // (`joined` below: no space first, last or doubled.)
                if i == 0 || i == n - 1 || b[i - 1] == 0x20 { joined = false }
                i += 1
                continue
            }
            var j = i, upper = false, lower = false, count = 0
            while j < n, b[j] != 0x20 {
                let d = b[j]
                if d < 0x80 {
                    if latin, d < 0x20 || d == 0x7F { return nil }
                    if d >= 0x41 && d <= 0x5A { upper = true } else if d >= 0x61 && d <= 0x7A { lower = true }
                    j += 1
                } else {
                    guard latin, let (u, k) = Bytes.scalar(b, at: j) else { return nil }
                    if let c = Bytes.latinCase(u) {
                        if c.upper { upper = true }
                        if c.lower { lower = true }
                    } else {
                        guard Bytes.isStandAloneSign(u) else { return nil }
                    }
                    j += k
                }
                count += 1
            }
            words += 1
            if count >= 2, upper, !lower { capitalWords += 1 }
            lastCount = count; lastLower = lower
            i = j
        }
        if capitalWords < 2 { return true }
        // No last word the loop below could drop: `t`, where it is its words joined by single spaces.
        if words <= 2 || lastCount > 3 || !lastLower { return joined }
        return false
    }

    /// `droppingLowerScrapsASCII` by the whole walk: the words listed, the scraps dropped (its quick answers held to
    /// this by `HandScannerTests`).
    func droppingLowerScrapsWalk(_ t: String) -> String? {
        let u = Array(t.utf8)
        guard u.allSatisfy({ $0 < 0x80 }) else { return nil }
        var words: [Range<Int>] = []
        var i = 0
        while i < u.count {
            if u[i] == 0x20 { i += 1; continue }
            var j = i
            while j < u.count, u[j] != 0x20 { j += 1 }
            words.append(i..<j)
            i = j
        }
        func lower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
        func capitals(_ r: Range<Int>) -> Bool { r.count >= 2 && u[r].contains { $0 >= 0x41 && $0 <= 0x5A } && !u[r].contains(where: lower) }
        var capitalWords = 0
        for w in words where capitals(w) { capitalWords += 1 }
        guard capitalWords >= 2 else { return t }
        // `t` is its words joined by single spaces already (no space at either end, none doubled): then the
        // words kept joined are `t` up to the last of them, and no string is made of each.
        let joined = words.first?.lowerBound == 0 && words.last?.upperBound == u.count
            && words.reduce(words.count - 1) { $0 + $1.count } == u.count
        let all = words.count
        while words.count > 2, let last = words.last, last.count <= 3, u[last].contains(where: lower),
              !shortForms.contains(String(decoding: u[last], as: UTF8.self).lowercased().trimmingCharacters(in: .punctuationCharacters)) {
            words.removeLast()
        }
        if joined { return words.count == all ? t : String(decoding: u[0..<words[words.count - 1].upperBound], as: UTF8.self) }
        return words.map { String(decoding: u[$0], as: UTF8.self) }.joined(separator: " ")
    }

    /// "OWNED BY: NAME SDN BHD" → "NAME SDN BHD"; "#0002 NAME" → "NAME".
    /// (`byBytes` false: the colon looked for among the characters, for the test that holds the two together.)
    func dropLabel(_ s: String, byBytes: Bool = true) -> String {
        var t = s
        // (The colon found on the bytes of ASCII, where ":" is always a character of its own; walking the characters for
        // it was some 9,000 instructions a line.)
        let ascii = byBytes && t.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? false
        if let colon = ascii ? t.utf8.firstIndex(of: UInt8(ascii: ":")) : t.firstIndex(of: ":") {
            let head = t[..<colon], tail = t[t.index(after: colon)...]
            if head.split(separator: " ").count <= 2, letterCount(tail) >= 4 { t = String(tail) }
        }
        t = Self.numberLabel.replacing(in: t, with: "")
        return clean(t)
    }

    /// Upper-case, punctuation dropped, spaces collapsed (the scorer's normalisation).
    /// Diacritics folded (Ä→A), as the scorer drops non-ASCII letters' accents on both sides.
    static func normalise(_ s: String) -> String { ShopName.key(s) }
}

// The registration numbers `clean` takes away, found by hand on printable ASCII (a speed trick: the expressions
// were run on every header line holding a bracket or a legal form with a digit, some 16,000 instructions a run).
// Each gives where the expression's match starts (`registrationAtEnd`) or where its first group ends
// (`numberAfterForm`); the match runs to the line's end, so the replacement is the line up to there.
// `HandScannerTests` holds each to its expression.
extension VendorText {
    /// `s` up to where `at` says on its bytes (`s` itself where it says nil); nil when `s` does not hold its bytes
    /// in one piece (the caller's expression asked then).
    static func cut(_ s: String, at: (UnsafeBufferPointer<UInt8>) -> Int?) -> String? {
        s.utf8.withContiguousStorageIfAvailable { b -> String in
            guard let k = at(b) else { return s }
            return String(decoding: UnsafeBufferPointer(rebasing: b[..<k]), as: UTF8.self)
        }
    }

    /// `\s` on printable ASCII.
    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 }
    /// `\w` on printable ASCII.
    @inline(__always) static func isWordByte(_ c: UInt8) -> Bool { Bytes.isAlnum(c) || c == UInt8(ascii: "_") }
    /// `\b` at `i` of printable ASCII `b`.
    @inline(__always) static func isBoundary(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        (i > 0 && isWordByte(b[i - 1])) != (i < b.count && isWordByte(b[i]))
    }
    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { Bytes.lower(c) }

    /// Where `registrationAtEnd`'s match starts in printable ASCII `b`, nil when there is none. The match runs to the end,
    /// so it starts at the spaces before the last "(" or "[" (an earlier one would have that one after it, which
    /// nothing after the bracket matches), and only if what follows is the expression's.
    static func registrationAtEndStart(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        var q = n - 1
        while q >= 0, b[q] != UInt8(ascii: "(") && b[q] != UInt8(ascii: "[") { q -= 1 }
        guard q >= 0 else { return nil }
        var i = q + 1
        while i < n, isSpace(b[i]) { i += 1 }
        // `(?:co\.?\s*(?:reg|no)\.?\s*:?\s*)?`, then a digit: with the group first, else without it (each piece is
        // followed by something a space or the piece's next byte cannot be, so greedy steps are the only ones).
        func afterLabel(_ start: Int) -> Int? {
            var k = start
            guard k + 1 < n, lower(b[k]) == UInt8(ascii: "c"), lower(b[k + 1]) == UInt8(ascii: "o") else { return nil }
            k += 2
            if k < n, b[k] == UInt8(ascii: ".") { k += 1 }
            while k < n, isSpace(b[k]) { k += 1 }
            if k + 2 < n, lower(b[k]) == UInt8(ascii: "r"), lower(b[k + 1]) == UInt8(ascii: "e"), lower(b[k + 2]) == UInt8(ascii: "g") { k += 3 }
            else if k + 1 < n, lower(b[k]) == UInt8(ascii: "n"), lower(b[k + 1]) == UInt8(ascii: "o") { k += 2 }
            else { return nil }
            if k < n, b[k] == UInt8(ascii: ".") { k += 1 }
            while k < n, isSpace(b[k]) { k += 1 }
            if k < n, b[k] == UInt8(ascii: ":") { k += 1 }
            while k < n, isSpace(b[k]) { k += 1 }
            return k
        }
        // `[0-9][0-9A-Z\-\s]*[\)\]]?\s*$` from `j` (case-insensitive: a-z too).
        func restMatches(_ j: Int) -> Bool {
            guard j < n, Bytes.isDigit(b[j]) else { return false }
            var k = j + 1
            while k < n, Bytes.isAlnum(b[k]) || b[k] == UInt8(ascii: "-") || isSpace(b[k]) { k += 1 }
            if k < n, b[k] == UInt8(ascii: ")") || b[k] == UInt8(ascii: "]") { k += 1 }
            while k < n, isSpace(b[k]) { k += 1 }
            return k == n
        }
        guard afterLabel(i).map(restMatches) == true || restMatches(i) else { return nil }
        var p = q
        while p > 0, isSpace(b[p - 1]) { p -= 1 }
        return p
    }

    /// Alternatives of an expression as one run of lower-case bytes, in their order: alternative `i` is
    /// `bytes[starts[i]..<starts[i + 1]]` (one array, not one for each: walked at every word start of a line).
    struct FormList: Sendable {
        let bytes: [UInt8]
        let starts: [Int]
        /// The alternatives' first bytes.
        let first: ByteSet

        init(_ forms: [[UInt8]]) {
            bytes = forms.flatMap { $0 }
            var starts = [0]
            for f in forms { starts.append(starts.last! + f.count) }
            self.starts = starts
            first = ByteSet(bytes: forms.compactMap(\.first))
        }

        /// The alternatives lower-cased, in their order; nil when one is not ASCII (the expression is run then).
        init?(ascii forms: [String]) {
            guard forms.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return nil }
            self.init(forms.map { Array($0.lowercased().utf8) })
        }

        /// The alternatives, in their order.
        var alternatives: [[UInt8]] { (0..<(starts.count - 1)).map { Array(bytes[starts[$0]..<starts[$0 + 1]]) } }

        /// The expression's walk of its alternatives in printable ASCII `b`: at each place `p` in `places`, left to
        /// right, after a word boundary, each alternative in order that matches there case-insensitively, its end
        /// handed to `accept`; the first answer `accept` gives (nil: the walk goes on).
        func firstEnd(in b: UnsafeBufferPointer<UInt8>, places: Range<Int>, _ accept: (Int) -> Int?) -> Int? {
            let n = b.count
            return bytes.withUnsafeBufferPointer { fb in
                starts.withUnsafeBufferPointer { starts in
                    for p in places where first.contains(lower(b[p])) && isBoundary(b, p) {
                        let c0 = lower(b[p])
                        for i in 0..<(starts.count - 1) where fb[starts[i]] == c0 {
                            let len = starts[i + 1] - starts[i]
                            guard p + len <= n else { continue }
                            var k = 1
                            while k < len, lower(b[p + k]) == fb[starts[i] + k] { k += 1 }
                            guard k == len else { continue }
                            if let end = accept(p + len) { return end }
                        }
                    }
                    return nil
                }
            }
        }
    }

    /// Where `numberAfterForm`'s first group ends in printable ASCII `b` (the form and its dot, kept), nil when it
    /// does not match. `forms`: the expression's alternatives, lower-cased, in its order (longest first). The
    /// expression's own steps: the leftmost place where, after a word boundary, an alternative (in order) matches
    /// case-insensitively, a boundary follows, a dot maybe, then a space, and a digit after it.
    static func numberAfterFormEnd(_ b: UnsafeBufferPointer<UInt8>, forms: FormList) -> Int? {
        let n = b.count
        var lastDigit = n - 1
        while lastDigit >= 0, !Bytes.isDigit(b[lastDigit]) { lastDigit -= 1 }
        // (A form, a space, then the digit: the form starts two bytes before it at least.)
        guard lastDigit >= 2 else { return nil }
        return forms.firstEnd(in: b, places: 0..<(lastDigit - 1)) { e in
            guard isBoundary(b, e) else { return nil }
            // `\.?` (taken when there: a space must follow, and a dot is none), `\s+`, `.*\d.*$`.
            let g = e < n && b[e] == UInt8(ascii: ".") ? e + 1 : e
            return g < n && isSpace(b[g]) && lastDigit > g ? g : nil
        }
    }
}

// More of `clean`'s expressions by hand on printable ASCII, each held to its expression by `HandScannerTests`.
extension VendorText {
    /// Where `bareNumberAtEnd`'s match starts in printable ASCII `b`, nil when there is none. The match runs to the
    /// end and holds no space after its first run of them, so it is the last word (up to three capitals, four
    /// digits or more, maybe "-", maybe a capital) after its spaces, all of which it takes: it starts where they do.
    static func bareNumberAtEndStart(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        func capital(_ c: UInt8) -> Bool { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
        var i = b.count
        if i > 0, capital(b[i - 1]) { i -= 1 }
        if i > 0, b[i - 1] == UInt8(ascii: "-") { i -= 1 }
        var digits = 0
        while i > 0, Bytes.isDigit(b[i - 1]) { i -= 1; digits += 1 }
        guard digits >= 4 else { return nil }
        var capitals = 0
        while i > 0, capital(b[i - 1]), capitals < 4 { i -= 1; capitals += 1 }
        guard capitals <= 3, i > 0, isSpace(b[i - 1]) else { return nil }
        while i > 0, isSpace(b[i - 1]) { i -= 1 }
        return i
    }

    /// Where `branchCodeAtEnd`'s match starts in printable ASCII `b`, nil when there is none. The match ends with the
    /// line in ")" or "]"; the code before it holds only digits, capitals and "-", so its bracket is the "(" or "[" just
    /// before the longest run of those: up to three capitals, a digit, up to eight more. The match starts at the
    /// spaces before that bracket.
    static func branchCodeAtEndStart(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        guard n >= 3, b[n - 1] == UInt8(ascii: ")") || b[n - 1] == UInt8(ascii: "]") else { return nil }
        func capital(_ c: UInt8) -> Bool { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
        var o = n - 1
        while o > 0, capital(b[o - 1]) || Bytes.isDigit(b[o - 1]) || b[o - 1] == UInt8(ascii: "-") { o -= 1 }
        // The code is `b[o..<(n - 1)]`, its bracket `b[o - 1]`.
        guard o > 0, b[o - 1] == UInt8(ascii: "(") || b[o - 1] == UInt8(ascii: "[") else { return nil }
        var d = o
        while d < n - 1, capital(b[d]) { d += 1 }
        guard d - o <= 3, d < n - 1, Bytes.isDigit(b[d]), n - 1 - (d + 1) <= 8 else { return nil }
        var p = o - 1
        while p > 0, isSpace(b[p - 1]) { p -= 1 }
        return p
    }

    /// Where `ruleToEnd`'s match starts in printable ASCII `b`, nil when there is none: the first run of three marks
    /// (`ruleMarks`) and the spaces before it (the leftmost start; `.*$` takes the rest).
    static func ruleToEndStart(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        guard n >= 3 else { return nil }
        for r in 0...(n - 3) where ruleMarks.contains(b[r]) && ruleMarks.contains(b[r + 1]) && ruleMarks.contains(b[r + 2]) {
            var p = r
            while p > 0, isSpace(b[p - 1]) { p -= 1 }
            return p
        }
        return nil
    }

    /// Where `leadingDots`' match ends in printable ASCII `b`, nil when there is none: the dots and spaces first on the
    /// line up to what follows them; when nothing does, up to their last dot (`[.\s]+` gives back until `(?=\S)` holds),
    /// the first not counted.
    static func leadingDotsEnd(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        var k = 0
        while k < n, b[k] == UInt8(ascii: ".") || isSpace(b[k]) { k += 1 }
        guard k > 0 else { return nil }
        if k < n { return k }
        var j = n - 1
        while j >= 1, b[j] != UInt8(ascii: ".") { j -= 1 }
        return j >= 1 ? j : nil
    }

    /// Where `leadingScrap`'s match ends in printable ASCII `b`, nil when there is none: one or two lower-case letters
    /// first, then spaces (all of them), then two capitals.
    static func leadingScrapEnd(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        func lower(_ i: Int) -> Bool { i < n && b[i] >= UInt8(ascii: "a") && b[i] <= UInt8(ascii: "z") }
        func capital(_ i: Int) -> Bool { i < n && b[i] >= UInt8(ascii: "A") && b[i] <= UInt8(ascii: "Z") }
        guard lower(0) else { return nil }
        let m = lower(1) ? 2 : 1
        var e = m
        while e < n, isSpace(b[e]) { e += 1 }
        return e > m && capital(e) && capital(e + 1) ? e : nil
    }

    /// Where `scrapsAfterForm`'s first group ends in printable ASCII `b` (the form and its dot, kept), nil when it does
    /// not match: the leftmost place where, after a word boundary, an alternative (in order) matches case-insensitively,
    /// a dot maybe, and then to the end one or two scraps, each spaces and one or two letters or digits.
    static func scrapsAfterFormEnd(_ b: UnsafeBufferPointer<UInt8>, forms: FormList) -> Int? {
        let n = b.count
        // The scraps: from the end, one or two runs of one or two letters or digits, each after spaces.
        var i = n, scraps = 0
        while scraps < 2 {
            var j = i
            while j > 0, Bytes.isAlnum(b[j - 1]) { j -= 1 }
            guard (1...2).contains(i - j), j > 0, isSpace(b[j - 1]) else { break }
            while j > 0, isSpace(b[j - 1]) { j -= 1 }
            scraps += 1
            i = j
        }
        guard scraps > 0 else { return nil }
        // The spaces before the last scrap (`one`) and before the one before it (`two`, when there are two): the
        // group ends among the spaces a tail of one or two scraps starts with.
        var one = 0..<0, two = 0..<0
        do {
            var j = n
            while j > 0, Bytes.isAlnum(b[j - 1]) { j -= 1 }
            var k = j
            while k > 0, isSpace(b[k - 1]) { k -= 1 }
            one = k..<j
            if scraps == 2 {
                var j2 = k
                while j2 > 0, Bytes.isAlnum(b[j2 - 1]) { j2 -= 1 }
                var k2 = j2
                while k2 > 0, isSpace(b[k2 - 1]) { k2 -= 1 }
                two = k2..<j2
            }
        }
        return forms.firstEnd(in: b, places: 0..<n) { e in
            // `\.?`, greedy: with the dot when there (a scrap starts with a space, and a dot is none).
            let g = e < n && b[e] == UInt8(ascii: ".") ? e + 1 : e
            return one.contains(g) || two.contains(g) ? g : nil
        }
    }

    /// The matches of `misreadSdnBhd` in printable ASCII `b`, left to right, as byte ranges: at a word boundary an
    /// "S", one of its misread middles and a boundary; up to three of . , ' : and spaces; a misread "BHD" and a boundary
    /// (case-insensitive, every alternative tried in order; no alternative is the start of another).
    static func misreadSdnBhdMatches(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let n = b.count
        var out: [Range<Int>] = []
        var p = 0
        func at(_ i: Int, _ c: UInt8) -> Bool { i < n && lower(b[i]) == c }
        func oneOf(_ i: Int, _ s: ByteSet) -> Bool { i < n && s.contains(lower(b[i])) }
        while p + 3 < n {
            guard lower(b[p]) == UInt8(ascii: "s"), isBoundary(b, p) else { p += 1; continue }
            // `(?:[O0DIEU]N|DIV|DM|DIi|DR|C)`, then `\b`: each alternative in order.
            var middleEnd: Int?
            let q = p + 1
            for alt in 0..<6 {
                var e = -1
                switch alt {
                case 0: if oneOf(q, misreadMiddleFirst), at(q + 1, UInt8(ascii: "n")) { e = q + 2 }
                case 1: if at(q, UInt8(ascii: "d")), at(q + 1, UInt8(ascii: "i")), at(q + 2, UInt8(ascii: "v")) { e = q + 3 }
                case 2: if at(q, UInt8(ascii: "d")), at(q + 1, UInt8(ascii: "m")) { e = q + 2 }
                case 3: if at(q, UInt8(ascii: "d")), at(q + 1, UInt8(ascii: "i")), at(q + 2, UInt8(ascii: "i")) { e = q + 3 }
                case 4: if at(q, UInt8(ascii: "d")), at(q + 1, UInt8(ascii: "r")) { e = q + 2 }
                default: if at(q, UInt8(ascii: "c")) { e = q + 1 }
                }
                guard e >= 0, isBoundary(b, e) else { continue }
                // `[.,':]{0,3}\s*`: greedy (what follows starts with B, 8 or 3), then the misread BHD and `\b`.
                var k = e, marks = 0
                while k < n, marks < 3, bhdMarks.contains(b[k]) { k += 1; marks += 1 }
                while k < n, isSpace(b[k]) { k += 1 }
                guard oneOf(k, bhdB) else { continue }
                if oneOf(k + 1, bhdH), oneOf(k + 2, bhdD), isBoundary(b, k + 3) { middleEnd = k + 3; break }
                if at(k + 1, UInt8(ascii: "h")), at(k + 2, UInt8(ascii: "a")), isBoundary(b, k + 3) { middleEnd = k + 3; break }
            }
            if let m = middleEnd {
                out.append(p..<m)
                p = m
            } else {
                p += 1
            }
        }
        return out
    }

    /// Whether the letters of `b[r]`, upper-cased, are "SDNBHD" (the match read right).
    static func readsSdnBhd(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var k = 0
        for i in r where Bytes.isLetter(b[i]) {
            guard k < 6, b[i] & ~0x20 == sdnBhd[k] else { return false }
            k += 1
        }
        return k == 6
    }
    static let sdnBhd: [UInt8] = Array("SDNBHD".utf8)

    static let misreadMiddleFirst = ByteSet("o0dieu")
    static let bhdMarks = ByteSet(".,':")
    static let bhdB = ByteSet("b83")
    static let bhdH = ByteSet("hn")
    static let bhdD = ByteSet("do0")
}
