import Foundation
import ReceiptLearning
import ReceiptModel
import ReceiptParser
import ReceiptPipeline
import ReceiptStore

/// `eval --learn`: the labelled receipts read in a fixed order (file name) into a store, as a user
/// lives with the tool: each is read with what the store's shops learned so far, then its wrong
/// fields are corrected through the store's `correct` (the code path `receipts edit` takes, with its
/// teacher) and, with `confirm`, the rest accepted as right (as `receipts review` accepts), and the
/// next one is read. Each receipt is scored twice: read as a stranger would (no
/// learning) and as it was read with learning.
public enum LearnRun {
    /// One receipt of the run.
    public struct Step: Sendable {
        public var id: String
        /// A receipt of the same shop (by its label) came earlier in the order.
        public var repeatShop: Bool
        /// Read without learning.
        public var stranger: Scored
        /// Read with what the store had learned before it.
        public var learned: Scored
        /// What a shop set on it.
        public var fields: LearnedFields?
        /// Matched on a strong key (else on the header alone), when it matched.
        public var strong: Bool?
        /// Given a learned name its label does not match.
        public var falseMatch: Bool
        /// The fields the user corrected after reading it with learning.
        public var corrected: [EvalField]
        /// The user accepted the rest of it as right (`receipts review`'s accept).
        public var confirmed = false
        /// How the receipt compared with the shops the store knew (for choosing the thresholds):
        /// the most alike header's likeness and whether that shop is the receipt's, the next shop's likeness.
        public var bestHeader: Double?
        public var bestHeaderRight: Bool?
        public var secondHeader: Double?
        /// A shop shared a strong key with it, and whether it was the receipt's.
        public var strongRight: Bool?
    }

    /// What OCR read of one receipt, kept for the run (no pixels).
    struct Read: Sendable {
        var receipt: ParsedReceipt
        var reading: OCRReading
        var page: OCRPage
        var texts: [String]
        var secondPass: Bool
        var seconds: Double
        var engine: String
    }

    /// Reads `receipts` (OCR `jobs` at a time), then learns from them one by one, in order, in
    /// `store` (a new, empty store). `parser` reads rows for the habits.
    public static func run(_ receipts: [LabelledReceipt], makePipeline: @escaping @Sendable () throws -> ReceiptPipeline, parser: ReceiptParser,
                           scoring: Scoring, jobs: Int, store: any ReceiptStore, by who: String = "eval", confirm: Bool = true,
                           isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> [Step] {
        let reads = try EvalRun.read(receipts, makePipeline: makePipeline, jobs: jobs, isCancelled: isCancelled) { _, outcome, _ -> Result<Read, EvalError> in
            switch outcome {
            case let .success(out):
                return .success(Read(receipt: out.receipt, reading: out.reading, page: out.page, texts: EvalRun.texts(out),
                                     secondPass: out.passes.count > 1, seconds: out.seconds, engine: "eval"))
            case let .failure(error):
                return .failure(EvalError(.input, FailureReport(error).message))
            }
        }
        var steps: [Step] = []
        var seen: Set<String> = []
        var learning = ShopLearning(shops: [], parser: parser)
        for (r, read) in zip(receipts, reads) {
            if isCancelled() { break }
            let shopKey = r.vendor.map(scoring.vendor)
            let repeatShop = shopKey.map { seen.contains($0) } ?? false
            if let shopKey { seen.insert(shopKey) }
            guard case let .success(x) = read else {
                let message: String = if case let .failure(e) = read { e.message } else { "" }
                let s = Scored(r, got: nil, error: message, scoring: scoring)
                steps.append(Step(id: r.id, repeatShop: repeatShop, stranger: s, learned: s, fields: nil, strong: nil, falseMatch: false, corrected: []))
                continue
            }
            func scored(_ p: ParsedReceipt) -> Scored {
                var s = Scored(r, got: p, scoring: scoring)
                s.texts = x.texts; s.secondPass = x.secondPass; s.seconds = x.seconds
                return s
            }
            let fingerprint = Fingerprint.of(x.reading.first)
            let comparisons = learning.directory.compare(fingerprint)
            let fields = learning.read(x.receipt, reading: x.reading, page: x.page)
            let shown = x.receipt.applying(fields)
            var step = Step(id: r.id, repeatShop: repeatShop, stranger: scored(x.receipt), learned: scored(shown), fields: fields,
                            strong: nil, falseMatch: false, corrected: [])
            if let v = fields?.vendor {
                step.strong = v.evidence.notes.contains { if case let .matchedShop(m) = $0 { m.keys.contains { $0.kind.isStrong } } else { false } }
                step.falseMatch = r.vendor.map { scoring.vendor($0) != scoring.vendor(v.value) } ?? false
            }
            let byHeader = comparisons.filter { !$0.conflict }.sorted { $0.header > $1.header }
            if let best = byHeader.first {
                step.bestHeader = best.header
                step.bestHeaderRight = shopKey.map { scoring.vendor(best.name) == $0 }
                step.secondHeader = byHeader.dropFirst().first?.header
            }
            if let s = comparisons.first(where: { !$0.conflict && $0.shared.contains { $0.kind.isStrong } }) {
                step.strongRight = shopKey.map { scoring.vendor(s.name) == $0 }
            }
            // The user reads the receipt and corrects what is wrong, as `receipts edit` would.
            let id = try store.saveReceipt(StoredReceiptInput(contentHash: "eval:" + r.id, sourcePath: r.image, ocrText: x.page.text, reading: x.reading,
                                                              parsed: x.receipt, learned: fields, engineVersion: x.engine,
                                                              status: ReviewPolicy.needsReview(shown) ? .needsReview : .parsed))
            // Then accepts what is right (`receipts review`'s accept), unless it confirms nothing.
            let changes = corrections(r, wrong: step.learned)
            let fixed = changes.map(\.1)
            let accepted = confirm ? FieldChange.accepting(shown, corrected: Set(fixed.map(\.field))) : []
            if !fixed.isEmpty || !accepted.isEmpty {
                try store.correct(id, fixed + accepted, by: who, teacher: learning.teacher)
                learning = ShopLearning(shops: try store.shops(), parser: parser)
                step.corrected = changes.map(\.0)
                step.confirmed = !accepted.isEmpty
            }
            steps.append(step)
        }
        return steps
    }

    /// The fields a user corrects as they live with the receipts, and a shop can learn: vendor, date, total
    /// (subtotal, tax, time and line items are scored by `eval`, but a shop learns nothing from them).
    static let correctedFields: [EvalField] = [.vendor, .date, .total]

    /// The labelled values of the fields `wrong` got wrong (or missed), as a user would type them.
    static func corrections(_ r: LabelledReceipt, wrong s: Scored) -> [(EvalField, FieldChange)] {
        correctedFields.compactMap { f -> (EvalField, FieldChange)? in
            guard s.right[f] == false else { return nil }
            switch f {
            case .vendor: return r.vendor.flatMap { try? FieldChange.set(.vendor, $0) }.map { (f, $0) }
            case .date: return r.dates.first.map { (f, FieldChange(field: .date, value: $0.iso)) }
            case .total: return r.totals.first.map { (f, FieldChange(field: .total, value: $0.description)) }
            default: return nil
            }
        }
    }
}

/// The figures of an `eval --learn` run.
public struct LearnSummary: Sendable {
    public var receipts: Int
    public var repeats: Int
    /// Accuracy without and with learning, on all receipts and on those of a shop seen before.
    public var without: Summary
    public var with: Summary
    public var withoutRepeat: Summary
    public var withRepeat: Summary
    /// Vendors, dates and totals the user had to correct: without learning (every wrong one), with learning.
    public var correctionsWithout: Int
    public var correctionsWith: Int
    /// Receipts the user accepted (their right fields confirmed).
    public var confirmations: Int
    public var falseMatches: Int
    public var matched: Int
    public var matchedStrong: Int
    public var learnedTotals: Int
    public var learnedDates: Int

    public init(_ steps: [LearnRun.Step]) {
        receipts = steps.count
        repeats = steps.filter(\.repeatShop).count
        without = Summary(steps.map(\.stranger))
        with = Summary(steps.map(\.learned))
        withoutRepeat = Summary(steps.filter(\.repeatShop).map(\.stranger))
        withRepeat = Summary(steps.filter(\.repeatShop).map(\.learned))
        // The fields the run corrects (vendor, date, total): the others are scored, never corrected.
        func wrong(_ s: Scored) -> Int { LearnRun.correctedFields.filter { s.right[$0] == false }.count }
        correctionsWithout = steps.reduce(0) { $0 + wrong($1.stranger) }
        correctionsWith = steps.reduce(0) { $0 + wrong($1.learned) }
        confirmations = steps.filter(\.confirmed).count
        falseMatches = steps.filter(\.falseMatch).count
        matched = steps.filter { $0.fields?.vendor != nil }.count
        matchedStrong = steps.filter { $0.strong == true }.count
        learnedTotals = steps.filter { $0.fields?.total != nil }.count
        learnedDates = steps.filter { $0.fields?.date != nil }.count
    }

    /// The table `receipts eval --learn` prints.
    public func table(seconds: Double) -> String {
        var s = String(format: "receipts eval --learn: %d receipts in file-name order, %d from a shop seen before; %.1f s\n", receipts, repeats, seconds)
        s += "each read with what the store learned so far, then its wrong fields corrected as `receipts edit` does\n\n"
        s += "             without learning     with learning\n"
        s += "field        all      repeat      all      repeat\n"
        for row in ScoreRow.allCases {
            func a(_ x: Summary) -> String { x.accuracy(row).map { String(format: "%5.1f %%", $0) } ?? "     —" }
            s += row.label.padding(toLength: 12, withPad: " ", startingAt: 0) + "\(a(without))  \(a(withoutRepeat))     \(a(with))  \(a(withRepeat))\n"
        }
        let fewer = correctionsWithout == 0 ? 0 : 100 * Double(correctionsWithout - correctionsWith) / Double(correctionsWithout)
        s += String(format: "\ncorrections  %d without learning, %d with (%.1f %% fewer); %d receipts accepted as right after correcting\n",
                    correctionsWithout, correctionsWith, fewer, confirmations)
        s += "false matches  \(falseMatches) of \(receipts) receipts given a learned name their label does not match"
        s += falseMatches > 0 ? String(format: " (1 in %.0f)\n", Double(receipts) / Double(falseMatches)) : "\n"
        s += "learned      vendor from a shop on \(matched) receipts (\(matchedStrong) on a strong key, \(matched - matchedStrong) on the header alone); "
        s += "total from a habit on \(learnedTotals), date on \(learnedDates)\n"
        return s
    }
}
