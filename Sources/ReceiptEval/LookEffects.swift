import Foundation
import ReceiptModel
import ReceiptParser
import ReceiptPipeline

/// What one kind of extra OCR look changed on one receipt, judged on its label: the fields
/// (vendor, date, total, subtotal, tax, time) right with the look and wrong without it
/// (`better`), and the other way round (`worse`). "Without it" is the same reading parsed
/// again with that kind of look left out (`OCRReading.withoutLooks`), so it is what the
/// look itself brought, the other looks being as they were.
public struct LookEffect: Sendable, Hashable {
    /// The look's kind: second look, row re-reads, missed rows.
    public var kind: OCRReading.Look.Kind
    /// The field whose doubt caused it ("vendor", "date", "total"; "-" when the parse without it
    /// has no doubt, as a reading made before looks were taken on doubt only may).
    public var doubt: String
    public var better: Int
    public var worse: Int

    /// The kinds of look in the order the pipeline takes them, with the names reports give them.
    public static let kinds: [(kind: OCRReading.Look.Kind, name: String)] =
        [(.missedRow, "missed rows"), (.lineReread, "row re-reads"), (.secondLook, "second look")]

    static let judged: [EvalField] = [.vendor, .date, .total, .subtotal, .tax, .time]

    /// One effect per kind of look the reading holds.
    static func of(_ reading: OCRReading, parser: ReceiptParser, scored: Scored) -> [LookEffect] {
        let taken = Set(reading.pages.flatMap(\.looks).map(\.kind))
        guard !taken.isEmpty else { return [] }
        return kinds.compactMap { kind, _ in
            guard taken.contains(kind) else { return nil }
            let without = reading.withoutLooks(kind)
            let withoutIt = parser.parse(without).receipt
            let other = Scored(scored.expected, got: withoutIt, scoring: scored.scoring)
            let better = judged.filter { scored.right[$0] == true && other.right[$0] == false }.count
            let worse = judged.filter { scored.right[$0] == false && other.right[$0] == true }.count
            // The doubt that asked for it: the first read's for missed rows, after the missed rows for
            // re-reads, after the re-reads for the second look.
            let before: ParsedReceipt? = switch kind {
            case .missedRow: parser.parse(without.withoutLooks(.lineReread).withoutLooks(.secondLook)).receipt
            case .lineReread: parser.parse(without.withoutLooks(.secondLook)).receipt
            case .secondLook: withoutIt
            default: nil
            }
            let doubt = before.flatMap { ReceiptParser.doubt($0)?.field.rawValue } ?? "-"
            return LookEffect(kind: kind, doubt: doubt, better: better, worse: worse)
        }
    }
}

/// The stage times and look effects of a run, summed: what `receipts eval` prints under the
/// accuracy table and `make bench` shows per set.
public struct CostSummary: Sendable {
    public struct Row: Sendable, Hashable {
        public var receipts = 0
        /// Receipts where a field got better with the look / worse.
        public var better = 0
        public var worse = 0
        public var fieldsBetter = 0
        public var fieldsWorse = 0
    }

    /// Receipts read through the pipeline (with stage times).
    public var read = 0
    public var stages = StageSeconds()
    /// (look name, doubt) → counts.
    public var looks: [String: [String: Row]] = [:]

    public init(_ results: [Scored]) {
        for s in results {
            guard let st = s.stages else { continue }
            read += 1
            stages = stages + st
            for e in s.looks {
                let name = LookEffect.kinds.first { $0.kind == e.kind }?.name ?? e.kind.rawValue
                var row = looks[name, default: [:]][e.doubt, default: Row()]
                row.receipts += 1
                if e.better > 0 { row.better += 1 }
                if e.worse > 0 { row.worse += 1 }
                row.fieldsBetter += e.better; row.fieldsWorse += e.worse
                looks[name, default: [:]][e.doubt] = row
            }
        }
    }

    /// Mean seconds per receipt, stage by stage (each receipt's stages run on one core).
    public var meanStages: [(name: String, seconds: Double)] {
        stages.named.map { ($0.name, $0.seconds / Double(max(1, read))) }
    }

    /// The two tables `receipts eval` prints; empty when nothing was read through the pipeline.
    public var table: String {
        guard read > 0 else { return "" }
        let named = meanStages
        var s = "\nseconds per receipt, by stage (on one core; \(read) receipts read)\n"
        s += "  " + named.map { $0.name.padding(toLength: max(9, $0.name.count), withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  all\n"
        s += "  " + named.map { n in String(format: "%\(max(9, n.name.count)).3f", n.seconds) }.joined(separator: "  ")
            + String(format: "  %.3f\n", stages.total / Double(read))
        guard !looks.isEmpty else { return s }
        s += "\nextra looks: receipts that took one, and those where it made a field right (better) or wrong (worse) against the label\n"
        s += "  look          doubt    receipts  better  worse\n"
        for (_, name) in LookEffect.kinds {
            guard let byDoubt = looks[name] else { continue }
            for doubt in ["vendor", "date", "total", "-"] where byDoubt[doubt] != nil {
                let r = byDoubt[doubt]!
                s += "  " + name.padding(toLength: 14, withPad: " ", startingAt: 0) + doubt.padding(toLength: 8, withPad: " ", startingAt: 0)
                    + String(format: "%9d %7d %6d\n", r.receipts, r.better, r.worse)
            }
        }
        return s
    }
}
