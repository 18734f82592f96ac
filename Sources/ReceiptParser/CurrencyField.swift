import Foundation
import ReceiptModel

// The currency: the symbol or code seen most often ("RM", "€", "USD"); a bare "$" is told apart by
// a tax or payment system named on the receipt ("HST" → CAD); else the user's default.

extension ReceiptParser {
    func currency(_ lines: [ParseLine]) -> Field<String>? {
        var counts: [String: (Int, Int)] = [:]  // code -> (count, first line)
        for l in lines {
            for code in compiled.currencies(in: l) {
                let c = counts[code] ?? (0, l.index)
                counts[code] = (c.0 + 1, c.1)
            }
        }
        guard let best = counts.max(by: { $0.value.0 < $1.value.0 || ($0.value.0 == $1.value.0 && $0.value.1 > $1.value.1) }) else {
            return options.defaultCurrency.map { Field($0, confidence: 0.3, evidence: Evidence(rule: "currency.default")) }
        }
        let line = lines[best.value.1]
        // A bare "$" is many countries' dollar: a tax or payment system named on the receipt tells which.
        if best.key == "USD", !lines.contains(where: { $0.words.contains(" usd ") || $0.text.uppercased().contains("US$") }) {
            for l in lines {
                if let (word, code) = compiled.dollarHints.first(where: { l.words.contains($0.0) }) {
                    return Field(code, confidence: 0.7, evidence: l.evidence(rule: "currency.dollar-hint",
                                 notes: [.dollarHint(word.trimmingCharacters(in: .whitespaces))]))
                }
            }
        }
        return Field(best.key, confidence: min(0.95, 0.6 + 0.1 * Double(best.value.0)),
                     evidence: line.evidence(rule: "currency.symbol", notes: [.seen(best.value.0)]))
    }
}

extension CompiledRules {
    func currencies(in l: ParseLine) -> [String] {
        asciiCurrencies(in: l) ?? characterCurrencies(in: l)
    }

    /// `currencies(in:)` on any line, by characters.
    func characterCurrencies(in l: ParseLine) -> [String] {
        var out: [String] = []
        let lower = l.text.lowercased()
        let lowerBytes = Array(lower.utf8)
        for (sym, code) in currencySymbols where bytesContain(lowerBytes, sym) {
            if sym.allSatisfy(\.isLetterQuick) {
                if l.words.has(" \(sym) ") || (sym.count >= 2 && Self.wordBeforeNumber(lower, sym)) { out.append(code) }
            } else if lower.contains(sym), Self.nextToDigit(lower, sym) {
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
    func asciiCurrencies(in l: ParseLine) -> [String]? {
        let u = l.text.utf8
        // The set of the line's bytes lower-cased, in one walk of its bytes in place (nil: not ASCII); the line
        // lower-cased made only once a symbol's bytes are all among them (most lines hold none: an array made and
        // freed for every line was half the cost).
        func present(_ b: UnsafeBufferPointer<UInt8>) -> ByteSet? {
            var lo: UInt64 = 0, hi: UInt64 = 0
            for c in b {
                guard c < 0x80 else { return nil }
                let d = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
                if d < 64 { lo |= 1 << UInt64(d) } else { hi |= 1 << UInt64(d - 64) }
            }
            return ByteSet(lo: lo, hi: hi)
        }
        guard let present = u.withContiguousStorageIfAvailable(present) ?? Array(u).withUnsafeBufferPointer(present) else { return nil }
        var out: [String] = []
        var lowerText: String?
        var lowered: [UInt8]?
        // (A symbol with a byte the line lacks is not on it; one not ASCII never is.)
        for k in currencySymbolBytes.indices {
            // (The symbol's set asked before its bytes are taken: taking each element whole retained and released
            // its array, for every symbol on every line.)
            guard let set = currencySymbolBytes[k].set, present.holds(set) else { continue }
            let sym = currencySymbolBytes[k].bytes, letters = currencySymbolBytes[k].letters
            let lower = lowered ?? u.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            lowered = lower
            guard bytesContain(lower, sym) else { continue }
            let code = currencySymbols[k].1
            if letters {
                if Self.isWord(lower, sym) || (sym.count >= 2 && Self.wordBeforeNumber(lower, sym)) { out.append(code) }
            } else {
                let text = lowerText ?? String(decoding: lower, as: UTF8.self)
                lowerText = text
                let s = currencySymbols[k].0
                guard Self.nextToDigit(text, s) else { continue }
                if s.count > 1, s.first?.isLetterQuick == true, !Self.startsWord(text, s) { continue }
                if s == "$", currencySymbols.contains(where: { $0.0.count > 1 && $0.0.hasSuffix("$") && text.contains($0.0) }) { continue }
                out.append(code)
            }
        }
        return out
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

    /// "rm12.50", "rm 12.50": the currency word starts a word and a digit follows.
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
