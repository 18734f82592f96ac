import Foundation
import ReceiptModel

/// A date as found in the text, before the day/month order is settled.
struct RawDate {
    enum Shape { case ymd, numeric, named, compact }
    var first: Int      // day or month for .numeric; day for others
    var second: Int     // month or day for .numeric; month for others
    var year: Int
    var shape: Shape
    /// Glued to a word before it ("HC03-7-15"): judged when scanned, so no later walk of the line is needed.
    var afterLetter: Bool
    var text: String
    var rule: String

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
    /// The day may start with a letter OCR reads for 0 ("Q1-Nov-2017"); a month name must follow.
    static let dayMonthName = Pattern(#"(?<![\d\p{L}])([OQD]\d|\d{1,2})(?:st|nd|rd|th|er)?[\s\-/.,]*(\p{L}{3,9})\.?[\s\-/.,']*(\d{4}|\d{2})(?!\d)"#)
    /// "Jun17'13", "Jul03’ 12", "Oct.10'15(Sat)", "March 4, 2024": the year after an apostrophe as US tills print it.
    static let monthNameDay = Pattern(#"(?<!\p{L})(\p{L}{3,9})\.?[\s\-/.]*(\d{1,2})(?:st|nd|rd|th|[\s,.'’‘´`\-/])[\s,.'’‘´`\-/]*(\d{4}|\d{2})(?![\d]|:\d)"#)
    /// "25032018 13:11:54": a till's stamp, day (or month) and month (or day) and year run together, then
    /// the time of day. Only before a time: alone, eight digits are as likely a number.
    static let compactBeforeTime = Pattern(#"(?<![\d.,/-])(\d{2})(\d{2})(20\d{2})(?=\s{1,3}\d{1,2}:\d{2})"#)
    static let compactYMD = Pattern(#"(?<!\d)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)"#)

    static func year(_ s: String) -> Int? {
        guard let y = Int(s) else { return nil }
        return s.count == 2 ? 2000 + y : y
    }

    static func scan(_ line: String, months: [String: Int]) -> [RawDate] {
        var out: [RawDate] = []
        // Ranges already read as dates, sorted and disjoint: a later pattern's overlapping match is dropped
        // (binary search: a line of thousands of dates stays linear-logarithmic).
        var taken: [Range<String.Index>] = []
        func add(_ r: RawDate, _ range: Range<String.Index>) {
            var lo = 0, hi = taken.count
            while lo < hi { let mid = (lo + hi) / 2; if taken[mid].upperBound <= range.lowerBound { lo = mid + 1 } else { hi = mid } }
            if lo < taken.count, taken[lo].overlaps(range) { return }
            // Not a date at all ("2018 - 18.10" is a date's year and a time): leave the text to the other patterns.
            guard r.reading(.dayFirst) != nil || r.reading(.monthFirst) != nil else { return }
            taken.insert(range, at: lo)
            out.append(r)
        }
        func pos(_ r: Range<String.Index>) -> Bool { r.lowerBound > line.startIndex && line[line.index(before: r.lowerBound)].isLetter }
        for m in ymd.matches(in: line) {
            guard let y = m.groups[1].flatMap({ Int($0) }), let mo = m.groups[3].flatMap({ Int($0) }), let d = m.groups[4].flatMap({ Int($0) }) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .ymd, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.iso"), m.range)
        }
        for m in numeric.matches(in: line) {
            guard let a = m.groups[1].flatMap({ Int($0) }), let b = m.groups[3].flatMap({ Int($0) }),
                  let ys = m.groups[5], let y = year(ys) else { continue }
            // "12.50.10" style noise: separators must agree unless OCR dropped one.
            if let s1 = m.groups[2], let s2 = m.groups[4], s1 != s2, !(s1 == "-" || s2 == "-") { continue }
            add(RawDate(first: a, second: b, year: y, shape: .numeric, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.numeric"), m.range)
        }
        for m in dayMonthName.matches(in: line) {
            guard let d = m.groups[1].flatMap({ Int(String($0.map { "OQD".contains($0) ? "0" : $0 })) }), let name = m.groups[2], let mo = month(name, months),
                  let ys = m.groups[3], let y = year(ys) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.day-monthname"), m.range)
        }
        for m in monthNameDay.matches(in: line) {
            guard let name = m.groups[1], let mo = month(name, months), let d = m.groups[2].flatMap({ Int($0) }),
                  let ys = m.groups[3], let y = year(ys) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .named, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.monthname-day"), m.range)
        }
        for m in compactBeforeTime.matches(in: line) {
            guard let a = m.groups[1].flatMap({ Int($0) }), let b = m.groups[2].flatMap({ Int($0) }), let y = m.groups[3].flatMap({ Int($0) }) else { continue }
            add(RawDate(first: a, second: b, year: y, shape: .numeric, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.compact-numeric"), m.range)
        }
        for m in compactYMD.matches(in: line) {
            guard let y = m.groups[1].flatMap({ Int($0) }), let mo = m.groups[2].flatMap({ Int($0) }), let d = m.groups[3].flatMap({ Int($0) }) else { continue }
            add(RawDate(first: d, second: mo, year: y, shape: .compact, afterLetter: pos(m.range), text: String(line[m.range]), rule: "date.compact"), m.range)
        }
        return out
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
