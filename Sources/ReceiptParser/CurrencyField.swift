import Foundation
import ReceiptModel

// The currency: the symbol or code seen most often ("RM", "€", "USD"); a bare "$" is told apart by
// a tax or payment system named on the receipt ("HST" → CAD); else the user's default.

extension ReceiptParser {
    func currency(_ lines: [ParseLine]) -> Field<String>? {
        currency(count: lines.count, codes: { compiled.currencies(in: lines[$0]) }, text: { lines[$0].text }, words: { lines[$0].words },
                 apart: { _ in false }, passOver: { _ in false }, line: { lines[$0] }, ocrWords: { lines[$0].ocrWords })
    }

    /// `currency` on the page's lines as OCR read them (not merged into rows), without a `ParseLine` made for each:
    /// their signs are found on the text alone, and only the line the evidence names is made a `ParseLine`, as
    /// `read` made them (`scanAmounts: false`). A line that is a row of its own (`rowOf`, its place in `rows`) is
    /// read through its row's line: the same text, box and source, and words the other fields make once for both.
    /// `inRow`: the row each page line is in. `passingOver` false: every line asked for a bare dollar's hints (for the
    /// test that holds the passing over to it).
    func currency(pageLines: [OCRLine], rows: [ParseLine], rowOf: [Int?], inRow: [Int], passingOver: Bool = true) -> Field<String>? {
        let texts = pageLines.indices.map { i in rowOf[i].map { rows[$0].text } ?? ParseLine.ungluingCurrency(pageLines[i].text, compiled.currencyWordBytes) }
        func words(_ i: Int) -> WordLine { rowOf[i].map { rows[$0].words } ?? WordLine(texts[i]) }
        // A page line inside a merged row holds a bare dollar's hint, "usd" or "US$" only where its row does: its words
        // are a run of the row's words, its text a part of the row's. The lines of a row that holds none are passed over
        // for them, their words not made (most rows of a receipt). Each row asked once, when first needed.
        // (Made when first asked: only a page whose currency is a bare dollar asks.)
        var says: [Bool?] = []
        func rowSays(_ r: Int) -> Bool {
            if says.isEmpty { says = [Bool?](repeating: nil, count: rows.count) }
            if let s = says[r] { return s }
            let w = rows[r].words
            let s = w.contains(" usd ") || Self.saysUSDollar(rows[r].text) || compiled.anyIndex(compiled.dollarHintSet, in: w) != nil
            says[r] = s
            return s
        }
        return currency(count: pageLines.count, codes: { i in compiled.currencies(in: texts[i], words: words(i)) },
                        text: { texts[$0] }, words: words, apart: { rowOf[$0] == nil },
                        passOver: { passingOver && rowOf[$0] == nil && !rowSays(inRow[$0]) },
                        line: { i in rowOf[i].map { rows[$0] } ?? ParseLine(index: i, line: pageLines[i], text: texts[i]) },
                        ocrWords: { pageLines[$0].words })
    }

    /// The currency of `count` lines: line `i`'s signs are `codes(i)`, its text `text(i)`, its words `words(i)` (asked
    /// only for a bare dollar's hints), `apart(i)` whether to ask those hints as the set made apart from the index (a line
    /// whose words are made only for them), `passOver(i)` that line `i` holds none of them, "usd" or "US$" (it is not
    /// asked, its words not made), `line(i)` a line whose evidence is line `i`'s (asked only for that), and
    /// `ocrWords(i)` its words as read (asked only of a line with a sign).
    private func currency(count: Int, codes: (Int) -> [String], text: (Int) -> String, words: (Int) -> WordLine,
                          apart: (Int) -> Bool, passOver: (Int) -> Bool, line: (Int) -> ParseLine, ocrWords: (Int) -> [OCRWord]) -> Field<String>? {
        // code -> (count, first line, how many codes were seen before it). The most seen wins; of those seen as often, the
        // one seen first: on an earlier line, or on the same line first among its signs as `codes` gives them (the rules'
        // order). (Without the third, two codes first seen on one line and as often, "RM12.50 $4.00", were told apart by
        // the dictionary's order, which Swift seeds anew for every dictionary: the answer could change from one parse
        // to the next.)
        var counts: [String: (Int, Int, Int)] = [:]
        for i in 0..<count {
            let found = codes(i)
            // "S U P E RM A R K E T": a name printed with its letters apart holds no "RM".
            if found.isEmpty || Self.spacedLetters(ocrWords(i)) != nil { continue }
            for code in found {
                let c = counts[code] ?? (0, i, counts.count)
                counts[code] = (c.0 + 1, c.1, c.2)
            }
        }
        guard let best = counts.max(by: { a, b in
            a.value.0 != b.value.0 ? a.value.0 < b.value.0 : a.value.1 != b.value.1 ? a.value.1 > b.value.1 : a.value.2 > b.value.2
        }) else {
            return options.defaultCurrency.map { Field($0, confidence: 0.3, evidence: Evidence(rule: "currency.default")) }
        }
        // A bare "$" is many countries' dollar: a tax or payment system named on the receipt tells which.
        // (Each line's words made once for both questions; the hints asked as a set, from each line's keyword bits.)
        if best.key == "USD" {
            let ws = (0..<count).map { passOver($0) ? nil : words($0) }
            if !(0..<count).contains(where: { i in ws[i].map { $0.contains(" usd ") || Self.saysUSDollar(text(i)) } ?? false }) {
                for i in 0..<count {
                    guard let w = ws[i] else { continue }
                    if let k = apart(i) ? compiled.anyIndex(compiled.dollarHintsApart, in: w) : compiled.anyIndex(compiled.dollarHintSet, in: w) {
                        let (word, code) = compiled.dollarHints[k]
                        return Field(code, confidence: 0.7, evidence: line(i).evidence(rule: "currency.dollar-hint",
                                     notes: [.dollarHint(word.trimmingCharacters(in: .whitespaces))]))
                    }
                }
            }
        }
        return Field(best.key, confidence: min(0.95, 0.6 + 0.1 * Double(best.value.0)),
                     evidence: line(best.value.1).evidence(rule: "currency.symbol", notes: [.seen(best.value.0)]))
    }

    /// `text.uppercased().contains("US$")`, on bytes when `text` is ASCII (there `uppercased` maps a-z alone, and
    /// Foundation's `contains` compares the bytes); any other text as that.
    static func saysUSDollar(_ text: String) -> Bool {
        let r = text.utf8.withContiguousStorageIfAvailable { b -> Bool? in
            guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard b.count >= 3 else { return false }
            for i in 0...(b.count - 3) where b[i] | 0x20 == UInt8(ascii: "u") && b[i + 1] | 0x20 == UInt8(ascii: "s") && b[i + 2] == UInt8(ascii: "$") {
                return true
            }
            return false
        }
        if let r, let r { return r }
        return text.uppercased().contains("US$")
    }
}

extension CompiledRules {
    func currencies(in l: ParseLine) -> [String] {
        currencies(in: l.text, words: l.words)
    }

    /// The currencies of a line's text; `words`, its `WordLine` (asked only of a line not ASCII that holds a currency word).
    func currencies(in text: String, words: @autoclosure () -> WordLine) -> [String] {
        asciiCurrencies(in: text) ?? characterCurrencies(in: text, words: words())
    }

    /// `currencies(in:)` on any line, by characters.
    ///
    /// On a line whose only characters not ASCII are signs ("£12.50": `Bytes.printableWithNeutralSigns`) or plain Latin
    /// letters ("Rückgeld 4,68 €": `Bytes.printableWithLatinLetters`), the number beside a sign is read on the bytes
    /// (`byBytes` false: by characters, for the test that holds the two together): each such sign or letter is a
    /// character of its own that no other joins, no number and no space, and `lowercased` makes a letter a letter of as
    /// many bytes there, so a byte search is Foundation's and the bytes beside a sign are its characters.
    /// `words`, the line's `WordLine`, is made only for a symbol of letters on the line.
    /// (The symbols of ASCII whose bytes the line lower-cased lacks are passed over without a search: `CurrencyCandidates`
    /// of those bytes, as on a line of ASCII.)
    func characterCurrencies(in text: String, words: @autoclosure () -> WordLine, byBytes: Bool = true) -> [String] {
        var out: [String] = []
        // (On a line of signs and Latin letters, lower-cased on its bytes: `lowercased` was half the cost of such a line.)
        let lowered = byBytes ? text.utf8.withContiguousStorageIfAvailable(Bytes.latinLowered) ?? nil : nil
        let lower = lowered.map { String(decoding: $0, as: UTF8.self) } ?? text.lowercased()
        let lowerBytes = lowered ?? Array(lower.utf8)
        let byteSigns = lowered != nil
        // (`ByteSet(bytes:)` leaves out the bytes not ASCII.)
        let candidates = byBytes ? currencyCandidates?.candidates(ByteSet(bytes: lowerBytes)) : nil
        var madeWords: WordLine?
        // (The symbol and its code taken only once its bytes are on the line, and those bytes and whether it is all
        // letters read from `currencySymbolBytes`: each symbol's strings were retained and released, and its letters
        // walked, on every line.)
        for k in currencySymbols.indices {
            if let candidates, currencySymbolBytes[k].set != nil, candidates & (1 << UInt64(k)) == 0 { continue }
            guard bytesContain(lowerBytes, currencySymbolBytes[k].bytes) else { continue }
            let (sym, code) = currencySymbols[k]
            if currencySymbolBytes[k].letters {
                let w = madeWords ?? words()
                madeWords = w
                if w.has(" \(sym) ") || (sym.count >= 2 && Self.wordBeforeNumber(lower, sym)) { out.append(code) }
            } else if byteSigns ? Self.nextToDigit(lowerBytes, currencySymbolBytes[k].bytes, dollar: sym.hasSuffix("$"))
                                : lower.contains(sym) && Self.nextToDigit(lower, sym) {
                // "s$" inside "us$" is not Singapore's: a prefixed dollar must start its word.
                if sym.count > 1, sym.first?.isLetterQuick == true, !Self.startsWord(lower, sym) { continue }
                // "$" inside "S$", "A$", "HK$" belongs to those.
                if sym == "$", currencySymbols.contains(where: { $0.0.count > 1 && $0.0.hasSuffix("$") && lower.contains($0.0) }) { continue }
                out.append(code)
            }
        }
        return out
    }

    /// `currencies(in:)` on a line of ASCII, its lower-case text as bytes (`lowercased` maps A-Z alone there), without
    /// making the line's words: a symbol of letters is a word of the line (" rm " in its `WordLine`) when the
    /// letters around it are no letters or digits, and `wordBeforeNumber` is asked of the bytes. Other symbols
    /// go to the character functions, as before. Nil when the line is not ASCII.
    func asciiCurrencies(in text: String) -> [String]? {
        let u = text.utf8
        // The set of the line's bytes lower-cased, in one walk of its bytes in place (nil: not ASCII); the line
        // lower-cased made only once a symbol's bytes are all among them (most lines hold none: an array made and
        // freed for every line was half the cost).
        // The same walk marks the pairs of bytes side by side (`BytePairs`), lower-cased: a symbol of two bytes or more
        // is on the line only where its pairs are.
        func present(_ b: UnsafeBufferPointer<UInt8>) -> (ByteSet, BytePairs)? {
            var lo: UInt64 = 0, hi: UInt64 = 0, pairs = BytePairs()
            var previous: UInt8 = 0
            for c in b {
                guard c < 0x80 else { return nil }
                let d = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
                if d < 64 { lo |= 1 << UInt64(d) } else { hi |= 1 << UInt64(d - 64) }
                pairs.add(previous, d)
                previous = d
            }
            return (ByteSet(lo: lo, hi: hi), pairs)
        }
        // (The line's bytes in place, or copied out when the string does not hold them so.)
        return u.withContiguousStorageIfAvailable({ asciiCurrencies(bytes: $0, present($0)) })
            ?? Array(u).withUnsafeBufferPointer({ asciiCurrencies(bytes: $0, present($0)) })
    }

    /// Which pairs of bytes stand side by side in a text, each pair a bit of 128 (pairs that share a bit are not told
    /// apart): a text holds a string only where it holds every pair of it. (A speed trick for `asciiCurrencies`: a line
    /// holds the bytes of many a currency word, "r" and "s", "e", "u" and "r", and each was looked for along it.)
    struct BytePairs: Sendable {
        var lo: UInt64 = 0, hi: UInt64 = 0

        init() {}

        /// The pairs of `bytes`.
        init(_ bytes: [UInt8]) {
            for i in bytes.indices.dropFirst() { add(bytes[i - 1], bytes[i]) }
        }

        @inline(__always) mutating func add(_ a: UInt8, _ b: UInt8) {
            let h = (UInt64(a) &* 31 &+ UInt64(b)) & 127
            if h < 64 { lo |= 1 << h } else { hi |= 1 << (h - 64) }
        }

        /// Whether every pair of `other` is here.
        @inline(__always) func holds(_ other: BytePairs) -> Bool { other.lo & ~lo == 0 && other.hi & ~hi == 0 }
    }

    /// Whether the ASCII bytes `b`, lower-cased, hold the lower-case `sym` (`bytesContain` of the line lower-cased,
    /// asked without making it: most symbols whose bytes a line holds are not on it).
    static func holdsLowered(_ b: UnsafeBufferPointer<UInt8>, _ sym: [UInt8]) -> Bool {
        let m = sym.count, n = b.count
        guard m > 0 else { return true }
        guard m <= n else { return false }
        return sym.withUnsafeBufferPointer { s in
            let first = s[0]
            for i in 0...(n - m) where Bytes.lower(b[i]) == first {
                var k = 1
                while k < m, Bytes.lower(b[i + k]) == s[k] { k += 1 }
                if k == m { return true }
            }
            return false
        }
    }

    /// `asciiCurrencies(in:)` on the line's bytes `b`, `present` the set of them lower-cased (nil: not ASCII).
    private func asciiCurrencies(bytes b: UnsafeBufferPointer<UInt8>, _ seen: (ByteSet, BytePairs)?) -> [String]? {
        guard let (present, pairs) = seen else { return nil }
        // Printable ASCII: no byte below a space, no DEL.
        let printable = present.lo & 0xFFFF_FFFF == 0 && !present.contains(0x7F)
        var out: [String] = []
        var lowerText: String?
        var lowered: [UInt8]?
        // (A symbol with a byte the line lacks is not on it; one not ASCII never is.)
        func ask(_ k: Int) {
            // (The symbol's set asked before its bytes are taken: taking each element whole retained and released
            // its array, for every symbol on every line.)
            guard pairs.holds(currencySymbolBytes[k].pairs) else { return }
            let sym = currencySymbolBytes[k].bytes, letters = currencySymbolBytes[k].letters
            guard Self.holdsLowered(b, sym) else { return }
            let lower = lowered ?? b.map(Bytes.lower)
            lowered = lower
            let code = currencySymbols[k].1
            if letters {
                if Self.isWord(lower, sym) || (sym.count >= 2 && Self.wordBeforeNumber(lower, sym)) { out.append(code) }
            } else {
                let text = lowerText ?? String(decoding: lower, as: UTF8.self)
                lowerText = text
                let s = currencySymbols[k].0
                // (On printable ASCII, the number beside the sign read on the bytes; and the prefixed dollars looked
                // for as bytes, `textContains`, made once with the rules, not picked out of the symbols each time.)
                guard printable ? Self.nextToDigit(lower, sym, dollar: sym.last == UInt8(ascii: "$")) : Self.nextToDigit(text, s) else { return }
                if s.count > 1, s.first?.isLetterQuick == true, !Self.startsWord(text, s) { return }
                // (On printable ASCII, the prefixed dollars' bytes looked for in the line's, as `textContains` looks
                // for them there, without asking again of each whether the line is printable.)
                if s == "$" {
                    if printable, let dollars = prefixedDollarBytes {
                        if dollars.contains(where: { bytesContain(lower, $0) }) { return }
                    } else if prefixedDollars.contains(where: { textContains(text, $0) }) { return }
                }
                out.append(code)
            }
        }
        // (The symbols whose bytes are all on the line found at once, `CurrencyCandidates`, in order: asking each
        // symbol's set in turn was most of the cost on a line that holds none.)
        if let c = currencyCandidates {
            var m = c.candidates(present)
            while m != 0 {
                ask(m.trailingZeroBitCount)
                m &= m &- 1
            }
        } else {
            for k in currencySymbolBytes.indices {
                guard let set = currencySymbolBytes[k].set, present.holds(set) else { continue }
                ask(k)
            }
        }
        return out
    }

    /// Which currency symbols (at most 64, in the rules' order: symbol k is bit k) have all their bytes in a line's
    /// set of bytes (`ByteSet.holds` of each symbol of ASCII; one not ASCII never): the symbols holding a byte the line
    /// lacks taken away, byte by byte, from those of ASCII. (`HandScannerTests` holds it to asking each symbol.)
    struct CurrencyCandidates: Sendable {
        let all: UInt64
        /// Every byte of a symbol of ASCII.
        let bytes: ByteSet
        /// The symbols holding byte c (below 128).
        let byByte: [UInt64]

        init?(_ sets: [ByteSet?]) {
            guard sets.count <= 64 else { return nil }
            var all: UInt64 = 0, lo: UInt64 = 0, hi: UInt64 = 0
            var byByte = [UInt64](repeating: 0, count: 128)
            for (k, set) in sets.enumerated() {
                guard let set else { continue }
                all |= 1 << UInt64(k)
                lo |= set.lo; hi |= set.hi
                for c in 0..<128 where set.contains(UInt8(c)) { byByte[c] |= 1 << UInt64(k) }
            }
            self.all = all; bytes = ByteSet(lo: lo, hi: hi); self.byByte = byByte
        }

        /// The symbols whose bytes are all in `present`.
        func candidates(_ present: ByteSet) -> UInt64 {
            var out = all
            var missing = bytes.lo & ~present.lo
            byByte.withUnsafeBufferPointer { by in
                while missing != 0 {
                    out &= ~by[missing.trailingZeroBitCount]
                    missing &= missing &- 1
                }
                missing = bytes.hi & ~present.hi
                while missing != 0, out != 0 {
                    out &= ~by[64 + missing.trailingZeroBitCount]
                    missing &= missing &- 1
                }
            }
            return out
        }
    }

    /// The start of each occurrence of `sym` in `hay`, searching on after each one's end (as `range(of:range:)` is used).
    static func occurrences(of sym: [UInt8], in hay: [UInt8]) -> [Int] {
        var out: [Int] = []
        let m = sym.count
        guard m > 0, m <= hay.count else { return out }
        var i = 0
        while i <= hay.count - m {
            if hay[i] == sym[0], hay[(i + 1)..<(i + m)].elementsEqual(sym[1...]) { out.append(i); i += m } else { i += 1 }
        }
        return out
    }

    /// `WordLine(text).has(" sym ")` for ASCII text as lower-case bytes and a symbol of letters: an occurrence
    /// with no letter or digit on either side (the words are the runs of those).
    static func isWord(_ lower: [UInt8], _ sym: [UInt8]) -> Bool {
        let m = sym.count
        guard m > 0, m <= lower.count else { return false }
        for i in 0...(lower.count - m) where lower[i] == sym[0] && lower[(i + 1)..<(i + m)].elementsEqual(sym[1...]) {
            if (i == 0 || !Bytes.isAlnum(lower[i - 1])) && (i + m == lower.count || !Bytes.isAlnum(lower[i + m])) { return true }
        }
        return false
    }

    /// `wordBeforeNumber` on ASCII as lower-case bytes: each occurrence found as `range(of:)` finds them (on after its end),
    /// starting a word (no letter before it) and followed by a digit, or by a space and a digit.
    static func wordBeforeNumber(_ lower: [UInt8], _ word: [UInt8]) -> Bool {
        for i in occurrences(of: word, in: lower) {
            let startsWord = i == 0 || !Bytes.isLetter(lower[i - 1])
            var j = i + word.count
            if j < lower.count, lower[j] == 0x20 { j += 1 }
            if startsWord, j < lower.count, Bytes.isDigit(lower[j]) { return true }
        }
        return false
    }

    static func startsWord(_ text: String, _ sym: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: sym, range: from..<text.endIndex) {
            if r.lowerBound == text.startIndex || !text[text.index(before: r.lowerBound)].isLetterQuick { return true }
            from = r.upperBound
        }
        return false
    }

    /// "rm13.40", "rm 13.40": the currency word starts a word and a digit follows.
    static func wordBeforeNumber(_ text: String, _ word: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: word, range: from..<text.endIndex) {
            let startsWord = r.lowerBound == text.startIndex || !(text[text.index(before: r.lowerBound)].isLetterQuick)
            let after = text[r.upperBound...]
            let next = after.first == " " ? after.dropFirst().first : after.first
            if startsWord, next?.isNumber == true { return true }
            from = r.upperBound
        }
        return false
    }

    /// A currency sign counts only next to a number ("$12.50", "12,50 €"): a lone "$" is often OCR noise.
    /// "12.50", "1,234.50", "12,50": with cents, as receipts print money ("Lot $319," is an address).
    /// Made once (the set was made, and the text bridged, for every number beside a sign).
    static let trimPointsAndCommas = Trim(CharacterSet(charactersIn: ".,"))

    static func looksLikeMoney(_ n: String) -> Bool {
        let t = trimPointsAndCommas(n)
        guard let first = t.first, first.isNumber, !t.allSatisfy(\.isNumber) else { return false }
        let parts = t.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        guard let last = parts.last, last.count == 2, parts.dropLast().allSatisfy({ !$0.isEmpty && $0.count <= 7 }) else { return false }
        return parts.first.map { $0.count <= 7 && ($0.first != "0" || $0.count == 1) } ?? false
    }

    /// `looksLikeMoney` of digits, points and commas as bytes (the numbers `nextToDigit` takes beside a sign): trimmed of
    /// points and commas, a digit first and a point or comma inside; the parts between them none empty and of seven
    /// digits at most, the last of two, the first without a leading zero unless it is "0". (A speed trick: the string
    /// made, trimmed through a character set and split, some 3,500 instructions a number.)
    static func looksLikeMoney(bytes n: ArraySlice<UInt8>) -> Bool {
        func separator(_ c: UInt8) -> Bool { c == UInt8(ascii: ".") || c == UInt8(ascii: ",") }
        var lo = n.startIndex, hi = n.endIndex
        while lo < hi, separator(n[lo]) { lo += 1 }
        while hi > lo, separator(n[hi - 1]) { hi -= 1 }
        guard lo < hi, Bytes.isDigit(n[lo]) else { return false }
        var start = lo, parts = 0, firstCount = 0
        for i in lo...hi where i == hi || separator(n[i]) {
            let count = i - start
            if parts == 0 { firstCount = count }
            parts += 1
            if i == hi { return parts >= 2 && count == 2 && firstCount <= 7 && (n[lo] != UInt8(ascii: "0") || firstCount == 1) }
            guard count > 0, count <= 7 else { return false }
            start = i + 1
        }
        return false
    }

    /// `nextToDigit(text, sym)` on printable ASCII as bytes (there a character is a byte, and a number's characters
    /// are the digits): each occurrence of `sym` as `range(of:)` finds them, the number after it (past spaces and
    /// dashes) and the one before it (past spaces) asked the same. `dollar`: `sym` ends in "$".
    static func nextToDigit(_ text: [UInt8], _ sym: [UInt8], dollar: Bool) -> Bool {
        func numeric(_ c: UInt8) -> Bool { Bytes.isDigit(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: ",") }
        for i in occurrences(of: sym, in: text) {
            var a = i + sym.count
            while a < text.count, text[a] == 0x20 || text[a] == UInt8(ascii: "-") { a += 1 }
            var e = a
            while e < text.count, numeric(text[e]) { e += 1 }
            var b = i
            while b > 0, text[b - 1] == 0x20 { b -= 1 }
            var f = b
            while f > 0, numeric(text[f - 1]) { f -= 1 }
            let before = b - f
            let trailingOK = !dollar || (before >= 3 && text[b - 3] == UInt8(ascii: ","))
            if Self.looksLikeMoney(bytes: text[a..<e]) || (trailingOK && Self.looksLikeMoney(bytes: text[f..<b])) { return true }
        }
        return false
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
}
