import Foundation
import ReceiptModel

/// One row of a receipt as the parser reads it: its words, and the amounts and dates on it read as
/// the parser reads them (the same scanners, the receipt's own day/month order). For code that
/// learns which kind of line a shop prints a value on (module ReceiptLearning), without a second
/// set of scanners.
public struct ReadRow: Sendable, Hashable {
    /// Position among the rows, top to bottom.
    public var index: Int
    /// The OCR line (index in `OCRPage.lines`) the row starts with, for evidence.
    public var line: Int
    public var text: String
    public var box: BoundingBox?
    /// The row's words of two letters or more, lower case, without numbers: "total sales inclusive gst rm".
    public var label: String
    /// The money amounts on the row, left to right (rates like "6%" left out).
    public var amounts: [Amount]
    /// The plausible dates on the row, left to right.
    public var dates: [CalendarDate]
    /// Dates the scanners read on the row that the parser drops as implausible (in the future, or
    /// before its earliest year): often a year OCR misread ("12/03/2418").
    public var droppedDates: [CalendarDate] = []
    /// The field whose keyword (in the parser's rules) the row holds: `total` (a total keyword, not a
    /// subtotal's nor a distractor's, or a rounding line), `date`; nil for any other row.
    public var keyword: String?

    /// Evidence pointing at this row.
    public func evidence(rule: String, notes: [Note] = []) -> Evidence {
        Evidence(line: line, text: text, box: box, rule: rule, notes: notes)
    }

    /// The words of `text` the way `label` holds them.
    public static func label(_ text: String) -> String {
        text.lowercased().split { !$0.isLetterQuick }.filter { $0.count >= 2 }.joined(separator: " ")
    }
}

extension ReceiptParser {
    /// The page's rows as `parse(_:)` reads them.
    public func rows(_ page: OCRPage) -> [ReadRow] {
        let (lines, currency) = read(page)
        let latest = options.latestDate ?? Self.tomorrow()
        let (found, words) = datesFound(lines)
        let (order, reason) = settledOrder(found, lines: lines, currency: currency?.value, latest: latest, words: words)
        var dates: [Int: [CalendarDate]] = [:], dropped: [Int: [CalendarDate]] = [:]
        for (raw, l) in found {
            if let c = dateCandidate(raw, on: l, words: words[l.index]!, order: order, reason: reason, lineCount: lines.count, latest: latest) {
                dates[l.index, default: []].append(c.0)
            } else if let d = raw.reading(raw.certainOrder ?? order) {
                dropped[l.index, default: []].append(d)
            }
        }
        return lines.map { l in
            let total = compiled.any(compiled.total, in: l.words) != nil && compiled.any(compiled.subtotal, in: l.words) == nil
                && compiled.any(compiled.totalDistractors, in: l.words) == nil
            let keyword: String? = total || compiled.any(compiled.rounding, in: l.words) != nil ? "total"
                : compiled.dateKeyword(l.words) > 0 ? "date" : nil
            return ReadRow(index: l.index, line: l.source, text: l.text, box: l.box, label: ReadRow.label(l.text),
                           amounts: l.amounts.filter { !$0.isPercent }.map(\.amount), dates: dates[l.index] ?? [],
                           droppedDates: dropped[l.index] ?? [], keyword: keyword)
        }
    }
}
