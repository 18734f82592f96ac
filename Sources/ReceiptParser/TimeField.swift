import Foundation
import ReceiptModel

// The time of day: an hh:mm[:ss] on the line, best on the date's line or after "time"; not an amount
// misread on a total or payment line. Of equals the last: a receipt that prints its date and time twice
// (the order opened and the bill printed, the card slip) was paid at the later one.

extension ReceiptParser {
    /// `dayLines`: every line that prints the receipt's date (the one it was read from among them).
    func time(_ lines: [ParseLine], dayLines: Set<Int>) -> Field<TimeOfDay>? {
        var best: (TimeOfDay, Double, ParseLine, [Note], String)?
        for l in lines {
            var times = TimeScanner.scan(l.text)
            // "2024-05-09 18:42.33", "Time 11:20.45": the seconds' colon read as a point. Only beside the date or after
            // "time", where a time is expected: elsewhere "dd:dd.dd" may be a price with a misread separator.
            var pointRead: (text: String, offsets: Set<Int>)?
            if let (repaired, read) = TimeScanner.pointBeforeSeconds(l.text), dayLines.contains(l.source) || Self.labelsTime(l.words) {
                pointRead = (read, Set(times.map(\.offset)))
                times = TimeScanner.scan(repaired)
            }
            guard !times.isEmpty else { continue }
            // Once per line, not once per time on it.
            let labelled = Self.labelsTime(l.words)
            // "Total: 1:08": a price with its decimal point read as a colon, on a line that names money and no date.
            let besideDate = dayLines.contains(l.source)
            let moneyLine = !besideDate && !labelled && compiled.isMoneyLabel(l.words)
            // "TEL# 555 120 0:47": a phone number's digits.
            let phoneLine = !besideDate && !labelled && (l.words.has(" tel ") || l.words.has(" phone ") || l.words.has(" fax "))
            // "Open Time: 01:24PM", "Opened 12:02", "Open 9:00-21:00": when the table opened (the bill was paid later)
            // or the shop's hours, not when the receipt was paid.
            let opening = l.words.has(" open ") || l.words.has(" opened ") || l.words.has(" opening ")
            // "11:39PM Total 85.75", "10:00 Payment Due 24.39": a check printed when it was closed, its time first on
            // the total's line, later than the one beside the date (when the table opened): the time it was paid.
            // (After the word, "Total: 1:08" is a price misread.)
            var totalLine: Bool?
            for t in times {
                var score = 0.6
                var notes: [Note] = []
                if let p = pointRead, !p.offsets.contains(t.offset) { notes.append(.secondsAfterPoint(p.text)) }
                if let read = t.meridiemRead { notes.append(.meridiemRead(read, pm: t.time.hour >= 12)) }
                var time = t.time
                // "Date: 11-Mar-2024 3:48:05", its PM not read: a 24-hour till prints "03:48:05" (or "15:48:05"), so an
                // hour of one digit is a 12-hour till's, and between one and seven it is afternoon far more often.
                if !t.meridiem, t.unpadded, (1...6).contains(time.hour), let pm = TimeOfDay(hour: time.hour + 12, minute: time.minute, second: time.second) {
                    time = pm
                    notes.append(.afternoonAssumed)
                }
                if t.offset < 4, !besideDate, !labelled, !l.text.prefix(t.offset).contains(where: { $0.isLetter || $0.isNumber }) {
                    if totalLine == nil {
                        // ("Payment Due", "Amount Due": what is to pay, whatever else the line says; not the change due.)
                        totalLine = compiled.best(compiled.total, in: l.words) != nil && compiled.any(compiled.totalDistractors, in: l.words) == nil
                            || l.words.has(" due ") && !l.words.has(" change ")
                    }
                    if totalLine == true {
                        func seconds(_ x: TimeOfDay) -> Int { (x.hour * 60 + x.minute) * 60 + (x.second ?? 0) }
                        // (A time beside the date scores 0.6 + 0.3, a hair under 0.9 in binary.)
                        if let b = best, b.1 >= 0.85, seconds(b.0) > seconds(time) { continue }
                        best = (time, 0.95, l, notes, "time.total-line")
                        continue
                    }
                }
                if besideDate { score += 0.3 }
                if labelled { score += 0.2 }
                if moneyLine || phoneLine { score -= 0.3 }
                if opening { score -= 0.2 }
                // "VISA 2:37" alone: few shops sell before seven, and a 12-hour till would print PM.
                if !besideDate && !labelled && t.time.hour < 7 && !t.meridiem && t.time.second == nil { score -= 0.1 }
                // Of equals beside the date, the later; elsewhere the first (a receipt's time is printed near its top).
                if best == nil || score > best!.1 || (score == best!.1 && besideDate) { best = (time, score, l, notes, "time.hh:mm") }
            }
        }
        return best.map { Field($0.0, confidence: $0.1, evidence: $0.2.evidence(rule: $0.4, notes: $0.3)) }
    }

    /// A line that says it prints a time: "Time", "Masa", "Zeit", "Heure".
    static func labelsTime(_ words: WordLine) -> Bool {
        words.has(" time ") || words.has(" masa ") || words.has(" zeit ") || words.has(" heure ")
    }
}

enum TimeScanner {
    static let time = Pattern(#"(?<![\d.,])(?<!\d:)([01]?\d|2[0-3])\s?:\s?([0-5]\d)(?:\s?:\s?([0-5]\d))?(?:\s*:?\s*([AaPp])\.?\s?[Mm]\.?)?(?![\d]|[./]\d)"#,
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
        /// An AM or PM was printed (or read into a word) after it.
        var meridiem = false
        /// Its hour was printed with one digit ("3:48", not "03:48").
        var unpadded = false
    }

    /// One match of `time`: its groups as numbers (the hour, the minutes, the seconds if printed, the
    /// meridiem's letter lower-cased if printed) and where it is in the line.
    struct Match {
        var hour: Int, minute: Int, second: Int?
        var meridiem: String?
        var range: Range<String.Index>
    }

    static func scan(_ line: String) -> [Found] {
        // Character offsets counted on from the previous match (matches come in order): one walk of the line.
        var last = line.startIndex, offset = 0
        return matches(line).compactMap { m in
            var h = m.hour
            let mi = m.minute
            var read: String?
            var meridiem = m.meridiem
            if meridiem == nil, (1...12).contains(h), let (word, am) = misreadMeridiem(line[m.range.upperBound...]) {
                meridiem = am ? "a" : "p"; read = word
            }
            if let ap = meridiem {
                guard (1...12).contains(h) else { return nil }
                if ap == "p", h < 12 { h += 12 }
                if ap == "a", h == 12 { h = 0 }
            }
            guard let t = TimeOfDay(hour: h, minute: mi, second: m.second) else { return nil }
            offset += line.distance(from: last, to: m.range.lowerBound)
            last = m.range.lowerBound
            // (The match starts at the hour: one digit when a space or colon follows it.)
            let second = line[m.range].dropFirst().first
            return Found(time: t, offset: offset, meridiemRead: read, meridiem: meridiem != nil, unpadded: second == ":" || second == " ")
        }
    }

    /// The line with a colon in place of the point before a time's seconds ("18:42.33", "3:48.05"; the first such time
    /// on it), and that time as read; nil when it has none. The point must sit where a time's second colon does: an hour of
    /// one or two digits (0–23) after no digit, point, comma or colon, a colon, minutes and seconds of two digits
    /// (00–59), and no digit, point, comma, colon or slash after ("12:30.505", "1:23.45.6" are something else). A
    /// byte for a byte, so the line's character offsets stay.
    static func pointBeforeSeconds(_ line: String) -> (repaired: String, read: String)? {
        // Where the point is, found on the bytes in place (most lines have none: no copy for them).
        let found: (start: Int, point: Int)?? = line.utf8.withContiguousStorageIfAvailable { b in
            let n = b.count
            func digit(_ i: Int) -> Bool { i >= 0 && i < n && Bytes.isDigit(b[i]) }
            func sixty(_ i: Int) -> Bool { i + 1 < n && b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "5") && Bytes.isDigit(b[i + 1]) }
            func stops(_ i: Int, _ also: UInt8?) -> Bool {
                guard i >= 0, i < n else { return false }
                return Bytes.isDigit(b[i]) || b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: ":") || b[i] == also
            }
            var i = 1
            while i + 5 < n {
                defer { i += 1 }
                // b[i] the colon, b[i+1...i+2] the minutes, b[i+3] the point, b[i+4...i+5] the seconds.
                guard b[i] == UInt8(ascii: ":"), digit(i - 1), sixty(i + 1), b[i + 3] == UInt8(ascii: "."), sixty(i + 4) else { continue }
                let start = digit(i - 2) ? i - 2 : i - 1
                let hour = start == i - 2 ? Int(b[i - 2] - 48) * 10 + Int(b[i - 1] - 48) : Int(b[i - 1] - 48)
                guard hour <= 23, !stops(start - 1, nil), !stops(i + 6, UInt8(ascii: "/")) else { continue }
                return (start, i + 3)
            }
            return nil
        }
        guard let found else {
            // (A string not stored as UTF-8 in one piece: once more, made so.)
            var copy = line
            copy.makeContiguousUTF8()
            return pointBeforeSeconds(copy)
        }
        guard let (start, point) = found else { return nil }
        var b = Array(line.utf8)
        let read = String(decoding: b[start...(point + 2)], as: UTF8.self)
        b[point] = UInt8(ascii: ":")
        return (String(decoding: b, as: UTF8.self), read)
    }

    /// `time`'s matches: by hand on printable ASCII (`handMatches`), else by the expression.
    ///
    /// A line whose only characters not ASCII are signs ("£12.50 14:05": `Bytes.printableWithNeutralSigns`) is matched by
    /// hand too, on a stand-in with "#" in each sign's place: the expression takes such a sign as it takes "#" (in none
    /// of its classes, no digit or space), and each is one scalar and one character, so a place in the stand-in is a
    /// place in the line's scalars.
    static func matches(_ line: String) -> [Match] {
        func match(_ m: (hour: Int, minute: Int, second: Int?, meridiem: UInt8?, start: Int, end: Int), _ range: Range<String.Index>) -> Match {
            Match(hour: m.hour, minute: m.minute, second: m.second, meridiem: m.meridiem.map { String(UnicodeScalar($0 | 0x20)) }, range: range)
        }
        if case let hand?? = line.utf8.withContiguousStorageIfAvailable({ b -> [Match]? in
            // Every match holds a colon (`\s?:\s?` after the hour): a line without one has none, on any path (a speed
            // trick: most lines hold none, and each was walked twice, for its bytes and by the hand matcher).
            guard Bytes.holds(b, UInt8(ascii: ":")) else { return [] }
            if b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
                // (A byte a character on printable ASCII: the byte offsets are the characters'.)
                let u = line.utf8
                return handMatches(b).map { m in match(m, u.index(u.startIndex, offsetBy: m.start)..<u.index(u.startIndex, offsetBy: m.end)) }
            }
            guard Bytes.printableWithNeutralSigns(b) else { return nil }
            let u = line.unicodeScalars
            return Bytes.standIn(b).withUnsafeBufferPointer(handMatches).map { m in
                match(m, u.index(u.startIndex, offsetBy: m.start)..<u.index(u.startIndex, offsetBy: m.end))
            }
        }) { return hand }
        return time.matches(in: line).compactMap { m in
            guard let h = m.groups[1].flatMap({ Int($0) }), let mi = m.groups[2].flatMap({ Int($0) }) else { return nil }
            return Match(hour: h, minute: mi, second: m.groups[3].flatMap { Int($0) }, meridiem: m.groups[4]?.lowercased(), range: m.range)
        }
    }

    /// `time`'s matches found by hand on printable ASCII (where `\d` is 0-9 and `\s` a space), in the order and
    /// with the choices the expression's backtracking makes (a speed trick: NSRegularExpression cost more than
    /// the rest of the time field; `HandScannerTests` holds the two to each other):
    ///
    ///     (?<![\d.,])(?<!\d:)([01]?\d|2[0-3])\s?:\s?([0-5]\d)(?:\s?:\s?([0-5]\d))?(?:\s*:?\s*([AaPp])\.?\s?[Mm]\.?)?(?![\d]|[./]\d)
    ///
    /// Each match from where the last ended, at the first start that gives one; at a start, the hour of two
    /// digits before the hour of one where `[01]?` may take a digit, of one before `2[0-3]`; then the seconds
    /// taken before left out, the meridiem taken before left out, its last point taken before left out, the first
    /// of these that the end's look-ahead allows. (The spaces and the meridiem's points and colon have one
    /// way each to match: giving one back leaves a character that the next part cannot take.)
    static func handMatches(_ b: UnsafeBufferPointer<UInt8>) -> [(hour: Int, minute: Int, second: Int?, meridiem: UInt8?, start: Int, end: Int)] {
        let n = b.count
        func at(_ i: Int) -> UInt8 { i < n ? b[i] : 0 }
        func digit(_ i: Int) -> Bool { i < n && Bytes.isDigit(b[i]) }
        func value(_ i: Int, _ count: Int) -> Int { count == 1 ? Int(b[i] - 48) : Int(b[i] - 48) * 10 + Int(b[i + 1] - 48) }
        /// `\s?:\s?([0-5]\d)` at `i`: where its two digits start, or nil.
        func colonPair(_ i: Int) -> Int? {
            var i = i
            if at(i) == 0x20 { i += 1 }
            guard at(i) == UInt8(ascii: ":") else { return nil }
            i += 1
            if at(i) == 0x20 { i += 1 }
            guard at(i) >= UInt8(ascii: "0"), at(i) <= UInt8(ascii: "5"), digit(i + 1) else { return nil }
            return i
        }
        /// `(?![\d]|[./]\d)` at `i`.
        func endsAt(_ i: Int) -> Bool { !digit(i) && !((at(i) == UInt8(ascii: ".") || at(i) == UInt8(ascii: "/")) && digit(i + 1)) }
        typealias Hit = (hour: Int, minute: Int, second: Int?, meridiem: UInt8?, start: Int, end: Int)
        /// The match that starts at `p` with an hour of `hl` digits, or nil.
        func match(_ p: Int, hour hl: Int) -> Hit? {
            guard let m = colonPair(p + hl) else { return nil }
            let hour = value(p, hl), minute = value(m, 2)
            let seconds = colonPair(m + 2)
            // The seconds taken first, then left out.
            for s in seconds.map({ [$0, nil] }) ?? [nil] {
                let base = s.map { $0 + 2 } ?? m + 2
                let second = s.map { value($0, 2) }
                // `\s*:?\s*([AaPp])\.?\s?[Mm]\.?`, its last point taken first, then left out; then no meridiem.
                var i = base
                while at(i) == 0x20 { i += 1 }
                if at(i) == UInt8(ascii: ":") { i += 1 }
                while at(i) == 0x20 { i += 1 }
                let letter = at(i)
                if letter | 0x20 == UInt8(ascii: "a") || letter | 0x20 == UInt8(ascii: "p") {
                    i += 1
                    if at(i) == UInt8(ascii: ".") { i += 1 }
                    if at(i) == 0x20 { i += 1 }
                    if at(i) | 0x20 == UInt8(ascii: "m") {
                        i += 1
                        if at(i) == UInt8(ascii: "."), endsAt(i + 1) { return (hour, minute, second, letter, p, i + 1) }
                        if endsAt(i) { return (hour, minute, second, letter, p, i) }
                    }
                }
                if endsAt(base) { return (hour, minute, second, nil, p, base) }
            }
            return nil
        }
        var out: [Hit] = []
        var p = 0
        while p < n {
            var hit: Hit?
            if digit(p), !(p > 0 && (Bytes.isDigit(b[p - 1]) || b[p - 1] == UInt8(ascii: ".") || b[p - 1] == UInt8(ascii: ","))),
               !(p > 1 && b[p - 1] == UInt8(ascii: ":") && Bytes.isDigit(b[p - 2])) {
                // The hour's alternatives in the order they are tried: `[01]\d`, `\d`, `2[0-3]`.
                if (b[p] == UInt8(ascii: "0") || b[p] == UInt8(ascii: "1")) && digit(p + 1) { hit = match(p, hour: 2) }
                if hit == nil { hit = match(p, hour: 1) }
                if hit == nil, b[p] == UInt8(ascii: "2"), at(p + 1) >= UInt8(ascii: "0"), at(p + 1) <= UInt8(ascii: "3") { hit = match(p, hour: 2) }
            }
            if let hit { out.append(hit); p = hit.end } else { p += 1 }
        }
        return out
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
