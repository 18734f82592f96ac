import Foundation
import ReceiptModel

/// Reading label values as people write them, for evaluation: "RM 11.70", "1.234,50", "25/12/2018",
/// "07 APR 2019", "19-SEP-2019", "Aug07'13", "20180304".
///
/// The oracle of `receipts eval`: it shares no code with the parser it scores (this file imports only
/// ReceiptModel, so it cannot call the parser's date and amount scanners), and it reads only what labels hold:
/// English month names, the separators people write in dates, a currency sign or code around an amount.
public enum LabelValue {
    // MARK: dates

    /// A label date as a day. All-digit dates that read both ways (03/04/2018) are day-first unless
    /// `monthFirst`, as the reference scorer reads them; two-digit years are 20yy. The first date in the
    /// text counts ("02/08/2016 02/08/2016", "Saturday,Jume24,2018 June24,2018").
    public static func date(_ s: String, monthFirst: Bool = false) -> CalendarDate? {
        let tokens = DateToken.split(s)
        for i in tokens.indices {
            if let d = date(at: i, tokens, monthFirst: monthFirst) { return d }
        }
        return nil
    }

    /// A run of digits or of letters, with the characters between it and the token before.
    struct DateToken {
        var text: String
        var isNumber: Bool
        /// What stands between this token and the one before ("/", " ", "'", "" when a letter meets a digit).
        var before: String

        /// Digits and letters in runs; ordinal endings ("27th") dropped; everything else is separators.
        static func split(_ s: String) -> [DateToken] {
            var out: [DateToken] = []
            var sep = ""
            for ch in s {
                let digit = ch.isASCII && ch.isNumber, letter = ch.isLetter
                guard digit || letter else { sep.append(ch); continue }
                if sep.isEmpty, let last = out.last, last.isNumber == digit {
                    out[out.count - 1].text.append(ch)
                } else {
                    out.append(DateToken(text: String(ch), isNumber: digit, before: sep))
                    sep = ""
                }
            }
            // "27th": the ending goes, its place joins the separators.
            var merged: [DateToken] = []
            for t in out {
                if !t.isNumber, t.before.isEmpty, merged.last?.isNumber == true, ["ST", "ND", "RD", "TH"].contains(t.text.uppercased()) { continue }
                merged.append(t)
            }
            return merged
        }
    }

    /// Separators people write between the parts of a date.
    static let dateSeparators = Set(" ,.-/'")

    static let monthNames: [String: Int] = {
        let names = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"]
        var out: [String: Int] = ["SEPT": 9]
        for (i, n) in names.enumerated() { out[n] = i + 1; out[String(n.prefix(3))] = i + 1 }
        return out
    }()

    static func year(_ t: String) -> Int? {
        guard t.count == 2 || t.count == 4, let y = Int(t) else { return nil }
        return t.count == 2 ? 2000 + y : y
    }

    /// The date that starts at token `i`, if one does.
    static func date(at i: Int, _ t: [DateToken], monthFirst: Bool) -> CalendarDate? {
        let a = t[i]
        // 20180304 (year first) or 25032018 (day first).
        if a.isNumber, a.text.count == 8, let n = Int(a.text) {
            let (y, m, d) = (n / 10_000, n / 100 % 100, n % 100)
            if a.text.hasPrefix("19") || a.text.hasPrefix("20"), let date = CalendarDate(year: y, month: m, day: d) { return date }
            return CalendarDate(year: n % 10_000, month: n / 10_000 % 100, day: n / 1_000_000)
        }
        guard i + 2 < t.count else { return nil }
        let b = t[i + 1], c = t[i + 2]
        guard b.before.allSatisfy(dateSeparators.contains), c.before.allSatisfy(dateSeparators.contains) else { return nil }
        switch (a.isNumber, b.isNumber, c.isNumber) {
        case (true, true, true):
            // Between numbers one of - / . (spaces around it allowed): "2018-03-04", "25/12/2018", "11.02.18".
            func oneMark(_ s: String) -> Bool { s.filter { $0 != " " }.count == 1 && !s.contains(",") && !s.contains("'") }
            guard oneMark(b.before), oneMark(c.before), (1...2).contains(b.text.count) else { return nil }
            let (x, y) = (Int(b.text)!, Int(c.text)!)
            if a.text.count == 4, (1...2).contains(c.text.count) { return CalendarDate(year: Int(a.text)!, month: x, day: y) }
            guard (1...2).contains(a.text.count), let year = year(c.text) else { return nil }
            let first = Int(a.text)!
            let dayFirst = CalendarDate(year: year, month: x, day: first), monthFirstDate = CalendarDate(year: year, month: first, day: x)
            return monthFirst ? monthFirstDate ?? dayFirst : dayFirst ?? monthFirstDate
        case (true, false, true):
            // "07 APR 2019", "19-SEP-2019", "23AUG18", "19Oct'13"
            guard (1...2).contains(a.text.count), let m = monthNames[b.text.uppercased()], let y = year(c.text) else { return nil }
            return CalendarDate(year: y, month: m, day: Int(a.text)!)
        case (false, true, true):
            // "NOV 5, 2017", "Aug07'13", "Mar14.2013", "April24th2019"
            guard let m = monthNames[a.text.uppercased()], (1...2).contains(b.text.count), let y = year(c.text) else { return nil }
            return CalendarDate(year: y, month: m, day: Int(b.text)!)
        default:
            return nil
        }
    }

    // MARK: amounts

    /// A label amount; nil if it holds none. The first number in the text, whatever stands around it
    /// ("RM 11.70", "$1,234.50", "27,45EUR"): with both separators the last one is the decimal one
    /// (1,234.50 and 1.234,50); a lone comma is a decimal comma unless three digits follow it (1,050).
    public static func amount(_ s: String) -> Amount? {
        let chars = Array(s)
        guard let start = chars.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        var number = String(chars[start...].prefix { ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," })
        while let last = number.last, last == "." || last == "," { number.removeLast() }
        let negative = start > 0 && chars[start - 1] == "-"
        let lastDot = number.lastIndex(of: "."), lastComma = number.lastIndex(of: ",")
        var plain: String
        switch (lastDot, lastComma) {
        case let (dot?, comma?):
            // The last separator is the decimal one; the other groups thousands.
            let decimal: Character = dot > comma ? "." : ","
            let parts = number.split(separator: decimal, omittingEmptySubsequences: false)
            plain = parts.dropLast().joined().filter(\.isNumber) + "." + parts.last!.filter(\.isNumber)
        case (nil, let comma?):
            let tail = number[number.index(after: comma)...]
            let head = number[..<comma].filter { $0 != "," }
            plain = head + (tail.count == 3 ? "" : ".") + tail
        case (_?, nil):
            // 12.50; several dots group thousands (1.234.567).
            plain = number.filter { $0 == "." }.count > 1 ? number.filter(\.isNumber) : number
        case (nil, nil):
            plain = number
        }
        return Amount((negative ? "-" : "") + plain)
    }

    // MARK: vendors

    /// The reference scorer's vendor normalisation: upper-case, accents dropped (Ä→A), everything but
    /// letters, digits and & made a space, spaces collapsed.
    /// The same normalisation the shop directory keys names by (`ShopName.key`).
    public static func vendor(_ s: String) -> String { ShopName.key(s) }
}
