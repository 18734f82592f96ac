import Foundation
import ReceiptModel
import ReceiptParser
import ReceiptSupport

/// Normalising and fuzzy-comparing the words on receipts and in inventories.
public enum TextMatch {
    /// Lower case, accents removed (`Järnhandel` → `jarnhandel`, `ß` → `ss`).
    public static func fold(_ s: String) -> String {
        // Most receipt text is ASCII: lowercasing is all it needs, and is much cheaper.
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s.lowercased() }
        return s.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .replacingOccurrences(of: "ß", with: "ss")
    }

    /// A serial number as compared: its letters (upper case) and digits only, so "VT55-0098123", "vt55 0098123" and
    /// "VT550098123" agree. Nil when fewer than four are left or none is a digit (no serial: "n/a", "none").
    public static func serialKey(_ s: String) -> String? {
        let kept = s.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        guard kept.count >= 4, kept.contains(where: { ("0"..."9").contains($0) }) else { return nil }
        return String(String.UnicodeScalarView(kept)).uppercased()
    }

    /// Words with punctuation inside them removed, so `WH-1000XM5` and `wh1000xm5` agree.
    public static func tokens(_ s: String) -> [String] {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(s) }
        return fold(s).split(whereSeparator: { $0.isWhitespace || ",;:/()[]{}&+|*\"!?#".contains($0) })
            .map { word in String(word.filter { $0.isLetter || $0.isNumber }) }
            .filter { !$0.isEmpty }
    }

    private static let separators: [Bool] = {
        var t = [Bool](repeating: false, count: 128)
        for c in " \t\n\r,;:/()[]{}&+|*\"!?#".utf8 { t[Int(c)] = true }
        return t
    }()

    /// `tokens` for ASCII text, byte by byte (the common case; several times faster).
    static func asciiTokens(_ s: String) -> [String] {
        var out: [String] = []
        var word: [UInt8] = []
        word.reserveCapacity(16)
        for var c in s.utf8 {
            if separators[Int(c)] {
                if !word.isEmpty { out.append(String(decoding: word, as: UTF8.self)); word.removeAll(keepingCapacity: true) }
                continue
            }
            if c >= 0x41 && c <= 0x5A { c += 0x20 }
            if (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) { word.append(c) }
        }
        if !word.isEmpty { out.append(String(decoding: word, as: UTF8.self)) }
        return out
    }

    /// Words that say nothing about which shop it is: the words of every legal form in the parser's
    /// rules ("Sdn. Bhd." → sdn, bhd; one list, `BuiltInRules.legalForms`), "mbh" of "Ges. mbH",
    /// store-number words and fillers.
    static let vendorNoise: Set<String> = Set(BuiltInRules.legalForms.flatMap { tokens($0) }.filter { $0.count >= 2 }).union([
        "mbh", "the", "and", "und", "et", "store", "stores", "shop", "no", "nr", "num", "filiale", "branch", "e", "k",
    ])

    /// Vendor words that identify the shop: `BEST BUY #123` → ["best", "buy"].
    public static func vendorTokens(_ s: String) -> [String] {
        tokens(s).filter { t in !vendorNoise.contains(t) && !t.allSatisfy(\.isNumber) }
    }

    static let itemNoise: Set<String> = ["a", "an", "the", "with", "and", "for", "of", "in", "x", "de", "la", "le", "et", "und", "mit", "och", "med"]

    /// Words of an item name / receipt line worth comparing.
    public static func itemTokens(_ s: String) -> [String] {
        tokens(s).filter { !itemNoise.contains($0) }
    }

    /// How well one token matches another, 0...1: equal 1; one a prefix of the other
    /// (`55` / `55in`, `electr` / `electronics`) 0.85; OCR-like misspellings by edit distance.
    public static func tokenSimilarity(_ a: String, _ b: String) -> Double {
        tokenSimilarity(Array(a.utf8), Array(b.utf8))
    }

    static func tokenSimilarity(_ a: [UInt8], _ b: [UInt8]) -> Double {
        if a == b { return 1 }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        let isDigit = { (c: UInt8) in c >= 0x30 && c <= 0x39 }
        if long.starts(with: short) {
            if short.allSatisfy(isDigit) {
                // "55" vs "55in": a number with its unit; "55" vs "559" is another number.
                let next = long[short.count]
                return !isDigit(next) ? 0.85 : 0
            }
            if short.count >= 4 { return 0.85 }
        }
        guard short.count >= 4 else { return 0 }
        let d = EditDistance.levenshtein(a, b)
        let sim = 1 - Double(d) / Double(long.count)
        return sim >= 0.75 ? sim : 0
    }

    /// Share of `needle` tokens found in `haystack` (weighted by length: a model code counts
    /// more than "tv"), 0...1.
    public static func coverage(of needle: [String], in haystack: [String]) -> Double {
        let v = Vocabulary()
        return v.coverage(needle.map(v.intern), haystack.map(v.intern))
    }

    /// Vendor similarity, 0...1: `BEST BUY #123` ~ `Best Buy` = 1; `Brightwave Electronics Inc.` ~ `Brightwave` ≈ 0.9.
    public static func vendorSimilarity(_ a: [String], _ b: [String]) -> Double {
        let v = Vocabulary()
        return v.vendorSimilarity(a.map(v.intern), b.map(v.intern))
    }
}

/// Tokens interned as small integers, with their pairwise similarities cached: the
/// reconciler compares the same few thousand words millions of times.
final class Vocabulary {
    private var ids: [String: Int32] = [:]
    private var bytes: [[UInt8]] = []
    private var lengths: [Int] = []
    private var cache: [Int64: Double] = [:]

    func intern(_ t: String) -> Int32 {
        if let id = ids[t] { return id }
        let id = Int32(bytes.count)
        ids[t] = id
        bytes.append(Array(t.utf8))
        lengths.append(t.utf8.count)
        return id
    }

    func similarity(_ a: Int32, _ b: Int32) -> Double {
        if a == b { return 1 }
        // Cheap answers first: most pairs of words are plainly different.
        let la = lengths[Int(a)], lb = lengths[Int(b)]
        let short = min(la, lb), long = max(la, lb)
        if short < 4 {
            // Only "55" / "55in"-style prefixes can match a short token.
            let (s, l) = la <= lb ? (a, b) : (b, a)
            return bytes[Int(l)].starts(with: bytes[Int(s)]) ? TextMatch.tokenSimilarity(bytes[Int(a)], bytes[Int(b)]) : 0
        }
        // The edit distance is at least the difference in length.
        if (long - short) * 4 > long, !(la <= lb ? bytes[Int(b)].starts(with: bytes[Int(a)]) : bytes[Int(a)].starts(with: bytes[Int(b)])) {
            return 0
        }
        let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
        if let v = cache[key] { return v }
        let v = TextMatch.tokenSimilarity(bytes[Int(a)], bytes[Int(b)])
        cache[key] = v
        return v
    }

    func coverage(_ needle: [Int32], _ haystack: [Int32]) -> Double {
        guard !needle.isEmpty, !haystack.isEmpty else { return 0 }
        var got = 0.0, total = 0.0
        for t in needle {
            let w = Double(min(max(bytes[Int(t)].count, 2), 8))
            total += w
            var best = 0.0
            for h in haystack {
                let s = similarity(t, h)
                if s > best { best = s; if s == 1 { break } }
            }
            got += w * best
        }
        return got / total
    }

    func vendorSimilarity(_ a: [Int32], _ b: [Int32]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        if a == b { return 1 }
        let (small, large) = a.count <= b.count ? (a, b) : (b, a)
        let cov = coverage(small, large)
        // All words of the shorter name found in the longer: the same shop ("Best Buy" in
        // "BEST BUY AUSTIN"). Some missing: likely another shop or branch, scored down hard.
        let byWords = cov >= 0.95 ? cov * (0.85 + 0.15 * Double(small.count) / Double(large.count)) : cov * cov
        // "bestbuy" vs "best buy": when the words are split differently, compare them run together.
        guard a.count != b.count, byWords < 0.95 else { return byWords }
        let ja = a.flatMap { bytes[Int($0)] }, jb = b.flatMap { bytes[Int($0)] }
        guard min(ja.count, jb.count) * 5 >= max(ja.count, jb.count) * 4 else { return byWords }
        let joined = 1 - Double(EditDistance.levenshtein(ja, jb)) / Double(max(ja.count, jb.count))
        return max(byWords, joined >= 0.8 ? joined : 0)
    }
}
