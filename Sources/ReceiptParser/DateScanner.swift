import Foundation
import ReceiptModel
import ReceiptSupport

/// A date as found in the text, before the day/month order is settled.
struct RawDate {
    enum Shape { case ymd, numeric, named, compact }
    var first: Int      // day or month for .numeric; day for others
    var second: Int     // month or day for .numeric; month for others
    var year: Int
    var shape: Shape
    /// Glued to a word before it ("HC04-8-16"): judged when scanned, so no later walk of the line is needed.
    var afterLetter: Bool
    var text: String
    var rule: String
    /// Read through OCR slips (digit look-alikes, a month one letter off, a garbled separator): the text as
    /// it was taken ("May01'19" for "MayOi'19"); nil when read as printed.
    var repaired: String? = nil

    /// The unambiguous reading, or nil when both day-first and month-first make a valid date.
    var certainOrder: DateOrder? {
        guard shape == .numeric else { return .dayFirst }
        let dmy = CalendarDate(year: year, month: second, day: first)
        let mdy = CalendarDate(year: year, month: first, day: second)
        switch (dmy, mdy) {
        case (.some, nil): return .dayFirst
        case (nil, .some): return .monthFirst
        case (.some(let a), .some(let b)) where a == b: return .dayFirst
        default: return nil
        }
    }

    func reading(_ order: DateOrder) -> CalendarDate? {
        switch shape {
        case .numeric:
            return order == .monthFirst ? CalendarDate(year: year, month: first, day: second)
                                        : CalendarDate(year: year, month: second, day: first)
        default:
            return CalendarDate(year: year, month: second, day: first)
        }
    }
}

enum DateScanner {
    static let ymd = Pattern(#"(?<!\d)((?:19|20)\d{2})\s?([-/.])\s?(\d{1,2})\s?[-/.]\s?(\d{1,2})(?!\d)"#)
    static let numeric = Pattern(#"(?<![\d.,])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?([-/.])\s?(\d{4}|\d{2})(?![\d]|[.,]\d|[-/.]\d)"#)
    /// The day may start with a letter OCR reads for 0 ("Q1-Nov-2017"); a month name must follow. Not a year
    /// before a till's apostrophe: "#4 Nov.11'16" is November 11, '16.
    static let dayMonthName = Pattern(#"(?<![\d\p{L}])([OQD]\d|\d{1,2})(?:st|nd|rd|th|er)?[\s\-/.,]*(\p{L}{3,9})\.?[\s\-/.,']*(\d{4}|\d{2})(?!\d|\s?['’‘´`]\s?\d)"#)
    /// "Jun18'16", "Aug05’ 14", "Nov.11'16(Fri)", "March 4, 2024": the year after an apostrophe as US tills print it.
    /// Not an amount after a word that is also a month ("Lunch set 18.70": "set" is September in Italian).
    static let monthNameDay = Pattern(#"(?<!\p{L})(\p{L}{3,9})\.?[\s\-/.]*(\d{1,2})(?![.,]\d{2}(?!\d))(?:st|nd|rd|th|[\s,.'’‘´`\-/])[\s,.'’‘´`\-/]*(\d{4}|\d{2})(?![\d]|:\d)"#)
    static let compactYMD = Pattern(#"(?<!\d)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)"#)
    /// "25032018 13:11:54": a till's stamp, day (or month), month (or day) and year run together, believed
    /// only with a time of day after it: alone, eight digits are as likely a number.
    static let compactDMYBeforeTime = Pattern(#"(?<![\d.,])(\d{2})(\d{2})((?:19|20)\d{2})(?=\s{1,3}(?:[01]?\d|2[0-3]):[0-5]\d(?!\d))"#)
    /// "Date : 08122018": the same eight digits, believed after the word date.
    static let compactDMYAfterDateWord = Pattern(#"\b(?:date|tarikh|datum|fecha)\s*[:.]?\s*(\d{2})(\d{2})((?:19|20)\d{2})(?![\d.,])"#)

    // OCR-tolerant readings: only where the structure is strong. A month-name date needs the till's year
    // mark (an apostrophe, or what OCR makes of one: ’ ` ° ") and a two-digit year of real digits; an
    // all-digit date needs a four-digit year. Case-sensitive, so the look-alike classes stay exact.
    /// Characters OCR reads for digits inside a date's digit run ("?" is a stray mark and is dropped).
    static let lookAlikes: [Character: Character] = [
        "O": "0", "o": "0", "Q": "0", "l": "1", "I": "1", "i": "1", "|": "1", "!": "1", "t": "1",
        "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2",
    ]
    static let yearMark = #"(['’‘´`°"]{1,2}|,')"#
    /// "MayOi'19", "Junl?8'16", "MAR3S1°14", "Dec14"17": month, a day of up to three characters, year mark, year.
    static let looseMonthNameDay = Pattern(#"(?<![A-Za-z])([A-Za-z]{3})\.?\s?([0-9OoQlIi|!tSsBZz?]{1,3})\s?"# + yearMark + #"\s?(\d{2})(?![0-9]|[.,:][0-9])"#, caseInsensitive: false)
    /// "27dpr' 13" (27 April '13): day, month, year mark, year.
    static let looseDayMonthName = Pattern(#"(?<![A-Za-z0-9])([0-9OoQlI|!SZB]{1,2})([A-Za-z]{3})\s?"# + yearMark + #"\s?(\d{2})(?![0-9]|[.,:][0-9])"#, caseInsensitive: false)
    /// "GS Jan 2017 12:41pm": a two-character day of look-alikes before a month name and a four-digit year.
    static let looseDayMonthYear = Pattern(#"(?<![A-Za-z0-9])([0-9OoQDGlI|SZB]{2})[\s\-/.]{1,3}([A-Za-z]{3,9})\.?[\s\-/.,]{1,3}((?:19|20)\d{2})(?!\d)"#, caseInsensitive: false)
    /// "02,'22/2014", "O1/12/2018 10:22", "92/02/2018": day and month with look-alikes or a garbled separator, four-digit year.
    static let looseNumeric = Pattern(#"(?<![0-9A-Za-z.,/\-])([0-9OoQlI|]{1,2})\s?([-/.,'’]{1,2})\s?([0-9OoQlI|]{1,2})\s?([-/.,'’]{1,2})\s?((?:19|20)\d{2})(?![0-9])"#, caseInsensitive: false)

    static func year(_ s: String) -> Int? {
        guard let y = Int(s) else { return nil }
        return s.count == 2 ? 2000 + y : y
    }

    /// The month names as `Signs` looks for them: `month`'s exact names, and the names of five letters or
    /// more (the ones `month` takes one slip away) by length. Made once, with the rules.
    /// A class: handed to every line's signs, a copy of a struct of five tables was five retains and releases.
    final class MonthWords: Sendable {
        let exact: Set<String>
        let long: [Int: [[Character]]]
        /// The names of `long` that are ASCII, as bytes, by length, and `WordLine.byteMask` of each.
        let longASCII: [Int: [[UInt8]]]
        let longASCIIMasks: [Int: [UInt64]]
        /// The names of `exact` that are ASCII, as bytes, by length (a run of ASCII letters can equal no other).
        let exactASCII: [Int: [[UInt8]]]
        /// The others with exactly one character that is not ASCII, as the ASCII before and after it and their
        /// length in characters: a word of ASCII is one edit from such a name only by putting another character
        /// in that one's place or leaving it out (with two or more, never).
        let longOneOther: [(before: [UInt8], after: [UInt8], length: Int)]
        /// `exactASCII` and `longASCII` looked up by the hashes of a run's bytes (`NearWords`), as printed and one
        /// slip away: asked for every run of three letters or more on a line with digits, a walk of the names of a
        /// length, each compared, was most of the cost of a line's signs.
        let exactNames: NearWords
        let longNames: NearWords
        /// `longOneOther` by the name's length in characters (empty past the longest name).
        let oneOtherByLength: [[(before: [UInt8], after: [UInt8])]]

        init(_ months: [String: Int]) {
            exact = Set(months.keys)
            long = Dictionary(grouping: months.keys.filter { $0.count >= 5 }.map { Array($0) }, by: \.count)
            let ascii = months.keys.filter { $0.count >= 5 && $0.utf8.allSatisfy { $0 < 0x80 } }
            longASCII = Dictionary(grouping: ascii.map { Array($0.utf8) }, by: \.count)
            longASCIIMasks = longASCII.mapValues { $0.map(WordLine.byteMask) }
            exactASCII = Dictionary(grouping: months.keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }, by: \.count)
            longOneOther = months.keys.filter { $0.count >= 5 }.sorted().compactMap { key in
                let chars = Array(key)
                let other = chars.indices.filter { !chars[$0].isASCII }
                guard other.count == 1, let p = other.first else { return nil }
                return (Array(String(chars[..<p]).utf8), Array(String(chars[(p + 1)...]).utf8), chars.count)
            }
            // (Sorted: the tables' order is the names', not a dictionary's, the same in every process.)
            exactNames = NearWords(exactASCII.values.flatMap { $0 }.sorted { $0.lexicographicallyPrecedes($1) })
            longNames = NearWords(longASCII.values.flatMap { $0 }.sorted { $0.lexicographicallyPrecedes($1) })
            let maxLength = (longOneOther.map(\.length) + [0]).max()!
            var others = [[(before: [UInt8], after: [UInt8])]](repeating: [], count: maxLength + 1)
            for k in longOneOther { others[k.length].append((k.before, k.after)) }
            oneOtherByLength = others
        }

        /// `names` of a run of ASCII letters given as bytes: the same answer, the ASCII names compared as bytes.
        /// (The run lower-cased is `run[i] | 0x20`, asked byte by byte; it is copied out only for `withinOne`.)
        func names(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
            let m = run.count
            // As printed, an ASCII name byte for byte (lower-cased); one slip away (five letters or more), an ASCII
            // name `withinOne`: each asked only of the names the run's hashes find (`NearWords`), the run lower-cased
            // in place of a string or an array.
            if m <= max(exactNames.longest, longNames.longest + 1) {
                let found = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: m) { buffer -> Bool in
                    for i in 0..<m { buffer[i] = run[i] | 0x20 }
                    let lower = UnsafeBufferPointer(buffer)
                    var found = false
                    exactNames.forEachEqual(lower) { u in found = found || exactNames.words[u].elementsEqual(lower) }
                    if !found, m >= 5 {
                        longNames.forEachNear(lower) { u in
                            found = found || longNames.words[u].withUnsafeBufferPointer { EditDistance.withinOne($0, lower) }
                        }
                    }
                    return found
                }
                if found { return true }
            }
            guard m >= 5 else { return false }
            // A name with one character not ASCII, of this length (another character in its place) or one more
            // (that character left out): the ASCII before and after it as printed.
            func matches(_ key: (before: [UInt8], after: [UInt8])) -> Bool {
                guard key.before.count <= m, key.after.count <= m else { return false }
                for (i, c) in key.before.enumerated() where run[i] | 0x20 != c { return false }
                for (i, c) in key.after.enumerated() where run[m - key.after.count + i] | 0x20 != c { return false }
                return true
            }
            for n in m...(m + 1) where n < oneOtherByLength.count {
                if oneOtherByLength[n].contains(where: matches) { return true }
            }
            return false
        }

        /// `names(_:)` as it was, on the dictionaries (for the test that holds the tables by length to it).
        func namesByDictionaries(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
            if let same = exactASCII[run.count], same.contains(where: { name in name.indices.allSatisfy { name[$0] == run[$0] | 0x20 } }) { return true }
            guard run.count >= 5 else { return false }
            let lower = run.map { $0 | 0x20 }
            let runMask = WordLine.byteMask(lower)
            for n in (lower.count - 1)...(lower.count + 1) {
                guard let names = longASCII[n], let masks = longASCIIMasks[n] else { continue }
                for (name, mask) in zip(names, masks) where (mask & ~runMask).nonzeroBitCount <= 1 && EditDistance.withinOne(name, lower) { return true }
            }
            return longOneOther.contains { key in
                let m = lower.count
                if m == key.length {
                    return lower.prefix(key.before.count).elementsEqual(key.before) && lower.suffix(key.after.count).elementsEqual(key.after)
                }
                return m == key.length - 1 && lower.prefix(key.before.count).elementsEqual(key.before) && lower.suffix(key.after.count).elementsEqual(key.after)
            }
        }

        /// Whether `month(name, months)` reads `name`, a run of ASCII letters.
        func names(_ name: String) -> Bool {
            let key = name.lowercased()
            if exact.contains(key) { return true }
            let k = Array(key)
            guard k.count >= 5 else { return false }
            for n in (k.count - 1)...(k.count + 1) {
                if long[n]?.contains(where: { EditDistance.withinOne($0, k) }) == true { return true }
            }
            return false
        }
    }

    /// `monthWords`: the rules' month names made ready for the line's signs; without them, no line is
    /// passed over for want of a month name.
    /// `everyPattern`: every pattern tried, whatever the line's signs (for the tests that hold the signs to the patterns).
    static func scan(_ line: String, months: [String: Int], monthWords: MonthWords? = nil, everyPattern: Bool = false) -> [RawDate] {
        var out: [RawDate] = []
        // Ranges already read as dates, sorted and disjoint: a later pattern's overlapping match is dropped
        // (binary search: a line of thousands of dates stays linear-logarithmic).
        var taken: [Range<String.Index>] = []
        func add(_ r: RawDate, _ range: Range<String.Index>) {
            var lo = 0, hi = taken.count
            while lo < hi { let mid = (lo + hi) / 2; if taken[mid].upperBound <= range.lowerBound { lo = mid + 1 } else { hi = mid } }
            if lo < taken.count, taken[lo].overlaps(range) { return }
            // Not a date at all ("2019 - 17.21" is a date's year and a time): leave the text to the other patterns.
            guard r.reading(.dayFirst) != nil || r.reading(.monthFirst) != nil else { return }
            taken.insert(range, at: lo)
            out.append(r)
        }
        func pos(_ r: Range<String.Index>) -> Bool { r.lowerBound > line.startIndex && line[line.index(before: r.lowerBound)].isLetterQuick }
        // Each pattern is tried only where the line has what any match of it needs (most lines hold no date).
        let signs = everyPattern ? .every : Signs(line, monthWords: monthWords)
        guard signs.digits >= 2 else { return [] }
        if signs.ymdChain { scanYMD(line, add: add, glued: pos) }
        if signs.separatorThenYear { scanLooseNumeric(line, add: add, glued: pos) }
        if signs.numericChain { scanNumeric(line, add: add, glued: pos) }
        if signs.monthWord { scanMonthNames(line, months: months, add: add, glued: pos) }
        if signs.digits8 { scanCompact(line, colon: signs.colon, add: add, glued: pos) }
        if signs.yearMark { scanLooseMonthNames(line, months: months, add: add, glued: pos) }
        if signs.year4, signs.monthWord || signs.slashedWord { scanLooseDayMonthYear(line, months: months, add: add, glued: pos) }
        return out
    }

    /// What a line must hold for each pattern to match at all, found in one walk of a line of printable ASCII, or
    /// of one whose other characters are signs no pattern can match (`Bytes.printableWithNeutralSigns`: "£", "€"),
    /// letters ("é", "ü") or the dates' own marks ("’", "°"), walked as its stand-in (`standIn`); any other line:
    /// everything, and every pattern is tried.
    struct Signs {
        /// ASCII digits (any other line: 2, so nothing is ruled out by it).
        var digits = 0
        /// A run of exactly four digits starting 19 or 20: the year of `ymd`, `looseNumeric`, `looseDayMonthYear`
        /// (the first two ask more of it: `ymdChain`, `separatorThenYear`).
        var year4 = false
        /// Runs of digits joined by `\s?[-/.]\s?`: a year, one or two digits, then a digit (`ymd`); one or two
        /// digits, one or two, then a digit (`numeric`).
        var ymdChain = false
        var numericChain = false
        /// Such a year after `[-/.,']\s?`: `looseNumeric`'s end.
        var separatorThenYear = false
        /// A run of exactly eight digits: the `compact…` patterns.
        var digits8 = false
        /// How often a digit is followed by `\s?[-/.]\s?` and a digit (`ymd` and `numeric` need two, in a chain).
        var separatedDigits = 0
        var colon = false
        /// A year mark (`'`, `` ` ``, `"`): the loose month-name patterns.
        var yearMark = false
        /// A run of letters that `month` reads (or does without its first two letters, a day's "th" glued
        /// to it): every named pattern's name is such a run, and a name that is no month is dropped.
        /// Asked only where `digits` is 2 or more (false on other lines).
        var monthWord = false
        /// Three letters between two slashes or dashes after a digit and before one ("25/Fen/2017"): a month
        /// one letter off, maybe.
        var slashedWord = false

        /// Signs that rule nothing out: every pattern is tried.
        static let every: Signs = {
            var s = Signs()
            s.digits = 2; s.year4 = true; s.digits8 = true; s.separatedDigits = 2; s.colon = true; s.yearMark = true; s.monthWord = true
            s.slashedWord = true
            s.ymdChain = true; s.numericChain = true; s.separatorThenYear = true
            return s
        }()

        private init() {}

        init(_ line: String, monthWords: MonthWords?) {
            var line = line
            self = line.withUTF8 { Signs($0, monthWords: monthWords) }
        }

        init(_ line: UnsafeBufferPointer<UInt8>, monthWords: MonthWords?) {
            if line.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
                self.init(walking: line, monthWords: monthWords, otherLetters: false)
                return
            }
            guard let standIn = Self.standIn(line) else {
                self = .every
                return
            }
            self = standIn.withUnsafeBufferPointer { Signs(walking: $0, monthWords: monthWords, otherLetters: $0.contains(0x80)) }
        }

        /// A line whose characters not ASCII are signs, letters or the dates' marks, for the walk: what every pattern
        /// needs of it is needed of the stand-in. A sign no expression names (`Bytes.isNeutralSign`) is "#", as any
        /// ASCII sign they do not name. A letter (one scalar, a letter by its category: never a digit, space or mark)
        /// is the byte 0x80: no ASCII letter (the loose patterns' `[A-Za-z]` take none), but a letter of the runs the
        /// month names are looked for in, where it makes any run of three or more a month (`\p{L}` takes it, and the
        /// month words are asked in ASCII). "’" is "'" and "‘", "´", "°" are "`": year marks all, and "’" among
        /// `looseNumeric`'s separators as "'" is (`separatorThenYear`), the others not. Nil for any other line.
        static func standIn(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            Bytes.standIn(printable: b) { u in
                switch u {
                case "\u{2019}": return UInt8(ascii: "'")
                case "\u{2018}", "\u{00B4}", "\u{00B0}": return UInt8(ascii: "`")
                default:
                    switch u.properties.generalCategory {
                    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return 0x80
                    default: return Bytes.isNeutralSign(u) ? UInt8(ascii: "#") : nil
                    }
                }
            }
        }

        /// The walk, on printable ASCII or a stand-in (`standIn`; `otherLetters`: it holds a letter not ASCII, 0x80).
        @inline(__always) private init(walking b: UnsafeBufferPointer<UInt8>, monthWords: MonthWords?, otherLetters: Bool) {
            func isDigit(_ i: Int) -> Bool { i >= 0 && i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
            func isLetter(_ i: Int) -> Bool { i >= 0 && i < b.count && ((b[i] | 0x20) >= 0x61 && (b[i] | 0x20) <= 0x7A) }
            var i = 0
            // Where the digit after the last run's separator stands, and that run's length.
            var joinedAt = -1, joinedFrom = 0, joinedFromYear = false
            // A run of three letters or more: a month name may be one.
            var letterRun = false
            while i < b.count {
                let c = b[i]
                if isDigit(i) {
                    var j = i
                    while isDigit(j) { j += 1 }
                    let n = j - i
                    digits += n
                    let isYear = n == 4 && ((b[i] == 0x31 && b[i + 1] == 0x39) || (b[i] == 0x32 && b[i + 1] == 0x30))
                    if isYear {
                        year4 = true
                        // before it, a separator and maybe a space
                        let p = i > 0 && b[i - 1] == 0x20 ? i - 2 : i - 1
                        if p >= 0, "-/.,'".utf8.contains(b[p]) { separatorThenYear = true }
                    }
                    if n == 8 { digits8 = true }
                    // digit, optional space, separator, optional space, digit
                    var k = j
                    if k < b.count, b[k] == 0x20 { k += 1 }
                    if k < b.count, b[k] == 0x2D || b[k] == 0x2F || b[k] == 0x2E {
                        k += 1
                        if k < b.count, b[k] == 0x20 { k += 1 }
                        if isDigit(k) {
                            separatedDigits += 1
                            if i == joinedAt, n <= 2 {
                                if joinedFromYear { ymdChain = true }
                                if joinedFrom <= 2 { numericChain = true }
                            }
                            joinedAt = k; joinedFrom = n; joinedFromYear = isYear
                        }
                    }
                    i = j
                } else if isLetter(i) {
                    var j = i
                    while isLetter(j) { j += 1 }
                    if j - i >= 3 { letterRun = true }
                    if j - i == 3, i >= 2, j + 1 < b.count, b[i - 1] == 0x2F || b[i - 1] == 0x2D, b[j] == b[i - 1], isDigit(i - 2), isDigit(j + 1) {
                        slashedWord = true
                    }
                    i = j
                } else {
                    if c == 0x3A { colon = true }
                    if c == 0x27 || c == 0x60 || c == 0x22 { yearMark = true }
                    i += 1
                }
            }
            // The month names asked only of a line with two digits or more, after the walk (a speed trick: asking
            // them of every run of letters on every line was most of this walk's cost, and `scan` asks nothing
            // of a line with fewer digits, so there `monthWord` stays false unread).
            // (A stand-in's letters not ASCII, 0x80, join the runs here: a run of three or more holding one may be a month.)
            guard letterRun || otherLetters, digits >= 2 else { return }
            guard let words = monthWords else { monthWord = true; return }
            func isRunLetter(_ i: Int) -> Bool { isLetter(i) || (otherLetters && i < b.count && b[i] == 0x80) }
            i = 0
            while i < b.count {
                guard isRunLetter(i) else { i += 1; continue }
                var j = i, other = false
                while isRunLetter(j) { other = other || (otherLetters && b[j] == 0x80); j += 1 }
                if j - i >= 3 {
                    if other { monthWord = true; return }
                    let run = UnsafeBufferPointer(rebasing: b[i..<j])
                    if words.names(run) || (j - i >= 5 && words.names(UnsafeBufferPointer(rebasing: run.dropFirst(2)))) { monthWord = true; return }
                }
                i = j
            }
        }
    }

    static func scanYMD(_ line: String, add: (RawDate, Range<String.Index>) -> Void, glued pos: (Range<String.Index>) -> Bool) {
        for m in ymdMatches(line) {
            guard let y = m.groups[1].flatMap({ Int($0) }), let mo = m.groups[3].flatMap({ Int($0) }), let d = m.groups[4].flatMap({ Int($0) }) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .ymd, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.iso"), m.range)
        }
    }

    /// `numeric`'s matches, found by hand on printable ASCII (`QuantityScanner.allMatches`): the expression's own,
    /// in its backtracking order, with its groups and ranges. `HandScannerTests` holds it to the expression.
    static func numericMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, numeric) { b, from in
            let n = b.count
            @inline(__always) func digit(_ i: Int) -> Bool { i < n && Bytes.isDigit(b[i]) }
            @inline(__always) func digits(_ i: Int, _ k: Int) -> Bool { i + k <= n && (i..<(i + k)).allSatisfy { Bytes.isDigit(b[$0]) } }
            @inline(__always) func separator(_ i: Int) -> Bool { i < n && (b[i] == 0x2D || b[i] == 0x2F || b[i] == 0x2E) }
            /// `\s?` at `i`: with the space first, then without.
            @inline(__always) func space(_ i: Int) -> StrideThrough<Int> { stride(from: i < n && b[i] == 0x20 ? i + 1 : i, through: i, by: -1) }
            var st = from
            while st < n {
                defer { st += 1 }
                guard Bytes.isDigit(b[st]) else { continue }
                if st > 0, Bytes.isDigit(b[st - 1]) || b[st - 1] == UInt8(ascii: ".") || b[st - 1] == UInt8(ascii: ",") { continue }
                for k1 in stride(from: 2, through: 1, by: -1) where digits(st, k1) {
                    let a = st + k1
                    for s1 in space(a) where separator(s1) {
                        for s2 in space(s1 + 1) {
                            for k3 in stride(from: 2, through: 1, by: -1) where digits(s2, k3) {
                                let c = s2 + k3
                                for s3 in space(c) where separator(s3) {
                                    for s4 in space(s3 + 1) {
                                        for k5 in stride(from: 4, through: 2, by: -2) where digits(s4, k5) {
                                            let e = s4 + k5
                                            // `(?![\d]|[.,]\d|[-/.]\d)`
                                            if digit(e) { continue }
                                            if e < n, b[e] == 0x2E || b[e] == 0x2C || b[e] == 0x2D || b[e] == 0x2F, digit(e + 1) { continue }
                                            return (st..<e, [st..<a, s1..<(s1 + 1), s2..<c, s3..<(s3 + 1), s4..<e])
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `looseNumeric`'s matches, found by hand on printable ASCII: the expression's own, in its backtracking order,
    /// with its groups and ranges (`HandScannerTests` holds it to the expression).
    static func looseNumericMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, looseNumeric) { b, from in
            let n = b.count
            /// `[0-9OoQlI|]`, `[-/.,'’]` (on ASCII, without the ’).
            @inline(__always) func isDay(_ c: UInt8) -> Bool {
                Bytes.isDigit(c) || c == UInt8(ascii: "O") || c == UInt8(ascii: "o") || c == UInt8(ascii: "Q") || c == UInt8(ascii: "l")
                    || c == UInt8(ascii: "I") || c == UInt8(ascii: "|")
            }
            @inline(__always) func isMark(_ c: UInt8) -> Bool {
                c == 0x2D || c == 0x2F || c == 0x2E || c == 0x2C || c == 0x27
            }
            @inline(__always) func run(_ i: Int, _ k: Int, _ test: (UInt8) -> Bool) -> Bool {
                i + k <= n && (i..<(i + k)).allSatisfy { test(b[$0]) }
            }
            @inline(__always) func space(_ i: Int) -> StrideThrough<Int> { stride(from: i < n && b[i] == 0x20 ? i + 1 : i, through: i, by: -1) }
            var st = from
            while st < n {
                defer { st += 1 }
                guard isDay(b[st]) else { continue }
                // `(?<![0-9A-Za-z.,/\-])`
                if st > 0, case let c = b[st - 1], Bytes.isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || c == 0x2E || c == 0x2C || c == 0x2F || c == 0x2D { continue }
                for k1 in stride(from: 2, through: 1, by: -1) where run(st, k1, isDay) {
                    let a = st + k1
                    for s1 in space(a) {
                        for k2 in stride(from: 2, through: 1, by: -1) where run(s1, k2, isMark) {
                            let p = s1 + k2
                            for s2 in space(p) {
                                for k3 in stride(from: 2, through: 1, by: -1) where run(s2, k3, isDay) {
                                    let c = s2 + k3
                                    for s3 in space(c) {
                                        for k4 in stride(from: 2, through: 1, by: -1) where run(s3, k4, isMark) {
                                            let q = s3 + k4
                                            for s4 in space(q) {
                                                // `((?:19|20)\d{2})(?![0-9])`
                                                guard s4 + 4 <= n, (b[s4] == 0x31 && b[s4 + 1] == 0x39) || (b[s4] == 0x32 && b[s4 + 1] == 0x30),
                                                      Bytes.isDigit(b[s4 + 2]), Bytes.isDigit(b[s4 + 3]), !(s4 + 4 < n && Bytes.isDigit(b[s4 + 4]))
                                                else { continue }
                                                return (st..<(s4 + 4), [st..<a, s1..<p, s2..<c, s3..<q, s4..<(s4 + 4)])
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `compactYMD`'s matches by hand on printable ASCII (fixed width: one way to match at each place).
    static func compactYMDMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, compactYMD) { b, from in
            let n = b.count
            @inline(__always) func d(_ i: Int) -> Bool { i < n && Bytes.isDigit(b[i]) }
            var st = from
            while st + 8 <= n {
                defer { st += 1 }
                guard b[st] == 0x32, b[st + 1] == 0x30, d(st + 2), d(st + 3), !(st > 0 && Bytes.isDigit(b[st - 1])) else { continue }
                let m0 = b[st + 4], m1 = b[st + 5], d0 = b[st + 6], d1 = b[st + 7]
                // `(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)`
                guard (m0 == 0x30 && m1 >= 0x31 && m1 <= 0x39) || (m0 == 0x31 && m1 >= 0x30 && m1 <= 0x32) else { continue }
                guard (d0 == 0x30 && d1 >= 0x31 && d1 <= 0x39) || ((d0 == 0x31 || d0 == 0x32) && Bytes.isDigit(d1)) || (d0 == 0x33 && (d1 == 0x30 || d1 == 0x31))
                else { continue }
                guard !d(st + 8) else { continue }
                return (st..<(st + 8), [st..<(st + 4), (st + 4)..<(st + 6), (st + 6)..<(st + 8)])
            }
            return nil
        }
    }

    /// `compactDMYBeforeTime`'s matches by hand on printable ASCII.
    static func compactDMYBeforeTimeMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, compactDMYBeforeTime) { b, from in
            let n = b.count
            @inline(__always) func d(_ i: Int) -> Bool { i < n && Bytes.isDigit(b[i]) }
            /// `:[0-5]\d(?!\d)` at `t`.
            @inline(__always) func minutes(_ t: Int) -> Bool { t < n && b[t] == 0x3A && t + 1 < n && b[t + 1] >= 0x30 && b[t + 1] <= 0x35 && d(t + 2) && !d(t + 3) }
            var st = from
            while st + 8 <= n {
                defer { st += 1 }
                if st > 0, Bytes.isDigit(b[st - 1]) || b[st - 1] == 0x2E || b[st - 1] == 0x2C { continue }
                guard d(st), d(st + 1), d(st + 2), d(st + 3), (b[st + 4] == 0x31 && b[st + 5] == 0x39) || (b[st + 4] == 0x32 && b[st + 5] == 0x30),
                      d(st + 6), d(st + 7) else { continue }
                // `(?=\s{1,3}(?:[01]?\d|2[0-3]):[0-5]\d(?!\d))`: one to three spaces (a fourth leaves a space where the hour must be)
                let e = st + 8
                var h = e
                while h < n, b[h] == 0x20 { h += 1 }
                guard (1...3).contains(h - e), h < n else { continue }
                // `[01]?\d` (with the first digit, then without), or `2[0-3]`
                let hour = ((b[h] == 0x30 || b[h] == 0x31) && d(h + 1) && minutes(h + 2))
                    || (d(h) && minutes(h + 1))
                    || (b[h] == 0x32 && h + 1 < n && b[h + 1] >= 0x30 && b[h + 1] <= 0x33 && minutes(h + 2))
                guard hour else { continue }
                return (st..<e, [st..<(st + 2), (st + 2)..<(st + 4), (st + 4)..<e])
            }
            return nil
        }
    }

    /// `compactDMYAfterDateWord`'s matches by hand on printable ASCII (the words in any case, as the expression).
    static func compactDMYAfterDateWordMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, compactDMYAfterDateWord) { b, from in
            let n = b.count
            @inline(__always) func d(_ i: Int) -> Bool { i < n && Bytes.isDigit(b[i]) }
            /// Whether the word `w` (lower case) stands at `i`, in any case.
            @inline(__always) func word(_ i: Int, _ w: StaticString) -> Bool { Bytes.says(b, i, w) }
            var st = from
            while st < n {
                defer { st += 1 }
                let c = b[st] | 0x20
                guard c == 0x64 || c == 0x74 || c == 0x66 else { continue }
                // `\b`: no word character (a letter, a digit, "_") before it
                if st > 0, case let p = b[st - 1], Bytes.isDigit(p) || ((p | 0x20) >= 0x61 && (p | 0x20) <= 0x7A) || p == 0x5F { continue }
                // (At most one of the words can stand here: each takes the place only its own letters fill.)
                var w = st
                if word(st, "date") { w = st + 4 } else if word(st, "tarikh") { w = st + 6 } else if word(st, "datum") { w = st + 5 } else if word(st, "fecha") { w = st + 5 } else { continue }
                // `\s*[:.]?\s*` (a shorter run of spaces leaves a space no digit matches)
                while w < n, b[w] == 0x20 { w += 1 }
                if w < n, b[w] == 0x3A || b[w] == 0x2E { w += 1 }
                while w < n, b[w] == 0x20 { w += 1 }
                guard w + 8 <= n, d(w), d(w + 1), d(w + 2), d(w + 3), (b[w + 4] == 0x31 && b[w + 5] == 0x39) || (b[w + 4] == 0x32 && b[w + 5] == 0x30),
                      d(w + 6), d(w + 7) else { continue }
                let e = w + 8
                // `(?![\d.,])`
                if e < n, Bytes.isDigit(b[e]) || b[e] == 0x2E || b[e] == 0x2C { continue }
                return (st..<e, [w..<(w + 2), (w + 2)..<(w + 4), (w + 4)..<e])
            }
            return nil
        }
    }

    /// The steps of the date expressions' hand matchers below, on a line of printable ASCII (`\s` is the space there,
    /// `\d` and `\p{L}` ASCII digits and letters, a byte a character): each gives the places a step may end, in the
    /// order the expression tries them (a greedy step from its longest).
    struct Steps {
        let b: UnsafeBufferPointer<UInt8>
        @inline(__always) func digit(_ i: Int) -> Bool { i >= 0 && i < b.count && Bytes.isDigit(b[i]) }
        @inline(__always) func letter(_ i: Int) -> Bool { i >= 0 && i < b.count && Bytes.isLetter(b[i]) }
        @inline(__always) func isIn(_ i: Int, _ set: ByteSet) -> Bool { i >= 0 && i < b.count && set.contains(b[i]) }
        /// `c?` at `i`: past it, then not.
        @inline(__always) func optional(_ i: Int, _ c: UInt8) -> StrideThrough<Int> {
            stride(from: i < b.count && b[i] == c ? i + 1 : i, through: i, by: -1)
        }
        /// `[…]{lo,hi}` at `i`: the ends from the longest run of bytes `test` takes down to `lo` of them (none when shorter).
        @inline(__always) func run(_ i: Int, _ lo: Int, _ hi: Int, _ test: (UInt8) -> Bool) -> StrideThrough<Int> {
            var e = i
            while e < b.count, e - i < hi, test(b[e]) { e += 1 }
            return stride(from: e, through: i + lo, by: -1)
        }
        @inline(__always) func run(_ i: Int, _ lo: Int, _ hi: Int, _ set: ByteSet) -> StrideThrough<Int> { run(i, lo, hi, set.contains) }
        /// `(\d{4}|\d{2})` at `i`: four digits, then two.
        @inline(__always) func year(_ i: Int) -> [Int] {
            digit(i) && digit(i + 1) ? (digit(i + 2) && digit(i + 3) ? [i + 4, i + 2] : [i + 2]) : []
        }
        /// `(?:19|20)\d{2}` at `i`.
        @inline(__always) func fullYear(_ i: Int) -> Bool {
            i + 4 <= b.count && ((b[i] == 0x31 && b[i + 1] == 0x39) || (b[i] == 0x32 && b[i + 1] == 0x30)) && digit(i + 2) && digit(i + 3)
        }
        /// One of the two-letter `words` (lower case, run together: "stndrdth") at `i`, in any case.
        @inline(__always) func pair(_ i: Int, _ words: StaticString) -> Bool {
            guard i + 1 < b.count else { return false }
            let w = words.utf8Start, x = Bytes.lower(b[i]), y = Bytes.lower(b[i + 1])
            for k in stride(from: 0, to: words.utf8CodeUnitCount, by: 2) where w[k] == x && w[k + 1] == y { return true }
            return false
        }
        /// `(['’‘´`°"]{1,2}|,')` at `i` (on ASCII the marks are ' ` "): the ends, in that order.
        @inline(__always) func yearMark(_ i: Int) -> [Int] {
            if isIn(i, DateScanner.yearMarks) { return isIn(i + 1, DateScanner.yearMarks) ? [i + 2, i + 1] : [i + 1] }
            return i + 1 < b.count && b[i] == 0x2C && b[i + 1] == 0x27 ? [i + 2] : []
        }
        /// `(?![0-9]|[.,:][0-9])` at `i`: the loose dates' two-digit year ends there.
        @inline(__always) func twoDigitYearEnds(_ i: Int) -> Bool { !digit(i) && !(isIn(i, DateScanner.yearEndMarks) && digit(i + 1)) }
    }
    static let yearMarks = ByteSet("'`\""), yearEndMarks = ByteSet(".,:")
    static let nameSeparators = ByteSet(" -/.,"), nameSeparatorsAndMark = ByteSet(" -/.,'"), daySeparators = ByteSet(" -/.")
    static let dayEnds = ByteSet(" ,.'`-/"), dateSeparators = ByteSet("-/."), apostrophes = ByteSet("'`"), pointOrComma = ByteSet(".,")
    static let looseDayChars = ByteSet("0123456789OoQlIi|!tSsBZz?"), looseLeadDayChars = ByteSet("0123456789OoQlI|!SZB")
    static let looseYearDayChars = ByteSet("0123456789OoQDGlI|SZB")

    /// `dayMonthName`'s matches by hand on printable ASCII (case-insensitive, as the expression: "1ST", "o5"), in its
    /// backtracking order with its groups (`HandScannerTests` holds it to the expression).
    /// A scalar's byte in the stand-in the month-name dates are matched on by hand (`QuantityScanner.allMatches`): a Latin
    /// letter (`Bytes.latinLower`) as "z", a letter of ASCII no literal of `dayMonthName` or `monthNameDay` holds (both
    /// take a Latin letter only as `\p{L}`); "’", "‘" and "´" as "`", which every class of the two that names one of
    /// them names with them (and the others none of the four); any other sign (`Bytes.isNeutralSign`) and "°" as "#",
    /// in no class of theirs. Nil for anything else: the line goes to the expressions. (A speed trick: each of them
    /// ran on every line of a German or French receipt with digits, some 30,000 instructions a line.)
    static func monthNameStandIn(_ u: Unicode.Scalar) -> UInt8? {
        if Bytes.latinLower(u) != nil { return UInt8(ascii: "z") }
        if u == "\u{2019}" || u == "\u{2018}" || u == "\u{00B4}" { return UInt8(ascii: "`") }
        return Bytes.isNeutralSign(u) || u == "\u{00B0}" ? UInt8(ascii: "#") : nil
    }

    static func dayMonthNameMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, dayMonthName, standIn: monthNameStandIn) { b, from in
            let t = Steps(b: b)
            for st in from..<b.count {
                // `(?<![\d\p{L}])([OQD]\d|\d{1,2})`
                guard !t.digit(st - 1), !t.letter(st - 1) else { continue }
                let lead = Bytes.lower(b[st])
                let days = (lead == 0x6F || lead == 0x71 || lead == 0x64) && t.digit(st + 1) ? stride(from: st + 2, through: st + 2, by: -1)
                    : t.run(st, 1, 2, Bytes.isDigit)
                for a in days {
                    // `(?:st|nd|rd|th|er)?[\s\-/.,]*(\p{L}{3,9})\.?[\s\-/.,']*`
                    for p in stride(from: t.pair(a, "stndrdther") ? a + 2 : a, through: a, by: -2) {
                        for q in t.run(p, 0, Int.max, nameSeparators) {
                            for ne in t.run(q, 3, 9, Bytes.isLetter) {
                                for d in t.optional(ne, 0x2E) {
                                    for y in t.run(d, 0, Int.max, nameSeparatorsAndMark) {
                                        for e in t.year(y) {
                                            // `(?!\d|\s?['’‘´`]\s?\d)`
                                            if t.digit(e) { continue }
                                            let marked = t.optional(e, 0x20).contains { m in
                                                t.isIn(m, apostrophes) && t.optional(m + 1, 0x20).contains { t.digit($0) }
                                            }
                                            if marked { continue }
                                            return (st..<e, [st..<a, q..<ne, y..<e])
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `monthNameDay`'s matches by hand on printable ASCII (case-insensitive, as the expression), in its backtracking
    /// order with its groups (`HandScannerTests` holds it to the expression).
    static func monthNameDayMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, monthNameDay, standIn: monthNameStandIn) { b, from in
            let t = Steps(b: b)
            for st in from..<b.count where t.letter(st) && !t.letter(st - 1) {
                // `(\p{L}{3,9})\.?[\s\-/.]*(\d{1,2})`
                for ne in t.run(st, 3, 9, Bytes.isLetter) {
                    for d in t.optional(ne, 0x2E) {
                        for q in t.run(d, 0, Int.max, daySeparators) {
                            for de in t.run(q, 1, 2, Bytes.isDigit) {
                                // `(?![.,]\d{2}(?!\d))`
                                if t.isIn(de, pointOrComma), t.digit(de + 1), t.digit(de + 2), !t.digit(de + 3) { continue }
                                // `(?:st|nd|rd|th|[\s,.'’‘´`\-/])[\s,.'’‘´`\-/]*`
                                let after = t.pair(de, "stndrdth") ? de + 2 : t.isIn(de, dayEnds) ? de + 1 : -1
                                guard after >= 0 else { continue }
                                for y in t.run(after, 0, Int.max, dayEnds) {
                                    // `(\d{4}|\d{2})(?![\d]|:\d)`
                                    for e in t.year(y) where !t.digit(e) && !(e < b.count && b[e] == 0x3A && t.digit(e + 1)) {
                                        return (st..<e, [st..<ne, q..<de, y..<e])
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `looseMonthNameDay`'s matches by hand on printable ASCII, in its backtracking order with its groups.
    static func looseMonthNameDayMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, looseMonthNameDay) { b, from in
            let t = Steps(b: b)
            for st in from..<b.count where t.letter(st) && t.letter(st + 1) && t.letter(st + 2) && !t.letter(st - 1) {
                // `([A-Za-z]{3})\.?\s?([0-9OoQlIi|!tSsBZz?]{1,3})\s?` + year mark + `\s?(\d{2})(?![0-9]|[.,:][0-9])`
                let a = st + 3
                for d in t.optional(a, 0x2E) {
                    for s in t.optional(d, 0x20) {
                        for de in t.run(s, 1, 3, looseDayChars) {
                            for m in t.optional(de, 0x20) {
                                for k in t.yearMark(m) {
                                    for y in t.optional(k, 0x20) where t.digit(y) && t.digit(y + 1) && t.twoDigitYearEnds(y + 2) {
                                        return (st..<(y + 2), [st..<a, s..<de, m..<k, y..<(y + 2)])
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `looseDayMonthName`'s matches by hand on printable ASCII, in its backtracking order with its groups.
    static func looseDayMonthNameMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, looseDayMonthName) { b, from in
            let t = Steps(b: b)
            for st in from..<b.count where !t.letter(st - 1) && !t.digit(st - 1) {
                // `([0-9OoQlI|!SZB]{1,2})([A-Za-z]{3})\s?` + year mark + `\s?(\d{2})(?![0-9]|[.,:][0-9])`
                for a in t.run(st, 1, 2, looseLeadDayChars) where t.letter(a) && t.letter(a + 1) && t.letter(a + 2) {
                    for m in t.optional(a + 3, 0x20) {
                        for k in t.yearMark(m) {
                            for y in t.optional(k, 0x20) where t.digit(y) && t.digit(y + 1) && t.twoDigitYearEnds(y + 2) {
                                return (st..<(y + 2), [st..<a, a..<(a + 3), m..<k, y..<(y + 2)])
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `looseDayMonthYear`'s matches by hand on printable ASCII, in its backtracking order with its groups.
    static func looseDayMonthYearMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, looseDayMonthYear) { b, from in
            let t = Steps(b: b)
            for st in from..<b.count where !t.letter(st - 1) && !t.digit(st - 1) && t.isIn(st, looseYearDayChars) && t.isIn(st + 1, looseYearDayChars) {
                // `([0-9OoQDGlI|SZB]{2})[\s\-/.]{1,3}([A-Za-z]{3,9})\.?[\s\-/.,]{1,3}((?:19|20)\d{2})(?!\d)`
                let a = st + 2
                for q in t.run(a, 1, 3, daySeparators) {
                    for ne in t.run(q, 3, 9, Bytes.isLetter) {
                        for d in t.optional(ne, 0x2E) {
                            for y in t.run(d, 1, 3, nameSeparators) where t.fullYear(y) && !t.digit(y + 4) {
                                return (st..<(y + 4), [st..<a, q..<ne, y..<(y + 4)])
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    /// `ymd`'s matches by hand on printable ASCII, in its backtracking order with its groups.
    static func ymdMatches(_ line: String) -> [QuantityScanner.Match] {
        QuantityScanner.allMatches(line, ymd) { b, from in
            let t = Steps(b: b)
            for st in from..<b.count where t.fullYear(st) && !t.digit(st - 1) {
                // `((?:19|20)\d{2})\s?([-/.])\s?(\d{1,2})\s?[-/.]\s?(\d{1,2})(?!\d)`
                let a = st + 4
                for s1 in t.optional(a, 0x20) where t.isIn(s1, dateSeparators) {
                    for s2 in t.optional(s1 + 1, 0x20) {
                        for de in t.run(s2, 1, 2, Bytes.isDigit) {
                            for s3 in t.optional(de, 0x20) where t.isIn(s3, dateSeparators) {
                                for s4 in t.optional(s3 + 1, 0x20) {
                                    for e in t.run(s4, 1, 2, Bytes.isDigit) where !t.digit(e) {
                                        return (st..<e, [st..<a, s1..<(s1 + 1), s2..<de, s4..<e])
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
    }

    static func scanNumeric(_ line: String, add: (RawDate, Range<String.Index>) -> Void, glued pos: (Range<String.Index>) -> Bool) {
        for m in numericMatches(line) {
            guard let a = m.groups[1].flatMap({ Int($0) }), let b = m.groups[3].flatMap({ Int($0) }),
                  let ys = m.groups[5], let y = year(ys) else { continue }
            // "12.50.10" style noise: separators must agree unless OCR dropped one.
            if let s1 = m.groups[2], let s2 = m.groups[4], s1 != s2, !(s1 == "-" || s2 == "-") { continue }
            add(RawDate(first: a, second: b, year: y, shape: .numeric, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.numeric"), m.range)
        }
    }

    static func scanMonthNames(_ line: String, months: [String: Int], add: (RawDate, Range<String.Index>) -> Void, glued pos: (Range<String.Index>) -> Bool) {
        for m in dayMonthNameMatches(line) {
            guard let d = m.groups[1].flatMap({ Int(String($0.map { "OQD".contains($0) ? "0" : $0 })) }), let name = m.groups[2], let mo = month(name, months),
                  let ys = m.groups[3], let y = year(ys) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.day-monthname"), m.range)
        }
        for m in monthNameDayMatches(line) {
            guard let name = m.groups[1], let mo = month(name, months), let d = m.groups[2].flatMap({ Int($0) }),
                  let ys = m.groups[3], let y = year(ys) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.monthname-day"), m.range)
        }
    }

    static func scanCompact(_ line: String, colon: Bool, add: (RawDate, Range<String.Index>) -> Void, glued pos: (Range<String.Index>) -> Bool) {
        for m in compactYMDMatches(line) {
            guard let y = m.groups[1].flatMap({ Int($0) }), let mo = m.groups[2].flatMap({ Int($0) }), let d = m.groups[3].flatMap({ Int($0) }) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .compact, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.compact"), m.range)
        }
        for m in colon ? compactDMYBeforeTimeMatches(line) : [] {
            guard let a = m.groups[1].flatMap({ Int($0) }), let b = m.groups[2].flatMap({ Int($0) }), let y = m.groups[3].flatMap({ Int($0) }) else { continue }
            add(RawDate(first: a, second: b, year: y, shape: .numeric, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.compact-before-time"), m.range)
        }
        for m in compactDMYAfterDateWordMatches(line) {
            guard let a = m.groups[1].flatMap({ Int($0) }), let b = m.groups[2].flatMap({ Int($0) }), let y = m.groups[3].flatMap({ Int($0) }),
                  let digits = line[m.range].firstRange(of: #/\d{8}/#) else { continue }
            add(RawDate(first: a, second: b, year: y, shape: .numeric, afterLetter: false, text: String(line[digits]), rule: "date.compact-after-date-word"), digits)
        }
    }

    /// All-digit dates read through OCR slips. Before the clean patterns, so "O1/12/2018 10:22" is 1 December
    /// rather than "1/12/2018" glued to a letter; it gives way on text read as printed.
    static func scanLooseNumeric(_ line: String, add: (RawDate, Range<String.Index>) -> Void, glued: (Range<String.Index>) -> Bool) {
        for m in looseNumericMatches(line) {
            guard let r1 = m.groups[1], let s1 = m.groups[2], let r2 = m.groups[3], let s2 = m.groups[4], let ys = m.groups[5], let y = Int(ys),
                  var aText = digits(r1), var a = Int(aText), let bText = digits(r2), let b = Int(bText) else { continue }
            let clean: Set<String> = ["/", "-", "."]
            let lookAlike = aText != r1 || bText != r2
            let garbled = !clean.contains(s1) || !clean.contains(s2)
            // One separator misread ("02,'22/2014"): the other must be a slash or a hyphen.
            if garbled, !(clean.contains(s1) && s1 != "." || clean.contains(s2) && s2 != ".") { continue }
            // Digit look-alikes: only with a time of day after the date on the line.
            if lookAlike, ReceiptParser.timeOfDay.matches(in: String(line[m.range.upperBound...])).isEmpty { continue }
            // A leading 9 read for 0 ("92/02/2018"): no day or month is 90 or more.
            var nine = false
            if a >= 90, aText.count == 2 { a -= 90; aText = "0" + aText.dropFirst(); nine = true }
            guard lookAlike || garbled || nine else { continue }
            let sep = clean.contains(s2) ? s2 : s1
            let taken = "\(aText)\(sep)\(bText)\(sep)\(ys)"
            add(RawDate(first: a, second: b, year: y, shape: .numeric, afterLetter: glued(m.range), text: String(line[m.range]),
                        rule: "date.numeric", repaired: taken), m.range)
        }
    }

    /// The OCR-tolerant month-name forms, after the clean ones (a clean reading of the same text wins through `add`).
    static func scanLooseMonthNames(_ line: String, months: [String: Int], add: (RawDate, Range<String.Index>) -> Void,
                                    glued: (Range<String.Index>) -> Bool) {
        // What a clean reading prints between the day and a two-digit year.
        let cleanMarks: Set<String> = ["'", "’", "‘", "´", "`"]
        for m in looseMonthNameDayMatches(line) {
            guard let name = m.groups[1], let run = m.groups[2], let mark = m.groups[3], let ys = m.groups[4], let y = year(ys),
                  // "Sept'15", "Juli' 12": a longer month name and a year, not a day read from its last letter.
                  months[(name + run).lowercased()] == nil,
                  let (mo, monthText) = looseMonth(name, months), let (d, dayText) = looseDay(run),
                  monthText != name || dayText != run || !cleanMarks.contains(mark) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: glued(m.range), text: String(line[m.range]),
                        rule: "date.monthname-day", repaired: "\(monthText)\(dayText)'\(ys)"), m.range)
        }
        for m in looseDayMonthNameMatches(line) {
            guard let run = m.groups[1], run.contains(where: \.isNumber), let name = m.groups[2], let mark = m.groups[3],
                  let ys = m.groups[4], let y = year(ys), let (mo, monthText) = looseMonth(name, months), let (d, dayText) = looseDay(run),
                  monthText != name || dayText != run || !cleanMarks.contains(mark) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: glued(m.range), text: String(line[m.range]),
                        rule: "date.day-monthname", repaired: "\(dayText)\(monthText)'\(ys)"), m.range)
        }
    }

    /// A day of look-alikes before a month name and a four-digit year, only before a time of day on the line.
    /// A D or G leading a two-digit day is a 0 (no day starts with 6).
    static func scanLooseDayMonthYear(_ line: String, months: [String: Int], add: (RawDate, Range<String.Index>) -> Void,
                                      glued: (Range<String.Index>) -> Bool) {
        for m in looseDayMonthYearMatches(line) {
            // "25/Fen/2017": a three-letter month one letter off, between two slashes (or dashes) after a day of digits.
            if let run = m.groups[1], let name = m.groups[2], let ys = m.groups[3], let y = Int(ys), let d = Int(run), (1...31).contains(d),
               name.count == 3, months[name.lowercased()] == nil, let (mo, fixed) = looseMonth(name, months) {
                let text = Array(line[m.range])
                if text.count == 11, text[2] == text[6], text[2] == "/" || text[2] == "-" {
                    add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: glued(m.range), text: String(line[m.range]),
                                rule: "date.day-monthname", repaired: "\(run)\(text[2])\(fixed)\(text[2])\(ys)"), m.range)
                    continue
                }
            }
            guard let run = m.groups[1], run.contains(where: { !$0.isNumber }), let name = m.groups[2], let mo = month(name, months),
                  let ys = m.groups[3], let y = Int(ys),
                  !ReceiptParser.timeOfDay.matches(in: String(line[m.range.upperBound...])).isEmpty else { continue }
            let lead = run.first.map { "DG".contains($0) ? "0" : String($0) } ?? ""
            guard let dayText = digits(lead + run.dropFirst()), let d = Int(dayText) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: glued(m.range), text: String(line[m.range]),
                        rule: "date.day-monthname", repaired: "\(dayText) \(name) \(ys)"), m.range)
        }
    }

    /// A day's digit run read through look-alikes: the day and its digits, or nil when it is no day (1...31).
    /// Three characters only with one stray mark among them ("l?7", "3S1"): the mark is dropped.
    static func looseDay(_ run: String) -> (Int, String)? {
        var chars = Array(run)
        if chars.count == 3 {
            // The stray mark: a "?", else the one character that is not a digit.
            let strays = chars.indices.filter { chars[$0] == "?" }
            let others = chars.indices.filter { !chars[$0].isNumber }
            guard let i = strays.count == 1 ? strays.first : (others.count == 1 ? others.first : nil) else { return nil }
            chars.remove(at: i)
        }
        guard let text = digits(String(chars)), let d = Int(text), (1...31).contains(d) else { return nil }
        return (d, text)
    }

    /// `run` with its look-alikes read as digits, or nil when a character is neither.
    static func digits(_ run: String) -> String? {
        var out = ""
        for c in run {
            if c.isASCII, c.isNumber { out.append(c) } else if let d = lookAlikes[c] { out.append(d) } else { return nil }
        }
        return out
    }

    /// A three-letter month as printed, or one letter off a three-letter month name when only one month is
    /// that close ("dpr" is "apr"; "hug" is as near "aug" as Italian "lug" and stays unread): the month and its name.
    static func looseMonth(_ name: String, _ months: [String: Int]) -> (Int, String)? {
        let key = name.lowercased()
        if let m = months[key] { return (m, name) }
        let near = months.filter { $0.key.count == 3 && EditDistance.levenshtein($0.key, key, limit: 1) <= 1 }
        guard let m = near.first?.value, near.allSatisfy({ $0.value == m }),
              let fixed = near.keys.sorted().first else { return nil }
        return (m, name.first?.isUppercase == true && name.dropFirst().first?.isUppercase == true ? fixed.uppercased() : fixed.capitalized)
    }

    static func month(_ name: String, _ months: [String: Int]) -> Int? {
        let key = name.lowercased()
        if let m = months[key] { return m }
        // OCR slips in a long month name ("Septernber")
        if key.count >= 5 {
            return months.first { $0.key.count >= 5 && EditDistance.levenshtein($0.key, key, limit: 1) <= 1 }?.value
        }
        return nil
    }
}
