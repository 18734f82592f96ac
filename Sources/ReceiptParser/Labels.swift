import Foundation
import ReceiptModel

/// Reading label values as people write them, for evaluation: "RM 10.60",
/// "1.234,50", "25/12/2018", "05 MAR 2018", "20180304".
public enum LabelValue {
    /// A label date as a day; all-digit ambiguous dates read day-first unless `monthFirst`.
    public static func date(_ s: String, monthFirst: Bool = false) -> CalendarDate? {
        if let d = CalendarDate(iso: s.trimmingCharacters(in: .whitespaces)) { return d }
        let months = ParserRules.builtIn.date.months
        for raw in DateScanner.scan(s.uppercased(), months: months) {
            if raw.shape == .numeric, raw.certainOrder == nil {
                if let d = raw.reading(monthFirst ? .monthFirst : .dayFirst) { return d }
            } else if let order = raw.certainOrder, let d = raw.reading(order) { return d }
        }
        // 25032018: day, month, four-digit year.
        let digits = s.filter(\.isNumber)
        if digits.count == 8, let d = Int(digits.prefix(2)), let m = Int(digits.dropFirst(2).prefix(2)), let y = Int(digits.suffix(4)) {
            return CalendarDate(year: y, month: m, day: d)
        }
        return nil
    }

    /// A label amount; nil if it holds none. Understands 1,234.50 and 1.234,50.
    public static func amount(_ s: String) -> Amount? {
        var t = s.uppercased().filter { $0.isNumber || $0 == "." || $0 == "," || $0 == "-" }
        guard t.contains(where: \.isNumber) else { return nil }
        if t.contains(","), t.contains(".") {
            if t.lastIndex(of: ",")! > t.lastIndex(of: ".")! {
                t = t.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
            } else {
                t = t.replacingOccurrences(of: ",", with: "")
            }
        } else if let comma = t.lastIndex(of: ",") {
            let tail = t[t.index(after: comma)...]
            let head = t[..<comma].replacingOccurrences(of: ",", with: "")
            t = head + (tail.count == 3 ? "" : ".") + tail
        }
        t = t.trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
        return Amount(t)
    }

    /// The scorer's vendor normalisation: upper-case, punctuation dropped, spaces collapsed.
    public static func vendor(_ s: String) -> String { VendorText.normalise(s) }
}
