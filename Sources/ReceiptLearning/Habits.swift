import Foundation
import ReceiptModel
import ReceiptParser

/// Where a shop prints a field: learned from a correction or confirmation whose value stood on a line of the
/// receipt (the kind of line: its words, or the words of the line above it, and which value on it),
/// and found again on the shop's later receipts.
public enum Habits {
    /// Two labels this alike (trigram likeness) name the same kind of line: "total sales inclusive gst rm"
    /// and "total sales incluzive gst rm" do, "rounding adjustment rm" and "rounding rm" do not.
    public static let sameLabel = 0.75
    /// A label shorter than this ("rm") says little alone: the line above must agree too.
    static let shortLabel = 5

    /// The kind of line among `rows` that holds `value`, where `values` reads a row's values: the first
    /// row the parser's rules give the field's keyword, or that follows such a row (a value printed
    /// under its label); else, with `anyRow` (dates: a date is seldom anything else), the first row
    /// that holds it. A total on an item's line or a payment line says nothing of where the shop
    /// prints its totals.
    static func kind<T: Equatable>(of value: T, field: String, in rows: [ReadRow], anyRow: Bool, values: (ReadRow) -> [T]) -> LineKind? {
        let holding = rows.filter { values($0).contains(value) }
        let labelled = holding.first { $0.keyword == field || ($0.label.isEmpty && $0.index > 0 && rows[$0.index - 1].keyword == field) }
        guard let row = labelled ?? (anyRow ? holding.first : nil) else { return nil }
        let vs = values(row)
        let fromRight = vs.count - 1 - (vs.lastIndex(of: value) ?? vs.count - 1)
        return LineKind(label: row.label, above: label(above: row.index, in: rows), fromRight: fromRight)
    }

    /// The words of the nearest row above `index` that has some.
    static func label(above index: Int, in rows: [ReadRow]) -> String? {
        rows[..<min(index, rows.count)].last { !$0.label.isEmpty }?.label
    }

    /// The row of `kind` among `rows` and its value, when one matches well enough (the best one).
    static func find<T>(_ kind: LineKind, in rows: [ReadRow], values: (ReadRow) -> [T]) -> (ReadRow, T)? {
        var best: (ReadRow, T, Double)?
        let want = Trigrams(kind.label), wantAbove = kind.above.map { Trigrams($0) }
        for row in rows {
            let vs = values(row)
            guard vs.count > kind.fromRight else { continue }
            var aboveLikeness = 0.0
            if let w = wantAbove, let a = label(above: row.index, in: rows) { aboveLikeness = w.likeness(Trigrams(a)) }
            let score: Double
            if kind.label.isEmpty {
                guard row.label.isEmpty else { continue }
                score = aboveLikeness
            } else if kind.label.count < shortLabel {
                guard row.label == kind.label else { continue }
                score = aboveLikeness
            } else {
                score = want.likeness(Trigrams(row.label))
            }
            guard score >= sameLabel else { continue }
            if best == nil || score > best!.2 { best = (row, vs[vs.count - 1 - kind.fromRight], score) }
        }
        return best.map { ($0.0, $0.1) }
    }
}
