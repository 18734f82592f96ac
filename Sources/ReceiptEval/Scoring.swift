import Foundation
import ReceiptModel
import ReceiptPipeline

/// Why a field was missed, told from the text the pipeline had and the receipt's own arithmetic.
public enum MissCause: String, Sendable, Encodable, CaseIterable {
    /// No reading (page, second look, re-read rows) holds the labelled value: OCR lost it.
    case notRead = "not read"
    /// Some reading holds it, and the parser chose something else (or nothing).
    case notChosen = "read, not chosen"
    /// The receipt says otherwise than the label: the label's amount is read, but the parser's is the
    /// one the receipt's own sums give (subtotal + tax = total, cash − change, the items' sum), and the
    /// label's fits none; or the scorer reads the label as another amount than it writes ("24,000" as
    /// 24.00, "$1.999" as 1.99), which no line item can match.
    case labelDisagrees = "label disagrees"

    /// Whether one line holds the labelled date (either reading), total (a token of it), or a money
    /// field's scored value (`money`, read as the scorer reads it).
    static func holds(_ field: EvalField, expected: LabelledReceipt, line: String, money: String? = nil) -> Bool {
        switch field {
        case .date:
            return [false, true].contains { mf in LabelValue.date(line, monthFirst: mf).map(expected.dates.contains) ?? false }
        case .total:
            return line.split(whereSeparator: \.isWhitespace).contains { tok in
                LabelValue.amount(String(tok)).map { a in expected.totals.contains { $0.cents == a.cents } } ?? false
            }
        case .subtotal, .tax, .itemPrices:
            guard let money else { return false }
            return line.split(whereSeparator: \.isWhitespace).contains { ExtrasScorer.money(String($0)) == money }
        case .time:
            guard let want = expected.extras.time?.scored else { return false }
            return holdsTime(want, line)
        case .vendor, .itemNames:
            return false
        }
    }

    /// "14:05" is printed on the line as 14:05 or 2:05 (am/pm aside: OCR often loses it).
    static func holdsTime(_ want: String, _ line: String) -> Bool {
        let p = want.split(separator: ":").compactMap { Int($0) }
        guard p.count == 2 else { return false }
        let re = ExtrasScorer.timePattern
        return re.matches(in: line, range: NSRange(line.startIndex..., in: line)).contains { m in
            guard let hr = Range(m.range(at: 1), in: line), let mr = Range(m.range(at: 2), in: line),
                  let h = Int(line[hr]), let mi = Int(line[mr]) else { return false }
            return mi == p[1] && h % 12 == p[0] % 12
        }
    }

    /// A labelled name is on some line: the line's letters (its numbers and amounts dropped) at least
    /// as alike as the scorer asks, or holding the name whole.
    static func holdsName(_ name: String, _ line: String) -> Bool {
        let want = name.lowercased().replacingOccurrences(of: " ", with: "")
        guard !want.isEmpty else { return false }
        let have = line.lowercased().replacingOccurrences(of: " ", with: "")
        if have.contains(want) { return true }
        let words = line.split(whereSeparator: \.isWhitespace).filter { $0.contains(where: \.isLetter) }.joined(separator: " ")
        return ExtrasScorer.likeness(name, words) >= ExtrasScorer.alikeEnough
    }
}

/// How one receipt's line items compare with the labelled ones (`ExtrasScorer`).
public struct ItemScore: Sendable {
    /// Per labelled price (label order): found among the line items' amounts.
    public var priceFound: [Bool]
    /// Line items' amounts left when every labelled price has taken its own.
    public var extraPrices: Int
    /// Per labelled name: the likeness of the most alike line item, and which one (nil: no items).
    public var nameLikeness: [Double]
    public var nameBest: [Int?]

    init(_ labels: ExtraLabels, _ items: [LineItem]) {
        (priceFound, extraPrices) = ExtrasScorer.matchPrices(labelled: (labels.itemPrices ?? []).map(\.scored),
                                                             amounts: items.map(\.amount.description))
        var likeness: [Double] = [], best: [Int?] = []
        for name in labels.itemNames ?? [] {
            let scored = items.enumerated().map { ($0.offset, ExtrasScorer.likeness(name, $0.element.description)) }
            let top = scored.max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) }
            likeness.append(top?.1 ?? 0); best.append(top?.0)
        }
        nameLikeness = likeness; nameBest = best
    }
}

/// Per-field right/wrong for one receipt.
public struct Scored: Sendable {
    public var id: String
    public var got: ParsedReceipt?
    public var error: String?
    /// Field → right or wrong, for the fields scored once a receipt; a field the label does not give is absent.
    public var right: [EvalField: Bool] = [:]
    /// The line items against the labelled ones; nil when the label gives none.
    public var items: ItemScore?
    public var secondPass = false
    public var seconds = 0.0
    public var expected: LabelledReceipt
    /// Every line of text the parser had (page, second look, re-read rows): to tell why a field was missed.
    public var texts: [String] = []
    public var scoring = Scoring()
    /// Where the pipeline's time went on this receipt (nil: not read through the pipeline).
    public var stages: StageSeconds?
    /// What each kind of extra look the pipeline took changed, judged on the label.
    public var looks: [LookEffect] = []
    /// Miss → pictures of it (`eval --html` only), made while the image was at hand.
    public var pictures: [Miss.Key: [EvalPicture]] = [:]

    /// Vendor, date and total all right (the "all three" row), and the receipt read.
    public var allOK: Bool { !EvalField.headline.contains { right[$0] == false } && error == nil }

    public init(_ l: LabelledReceipt, got: ParsedReceipt?, error: String? = nil, scoring: Scoring = Scoring()) {
        id = l.id; self.got = got; self.error = error; expected = l; self.scoring = scoring
        if let v = l.vendor { right[.vendor] = got?.vendor.map { scoring.vendor($0.value) == scoring.vendor(v) } ?? false }
        if !l.dates.isEmpty { right[.date] = got?.date.map { l.dates.contains($0.value) } ?? false }
        if !l.totals.isEmpty { right[.total] = got?.total.map { t in l.totals.contains { $0.cents == t.value.cents } } ?? false }
        let x = l.extras
        if let s = x.subtotal { right[.subtotal] = ExtrasScorer.money(got?.subtotal?.value.description) == s.scored }
        if let t = x.tax { right[.tax] = ExtrasScorer.money(got?.tax?.value.description) == t.scored }
        if let t = x.time { right[.time] = ExtrasScorer.time(got?.time?.value.description) == t.scored }
        if x.itemPrices != nil || x.itemNames != nil { items = ItemScore(x, got?.lineItems ?? []) }
    }

    /// Right and labelled counts of one field on this receipt (item measures count items); nil when not labelled.
    public func count(_ f: EvalField) -> (right: Int, of: Int)? {
        switch f {
        case .itemPrices:
            return items.map { ($0.priceFound.filter { $0 }.count, $0.priceFound.count) }
        case .itemNames:
            return items.map { ($0.nameLikeness.filter { $0 >= ExtrasScorer.alikeEnough }.count, $0.nameLikeness.count) }
        default:
            return right[f].map { ($0 ? 1 : 0, 1) }
        }
    }
}

/// One field a receipt got wrong (for line items: one labelled item missed), or a receipt that could not be read (`field` nil).
public struct Miss: Sendable {
    /// Which miss of a receipt: its field and the value the label expected.
    public struct Key: Sendable, Hashable {
        public var field: EvalField
        public var expected: String
    }

    /// The labelled sample's name (its file name without the extension).
    public var sample: String
    /// Nil: the receipt could not be read at all (`got` says why).
    public var field: EvalField?
    public var expected: String
    public var got: String?
    public var evidence: Evidence?
    public var cause: MissCause?
    /// For a money field: the value as the scorer reads the label ("12480.00" labelled "$12,480.00" is "0.00").
    var scored: String?

    public var key: Key? { field.map { Key(field: $0, expected: expected) } }

    public static func of(_ s: Scored) -> [Miss] {
        if let e = s.error { return [Miss(sample: s.id, field: nil, expected: "", got: e)] }
        var out: [Miss] = []
        let r = s.got
        let x = s.expected.extras
        for field in EvalField.allCases {
            switch field {
            case .vendor, .date, .total:
                guard s.right[field] == false else { continue }
                let (expected, got, evidence): (String, String?, Evidence?) = switch field {
                case .vendor: (s.expected.vendor ?? "", r?.vendor?.value, r?.vendor?.evidence)
                case .date: (s.expected.dates.map(\.iso).joined(separator: " | "), r?.date?.value.iso, r?.date?.evidence)
                default: (s.expected.totals.map(\.description).joined(separator: " | "), r?.total?.value.description, r?.total?.evidence)
                }
                out.append(Miss(sample: s.id, field: field, expected: expected, got: got, evidence: evidence,
                                cause: cause(field, s, labelText: nil, scored: nil, got: got)))
            case .subtotal, .tax:
                guard s.right[field] == false, let label = field == .subtotal ? x.subtotal : x.tax else { continue }
                let f = field == .subtotal ? r?.subtotal : r?.tax
                let got = f?.value.description
                out.append(Miss(sample: s.id, field: field, expected: label.text, got: got, evidence: f?.evidence,
                                cause: cause(field, s, labelText: label.text, scored: label.scored, got: got), scored: label.scored))
            case .time:
                guard s.right[field] == false, let label = x.time else { continue }
                out.append(Miss(sample: s.id, field: field, expected: label.text, got: r?.time?.value.description, evidence: r?.time?.evidence,
                                cause: cause(field, s, labelText: label.text, scored: label.scored, got: nil), scored: label.scored))
            case .itemPrices:
                guard let items = s.items else { continue }
                for (label, found) in zip(x.itemPrices ?? [], items.priceFound) where !found {
                    out.append(Miss(sample: s.id, field: field, expected: label.text, got: nil, evidence: nil,
                                    cause: cause(field, s, labelText: label.text, scored: label.scored, got: nil), scored: label.scored))
                }
            case .itemNames:
                guard let items = s.items else { continue }
                for (i, name) in (x.itemNames ?? []).enumerated() where items.nameLikeness[i] < ExtrasScorer.alikeEnough {
                    let best = items.nameBest[i].flatMap { r?.lineItems[$0] }
                    let got = best.map { "\($0.description) (\(String(format: "%.2f", items.nameLikeness[i])) alike)" }
                    let read = s.texts.contains { MissCause.holdsName(name, $0) }
                    out.append(Miss(sample: s.id, field: field, expected: name, got: got, evidence: best?.evidence,
                                    cause: read ? .notChosen : .notRead))
                }
            }
        }
        return out
    }

    /// Why a money field, the time or a headline field was missed.
    static func cause(_ field: EvalField, _ s: Scored, labelText: String?, scored: String?, got: String?) -> MissCause {
        switch field {
        case .vendor:
            guard let v = s.expected.vendor else { return .notRead }
            let want = LabelValue.vendor(v).replacingOccurrences(of: " ", with: "")
            let have = s.texts.map { LabelValue.vendor($0).replacingOccurrences(of: " ", with: "") }.joined()
            return !want.isEmpty && have.contains(want) ? .notChosen : .notRead
        case .time:
            if let labelText, Arithmetic.scorerMisreadsTime(labelText) { return .labelDisagrees }
            return s.texts.contains { MissCause.holds(field, expected: s.expected, line: $0) } ? .notChosen : .notRead
        case .date:
            return s.texts.contains { MissCause.holds(field, expected: s.expected, line: $0) } ? .notChosen : .notRead
        case .total:
            guard s.texts.contains(where: { MissCause.holds(field, expected: s.expected, line: $0) }) else { return .notRead }
            return got != nil && Arithmetic.backs(.total, s.got) ? .labelDisagrees : .notChosen
        case .subtotal, .tax, .itemPrices:
            if let labelText, let scored, Arithmetic.scorerMisreads(labelText, scored) { return .labelDisagrees }
            guard s.texts.contains(where: { MissCause.holds(field, expected: s.expected, line: $0, money: scored) }) else { return .notRead }
            return field != .itemPrices && got != nil && Arithmetic.backs(field, s.got) ? .labelDisagrees : .notChosen
        case .itemNames:
            return .notChosen
        }
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

/// What the receipt's own arithmetic says of a chosen value, for `MissCause.labelDisagrees`.
enum Arithmetic {
    /// The parser's value of `field` is tied to other printed amounts by a sum that held.
    static func backs(_ field: EvalField, _ r: ParsedReceipt?) -> Bool {
        guard let r else { return false }
        let sums = r.checks.compactMap { c -> (Sum, Amount)? in if case let .sum(s, v) = c { (s, v) } else { nil } }
        switch field {
        case .total:
            // A total the parser computed from the sum backs nothing: the sum made it.
            guard let t = r.total?.value, r.total?.evidence.notes.contains(.computedSubtotalPlusTax) == false else { return false }
            return sums.contains { $0.1 == t }
        case .subtotal:
            guard let v = r.subtotal?.value, r.total?.evidence.notes.contains(.computedSubtotalPlusTax) == false else { return false }
            return sums.contains { if case let .subtotalTax(s, _, _, _, _) = $0.0 { s == v } else { false } }
        case .tax:
            guard let v = r.tax?.value, r.total?.evidence.notes.contains(.computedSubtotalPlusTax) == false else { return false }
            return sums.contains {
                switch $0.0 {
                case let .subtotalTax(_, t, _, _, _), let .lineItemsTax(_, t): t == v
                default: false
                }
            }
        default:
            return false
        }
    }

    /// The label writes a time with its PM as the receipt prints or OCR reads it, which the scorer takes
    /// for no PM at all ("03:32PH", "8:39FM", "6:14:45P"): a P or F right after the time, not "pm".
    static func scorerMisreadsTime(_ text: String) -> Bool {
        let t = text.lowercased()
        return t.range(of: #"\d\s?(p(?![.]?m)|f)"#, options: .regularExpression) != nil && ExtrasScorer.time(text).map { Int($0.prefix(2)) ?? 12 < 12 } == true
    }

    /// The scorer reads the label as another amount than the label writes: "24,000" (24000) as 24.00,
    /// "$12,480.00" as 0.00, "$1.999" as 1.99.
    static func scorerMisreads(_ text: String, _ scored: String) -> Bool {
        guard let printed = LabelValue.amount(text), let s = Amount(scored) else { return false }
        return printed.magnitude != s
    }
}

/// A row of the accuracy table: one field, or the three headline fields on one receipt.
public enum ScoreRow: Hashable, Sendable, CaseIterable {
    case field(EvalField)
    case all

    /// Vendor, date, total, all three, then the others.
    public static var allCases: [ScoreRow] {
        EvalField.headline.map(ScoreRow.field) + [.all] + EvalField.allCases.filter { !EvalField.headline.contains($0) }.map(ScoreRow.field)
    }

    /// "vendor", "date", "total", "all", "item_prices" …: the keys of baseline files and JSON reports.
    public var key: String { if case let .field(f) = self { f.rawValue } else { "all" } }
    /// As the table shows it.
    public var label: String { if case let .field(f) = self { f.label } else { "all three" } }
}

/// Accuracy over a run: per row, how many were right of how many labelled, and where the misses go.
public struct Summary: Sendable {
    public var right: [ScoreRow: Int] = [:]
    public var labelled: [ScoreRow: Int] = [:]
    /// Line items' amounts that are no labelled price (on receipts whose label lists the items).
    public var extraPrices = 0
    public var secondPasses = 0
    public var errors = 0
    public var ocrSeconds = 0.0
    /// field → cause → misses.
    public var causes: [EvalField: [MissCause: Int]] = [:]

    public init(_ results: [Scored]) {
        for m in results.flatMap(Miss.of) { if let f = m.field, let c = m.cause { causes[f, default: [:]][c, default: 0] += 1 } }
        for s in results {
            for f in EvalField.allCases {
                guard let (ok, n) = s.count(f) else { continue }
                labelled[.field(f), default: 0] += n
                right[.field(f), default: 0] += ok
            }
            extraPrices += s.items?.extraPrices ?? 0
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

    /// "extra prices 12 (7.5 % of those found)", when line items were scored.
    public var extraPricesLine: String? {
        guard labelled[.field(.itemPrices)] != nil else { return nil }
        let found = right[.field(.itemPrices), default: 0]
        return "extra prices \(extraPrices) (\(fmt(100 * Double(extraPrices) / Double(max(1, found)))) % of those found): line items' amounts that are no labelled price"
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
        if let extra = extraPricesLine {
            s += "(item prices: labelled prices among the line items' amounts; item names: labelled names with a line item at least \(ExtrasScorer.alikeEnough) alike)\n"
            s += extra + "\n"
        }
        if jobs > 0 {
            s += String(format: "\nsecond OCR pass: %d of %d receipts (%.1f %%)\n", secondPasses, n, 100 * Double(secondPasses) / Double(max(1, n)))
        }
        if errors > 0 { s += "errors: \(errors) receipts could not be read\n" }
        if !causes.isEmpty {
            s += "\nwhere the misses go  " + MissCause.allCases.map(\.rawValue).joined(separator: "  ") + "\n"
            for f in EvalField.allCases where causes[f] != nil {
                s += "  " + f.label.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + MissCause.allCases.map { c in String(format: "%\(c.rawValue.count)d", causes[f]?[c] ?? 0) }.joined(separator: "  ") + "\n"
            }
        }
        return s
    }
}

/// One decimal, as the tables print accuracies.
func fmt(_ x: Double) -> String { String(format: "%.1f", x) }
