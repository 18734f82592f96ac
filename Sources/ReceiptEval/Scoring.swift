import Foundation
import ReceiptModel

/// Why a field was missed, told from the text the pipeline had: was the right value on any reading?
public enum MissCause: String, Sendable, Encodable, CaseIterable {
    /// No reading (page, second look, re-read rows) holds the labelled value: OCR lost it.
    case notRead = "not read"
    /// Some reading holds it, and the parser chose something else (or nothing).
    case notChosen = "read, not chosen"

    static func of(field: EvalField, expected: LabelledReceipt, texts: [String]) -> MissCause {
        switch field {
        case .vendor:
            guard let v = expected.vendor else { return .notRead }
            let want = LabelValue.vendor(v).replacingOccurrences(of: " ", with: "")
            let have = texts.map { LabelValue.vendor($0).replacingOccurrences(of: " ", with: "") }.joined()
            return !want.isEmpty && have.contains(want) ? .notChosen : .notRead
        case .date, .total:
            return texts.contains { holds(field, expected: expected, line: $0) } ? .notChosen : .notRead
        }
    }

    /// Whether one line holds the labelled date (either reading) or total (a token of it).
    static func holds(_ field: EvalField, expected: LabelledReceipt, line: String) -> Bool {
        switch field {
        case .date:
            return [false, true].contains { mf in LabelValue.date(line, monthFirst: mf).map(expected.dates.contains) ?? false }
        case .total:
            return line.split(whereSeparator: \.isWhitespace).contains { tok in
                LabelValue.amount(String(tok)).map { a in expected.totals.contains { $0.cents == a.cents } } ?? false
            }
        case .vendor:
            return false
        }
    }
}

/// Per-field right/wrong for one receipt.
public struct Scored: Sendable {
    public var id: String
    public var got: ParsedReceipt?
    public var error: String?
    /// Field → right or wrong; a field the label does not give is absent.
    public var right: [EvalField: Bool] = [:]
    public var secondPass = false
    public var seconds = 0.0
    public var expected: LabelledReceipt
    /// Every line of text the parser had (page, second look, re-read rows): to tell why a field was missed.
    public var texts: [String] = []
    public var scoring = Scoring()
    /// Field → pictures of the miss (`eval --html` only), made while the image was at hand.
    public var pictures: [EvalField: [EvalPicture]] = [:]

    public var allOK: Bool { !right.values.contains(false) && error == nil }

    public init(_ l: LabelledReceipt, got: ParsedReceipt?, error: String? = nil, scoring: Scoring = Scoring()) {
        id = l.id; self.got = got; self.error = error; expected = l; self.scoring = scoring
        if let v = l.vendor { right[.vendor] = got?.vendor.map { scoring.vendor($0.value) == scoring.vendor(v) } ?? false }
        if !l.dates.isEmpty { right[.date] = got?.date.map { l.dates.contains($0.value) } ?? false }
        if !l.totals.isEmpty { right[.total] = got?.total.map { t in l.totals.contains { $0.cents == t.value.cents } } ?? false }
    }
}

/// One field a receipt got wrong, or a receipt that could not be read (`field` nil).
public struct Miss: Sendable {
    /// The labelled sample's name (its file name without the extension).
    public var sample: String
    /// Nil: the receipt could not be read at all (`got` says why).
    public var field: EvalField?
    public var expected: String
    public var got: String?
    public var evidence: Evidence?
    public var cause: MissCause?

    public static func of(_ s: Scored) -> [Miss] {
        if let e = s.error { return [Miss(sample: s.id, field: nil, expected: "", got: e)] }
        var out: [Miss] = []
        let r = s.got
        for field in EvalField.allCases where s.right[field] == false {
            let (expected, got, evidence): (String, String?, Evidence?) = switch field {
            case .vendor: (s.expected.vendor ?? "", r?.vendor?.value, r?.vendor?.evidence)
            case .date: (s.expected.dates.map(\.iso).joined(separator: " | "), r?.date?.value.iso, r?.date?.evidence)
            case .total: (s.expected.totals.map(\.description).joined(separator: " | "), r?.total?.value.description, r?.total?.evidence)
            }
            out.append(Miss(sample: s.id, field: field, expected: expected, got: got, evidence: evidence,
                            cause: MissCause.of(field: field, expected: s.expected, texts: s.texts)))
        }
        return out
    }

    /// "field" as reports name it: the field, or "error".
    public var fieldName: String { field?.rawValue ?? "error" }

    /// One line for the terminal.
    public var line: String {
        guard field != nil else { return "\(sample)  error: \(got ?? "")" }
        var s = "\(sample)  \(fieldName.padding(toLength: 6, withPad: " ", startingAt: 0))  expected \(expected)  got \(got ?? "nothing")"
        if let cause { s += "  [\(cause.rawValue)]" }
        if let e = evidence { s += "  (\(e.line.map { "line \($0 + 1): " } ?? "")\"\(e.text ?? "")\" \(e.rule))" }
        return s
    }
}

/// A row of the accuracy table: one field, or all of them on one receipt.
public enum ScoreRow: Hashable, Sendable, CaseIterable {
    case field(EvalField)
    case all

    public static var allCases: [ScoreRow] { EvalField.allCases.map(ScoreRow.field) + [.all] }

    /// "vendor", "date", "total", "all": the keys of baseline files and JSON reports.
    public var key: String { if case let .field(f) = self { f.rawValue } else { "all" } }
    /// As the table shows it.
    public var label: String { if case let .field(f) = self { f.rawValue } else { "all three" } }
}

/// Accuracy over a run: per row, how many were right of how many labelled, and where the misses go.
public struct Summary: Sendable {
    public var right: [ScoreRow: Int] = [:]
    public var labelled: [ScoreRow: Int] = [:]
    public var secondPasses = 0
    public var errors = 0
    public var ocrSeconds = 0.0
    /// field → cause → misses.
    public var causes: [EvalField: [MissCause: Int]] = [:]

    public init(_ results: [Scored]) {
        for m in results.flatMap(Miss.of) { if let f = m.field, let c = m.cause { causes[f, default: [:]][c, default: 0] += 1 } }
        for s in results {
            for f in EvalField.allCases {
                guard let ok = s.right[f] else { continue }
                labelled[.field(f), default: 0] += 1
                if ok { right[.field(f), default: 0] += 1 }
            }
            labelled[.all, default: 0] += 1
            if s.allOK { right[.all, default: 0] += 1 }
            if s.secondPass { secondPasses += 1 }
            if s.error != nil { errors += 1 }
            ocrSeconds += s.seconds
        }
    }

    /// Per cent right, to one decimal, for each row that has labels.
    public func accuracy(_ row: ScoreRow) -> Double? {
        guard let n = labelled[row] else { return nil }
        return n == 0 ? 0 : (100 * Double(right[row, default: 0]) / Double(n) * 10).rounded() / 10
    }

    /// Row key ("vendor", …, "all") → accuracy: the shape of baseline files.
    public var accuracies: [String: Double] {
        Dictionary(uniqueKeysWithValues: ScoreRow.allCases.compactMap { r in accuracy(r).map { (r.key, $0) } })
    }

    /// The table `receipts eval` prints.
    public func table(n: Int, seconds: Double, jobs: Int, source: String) -> String {
        var s = "receipts eval: \(n) receipts, read from \(source)"
        if jobs > 0 { s += ", \(jobs) job\(jobs == 1 ? "" : "s")" }
        s += String(format: ", %.1f s (%.2f s/receipt)\n\n", seconds, seconds / Double(max(1, n)))
        s += "field        right  of    accuracy\n"
        for row in ScoreRow.allCases {
            guard let total = labelled[row] else { continue }
            s += row.label.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%6d %4d %9.1f %%\n", right[row, default: 0], total, accuracy(row) ?? 0)
        }
        if jobs > 0 {
            s += String(format: "\nsecond OCR pass: %d of %d receipts (%.1f %%)\n", secondPasses, n, 100 * Double(secondPasses) / Double(max(1, n)))
        }
        if errors > 0 { s += "errors: \(errors) receipts could not be read\n" }
        if !causes.isEmpty {
            s += "\nwhere the misses go  " + MissCause.allCases.map(\.rawValue).joined(separator: "  ") + "\n"
            for f in EvalField.allCases where causes[f] != nil {
                s += "  " + f.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + MissCause.allCases.map { c in String(format: "%\(c.rawValue.count)d", causes[f]?[c] ?? 0) }.joined(separator: "  ") + "\n"
            }
        }
        return s
    }
}

/// One decimal, as the tables print accuracies.
func fmt(_ x: Double) -> String { String(format: "%.1f", x) }
