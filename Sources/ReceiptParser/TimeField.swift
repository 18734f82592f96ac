import Foundation
import ReceiptModel

// The time of day: an hh:mm[:ss] on the line, best on the date's line or after "time"; not an amount
// misread on a total or payment line. Of equals the last: a receipt that prints its date and time twice
// (the order opened and the bill printed, the card slip) was paid at the later one.

extension ReceiptParser {
    /// `dateLine`: the line the date was read from; `dayLines`: every line that prints that day.
    func time(_ lines: [ParseLine], dateLine: Int?, dayLines: Set<Int> = []) -> Field<TimeOfDay>? {
        var best: (TimeOfDay, Double, ParseLine, [Note])?
        for l in lines {
            let times = TimeScanner.scan(l.text)
            guard !times.isEmpty else { continue }
            // Once per line, not once per time on it.
            let labelled = l.words.has(" time ") || l.words.has(" masa ") || l.words.has(" zeit ") || l.words.has(" heure ")
            // "Total: 1:08": a price with its decimal point read as a colon, on a line that names money and no date.
            let besideDate = l.source == dateLine || dayLines.contains(l.source)
            let moneyLine = !besideDate && !labelled && compiled.isMoneyLabel(l.words)
            // "TEL# 718 478 0:23": a phone number's digits.
            let phoneLine = !besideDate && !labelled && (l.words.has(" tel ") || l.words.has(" phone ") || l.words.has(" fax "))
            for t in times {
                var score = 0.6
                var notes: [Note] = []
                if besideDate { score += 0.3 }
                if labelled { score += 0.2 }
                if moneyLine || phoneLine { score -= 0.3 }
                if let read = t.meridiemRead { notes.append(.meridiemRead(read, pm: t.time.hour >= 12)) }
                // Of equals beside the date, the later; elsewhere the first (a receipt's time is printed near its top).
                if best == nil || score > best!.1 || (score == best!.1 && besideDate) { best = (t.time, score, l, notes) }
            }
        }
        return best.map { Field($0.0, confidence: $0.1, evidence: $0.2.evidence(rule: "time.hh:mm", notes: $0.3)) }
    }
}

enum TimeScanner {
    static let time = Pattern(#"(?<![\d.,])(?<!\d:)([01]?\d|2[0-3])\s?:\s?([0-5]\d)(?:\s?:\s?([0-5]\d))?(?:\s*:?\s*([AaPp])\.?\s?[Mm]\.?)?(?![\d]|\.\d)"#,
                              mayMatch: { b in
        // What every match holds, `\d\s?:\s?[0-5]\d`: a digit, maybe a space, a colon, maybe a space, 0 to 5, a digit
        // (most lines with a colon are labels: "Cashier:", "Date:").
        for i in b.indices where b[i] == UInt8(ascii: ":") {
            let l = i > 0 && b[i - 1] == 0x20 ? i - 2 : i - 1
            guard l >= 0, Bytes.isDigit(b[l]) else { continue }
            let r = i + 1 < b.count && b[i + 1] == 0x20 ? i + 2 : i + 1
            if r + 1 < b.count, b[r] >= UInt8(ascii: "0"), b[r] <= UInt8(ascii: "5"), Bytes.isDigit(b[r + 1]) { return true }
        }
        return false
    })
    /// What OCR makes of a printed "PM" or "AM" after a time: a word of one or two letters that starts
    /// like it ("PH", "Pw", "pa", "P|") or ends like it ("em", "FM"). Photos lose the M's middle strokes.
    static let meridiemAfter = Pattern(#"^\s*["'’‘]?\s*([A-Za-z4][A-Za-z|]?)\.?(?![A-Za-z0-9])"#, caseInsensitive: false)

    /// A time found on a line: the time, where it starts (characters), and the text taken for "PM"/"AM"
    /// when it was not printed (read) as one.
    struct Found {
        var time: TimeOfDay
        var offset: Int
        var meridiemRead: String?
    }

    static func scan(_ line: String) -> [Found] {
        // Character offsets counted on from the previous match (matches come in order): one walk of the line.
        var last = line.startIndex, offset = 0
        return time.matches(in: line).compactMap { m in
            guard var h = m.groups[1].flatMap({ Int($0) }), let mi = m.groups[2].flatMap({ Int($0) }) else { return nil }
            var read: String?
            var meridiem = m.groups[4]?.lowercased()
            if meridiem == nil, (1...12).contains(h), let (word, am) = misreadMeridiem(line[m.range.upperBound...]) {
                meridiem = am ? "a" : "p"; read = word
            }
            if let ap = meridiem {
                guard (1...12).contains(h) else { return nil }
                if ap == "p", h < 12 { h += 12 }
                if ap == "a", h == 12 { h = 0 }
            }
            guard let t = TimeOfDay(hour: h, minute: mi, second: m.groups[3].flatMap { Int($0) }) else { return nil }
            offset += line.distance(from: last, to: m.range.lowerBound)
            last = m.range.lowerBound
            return Found(time: t, offset: offset, meridiemRead: read)
        }
    }

    /// `meridiemAfter`'s group 1 by hand, looking only at the start of `rest` (the expression was given all
    /// of it, and a line of many times cost the square of its length): `.some(nil)` for no match; nil
    /// when a character it must look at is not printable ASCII (then the expression decides).
    ///
    ///     ^\s*["'’‘]?\s*([A-Za-z4][A-Za-z|]?)\.?(?![A-Za-z0-9])
    static func wordAfter(_ rest: Substring) -> String?? {
        var it = rest.utf8.makeIterator()
        var b: [UInt8] = []
        // Enough to decide: the spaces, a quote, the spaces, two characters, a point and the one after.
        var spaces = 0
        while let c = it.next() {
            guard c >= 0x20, c <= 0x7E else { return nil }
            b.append(c)
            if c == 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { spaces += 1; continue }
            if b.count - spaces >= 4 { break }
        }
        if b.count - spaces < 4, let c = it.next(), !(c >= 0x20 && c <= 0x7E) { return nil }
        func at(_ i: Int) -> UInt8? { i < b.count ? b[i] : nil }
        func letter(_ c: UInt8?) -> Bool { c.map(Bytes.isLetter) ?? false }
        func alnum(_ c: UInt8?) -> Bool { c.map(Bytes.isAlnum) ?? false }
        var i = 0
        while at(i) == 0x20 { i += 1 }
        if at(i) == UInt8(ascii: "\"") || at(i) == UInt8(ascii: "'") { i += 1 }
        while at(i) == 0x20 { i += 1 }
        guard let c1 = at(i), letter(c1) || c1 == UInt8(ascii: "4") else { return .some(nil) }
        func word(_ n: Int) -> String { String(decoding: b[i..<(i + n)], as: UTF8.self) }
        // The second character (greedy), with or without the point; then without it.
        if let c2 = at(i + 1), letter(c2) || c2 == UInt8(ascii: "|") {
            if at(i + 2) == UInt8(ascii: "."), !alnum(at(i + 3)) { return .some(word(2)) }
            if !alnum(at(i + 2)) { return .some(word(2)) }
        }
        if at(i + 1) == UInt8(ascii: "."), !alnum(at(i + 2)) { return .some(word(1)) }
        if !alnum(at(i + 1)) { return .some(word(1)) }
        return .some(nil)
    }

    /// The word after a time, when it is a misread "PM" (true: "AM"): P or F first ("PH", "Py", "FA"),
    /// or a second letter M ("em"); A or 4 first with a second letter is "AM" ("AH", "4M").
    static func misreadMeridiem(_ rest: Substring) -> (String, Bool)? {
        let read: String??
        if let hand = wordAfter(rest) { read = hand } else { read = meridiemAfter.matches(in: String(rest)).first.map { $0.groups[1] } }
        guard let found = read, let word = found else { return nil }
        let chars = Array(word)
        let first = chars[0], second = chars.count > 1 ? chars[1] : nil
        if "PpFf".contains(first) { return (word, false) }
        if let second {
            if "Aa4".contains(first) { return (word, true) }
            if "Mm".contains(second) { return (word, false) }
        }
        return nil
    }
}
