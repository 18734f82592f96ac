import Foundation
import ReceiptModel
import ReceiptSupport

/// A regular expression, compiled when first run. `@unchecked Sendable`: NSRegularExpression is
/// immutable once made and documented as safe to use from several threads, and the compiled expression is
/// made and read under a lock (`Compiled`).
///
/// NSRegularExpression is slow on Linux (the text is bridged to UTF-16 and back on every call), and most
/// lines match most patterns nowhere. `mayMatch`, when given, is a cheap test of what every match needs
/// (a character, a run of digits, how the text ends), asked on text of printable ASCII (where `\s` is
/// the space, `\d` and `\p{L}` are ASCII digits and letters, and a byte is a character): when it says
/// no, the expression is not run. It must never say no to a text the expression matches; any other
/// text is always given to the expression.
///
/// (Compiled when first run, not when made: ICU's compile cost some 400,000 instructions a pattern, and many
/// patterns are never run on a receipt of printable ASCII, their hand matchers or `mayMatch` answering for them.)
struct Pattern: @unchecked Sendable {
    let pattern: String
    let caseInsensitive: Bool
    let mayMatch: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    private let compiled = Compiled()

    /// The expression, compiled once, on the first call from any thread.
    final class Compiled: @unchecked Sendable {
        // (`@unchecked`: `regex` is only read and written holding `lock`.)
        private let lock = NSLock()
        private var regex: NSRegularExpression?

        func get(_ pattern: String, _ caseInsensitive: Bool) -> NSRegularExpression {
            lock.lock()
            defer { lock.unlock() }
            if let regex { return regex }
            do {
                let made = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
                regex = made
                return made
            } catch {
                preconditionFailure("bad built-in pattern \(pattern): \(error)")  // a defect in this file, caught by any test that runs it
            }
        }
    }

    var regex: NSRegularExpression { compiled.get(pattern, caseInsensitive) }

    /// Whether `mayMatch` may be asked of a line's stand-in (`Bytes.pretestStandIn`: a line of Latin letters and neutral
    /// signs, each letter as "q", each sign as "#", "—" and "–" as "*"), and of one holding "ß" (`sharpS`).
    let standIns: (safe: Bool, sharpS: Bool)

    init(_ pattern: String, caseInsensitive: Bool = true, mayMatch: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)? = nil) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.mayMatch = mayMatch
        standIns = Self.standInsSafe(pattern, caseInsensitive: caseInsensitive)
    }

    /// False when `mayMatch` rules out any match in `s`: asked of `s` when it is printable ASCII, and of its stand-in
    /// when it is a line of Latin letters and neutral signs ("Rückgeld 4,68 €") and the expression allows it.
    func worthRunning(_ s: String) -> Bool {
        guard let mayMatch else { return true }
        return s.utf8.withContiguousStorageIfAvailable { b in
            if b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return mayMatch(b) }
            guard standIns.safe, let (stand, sharpS) = Bytes.pretestStandIn(b), standIns.sharpS || !sharpS else { return true }
            return stand.withUnsafeBufferPointer(mayMatch)
        } ?? true
    }

    /// Whether every match of `pattern` in a line of Latin letters and neutral signs is a match in its stand-in, so that
    /// `mayMatch` (a test of what every match in printable ASCII needs) may be asked of the stand-in: each character of
    /// the line is one of the stand-in's, and the stand-in's character is taken by every construct of the expression
    /// that takes the line's (and, where a construct must not take it, by none that does not take the line's).
    ///
    /// The line's letter and "q" are both `\w`, `\S`, `\D` and `.`, no `\s` or `\d`; its sign and "#" (or "*") both
    /// `\W`, `\S`, `\D` and `.`; neither is in a class of ASCII (no Latin letter of the table folds to ASCII, but "ß"
    /// to "ss" in a case-insensitive expression: `sharpS` says whether there is no "ss" to fold to). So the expression
    /// may hold any of those, classes of ASCII and literals of ASCII, but no negated class (`[^…]`), property (`\p`),
    /// character escape or POSIX class, no character not ASCII but "—" and "–" in a class beside "*", and no negative
    /// look-around that holds a letter of ASCII, "#" or "*" (where "q" or "#" would be refused and the line's character
    /// not). Anything else: false, and such lines go to the expression.
    static func standInsSafe(_ pattern: String, caseInsensitive: Bool) -> (safe: Bool, sharpS: Bool) {
        // (On the pattern's bytes: these are made once a pattern, with the parser's statics.)
        let c = Array(pattern.utf8)
        let sharpS = !(caseInsensitive && bytesContain(c.map(Bytes.lower), Array("ss".utf8)))
        // (Nor atomic groups and possessive quantifiers, which may refuse what the stand-in's more matches would give back.)
        for bad in ["[^", "\\p", "\\P", "[:", "\\x", "\\u", "\\N", "\\X", "\\0", "\\c", "\\Q", "(?>", "*+", "++", "?+", "}+"]
            where bytesContain(c, Array(bad.utf8)) { return (false, sharpS) }
        let nonASCII = pattern.unicodeScalars.filter { !$0.isASCII }
        if !nonASCII.isEmpty && (!nonASCII.allSatisfy({ $0 == "—" || $0 == "–" }) || !bytesContain(c, Array("*—".utf8))) { return (false, sharpS) }
        var i = 0
        while i < c.count {
            if c[i] == UInt8(ascii: "\\") { i += 2; continue }
            let negative = c[i...].starts(with: Array("(?!".utf8)) || c[i...].starts(with: Array("(?<!".utf8))
            guard negative else { i += 1; continue }
            // The group's body to its closing parenthesis (escapes skipped, parentheses inside counted).
            var depth = 0, j = i
            var body: [UInt8] = []
            while j < c.count {
                if c[j] == UInt8(ascii: "\\") { j += 2; continue }
                if c[j] == UInt8(ascii: "(") { depth += 1 } else if c[j] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { break } }
                body.append(c[j])
                j += 1
            }
            let head = c[i + 2] == UInt8(ascii: "<") ? 4 : 3
            if body.dropFirst(head).contains(where: { Bytes.isLetter($0) || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "*") }) { return (false, sharpS) }
            i += 1
        }
        return (true, sharpS)
    }

    /// `s` with every match replaced by `template` ("$1" for the first group).
    func replacing(in s: String, with template: String) -> String {
        guard worthRunning(s) else { return s }
        return regex.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: template)
    }

    /// `worthRunning(s)` with the stand-in of `s` kept in `pretests` (made again only when `s` is not the text it was
    /// made for): for steps that ask several expressions of one text in turn.
    func worthRunning(_ s: String, _ pretests: Pretests) -> Bool {
        guard let mayMatch else { return true }
        guard let (printable, stand) = pretests.of(s) else { return true }
        if printable { return s.utf8.withContiguousStorageIfAvailable(mayMatch) ?? true }
        guard standIns.safe, let stand, standIns.sharpS || !stand.sharpS else { return true }
        return stand.bytes.withUnsafeBufferPointer(mayMatch)
    }

    /// `replacing(in:with:)`, `worthRunning` asked with `pretests`.
    func replacing(in s: String, with template: String, pretests: Pretests) -> String {
        guard worthRunning(s, pretests) else { return s }
        return regex.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: template)
    }

    /// `matches(in:)`, `worthRunning` asked with `pretests`.
    func matches(in s: String, pretests: Pretests) -> [(groups: [String?], range: Range<String.Index>)] {
        guard worthRunning(s, pretests) else { return [] }
        return matches(in: s)
    }

    /// What `worthRunning` asks of a text, kept for the last text asked: whether it is printable ASCII, and its
    /// stand-in (`Bytes.pretestStandIn`). (A speed trick: the cleaning of a name asks ten expressions of it in turn,
    /// most of them leaving it as it was, and each made its stand-in again.)
    final class Pretests {
        /// Every text asked is printable ASCII (the caller knows it): none is walked to find out.
        private let printable: Bool
        private var text: String?
        private var made: (printable: Bool, stand: (bytes: [UInt8], sharpS: Bool)?)?

        init(printable: Bool = false) { self.printable = printable }

        /// Nil when the text's bytes are not at hand (`worthRunning` then runs the expression).
        func of(_ s: String) -> (printable: Bool, stand: (bytes: [UInt8], sharpS: Bool)?)? {
            if printable { return (true, nil) }
            if let text, text == s { return made }
            text = s
            made = s.utf8.withContiguousStorageIfAvailable { b in
                b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) ? (true, nil) : (false, Bytes.pretestStandIn(b))
            }
            return made
        }
    }

    /// Whether the pattern matches anywhere in `s` (`range(of:options: .regularExpression) != nil`).
    func hasMatch(in s: String) -> Bool {
        guard worthRunning(s) else { return false }
        return regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }

    /// All matches: each as the captured groups (nil where a group did not take part) and the whole match range.
    func matches(in s: String) -> [(groups: [String?], range: Range<String.Index>)] {
        guard worthRunning(s) else { return [] }
        let ns = NSRange(s.startIndex..., in: s)
        return regex.matches(in: s, range: ns).compactMap { m in
            guard let whole = Range(m.range, in: s) else { return nil }
            let groups = (0..<m.numberOfRanges).map { i -> String? in
                Range(m.range(at: i), in: s).map { String(s[$0]) }
            }
            return (groups, whole)
        }
    }
}

/// A line reduced to lower-case words separated by single spaces, padded with
/// a space at each end, so keywords match as whole words: `" total rm "`. A class: made once a line,
/// asked by every field, never changed.
final class WordLine {
    /// `bytes` as a string. Made when first asked: most lines are only asked through `bytes` and `spans` (a
    /// string of its own for every line was an allocation and a copy of each).
    private(set) lazy var padded: String = String(decoding: bytes, as: UTF8.self)
    /// The words of `padded` (`padded.split(separator: " ")`). Made when first asked: most lines are only
    /// asked through `bytes` and `spans`.
    private(set) lazy var words: [Substring] = splitOnSpaces(padded)
    /// `padded` as UTF-8, for fast whole-word search (Foundation's String.contains is slow on Linux).
    let bytes: [UInt8]
    /// `padded` is ASCII: the text was, or its only other characters were signs the words leave out (`Bytes.printableWithNeutralSigns`:
    /// "£", "€", each one space of `padded` as any ASCII sign is). What is read from `padded` alone takes its ASCII paths.
    let isASCII: Bool
    /// The text itself was ASCII (its characters are its bytes: positions in it count either).
    let textIsASCII: Bool
    /// `padded` is ASCII or a line of Latin letters (`Bytes.printableWithLatinLetters`): no character of it is more than
    /// one scalar, so a keyword of ASCII ends it (`hasSuffix`) where its bytes end `bytes`.
    let simpleScalars: Bool
    /// The block of what the line holds of the rules' keyword sets (`hits`), once asked, and the index it was made for
    /// (another index asking makes it again). Freed with the line.
    private var hitsBlock: UnsafeMutablePointer<UInt64>?
    private var hitsIndex: CompiledRules.KeywordIndex?
    deinit { hitsBlock.map(CompiledRules.KeywordHits.free) }

    /// What the line holds of the keyword sets of `index` (`CompiledRules.KeywordHits`), made when first asked and
    /// kept (made again if another index asks); nil on a line not ASCII, and for a set made apart from the rules
    /// (`slot` -1): those are asked keyword by keyword.
    @inline(__always) func hits(_ set: CompiledRules.KeywordSet, _ index: CompiledRules.KeywordIndex) -> CompiledRules.KeywordHits? {
        guard set.slot >= 0, isASCII else { return nil }
        if let b = hitsBlock, hitsIndex === index { return CompiledRules.KeywordHits(index, b) }
        hitsBlock.map(CompiledRules.KeywordHits.free)
        let b = CompiledRules.KeywordHits.block(index, self)
        hitsBlock = b
        hitsIndex = index
        return CompiledRules.KeywordHits(index, b)
    }
    /// Letters and digits in `padded` (the words' characters).
    let letterCount: Int
    let digitCount: Int

    /// One word of the line: its bytes, `bytes[start..<end]`, and their `byteMask`.
    struct Span {
        let start: Int
        let end: Int
        let mask: UInt64
        var count: Int { end - start }
    }
    /// The words (as `words` holds them) as places in `bytes`: one array for the line, not an array (and an
    /// allocation) for each word.
    let spans: [Span]

    init(_ text: String) {
        let isASCIIText = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
        var letters = 0, digits = 0
        var mask: UInt64 = 0, lengths: UInt64 = 0, pairs: UInt64 = 0, lineBytes: UInt64 = 0
        var madePadded: String?
        var latin = false
        // (A line with a currency sign not ASCII, "£12.50": its words are those of the line with "#" in the sign's
        // place, as the general path below makes them; so they are made as that line's, on the ASCII path.)
        // (What its characters are, asked once: `Bytes.kinds`.)
        let kinds = isASCIIText ? nil : text.utf8.withContiguousStorageIfAvailable { Bytes.kinds($0) }
        let signsOnly = kinds == .signs
        if isASCIIText || signsOnly {
            // Plain ASCII (most receipt lines): the same as the general path below, byte by byte (for ASCII,
            // `lowercased` maps A-Z only, and `isLetter`/`isNumber` are A-Z, a-z, 0-9). The bytes read in place
            // when the string holds them so (a native string always does), else copied out; written into the
            // array's own buffer at the size it can reach (a space, the text, a space), and the words, their
            // bits and lengths found in the same walk (an append a byte, and a walk of the words after, were
            // most of the cost).
            var made: [UInt8] = [], words: [Span] = []
            let c = text.utf8.withContiguousStorageIfAvailable { Self.asciiLine($0, &made, &words) }
                ?? Array(text.utf8).withUnsafeBufferPointer { Self.asciiLine($0, &made, &words) }
            bytes = made
            spans = words
            letters = c.letters; digits = c.digits
            mask = c.wordMask; lengths = c.lengths; pairs = c.pairs; lineBytes = c.lineBytes
        } else if kinds == .latinLetters, let (made, c) = text.utf8.withContiguousStorageIfAvailable(Self.latinLine) {
            // A line of Latin letters and signs ("Rückgeld 4,68 €": `Bytes.printableWithLatinLetters`), made on its bytes
            // as the general path below makes it: each letter lower-cased to a letter of as many bytes (`Bytes.latinLower`),
            // kept; a sign is no letter or number, and parts words as an ASCII sign does. No character there is
            // more than one scalar, so the words split at the bytes of " " are those `split(separator:)` gives.
            bytes = made
            var words: [Span] = []
            var start = 1
            for i in 1..<made.count where made[i] == 0x20 {
                if i > start { words.append(Span(start: start, end: i, mask: Self.byteMask(made[start..<i]))) }
                start = i + 1
            }
            spans = words
            for (i, w) in words.enumerated() {
                mask |= Self.bit(ascii: made, w)
                lengths |= Self.lengthBit(w.count)
                if i > 0 { pairs |= Self.lengthBit(words[i - 1].count + w.count) }
                lineBytes |= w.mask
            }
            letters = c.letters; digits = c.digits
            latin = true
        } else {
            var out = ""
            out.reserveCapacity(text.count + 2)
            var lastSpace = true
            for ch in text.lowercased() {
                if ch.isLetterQuick || ch.isNumber {
                    out.append(ch); lastSpace = false
                } else if !lastSpace {
                    out.append(" "); lastSpace = true
                }
            }
            let padded = " " + out.trimmingCharacters(in: .whitespaces) + " "
            madePadded = padded
            bytes = Array(padded.utf8)
            letters = padded.filter(\.isLetterQuick).count
            digits = padded.filter(\.isNumber).count
            // (Split by characters: a space a combining mark follows is no " ".)
            let u = padded.utf8
            let spans = padded.split(separator: " ").map { w in
                let start = u.distance(from: u.startIndex, to: w.startIndex)
                return Span(start: start, end: start + w.utf8.count, mask: Self.byteMask(w.utf8))
            }
            self.spans = spans
            for (i, w) in spans.enumerated() {
                mask |= Self.bit(ascii: bytes, w)
                lengths |= Self.lengthBit(w.count)
                if i > 0 { pairs |= Self.lengthBit(spans[i - 1].count + w.count) }
                lineBytes |= w.mask
            }
        }
        letterCount = letters
        digitCount = digits
        isASCII = isASCIIText || signsOnly
        simpleScalars = isASCII || latin
        textIsASCII = isASCIIText
        wordMask = mask
        lengthMask = lengths
        pairLengthMask = pairs
        lineByteMask = lineBytes
        // (Made already on this path: kept, not made again from the bytes.)
        if let madePadded { padded = madePadded }
    }

    /// The padded line (`bytes`) of a line of `Bytes.printableWithLatinLetters` (the caller knows it is one), and its
    /// letters and digits. (Its letters and digits kept, a Latin letter lower-cased; each run of anything else one space;
    /// a space at each end.)
    private static func latinLine(_ b: UnsafeBufferPointer<UInt8>) -> ([UInt8], Counts) {
        var out: [UInt8] = [0x20]
        out.reserveCapacity(b.count + 2)
        var c = Counts()
        var i = 0
        while i < b.count {
            let x = b[i]
            if x < 0x80 {
                let l = Bytes.lower(x)
                if Bytes.isDigit(l) || (l >= 0x61 && l <= 0x7A) {
                    out.append(l)
                    if Bytes.isDigit(l) { c.digits += 1 } else { c.letters += 1 }
                } else if out.last != 0x20 {
                    out.append(0x20)
                }
                i += 1
                continue
            }
            let (u, n) = Bytes.scalar(b, at: i)!
            if let l = Bytes.latinLower(u) {
                out.append(0xC0 | UInt8(l.value >> 6))
                out.append(0x80 | UInt8(l.value & 0x3F))
                c.letters += 1
            } else if out.last != 0x20 {
                out.append(0x20)
            }
            i += n
        }
        if out.last != 0x20 { out.append(0x20) }
        // (A line of signs alone: " " as the general path pads an empty line, two spaces.)
        if out.count == 1 { out.append(0x20) }
        return (out, c)
    }

    /// What the ASCII path of `init` counts besides the bytes and the words (plain numbers: handed back through
    /// `withContiguousStorageIfAvailable` without a copy of anything counted).
    struct Counts {
        var letters = 0, digits = 0
        var wordMask: UInt64 = 0, lengths: UInt64 = 0, pairs: UInt64 = 0, lineBytes: UInt64 = 0
    }

    /// The ASCII path of `init`: the padded line of `b` (its letters lower-cased and digits, each run of anything
    /// else one space, a space at each end) in `bytes`, its words as `padded.split(separator: " ")` gives them (on
    /// ASCII a byte 32 is the character " ") in `spans`; how many letters and digits, and the words' bits, lengths
    /// and bytes. (A function of its own, its counts locals: a nested function capturing them made them boxes.)
    private static func asciiLine(_ b: UnsafeBufferPointer<UInt8>, _ bytes: inout [UInt8], _ spans: inout [Span]) -> Counts {
        var c = Counts()
        // (At most one word for every two bytes of the padded line.)
        spans.reserveCapacity((b.count + 2) / 2)
        // (Made at the size it can reach, a space, the text, a space, written in place into uninitialized room, its
        // count set to what was written: an append a byte was most of the cost, and a fill first and a cut after more.
        // The words, their bits and lengths found as the bytes are written: a second walk of them was a third of the cost.)
        var mask: UInt64 = 0, lengths: UInt64 = 0, pairs: UInt64 = 0, lineBytes: UInt64 = 0
        bytes = [UInt8](unsafeUninitializedCapacity: b.count + 2) { out, written in
            out[0] = 32
            var k = 1, lastSpace = true, letters = 0, digits = 0
            var start = 1, wordMask: UInt64 = 0, h: UInt64 = 0xcbf29ce484222325, previous = -1
            // The space written at `k` ends the word before it (if any): its span, `bit(ascii:)`, `lengthBit` and the
            // pair's, as the general path makes them.
            @inline(__always) func space() {
                if k > start {
                    spans.append(Span(start: start, end: k, mask: wordMask))
                    mask |= 1 << (h & 63)
                    lengths |= lengthBit(k - start)
                    if previous >= 0 { pairs |= lengthBit(previous + k - start) }
                    previous = k - start
                    lineBytes |= wordMask
                }
                out[k] = 32; k += 1
                start = k; wordMask = 0; h = 0xcbf29ce484222325
            }
            @inline(__always) func put(_ y: UInt8) {
                out[k] = y; k += 1
                wordMask |= 1 << UInt64(y & 63)
                h = (h ^ UInt64(y)) &* 0x100000001b3
                lastSpace = false
            }
            for x in b {
                if x >= 0x41 && x <= 0x5A { put(x | 0x20); letters += 1 }
                else if x >= 0x61 && x <= 0x7A { put(x); letters += 1 }
                else if x >= 0x30 && x <= 0x39 { put(x); digits += 1 }
                else if !lastSpace { space(); lastSpace = true }
            }
            // (Only the leading space: a second, as `" " + "" + " "`.)
            if k == 1 || out[k - 1] != 32 { space() }
            c.letters = letters; c.digits = digits
            written = k
        }
        c.wordMask = mask; c.lengths = lengths; c.pairs = pairs; c.lineBytes = lineBytes
        return c
    }

    /// Each word's bytes, `bytes[s.start..<s.end]`.
    @inline(__always) func word(_ s: Span) -> ArraySlice<UInt8> { bytes[s.start..<s.end] }

    /// `bit` of a word of `bytes`, without copying it out.
    private static func bit(ascii bytes: [UInt8], _ s: Span) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for i in s.start..<s.end { h = (h ^ UInt64(bytes[i])) &* 0x100000001b3 }
        return 1 << (h & 63)
    }

    /// The words' `mask`s together: a byte of a keyword missing from it is missing from every word.
    let lineByteMask: UInt64

    // Cheap refusals before the byte comparisons: a keyword matches as printed only if each of its
    // words is one of the line's (`wordMask`, one bit a word by its hash: a bit missing says no); one
    // or two slips away only if a word (or two neighbours run together) is about its length.
    /// One bit for each of the line's words, by `bit`.
    let wordMask: UInt64
    /// One bit for each length of the line's words (63: that long or longer).
    let lengthMask: UInt64
    /// One bit for each length of two neighbouring words together.
    let pairLengthMask: UInt64

    /// A word's bit: FNV-1a of its bytes, modulo 64.
    static func bit<C: Collection<UInt8>>(_ w: C) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in w { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return 1 << (h & 63)
    }

    static func lengthBit(_ n: Int) -> UInt64 { 1 << UInt64(min(n, 63)) }

    /// Whether a word (or, `pairs`, two neighbours) may be between `lo` and `hi` bytes long.
    func hasLength(_ lo: Int, _ hi: Int, pairs: Bool = false) -> Bool {
        let want = Self.lengthBits(lo, hi)
        return lengthMask & want != 0 || (pairs && pairLengthMask & want != 0)
    }

    /// `lengthBit` of every length from `lo` to `hi` (below 0 as 0).
    static func lengthBits(_ lo: Int, _ hi: Int) -> UInt64 {
        var want: UInt64 = 0
        for n in max(0, lo)...max(0, hi) { want |= lengthBit(n) }
        return want
    }

    /// Each word as UTF-8 (`spans` copied out), for code that wants them as arrays.
    var wordBytes: [[UInt8]] { spans.map { Array(word($0)) } }

    /// `textContains(padded, needle)`, asked of `bytes` on an ASCII line (its `padded` is printable then: letters,
    /// digits and spaces) or a line of Latin letters (its `padded` letters, digits and spaces, `simpleScalars`), without
    /// making `padded`: a needle of printable ASCII and Latin letters is found as `textContains` finds it on bytes.
    func holds(text needle: String) -> Bool {
        guard simpleScalars, !needle.isEmpty, Bytes.printableOrLatinLetters(needle) else { return textContains(padded, needle) }
        return bytesContain(bytes, needle)
    }

    /// True when `needle` (already normalised) occurs in `padded`, byte for byte.
    func has(_ needle: String) -> Bool { bytesContain(bytes, needle) }

    /// `padded.hasSuffix(k.normalised)`; on ASCII, compared as bytes.
    func endsWith(_ k: CompiledRules.Keyword) -> Bool {
        guard k.isASCII, simpleScalars else { return padded.hasSuffix(k.normalised) }
        return bytes.count >= k.bytes.count && bytes.suffix(k.bytes.count).elementsEqual(k.bytes)
    }

    /// True when the keyword occurs as printed (`has(keyword.normalised)`).
    func has(_ k: CompiledRules.Keyword) -> Bool { k.wordMask & ~wordMask == 0 && bytesContain(bytes, k.bytes) }

    /// What `contains(k, loosely:)` needs of the line before it compares a byte, from the keyword's `signs`: as
    /// printed, each of its word bits; one slip away, one of its bytes missing at most and a word about its
    /// length; two (`loosely`), two missing at most and a word or two neighbours about its length. False says
    /// `contains` is false.
    @inline(__always) func may(_ s: CompiledRules.KeywordSet.Signs, loosely: Bool) -> Bool {
        if s.words & ~wordMask == 0 { return true }
        guard s.slips else { return false }
        let missing = (s.coreBytes & ~lineByteMask).nonzeroBitCount
        if missing <= 1, lengthMask & s.oneSlipLengths != 0 { return true }
        return loosely && s.twoSlips && missing <= 2 && (lengthMask | pairLengthMask) & s.twoSlipLengths != 0
    }

    /// `contains(keyword.normalised, loosely:)`, with the keyword's bytes made once, when the rules were compiled.
    func contains(_ k: CompiledRules.Keyword, loosely: Bool = false) -> Bool {
        has(k) || slipsAway(k, loosely: loosely)
    }

    /// The rest of `contains` after `has(k)`: the keyword one slip away (two, `loosely`). For a caller that knows
    /// `has(k)` is false already (`CompiledRules.best`, after `bestExact` found no keyword of the set as printed).
    func slipsAway(_ k: CompiledRules.Keyword, loosely: Bool = false) -> Bool {
        let n = k.core.count
        guard k.slips else { return false }
        // (A byte of the keyword missing from a word costs an edit at least: one slip away, at most one byte
        // is missing, from the word and so from the whole line; two slips, two. A bit of `byteMask` missing
        // is a byte missing.)
        let km = k.coreByteMask
        let missing = (km & ~lineByteMask).nonzeroBitCount
        guard missing <= 2 else { return false }
        let oneSlipMay = missing <= 1 && lengthMask & k.oneSlipLengths != 0
        let twoSlipsMay = loosely && n >= Self.twoSlipsFrom && (lengthMask | pairLengthMask) & k.twoSlipLengths != 0
        guard oneSlipMay || twoSlipsMay else { return false }
        // (The few words the masks let through compared in place, as buffers of `bytes`: no copy of a word, no
        // allocation, for each comparison.)
        return bytes.withUnsafeBufferPointer { b in
            k.core.withUnsafeBufferPointer { kw in
                func word(_ s: Span) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: b[s.start..<s.end]) }
                if oneSlipMay {
                    for s in spans where abs(s.count - n) <= 1 && (km & ~s.mask).nonzeroBitCount <= 1 && Self.oneSlip(word(s), kw) { return true }
                }
                guard twoSlipsMay else { return false }
                let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                for s in spans where abs(s.count - n) <= 2 && (km & ~s.mask).nonzeroBitCount <= 2 && Self.withinTwo(word(s), none, kw) { return true }
                guard spans.count >= 2 else { return false }
                for i in 0..<(spans.count - 1) {
                    let s = spans[i], t = spans[i + 1]
                    if abs(s.count + t.count - n) <= 2 && (km & ~(s.mask | t.mask)).nonzeroBitCount <= 2
                        && Self.withinTwo(word(s), word(t), kw) { return true }
                }
                return false
            }
        }
    }

    /// `w` is the keyword `kw` read with one OCR slip; not the keyword with a letter added at its end, which is
    /// another word ("SUMMER" is not the German "summe", "TOTALE" not "total").
    static func oneSlip(_ w: [UInt8], _ kw: [UInt8]) -> Bool {
        w.withUnsafeBufferPointer { a in kw.withUnsafeBufferPointer { oneSlip(a, $0) } }
    }

    /// `oneSlip` on buffers (words read in place from `bytes`).
    static func oneSlip(_ w: UnsafeBufferPointer<UInt8>, _ kw: UnsafeBufferPointer<UInt8>) -> Bool {
        if w.count == kw.count + 1, Bytes.isLetter(w[w.count - 1]), w.starts(with: kw) { return false }
        return EditDistance.withinOne(w, kw) && !falseFriends.contains { $0.elementsEqual(w) }
    }

    /// Words one slip from a keyword that receipts print as words of their own: "1 Tuna Mayo Wrap 6.59" is a
    /// dish, not the Malay "tunai" (cash) misread, and its price no amount paid.
    static let falseFriends: [[UInt8]] = [Array("tuna".utf8)]

    /// A bit for each byte value of `w` (modulo 64): a bit the word lacks is a byte it lacks.
    static func byteMask<C: Collection<UInt8>>(_ w: C) -> UInt64 { w.reduce(0) { $0 | 1 << UInt64($1 & 63) } }

    static func normalise(_ keyword: String) -> String {
        WordLine(keyword).padded
    }

    /// True when the keyword (normalised the same way) occurs as whole words.
    /// Single-word keywords of 5+ letters also match one OCR slip away ("TOTAI", "T0TAL"); `loosely`, those
    /// of 8+ letters also two slips away, in one word or two neighbours read apart ("RubTota", "SUBTTL",
    /// "Sub. Tot": the subtotal's word, which nothing else on a receipt resembles).
    func contains(_ normalisedKeyword: String, loosely: Bool = false) -> Bool {
        if has(normalisedKeyword) { return true }
        let n = normalisedKeyword.utf8.count - 2
        guard n >= 5 else { return false }
        let kw = Array(normalisedKeyword.utf8.dropFirst().dropLast())
        guard !kw.contains(32) else { return false }
        if wordBytes.contains(where: { abs($0.count - n) <= 1 && Self.oneSlip($0, kw) }) { return true }
        guard loosely, n >= Self.twoSlipsFrom else { return false }
        if wordBytes.contains(where: { abs($0.count - n) <= 2 && Self.withinTwo($0, [], kw) }) { return true }
        return zip(wordBytes, wordBytes.dropFirst()).contains { a, b in abs(a.count + b.count - n) <= 2 && Self.withinTwo(a, b, kw) }
    }

    /// `EditDistance.levenshtein(a + b, kw) <= 2`, without joining `a` and `b` or allocating the table on the heap.
    static func withinTwo(_ a: [UInt8], _ b: [UInt8], _ kw: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in kw.withUnsafeBufferPointer { withinTwo(a, b, $0) } } }
    }

    /// `withinTwo` on buffers (words read in place from `bytes`).
    static func withinTwo(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ kw: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = a.count + b.count, n = kw.count
        if m == 0 || n == 0 { return max(m, n) <= 2 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (n + 1)) { buf in
            var prev = 0, cur = n + 1
            for j in 0...n { buf[prev + j] = j }
            for i in 1...m {
                let ai = i <= a.count ? a[i - 1] : b[i - 1 - a.count]
                buf[cur] = i
                var rowMin = i
                for j in 1...n {
                    let v = min(buf[prev + j] + 1, buf[cur + j - 1] + 1, buf[prev + j - 1] + (ai == kw[j - 1] ? 0 : 1))
                    buf[cur + j] = v
                    rowMin = min(rowMin, v)
                }
                if rowMin > 2 { return false }
                swap(&prev, &cur)
            }
            return buf[prev + n] <= 2
        }
    }

    /// Keywords this long match two OCR slips away.
    static let twoSlipsFrom = 8

}

/// Whether `needle`'s UTF-8 occurs in `hay`.
func bytesContain(_ hay: [UInt8], _ needle: String) -> Bool {
    var n = needle
    return n.withUTF8 { nb in hay.withUnsafeBufferPointer { bytesContain($0, nb) } }
}

/// Whether `needle` occurs in `hay`.
func bytesContain(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
    hay.withUnsafeBufferPointer { h in needle.withUnsafeBufferPointer { bytesContain(h, $0) } }
}

func bytesContain(_ hay: UnsafeBufferPointer<UInt8>, _ nb: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = nb.count, total = hay.count
    guard m > 0, m <= total, let h = hay.baseAddress, let n = nb.baseAddress else { return m == 0 }
    // A speed trick (this search was 5 % of a parse, comparing at every byte): the places of one byte of the
    // needle found by `memchr` (a few vector instructions for a line), and the needle compared only there.
    // That byte is the first, or the second after a space: keywords are padded (" total "), and a space
    // stands between every two words of a line.
    let a = m > 1 && nb[0] == 0x20 ? 1 : 0
    let anchor = Int32(nb[a])
    let last = total - m + a  // the anchor's last possible place in `hay`
    var q = a
    while q <= last {
        guard let p = memchr(h + q, anchor, last - q + 1) else { return false }
        let at = UnsafeRawPointer(h).distance(to: UnsafeRawPointer(p))
        if memcmp(h + (at - a), n, m) == 0 { return true }
        q = at + 1
    }
    return false
}

/// Similarity 0...1 (1 − normalised edit distance).
func similarity(_ a: String, _ b: String) -> Double {
    let m = max(a.count, b.count)
    return m == 0 ? 1 : 1 - Double(EditDistance.levenshtein(a, b)) / Double(m)
}

/// `spaces` (`\s+`) replaced by one space. On printable ASCII with no two spaces in a row every match is
/// a single space already, and `s` comes back as it is without running the expression.
func collapsingSpaces(_ s: String, _ spaces: Pattern) -> String {
    // Printable ASCII (`\s` is the space there): without a run of spaces, `s` itself; with one, each run made one
    // space on the bytes. So too a line whose only characters not ASCII are signs (`Bytes.printableWithNeutralSigns`:
    // no space among them) or signs and Latin letters (`printableWithLatinLetters`). Any other text: the expression.
    let collapsed = s.utf8.withContiguousStorageIfAvailable { b -> String?? in
        guard b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) || Bytes.kinds(b) != .other else { return .none }
        return .some(Bytes.collapsedSpaces(b).map { String(decoding: $0, as: UTF8.self) })
    }
    switch collapsed {
    case .some(.some(.some(let t))): return t
    case .some(.some(.none)): return s
    default: return spaces.replacing(in: s, with: " ")
    }
}

/// `trimmedPrintable`, on printable ASCII and on a line of Latin letters and neutral signs (`Bytes.printableWithLatinLetters`,
/// `printableWithNeutralSigns`) as well: `bounds` must then read each such character as the caller's expression does
/// (a scalar of two to four bytes; `start` and `end` on a character's first byte).
func trimmedSimple(_ s: String, _ bounds: (UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int)) -> String? {
    trimmed(s, where: { b in b.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } || Bytes.kinds(b) != .other }, bounds)
}

/// `s` less its bytes before `start` and from `end` on, where `bounds` finds them on printable ASCII; nil (the
/// caller's expression to be asked) for any other text.
func trimmedPrintable(_ s: String, _ bounds: (UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int)) -> String? {
    trimmed(s, where: { $0.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } }, bounds)
}

/// `s` less its bytes before `start` and from `end` on, where `bounds` finds them on a line `takes` takes; nil for any other.
@inline(__always) private func trimmed(_ s: String, where takes: (UnsafeBufferPointer<UInt8>) -> Bool,
                     _ bounds: (UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int)) -> String? {
    let r = s.utf8.withContiguousStorageIfAvailable { b -> String?? in
        guard takes(b) else { return .none }
        let (start, end) = bounds(b)
        if start == 0 && end == b.count { return .some(nil) }
        return .some(String(decoding: UnsafeBufferPointer(rebasing: b[start..<max(start, end)]), as: UTF8.self))
    }
    switch r {
    case .some(.some(.some(let t))): return t
    case .some(.some(.none)): return s
    default: return nil
    }
}

/// A set of ASCII bytes as two 64-bit masks: asking it is a shift, not a walk of a string's UTF-8 (the
/// `mayMatch` tests ask it of every byte of a line).
struct ByteSet: Sendable {
    let lo: UInt64, hi: UInt64

    init<S: Sequence<UInt8>>(bytes: S) {
        var lo: UInt64 = 0, hi: UInt64 = 0
        for c in bytes {
            if c < 64 { lo |= 1 << UInt64(c) } else if c < 128 { hi |= 1 << UInt64(c - 64) }
        }
        self.lo = lo; self.hi = hi
    }

    init(_ s: StaticString) { self = s.withUTF8Buffer { ByteSet(bytes: $0) } }

    /// The set of the bytes below 64 (`lo`, bit c) and from 64 to 127 (`hi`, bit c - 64).
    init(lo: UInt64, hi: UInt64) { self.lo = lo; self.hi = hi }

    @inline(__always) func contains(_ c: UInt8) -> Bool {
        c < 64 ? (lo >> UInt64(c)) & 1 != 0 : c < 128 ? (hi >> UInt64(c &- 64)) & 1 != 0 : false
    }

    /// Whether every byte of `other` is in this set.
    func holds(_ other: ByteSet) -> Bool { other.lo & ~lo == 0 && other.hi & ~hi == 0 }
}

// Tests on printable ASCII for `Pattern.mayMatch` (bytes, one a character).
enum Bytes {
    /// Whether `byte` is among the bytes (`memchr`: a few vector instructions for a line).
    static func holds(_ b: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        guard let base = b.baseAddress else { return false }
        return memchr(base, Int32(byte), b.count) != nil
    }

    /// The bytes with each run of spaces made one space; nil when no two spaces stand in a row (nothing to change).
    static func collapsedSpaces(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard hasRun(b, 2, { $0 == 0x20 }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        for c in b where c != 0x20 || out.last != 0x20 { out.append(c) }
        return out
    }

    /// `body` on the bytes of `s` when they are printable ASCII (a hand matcher's ground); nil for any other text, which
    /// goes to the expression the matcher stands in for.
    static func onPrintable<T>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        let r = s.utf8.withContiguousStorageIfAvailable { b -> T? in
            b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) ? body(b) : nil
        }
        return r ?? nil
    }

    /// Whether the bytes are printable ASCII but for whole characters that no date, time or amount expression can match
    /// or look at otherwise than as it does any ASCII sign it does not name (so `DateScanner.Signs` reads such a line as
    /// printable ASCII, and the amounts and times are matched by hand on a stand-in with "#" in each one's place):
    /// currency signs, other symbols and punctuation
    /// (£ € ฿ · × ® « » № –), each one scalar that is no letter, number, space, mark, connector or format character
    /// (those are `\p{L}`, `\d`, `\s`, `\w`, a word's characters or join the character before), and none of the
    /// marks the date expressions name (`’ ‘ ´ °`). `WordLine` leaves such a sign out of the words as it does an ASCII
    /// sign. False for any other line, and for one of plain printable ASCII (the caller asks that first).
    static func printableWithNeutralSigns(_ b: UnsafeBufferPointer<UInt8>) -> Bool { kinds(b, stoppingAtALetter: true) == .signs }

    /// Whether the bytes are printable ASCII but for neutral signs (`printableWithNeutralSigns`) and plain Latin letters
    /// (`latinLower`), with one such letter at least: a line of a German, French or Spanish receipt ("Rückgeld 4,68 €").
    /// Each of its characters not ASCII is one scalar that nothing joins, so its characters are its scalars; a letter
    /// lower-cases to one letter of as many bytes. False for any other line.
    static func printableWithLatinLetters(_ b: UnsafeBufferPointer<UInt8>) -> Bool { kinds(b) == .latinLetters }

    /// Printable ASCII and plain Latin letters (`latinLower`), nothing else: no sign, whose canonical equivalents a
    /// search by characters would take for it ("\u{037E}" for ";"). Two such texts compare by characters as by bytes: each
    /// letter is one scalar in its composed form, none the composed form of others, and a character search never
    /// takes part of one (Foundation finds no "e" in "é").
    static func printableOrLatinLetters(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                guard c >= 0x20 && c <= 0x7E else { return false }
                i += 1
                continue
            }
            guard let (u, n) = scalar(b, at: i), latinLower(u) != nil else { return false }
            i += n
        }
        return true
    }

    static func printableOrLatinLetters(_ s: String) -> Bool {
        var s = s
        return s.withUTF8(printableOrLatinLetters)
    }

    /// What a line's characters are, for the fast paths: printable ASCII alone; that and neutral signs (one at least);
    /// that, neutral signs and plain Latin letters (one letter at least); or anything else.
    enum Kinds {
        case printableASCII, signs, latinLetters, other
        /// Neutral signs, or those and Latin letters, beside printable ASCII.
        var signsOrLetters: Bool { self == .signs || self == .latinLetters }
    }

    /// The `Kinds` of a line's bytes, in one walk. (`stoppingAtALetter`: a Latin letter ends the walk, `latinLetters`
    /// then saying only that the line is no line of ASCII or signs alone.)
    static func kinds(_ b: UnsafeBufferPointer<UInt8>, stoppingAtALetter: Bool = false) -> Kinds {
        var sawSign = false, sawLetter = false
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                guard c >= 0x20 && c <= 0x7E else { return .other }
                i += 1
                continue
            }
            guard let (u, n) = scalar(b, at: i) else { return .other }
            if latinLower(u) != nil {
                if stoppingAtALetter { return .latinLetters }
                sawLetter = true
            } else if isNeutralSign(u) { sawSign = true } else { return .other }
            i += n
        }
        return sawLetter ? .latinLetters : sawSign ? .signs : .printableASCII
    }

    /// A line's stand-in for a `Pattern`'s `mayMatch` (`Pattern.standInsSafe`): printable ASCII as it is, each Latin
    /// letter (`latinLower`) as "q", each neutral sign as "#" ("—" and "–", rule marks, as "*"), a byte a character;
    /// `sharpS`, whether the line holds "ß". Nil for a line with anything else, or with nothing but printable ASCII.
    static func pretestStandIn(_ b: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], sharpS: Bool)? {
        guard kinds(b).signsOrLetters else { return nil }
        var sharpS = false
        let out = standIn(b) { u in
            if latinLower(u) != nil {
                if u == "ß" { sharpS = true }
                return UInt8(ascii: "q")
            }
            return u == "—" || u == "–" ? UInt8(ascii: "*") : UInt8(ascii: "#")
        }
        return (out, sharpS)
    }

    /// The lower case of a plain Latin letter of two bytes (U+00C0 to U+024F: "Ä", "ß", "é", "œ", "ñ"), nil for any other
    /// scalar. Plain: Swift's `Character` takes it for a letter and for no number, and `lowercased` makes it one scalar of
    /// two bytes (which leaves out "İ", whose lower case is two scalars); not "ı" or "ſ". Asked of Swift once, kept as a table.
    @inline(__always) static func latinLower(_ u: Unicode.Scalar) -> Unicode.Scalar? {
        let v = u.value
        guard v >= 0xC0, v < 0x250 else { return nil }
        let l = latinTable[Int(v - 0xC0)]
        return l == 0 ? nil : Unicode.Scalar(l)
    }

    /// `String(decoding: b, as: UTF8.self).lowercased()` as bytes, for a line of `printableWithLatinLetters` or
    /// `printableWithNeutralSigns`: A-Z as a-z, each Latin letter as its `latinLower`, every sign as it is (a neutral
    /// sign has no case). Nil for any other line (`HandScannerTests` holds it to `lowercased`).
    static func latinLowered(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                guard c >= 0x20 && c <= 0x7E else { return nil }
                out[i] = lower(c)
                i += 1
                continue
            }
            guard let (u, n) = scalar(b, at: i) else { return nil }
            if let l = latinLower(u) {
                // (Two bytes both: 110xxxxx 10xxxxxx.)
                out[i] = 0xC0 | UInt8(l.value >> 6)
                out[i + 1] = 0x80 | UInt8(l.value & 0x3F)
            } else {
                guard isNeutralSign(u) else { return nil }
                for k in 0..<n { out[i + k] = b[i + k] }
            }
            i += n
        }
        return out
    }

    /// Whether the plain Latin letter `u` (`latinLower`) is upper-case and lower-case as `Character` says (`isUppercase`,
    /// `isLowercase`); nil for any other scalar. Asked of Swift once, kept as a table.
    @inline(__always) static func latinCase(_ u: Unicode.Scalar) -> (upper: Bool, lower: Bool)? {
        let v = u.value
        guard v >= 0xC0, v < 0x250 else { return nil }
        let c = latinCaseTable[Int(v - 0xC0)]
        return c == 0xFF ? nil : (c & 1 != 0, c & 2 != 0)
    }

    private static let latinCaseTable: [UInt8] = (UInt32(0xC0)..<0x250).map { v in
        guard let u = Unicode.Scalar(v), latinLower(u) != nil else { return 0xFF }
        let ch = Character(u)
        return (ch.isUppercase ? 1 : 0) | (ch.isLowercase ? 2 : 0)
    }

    private static let latinTable: [UInt32] = (UInt32(0xC0)..<0x250).map { v in
        // (Not "ı" and "ſ": a case-insensitive expression takes them for "i" and "s"; nor "ŉ" and "ǰ", which it folds to
        // two characters.)
        guard v != 0x131, v != 0x17F, v != 0x149, v != 0x1F0, let u = Unicode.Scalar(v) else { return 0 }
        let ch = Character(u)
        guard ch.isLetter, !ch.isNumber, !u.properties.isGraphemeExtend else { return 0 }
        let lower = String(ch).lowercased().unicodeScalars
        guard lower.count == 1, let l = lower.first, l.utf8.count == 2, Character(l).isLetter else { return 0 }
        return l.value
    }

    /// Where the scalar that ends at `end` starts in UTF-8 `b` (`end - 1` for a byte of ASCII): back over the continuation
    /// bytes (10xxxxxx), not below `from`.
    @inline(__always) static func scalarStart(_ b: UnsafeBufferPointer<UInt8>, before end: Int, from: Int = 0) -> Int {
        var i = end - 1
        while i > from, b[i] & 0xC0 == 0x80 { i -= 1 }
        return i
    }

    /// The scalar whose UTF-8 starts at `b[i]`, of two to four bytes, and how many: nil where none starts there well formed
    /// (a string's UTF-8 always is; asked anyway).
    @inline(__always) static func scalar(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int)? {
        let c = b[i]
        let n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0
        guard n > 0, i + n <= b.count else { return nil }
        var v = UInt32(c) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
        for k in 1..<n {
            guard b[i + k] & 0xC0 == 0x80 else { return nil }
            v = v << 6 | UInt32(b[i + k] & 0x3F)
        }
        return Unicode.Scalar(v).map { ($0, n) }
    }

    /// The bytes of a line `printableWithNeutralSigns` holds with one byte of ASCII in each sign's place, `byte(sign)`
    /// ("#" unless a caller's expressions name some sign): printable ASCII, a byte for each of the line's scalars, which
    /// are its characters. The amounts, times, quantities and card digits are matched by hand on it.
    static func standIn(_ b: UnsafeBufferPointer<UInt8>, _ byte: (Unicode.Scalar) -> UInt8 = { _ in UInt8(ascii: "#") }) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] < 0x80 { out.append(b[i]); i += 1; continue }
            let (u, n) = scalar(b, at: i)!
            out.append(byte(u))
            i += n
        }
        return out
    }

    /// The stand-in of a line of printable ASCII and scalars `byte` gives a byte for (a byte a scalar); nil when it holds
    /// any other byte or scalar.
    static func standIn(printable b: UnsafeBufferPointer<UInt8>, _ byte: (Unicode.Scalar) -> UInt8?) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                guard c >= 0x20 && c <= 0x7E else { return nil }
                out.append(c)
                i += 1
                continue
            }
            guard let (u, n) = scalar(b, at: i), let x = byte(u) else { return nil }
            out.append(x)
            i += n
        }
        return out
    }

    /// A sign that is a character of its own and no letter, number or case: a neutral sign (`isNeutralSign`) or one of the
    /// dates' marks. (What the byte walks beside Latin letters pass over as one character.)
    @inline(__always) static func isStandAloneSign(_ u: Unicode.Scalar) -> Bool { isNeutralSign(u) || dateMarks.contains(u) }

    /// The dates' marks that are not ASCII: a scalar among them is never neutral (`printableWithNeutralSigns`).
    static let dateMarks: Set<Unicode.Scalar> = ["\u{2019}", "\u{2018}", "\u{00B4}", "\u{00B0}"]

    /// A symbol or punctuation (not a connector: `\w` takes those) that is none of `dateMarks`, joins no character
    /// before it, is not alphabetic and has no numeric value; and is a character on its own: not a regional indicator
    /// (two of them are one character, a flag, "🇬🇧", and the fast paths count a sign as one character).
    static func isNeutralSign(_ u: Unicode.Scalar) -> Bool {
        // (Those of U+0080 to U+20FF, the Latin-1 signs, general punctuation and the currency signs, read from a table
        // made by the rule below once: the rule asks Unicode's properties, some 800 instructions a sign.)
        if u.value < 0x2100 { return u.value >= 0x80 && neutralTable[Int(u.value - 0x80)] }
        return neutralSignByProperties(u)
    }

    private static let neutralTable: [Bool] = (UInt32(0x80)..<0x2100).map { v in Unicode.Scalar(v).map(neutralSignByProperties) ?? false }

    /// `isNeutralSign` asked of Unicode's properties.
    static func neutralSignByProperties(_ u: Unicode.Scalar) -> Bool {
        guard !dateMarks.contains(u), !(0x1F1E6...0x1F1FF).contains(u.value) else { return false }
        switch u.properties.generalCategory {
        case .currencySymbol, .mathSymbol, .otherSymbol, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            // (Left out as well: the few of these that extend the character before them, the symbols that are
            // alphabetic, such as the circled letters (`\w`, and so `\b`, takes them for letters; `Character.isLetter`
            // too), and any with a numeric value (`Character.isNumber`).)
            return !u.properties.isGraphemeExtend && !u.properties.isEmojiModifier && !u.properties.isAlphabetic
                && u.properties.numericType == nil
        default:
            return false
        }
    }

    /// Whether `word` (lower case) stands in `b` at `k`, in any case (A-Z taken as a-z; other bytes as they are).
    @inline(__always) static func says(_ b: UnsafeBufferPointer<UInt8>, _ k: Int, _ word: StaticString) -> Bool {
        let c = word.utf8CodeUnitCount
        guard k >= 0, k + c <= b.count else { return false }
        let w = word.utf8Start
        for i in 0..<c where lower(b[k + i]) != w[i] { return false }
        return true
    }

    /// A-Z as a-z; any other byte as it is.
    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
    @inline(__always) static func upper(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? c - 0x20 : c }
    /// A-Z.
    @inline(__always) static func isCapital(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    static func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || isLetter(c) }

    /// Whether `b` holds a byte of `set`.
    static func has(_ b: UnsafeBufferPointer<UInt8>, _ set: StaticString) -> Bool {
        let s = ByteSet(set)
        return b.contains { s.contains($0) }
    }

    /// Whether `b` holds a run of `n` bytes (or more) each passing `test`.
    static func hasRun(_ b: UnsafeBufferPointer<UInt8>, _ n: Int, _ test: (UInt8) -> Bool) -> Bool {
        var run = 0
        for c in b {
            run = test(c) ? run + 1 : 0
            if run >= n { return true }
        }
        return false
    }

    /// Whether two neighbours are `a` then `b`.
    static func hasPair(_ b: UnsafeBufferPointer<UInt8>, _ a: (UInt8) -> Bool, _ then: (UInt8) -> Bool) -> Bool {
        guard b.count >= 2 else { return false }
        for i in 0..<(b.count - 1) where a(b[i]) && then(b[i + 1]) { return true }
        return false
    }
}

/// `String.trimmingCharacters(in:)` for a set, on a string of ASCII without bridging it to NSString (what
/// the set holds of ASCII asked of the set itself, once); any other string goes to Foundation.
struct Trim: Sendable {
    let set: CharacterSet
    let ascii: [Bool]

    init(_ set: CharacterSet) {
        self.set = set
        ascii = (0..<128).map { set.contains(Unicode.Scalar(UInt8($0))) }
    }

    /// `s.trimmingCharacters(in: set)`: the scalars in `set` taken from both ends. Walked on the bytes, ASCII by the table
    /// and any other scalar asked of the set (Foundation's walked the whole text, some 16,000 instructions a line not
    /// ASCII). `HandScannerTests` holds it to Foundation's.
    func callAsFunction(_ s: String) -> String {
        let fast: String?? = s.utf8.withContiguousStorageIfAvailable { b -> String? in
            let n = b.count
            var lo = 0, hi = n
            while lo < hi {
                if b[lo] < 0x80 { guard ascii[Int(b[lo])] else { break }; lo += 1; continue }
                guard let (u, k) = Bytes.scalar(b, at: lo) else { return nil }
                guard set.contains(u) else { break }
                lo += k
            }
            while hi > lo {
                if b[hi - 1] < 0x80 { guard ascii[Int(b[hi - 1])] else { break }; hi -= 1; continue }
                let start = Bytes.scalarStart(b, before: hi, from: lo)
                guard let (u, k) = Bytes.scalar(b, at: start), start + k == hi else { return nil }
                guard set.contains(u) else { break }
                hi = start
            }
            if lo == 0, hi == n { return s }
            return String(decoding: UnsafeBufferPointer(rebasing: b[lo..<hi]), as: UTF8.self)
        }
        if let f = fast, let f { return f }
        return s.trimmingCharacters(in: set)
    }
}

extension Character {
    /// `isLetter`, answered for ASCII without looking the Unicode property up (a speed trick: `isLetter` looks
    /// it up for every character, some 380 instructions, and the parser asks it of most characters of the
    /// header lines and the items). On ASCII the letters are A-Z and a-z, as `isLetter` says.
    @inline(__always) var isLetterQuick: Bool {
        if let a = asciiValue { return (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A }
        return isLetter
    }
}

/// `s.replacingOccurrences(of: target, with: replacement)` (Foundation's, no options), on bytes when `s` and
/// `target` are printable ASCII (a speed trick: Foundation's took some 25,000 instructions a call). There no
/// character is composed of others, so a byte search finds the occurrences Foundation's comparison finds:
/// left to right, each search going on after the last occurrence's end. `HandScannerTests` holds the two to
/// each other. Any other text goes to Foundation.
func replacingOccurrences(in s: String, of target: String, with replacement: String) -> String {
    guard !target.isEmpty, isPrintableASCII(s), isPrintableASCII(target) else { return s.replacingOccurrences(of: target, with: replacement) }
    let h = Array(s.utf8), t = Array(target.utf8)
    guard h.count >= t.count else { return s }
    var out: [UInt8] = []
    var i = 0, copied = 0
    while i <= h.count - t.count {
        if h[i] == t[0], h[i..<(i + t.count)].elementsEqual(t) {
            if out.isEmpty { out.reserveCapacity(h.count + replacement.utf8.count) }
            out.append(contentsOf: h[copied..<i])
            out.append(contentsOf: replacement.utf8)
            i += t.count
            copied = i
        } else {
            i += 1
        }
    }
    guard copied > 0 else { return s }
    out.append(contentsOf: h[copied...])
    return String(decoding: out, as: UTF8.self)
}

/// `s.filter(\.isLetter).count`, counted on bytes when `s` is ASCII, Latin letters and signs (a speed trick: the filter
/// built a string character by character). On ASCII the letters are the bytes A-Z and a-z ("\r\n", one character, is no
/// letter).
func letterCount<S: StringProtocol>(_ s: S) -> Int {
    // (On bytes: ASCII, Latin letters (`Bytes.latinLower`, letters all) and signs (`Bytes.isNeutralSign`, the dates'
    // marks: none a letter), each one character that nothing joins. Anything else is counted as characters.)
    if let n = s.utf8.withContiguousStorageIfAvailable({ b -> Int? in
        var n = 0, i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                if Bytes.isLetter(c) { n += 1 }
                i += 1
                continue
            }
            guard let (u, k) = Bytes.scalar(b, at: i) else { return nil }
            if Bytes.latinLower(u) != nil { n += 1 } else if !Bytes.isStandAloneSign(u) { return nil }
            i += k
        }
        return n
    }), let n { return n }
    return s.reduce(0) { $0 + ($1.isLetterQuick ? 1 : 0) }
}

/// `s.filter(\.isNumber).count`, counted on bytes when `s` is ASCII (a speed trick: the filter built a string character
/// by character). There the numbers are the digits 0-9 ("\r\n", one character of two bytes, is none).
func numberCount<S: StringProtocol>(_ s: S) -> Int {
    if let n = s.utf8.withContiguousStorageIfAvailable({ b -> Int? in
        var n = 0
        for c in b {
            guard c < 0x80 else { return nil }
            if Bytes.isDigit(c) { n += 1 }
        }
        return n
    }), let n { return n }
    return s.filter(\.isNumber).count
}

/// `s.uppercased() == s`, on bytes when `s` is ASCII (there `uppercased` changes a-z alone: the text holds none), else
/// as written (a speed trick: the upper-cased copy made to be compared).
func isUpperCased(_ s: String) -> Bool {
    if let r = s.utf8.withContiguousStorageIfAvailable({ b -> Bool? in
        var lower = false
        for c in b {
            guard c < 0x80 else { return nil }
            if c >= 0x61 && c <= 0x7A { lower = true }
        }
        return !lower
    }), let r { return r }
    return s.uppercased() == s
}

/// The letters of `s` counted, and whether one of them is not as `lowercased()` leaves it (`letters ==
/// letters.lowercased()` false, where `letters` is `s.filter(\.isLetter)`), on bytes when `s` is ASCII (there
/// `lowercased` changes A-Z alone), Latin letters and signs.
func letterCountAndCapital(_ s: String) -> (count: Int, capital: Bool) {
    // (And on bytes when its other characters are Latin letters, each lower-cased alone to one letter (`Bytes.latinLower`:
    // `lowercased` has no rule of context for them), and signs (`Bytes.isNeutralSign`, the dates' marks), no letters.)
    if let r = s.utf8.withContiguousStorageIfAvailable({ b -> (Int, Bool)? in
        var n = 0, capital = false, i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                if Bytes.isLetter(c) { n += 1 }
                if c >= 0x41 && c <= 0x5A { capital = true }
                i += 1
                continue
            }
            guard let (u, k) = Bytes.scalar(b, at: i) else { return nil }
            if let l = Bytes.latinLower(u) {
                n += 1
                if l != u { capital = true }
            } else if !Bytes.isStandAloneSign(u) {
                return nil
            }
            i += k
        }
        return (n, capital)
    }), let r { return r }
    let letters = s.filter(\.isLetterQuick)
    return (letters.count, letters != letters.lowercased())
}

/// `s.split(separator: " ")`, the words found on bytes when `s` is ASCII (a speed trick: the split walked the
/// text character by character, some 9,000 instructions for a name of a few words). On ASCII a character is a
/// byte, but for "\r\n", and a space is part of no other character: the same words, as the same substrings.
func splitOnSpaces(_ s: String) -> [Substring] {
    let fast: [Substring]?? = s.utf8.withContiguousStorageIfAvailable { b -> [Substring]? in
        guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
        let u = s.utf8
        var out: [Substring] = []
        var i = 0
        while i < b.count {
            if b[i] == 0x20 { i += 1; continue }
            var j = i + 1
            while j < b.count, b[j] != 0x20 { j += 1 }
            out.append(s[u.index(u.startIndex, offsetBy: i)..<u.index(u.startIndex, offsetBy: j)])
            i = j
        }
        return out
    }
    if case let words?? = fast { return words }
    return s.split(separator: " ")
}

/// `s` with `byte` put before each of the UTF-8 offsets `offsets` (ascending; ASCII places, so the text stays
/// valid): the parser's repairs of a line as read ("RM .00" → "RM 0.00", "TotalRM5.40" → "Total RM5.40").
/// `s` itself when there are none.
func inserting(_ byte: UInt8, before offsets: [Int], in s: String) -> String {
    guard !offsets.isEmpty else { return s }
    var out = Array(s.utf8)
    for at in offsets.reversed() { out.insert(byte, at: at) }
    return String(decoding: out, as: UTF8.self)
}

/// Whether `s` is printable ASCII (a space to a tilde): text on which the byte paths below answer as Foundation does.
func isPrintableASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } }

/// `s.contains(other)` as Foundation answers it (`range(of:) != nil`), on bytes when both are printable ASCII
/// and `other` is not empty (a speed trick: Foundation's search cost some 8,000 instructions a call). There no
/// character is composed of others, so the byte search finds what Foundation's comparison finds.
func textContains(_ s: String, _ other: String) -> Bool {
    // (And on bytes when both are printable ASCII and Latin letters: `Bytes.printableOrLatinLetters`.)
    guard !other.isEmpty, Bytes.printableOrLatinLetters(s), Bytes.printableOrLatinLetters(other) else { return s.contains(other) }
    var a = s, b = other
    return a.withUTF8 { h in b.withUTF8 { bytesContain(h, $0) } }
}

/// `s.range(of: other, options: .caseInsensitive)`, on bytes when both are printable ASCII and `other` is not
/// empty (a speed trick, as `textContains`): there Foundation's case folding is A-Z to a-z alone, and the first
/// occurrence is the one it gives.
func rangeIgnoringCase(of other: String, in s: String) -> Range<String.Index>? {
    guard !other.isEmpty, isPrintableASCII(s), isPrintableASCII(other) else { return s.range(of: other, options: .caseInsensitive) }
    let h = Array(s.utf8), n = Array(other.utf8)
    guard n.count <= h.count else { return nil }
    func fold(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
    for i in 0...(h.count - n.count) where fold(h[i]) == fold(n[0]) {
        var j = 1
        while j < n.count, fold(h[i + j]) == fold(n[j]) { j += 1 }
        if j == n.count {
            let u = s.utf8
            return u.index(u.startIndex, offsetBy: i)..<u.index(u.startIndex, offsetBy: i + n.count)
        }
    }
    return nil
}
