import Foundation
import ReceiptModel

// The date: every date on the receipt (`DateScanner`), all-digit ones read in the day/month order the
// receipt's evidence favours, implausible ones (in the future, before `earliestYear`) dropped, the rest
// ranked: a date keyword on the line, no expiry wording, near the top, printed twice.

extension ReceiptParser {
    /// The date, and the lines that print that day (a receipt prints it again with the time it was paid or printed).
    func date(_ lines: [ParseLine], currency: String?) -> (Field<CalendarDate>?, lines: Set<Int>) {
        let latest = options.latestDate ?? Self.tomorrow()
        let (found, words) = datesFound(lines)
        guard !found.isEmpty else { return (nil, []) }
        let (order, reason) = settledOrder(found, lines: lines, currency: currency, latest: latest, words: words)
        let candidates = found.compactMap { raw, line in
            dateCandidate(raw, on: line, words: words[line.index]!, order: order, reason: reason, lineCount: lines.count, latest: latest)
        }
        guard !candidates.isEmpty else { return (nil, []) }
        // The same day printed twice is stronger evidence.
        var byDay: [CalendarDate: Int] = [:]
        for c in candidates { byDay[c.0, default: 0] += 1 }
        let ranked = candidates.map { c in (c.0, c.1 + (byDay[c.0, default: 1] > 1 ? 0.1 : 0), c.2) }
            .sorted { $0.1 > $1.1 }
        let best = ranked[0]
        let rejected = ranked.dropFirst().filter { $0.0 != best.0 }.prefix(5).map { Candidate(value: $0.0.iso, score: $0.1, evidence: $0.2) }
        let dayLines = Set(candidates.filter { $0.0 == best.0 }.compactMap { $0.2.line })
        return (Field(best.0, confidence: min(0.99, max(0.02, best.1)), evidence: best.2, rejected: Array(rejected)), dayLines)
    }

    /// Every date on the lines, and the date words of each line that has one (read once per line, not once per date on it).
    func datesFound(_ lines: [ParseLine]) -> (found: [(RawDate, ParseLine)], words: [Int: LineDateWords]) {
        var found: [(RawDate, ParseLine)] = []
        for l in lines { for d in l.dates { found.append((d, l)) } }
        var words: [Int: LineDateWords] = [:]
        for (_, l) in found where words[l.index] == nil {
            words[l.index] = LineDateWords(keyword: compiled.dateKeyword(l.words), distractor: compiled.isDateDistractor(l.words))
        }
        return (found, words)
    }

    /// The order the receipt's all-digit dates are read in: the user's `--date-order`, else the receipt's evidence.
    func settledOrder(_ found: [(RawDate, ParseLine)], lines: [ParseLine], currency: String?, latest: CalendarDate,
                      words: [Int: LineDateWords]) -> (DateOrder, OrderReason) {
        options.dateOrder != .auto ? (options.dateOrder, .given) : dateOrder(found, lines: lines, currency: currency, latest: latest, words: words)
    }

    /// The day/month order of ambiguous all-digit dates, from the evidence on the receipt weighed: dates
    /// that can only be read one way (stronger on a date line, weaker when they might be a time like
    /// 11.14.00), a document number that embeds the date, and the currency. Day-first when nothing tells.
    /// A line's date keyword weight and whether it has expiry wording.
    struct LineDateWords { var keyword: Double; var distractor: Bool }

    func dateOrder(_ found: [(RawDate, ParseLine)], lines: [ParseLine], currency: String?, latest: CalendarDate,
                   words: [Int: LineDateWords]) -> (DateOrder, OrderReason) {
        // The votes for each order and the first reason given for it. (Two numbers and two reasons, not two dictionaries
        // made for every receipt: some 4,000 instructions. A vote for `auto` was kept and never read: none is kept.)
        var dayVotes = 0.0, monthVotes = 0.0
        var dayWhy: OrderReason?, monthWhy: OrderReason?
        func vote(_ o: DateOrder, _ w: Double, _ reason: @autoclosure () -> OrderReason) {
            switch o {
            case .dayFirst: dayVotes += w; if dayWhy == nil { dayWhy = reason() }
            case .monthFirst: monthVotes += w; if monthWhy == nil { monthWhy = reason() }
            case .auto: break
            }
        }
        for (raw, line) in found where raw.shape == .numeric && raw.first != raw.second {
            guard let certain = raw.certainOrder, let v = raw.reading(certain), v <= latest, v.year >= options.earliestYear else { continue }
            var w = 1.0
            if textContains(raw.text, "."), numberCount(raw.text) <= 6 { w = 0.5 }
            if (words[line.index]?.keyword ?? compiled.dateKeyword(line.words)) > 0 { w += 1 }
            vote(certain, w, .onlyReading(raw.text))
        }
        // A document number that embeds the date ("KPTA3201904150366" beside "15/04/19") tells the order.
        // (The lines' long runs of digits looked for only when a date may be read either way: most receipts have none.)
        let undecided = found.filter { $0.0.shape == .numeric && $0.0.certainOrder == nil }
        let runs = undecided.isEmpty ? [] : lines.flatMap { l in Self.longDigitRuns(l.text) }
        if !runs.isEmpty {
            for (raw, _) in undecided {
                let held = [DateOrder.dayFirst, .monthFirst].filter { o in
                    guard let v = raw.reading(o) else { return false }
                    let key = Self.digitsKey(v)
                    return runs.contains { textContains($0, key) }
                }
                if held.count == 1, let o = held.first, let v = raw.reading(o) {
                    vote(o, 1.5, .documentNumber(raw.text, v))
                }
            }
        }
        // A "$" on a receipt that names GST is no US dollar (the US has no GST): it says nothing of the order.
        if let c = currency, !(c == "USD" && lines.contains { $0.words.has(" gst ") }) {
            let cur: DateOrder = compiled.monthFirstCurrencies.contains(c) ? .monthFirst : .dayFirst
            vote(cur, 0.6, .currency(c))
        }
        let d = dayVotes, m = monthVotes
        if d == 0, m == 0 { return (.dayFirst, .noEvidence) }
        let order: DateOrder = m > d ? .monthFirst : .dayFirst
        return (order, (order == .monthFirst ? monthWhy : dayWhy) ?? .evidence)
    }

    /// The day as eight digits, year, month and day ("20180312"): `String(format: "%04d%02d%02d", …)`, made without
    /// Foundation's formatting (some 23,000 instructions a call). A `CalendarDate`'s parts are positive and its year
    /// has four digits at most, where zeros put before `String(n)` are what the format gives.
    static func digitsKey(_ v: CalendarDate) -> String {
        func padded(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.utf8.count)) + s
        }
        return padded(v.year, 4) + padded(v.month, 2) + padded(v.day, 2)
    }

    /// The runs of ten digits or more in `text` (`split` on what is not a number); on ASCII, Latin letters and signs,
    /// found as bytes (a Latin letter, a sign and a date's mark are each one character, and no number).
    static func longDigitRuns(_ text: String) -> [String] {
        let ascii: [String]? = text.utf8.withContiguousStorageIfAvailable { b -> [String]? in
            var out: [String] = []
            var i = 0
            while i < b.count {
                if b[i] >= 0x80 {
                    guard let (u, n) = Bytes.scalar(b, at: i), Bytes.latinLower(u) != nil || Bytes.isStandAloneSign(u) else { return nil }
                    i += n
                    continue
                }
                guard Bytes.isDigit(b[i]) else { i += 1; continue }
                var j = i
                while j < b.count, Bytes.isDigit(b[j]) { j += 1 }
                if j - i >= 10 { out.append(String(decoding: UnsafeBufferPointer(rebasing: b[i..<j]), as: UTF8.self)) }
                i = j
            }
            return out
        } ?? nil
        return ascii ?? text.split(whereSeparator: { !$0.isNumber }).filter { $0.count >= 10 }.map(String.init)
    }

    /// One date found on `line`, read in `order` when it is ambiguous, scored; nil when no reading is plausible.
    func dateCandidate(_ raw: RawDate, on line: ParseLine, words: LineDateWords, order: DateOrder, reason: OrderReason, lineCount: Int,
                       latest: CalendarDate) -> (CalendarDate, Double, Evidence)? {
        var notes: [Note] = []
        var score = 0.7
        var value: CalendarDate?
        if raw.shape == .numeric {
            if let certain = raw.certainOrder {
                value = raw.reading(certain)
                if raw.first != raw.second, certain != order { notes.append(.onlyValidReading(certain)) }
            } else {
                value = raw.reading(order)
                notes.append(.dateOrder(order, reason))
                if options.dateOrder == .auto, reason == .noEvidence { score -= 0.15 }
            }
        } else {
            value = raw.reading(.dayFirst)
        }
        guard var v = value else { return nil }
        // The other reading when this one is implausible (in the future).
        if v > latest, raw.shape == .numeric, let alt = raw.reading(order == .dayFirst ? .monthFirst : .dayFirst), alt <= latest, alt.year >= options.earliestYear {
            notes.append(.inFuture(v))
            v = alt
            score -= 0.1
        }
        guard v <= latest, v.year >= options.earliestYear else { return nil }
        if raw.shape == .compact { score -= 0.25 }
        // Read through OCR slips: below any clean date of the receipt.
        if let taken = raw.repaired { score -= Self.repairedDatePenalty; notes.append(.dateRepaired(taken)) }
        // Glued to a word ("HC04-8-16"): a product code more likely than a date.
        if raw.afterLetter { score -= 0.3; notes.append(.gluedToWord) }
        if numberCount(raw.text) >= 8 || raw.shape == .named { score += 0.05 }
        // "2/ 3-00": two kinds of separator in one date, as a printer never does; OCR made it of something else.
        if raw.shape == .numeric, Self.mixedSeparators(raw.text) { score -= 0.15; notes.append(.mixedSeparators) }
        let kw = words.keyword
        if kw > 0 { score += 0.2 * kw; notes.append(.dateKeyword) }
        if words.distractor { score -= 0.45; notes.append(.expiryWording) }
        // Receipts print the transaction date near the top or just after the totals; a little weight to the top.
        score -= 0.05 * Double(line.index) / Double(max(1, lineCount))
        return (v, score, line.evidence(rule: raw.rule, notes: [.quoted(raw.text)] + notes))
    }

    static let repairedDatePenalty = 0.2

    /// More than one of "/", "-" and "." between a date's numbers.
    static func mixedSeparators(_ text: String) -> Bool {
        var seen: UInt8 = 0
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "/"): seen |= 1
            case UInt8(ascii: "-"): seen |= 2
            case UInt8(ascii: "."): seen |= 4
            default: continue
            }
        }
        return seen.nonzeroBitCount > 1
    }

    /// The day after `now` in UTC. (From the day count, by the Gregorian calendar's arithmetic, for the years 2001 to
    /// 9999: a Calendar made and asked for the date's components was some 9,000 instructions a parse;
    /// `tomorrowByCalendar` for any other moment. `HandScannerTests` holds the two together.)
    static func tomorrow(_ now: Date = Date()) -> CalendarDate {
        let t = now.timeIntervalSinceReferenceDate + 86_400
        guard t >= 0, t < 250_000_000_000 else { return tomorrowByCalendar(now) }
        // Days since 1970-01-01 (2001-01-01 is day 11,323), then the civil date of a day count.
        let z = Int((t / 86_400).rounded(.down)) + 11_323 + 719_468
        let era = z / 146_097, doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return CalendarDate(year: year, month: month, day: day) ?? tomorrowByCalendar(now)
    }

    /// `tomorrow(now)` by a Gregorian calendar in UTC.
    static func tomorrowByCalendar(_ now: Date) -> CalendarDate {
        let d = now.addingTimeInterval(86_400)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = cal.dateComponents([.year, .month, .day], from: d)
        return CalendarDate(year: c.year ?? 2100, month: c.month ?? 1, day: c.day ?? 1) ?? CalendarDate(year: 2100, month: 1, day: 1)!
    }
}
