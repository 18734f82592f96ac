import Foundation
import ReceiptEval
import ReceiptModel
import ReceiptParser
import ReceiptStore

/// `receipts eval` options.
struct EvalArgs: ParsableArgs {
    var json = false
    var misses = false
    var html: String?
    var baseline: String?
    var writeBaseline: String?
    var predictions: String?
    var lines = false
    var truthText = false
    var jobs = JobsArgs()
    var limit: Int?
    var saveReadings: String?
    var spaceless = false
    var monthFirst = false
    var eitherOrder = false
    var learn = false
    var learnStore: String?
    var noAccept = false
    var pipeline = PipelineArgs()
    var folder: [String] = []

    static let options = OptionGroup<EvalArgs>([
        .flag("--json", \.json, help: "Print the figures and misses as one JSON object (with --lines: the reader's figures and every line read wrong)."),
        .flag("--misses", \.misses, help: "List every miss: expected vs got, with the evidence (default: the first 20)."),
        .string("--html", value: "FILE", \.html, kind: .file, help: "Write a self-contained HTML page: accuracy against the baseline, every miss with a crop of the image."),
        .string("--baseline", value: "FILE", \.baseline, kind: .file, help: "Fail (exit 1) if any field's accuracy is below the one in FILE."),
        .string("--write-baseline", value: "FILE", \.writeBaseline, kind: .file, help: "Write this run's accuracy to FILE as the new baseline."),
        .string("--predictions", value: "FILE", \.predictions, kind: .file, help: "Write predictions as JSON Lines for ../shared/tools/score.py."),
        .flag("--lines", \.lines, help: "Judge the reader alone: read each true text line (box/) by itself (psm 7, 15 % margin, the image as decoded) and print character error, lines exact, and the lines whose amounts, dates, times and labelled vendor were read exactly (case-insensitive; --spaceless drops spaces), then the vendor, date and time lines read wrong (--misses: all)."),
        .flag("--truth-text", \.truthText, help: "Parse the true text lines (SROIE box/) instead of running OCR: measures the parser alone."),
    ]) + JobsArgs.group.embedded(in: \.jobs) + OptionGroup([
        .int("--limit", value: "N", \.limit, in: 1...1_000_000, help: "Only the first N receipts (sorted by name)."),
        .string("--save-readings", value: "DIR", \.saveReadings, kind: .directory, help: "Write what OCR read of each receipt (every look, with boxes and confidences) to DIR/ID.json, to study the misses."),
        .flag("--spaceless", \.spaceless, help: "Compare vendors without spaces (as score.py --spaceless; the photo set's labels glue words)."),
        .flag("--month-first", \.monthFirst, help: "Read ambiguous all-digit label dates (03/04/2018) month-first (as score.py --month-first)."),
        .flag("--either-order", \.eitherOrder, help: "Accept either reading of an ambiguous all-digit label date (as score.py --either-order)."),
        .flag("--learn", \.learn, help: "Live with the receipts in file-name order: read each with what a store learned so far, then correct its wrong fields as `receipts edit` does and accept the rest; print accuracy and corrections without and with learning."),
        .string("--learn-store", value: "FILE", \.learnStore, kind: .file, help: "With --learn: learn in this new SQLite store and keep it (see what was learned with `receipts shops --store FILE`), instead of a temporary one."),
        .flag("--no-accept", \.noAccept, help: "With --learn: the user corrects the wrong fields and accepts nothing (receipts with nothing wrong teach nothing)."),
    ], checks: [{ a in
        if a.learnStore != nil, !a.learn { throw UsageError("--learn-store goes with --learn") }
        if a.noAccept, !a.learn { throw UsageError("--no-accept goes with --learn") }
        // --learn and --lines each print their own figures: none of the end-to-end run's outputs, and not each other
        // (--learn writes predictions; --lines does not).
        let endToEnd = [(a.truthText, "--truth-text"), (a.html != nil, "--html"), (a.baseline != nil, "--baseline"),
                        (a.writeBaseline != nil, "--write-baseline")]
        let readings = (a.saveReadings != nil, "--save-readings")
        func refuse(_ mode: String, _ others: [(Bool, String)]) throws {
            if let hit = others.first(where: \.0) { throw UsageError("\(mode) cannot be combined with \(hit.1)") }
        }
        if a.lines { try refuse("--lines", endToEnd + [(a.predictions != nil, "--predictions"), readings]) }
        if a.learn { try refuse("--learn", [(a.lines, "--lines")] + endToEnd + [readings]) }
    }]) + PipelineArgs.group.embedded(in: \.pipeline)

    static let arguments = Positionals<EvalArgs>("DIR", kind: .directory, count: .one("eval takes one folder"),
                                                 help: "A labelled folder: images with .json sidecars, or SROIE's img/, key/ and box/.", \.folder)
}

/// `receipts eval DIR`: accuracy per field on a labelled folder.
enum EvalCommand {
    static let command = Command(
        name: "eval",
        summary: "Run the pipeline on a labelled folder and print per-field accuracy and the misses.",
        discussion: """
        DIR holds images with a .json sidecar each (our format: vendor, date, total; or SROIE's: company,
        date, total), or is in SROIE layout (img/, key/, box/). Values are compared as the reference scorer
        does: vendor upper-cased without punctuation, date as a calendar day, total to the cent. Where the
        labels give them (the photo set's keys, our sidecars), subtotal, tax, time and the line items are
        scored as ../shared/tools/extras.py scores them.

        --baseline FILE fails (exit 1) when any field is below the accuracy FILE records; raise the
        baseline on purpose with --write-baseline FILE.

        --html FILE writes one self-contained page (CSS and pictures inside it): the accuracy per
        field (against --baseline FILE when given, with the change), and for every miss the expected
        and found value, why it was missed, the evidence, and a crop of the page where the value was
        read (blue), where the labelled value was read when the parser chose another (green), or a
        thumbnail of the page when nothing was. With --truth-text the crops come from the original
        image, where the true text boxes are.

        Examples:
          receipts eval SampleReceipts
          receipts eval --truth-text ../shared/data/sroie-dev     # the parser alone, on the true text
          receipts eval --jobs 2 --predictions preds.jsonl ../shared/data/sroie-dev
          receipts eval --html report.html --baseline Tests/Fixtures/sample-baseline.json SampleReceipts
        """,
        options: EvalArgs.options, arguments: EvalArgs.arguments, run: run)

    static func run(_ args: EvalArgs, _ ctx: CommandContext) throws -> ExitCode {
        let dir = args.folder[0]
        let scoring = Scoring(spaceless: args.spaceless, monthFirst: args.monthFirst, eitherOrder: args.eitherOrder)
        var receipts = try LabelledReceipt.load(dir, scoring: scoring)
        if let n = args.limit { receipts = Array(receipts.prefix(n)) }
        guard !receipts.isEmpty else { throw CLIFailure(.inputError, "\(dir): no labelled images (image + .json sidecar, or img/ + key/)") }
        let setup = try PipelineSetup.make(args.pipeline)
        let jobs = args.jobs.count
        if args.lines {
            guard !receipts.contains(where: { $0.truthPage == nil }) else {
                throw CLIFailure(.usage, "\(dir): --lines needs the true text lines of every receipt (a box/ folder)")
            }
            let start = Date()
            let (ocr, makeEngine) = (setup.ocr, setup.makeEngine)
            let (lines, failures) = LineEval.run(receipts, makeEngine: { try makeEngine(ocr) }, jobs: jobs)
            for f in failures { ctx.console.error(f) }
            // Each line counted and judged once: the figures, and the lines a field rests on that were read wrong.
            var figures = LineEval.Figures()
            let misses = lines.compactMap { figures.add($0, spaceless: scoring.spaceless) }
            let seconds = Date().timeIntervalSince(start)
            if args.json {
                ctx.console.out(JSONLine.encode(LinesReport(figures, misses: misses, receiptCount: receipts.count, errorCount: failures.count, seconds: seconds)))
            } else {
                ctx.console.outRaw(figures.table(source: "\(receipts.count) receipts", seconds: seconds))
                listMisses("vendor, date and time lines read wrong", misses.map {
                    "\($0.receipt)  \($0.field.padding(toLength: 6, withPad: " ", startingAt: 0))  \"\($0.truth)\"  read \"\($0.read)\""
                }, all: args.misses, ctx)
            }
            return failures.isEmpty ? .ok : .inputError
        }
        if args.learn { return try learn(receipts, args, setup: setup, scoring: scoring, ctx) }
        let truth = args.truthText
        // The baseline is read before the run: a bad file fails before any work.
        let baseline = try args.baseline.map(Baseline.load)
        let html = args.html
        let start = Date()
        let results: [Scored]
        if truth {
            do { results = try EvalRun.truthText(receipts, parser: ReceiptParser(options: setup.parser), scoring: scoring, pictures: html != nil) } catch {
                throw EvalError(error.kind, "\(dir): \(error.message)")
            }
        } else {
            let interruption = ctx.interruption
            results = try EvalRun.ocr(receipts, makePipeline: { try setup.makePipeline() }, scoring: scoring, jobs: jobs,
                                      saveReadings: args.saveReadings, pictures: html != nil, isCancelled: { interruption.isRaised })
            if interruption.isRaised { throw CLIFailure(.interrupted, "interrupted") }
        }
        let elapsed = Date().timeIntervalSince(start)
        let summary = Summary(results)

        if let p = args.predictions {
            try write(EvalRun.predictions(results).map { JSONLine.encode($0) }.joined(separator: "\n") + "\n", to: p, what: "predictions")
        }
        if args.json {
            ctx.console.out(JSONLine.encode(EvalReport(summary: summary, results: results, seconds: elapsed, source: truth ? "truth-text" : "ocr")))
        } else {
            ctx.console.outRaw(summary.table(n: results.count, seconds: elapsed, jobs: truth ? 0 : jobs, source: truth ? "true text (parser alone)" : "OCR"))
            let costs = CostSummary(results).table
            ctx.console.outRaw(costs)
            if !costs.isEmpty, let cache = args.pipeline.ocrCache {
                ctx.console.out("(OCR from the cache in \(cache) where it had the read: those stages' seconds are the cache's, not the engine's)")
            }
            listMisses("\nmisses", results.flatMap(Miss.of).map(\.line), all: args.misses, ctx)
        }
        if let w = args.writeBaseline {
            try write(JSONLine.encode(summary.accuracies, pretty: true) + "\n", to: w, what: "the baseline")
            ctx.console.err("baseline written to \(w)")
        }
        if let html {
            let page = EvalHTML.render(results: results, summary: summary, baseline: baseline, folder: dir,
                                       source: truth ? "the true text (parser alone)" : "OCR", seconds: elapsed)
            try write(page, to: html, what: "the report")
            ctx.console.err("report written to \(html)")
        }
        if let baseline {
            let dropped = baseline.shortfalls(summary)
            if !dropped.isEmpty {
                ctx.console.error("below the baseline in \(baseline.path): " + dropped.joined(separator: "; "))
                return .checkFailed
            }
            ctx.console.err("at or above the baseline in \(baseline.path)")
        }
        return results.contains { $0.error != nil } ? .inputError : .ok
    }

    /// `--learn`: the receipts in order into a store of its own (a temporary SQLite file, removed after).
    static func learn(_ receipts: [LabelledReceipt], _ args: EvalArgs, setup: PipelineSetup.Made, scoring: Scoring, _ ctx: CommandContext) throws -> ExitCode {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("receipts-eval-learn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { if args.learnStore == nil { try? FileManager.default.removeItem(at: dir) } }
        let location = args.learnStore ?? dir.appendingPathComponent("learn.sqlite").path
        if let kept = args.learnStore, FileManager.default.fileExists(atPath: kept) {
            throw CLIFailure(.usage, "\(kept) exists already: --learn-store makes a new store")
        }
        let store = try StoreSupport.attempt("making the store eval --learn learns in") { try StoreLocation.open(location, create: true) }
        let start = Date()
        let interruption = ctx.interruption
        let steps = try StoreSupport.attempt("learning") {
            try LearnRun.run(receipts, makePipeline: { try setup.makePipeline() }, parser: ReceiptParser(options: setup.parser), scoring: scoring,
                             jobs: args.jobs.count, store: store, confirm: !args.noAccept, isCancelled: { interruption.isRaised })
        }
        if interruption.isRaised { throw CLIFailure(.interrupted, "interrupted") }
        let summary = LearnSummary(steps)
        let elapsed = Date().timeIntervalSince(start)
        if let p = args.predictions {
            try write(EvalRun.predictions(steps.map(\.learned)).map { JSONLine.encode($0) }.joined(separator: "\n") + "\n", to: p, what: "predictions")
        }
        if args.json {
            ctx.console.out(JSONLine.encode(LearnReport(summary, steps: steps, seconds: elapsed)))
        } else {
            ctx.console.outRaw(summary.table(seconds: elapsed))
            listMisses("\nmisses with learning on repeat shops", steps.filter(\.repeatShop).flatMap { Miss.of($0.learned) }.map(\.line),
                       all: args.misses, ctx)
        }
        return steps.contains { $0.learned.error != nil } ? .inputError : .ok
    }

    /// Prints `lines` under `heading`, indented: the first 20 unless `all` (`--misses`), saying so; nothing when there are none.
    static func listMisses(_ heading: String, _ lines: [String], all: Bool, _ ctx: CommandContext) {
        guard !lines.isEmpty else { return }
        let shown = all ? lines : Array(lines.prefix(20))
        ctx.console.out("\(heading)\(shown.count < lines.count ? " (first \(shown.count) of \(lines.count); --misses for all)" : ""):")
        for l in shown { ctx.console.out("  " + l) }
    }

    static func write(_ text: String, to path: String, what: String) throws {
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIFailure(.inputError, "\(path): cannot write \(what): \((error as NSError).localizedDescription)")
        }
    }
}

/// `receipts eval --json`: the figures and the misses.
struct EvalReport: Encodable {
    var receiptCount: Int
    var source: String
    var seconds: Double
    var accuracy: [String: Double]
    var right: [String: Int]
    var labelled: [String: Int]
    var secondLookCount: Int
    var errorCount: Int
    var extraItemPriceCount: Int?
    /// Stage → mean seconds per receipt on one core (read through the pipeline; none for --truth-text).
    var stageSeconds: [String: Double]?
    var extraLooks: [ExtraLookReport]
    var misses: [MissReport]

    enum CodingKeys: String, CodingKey {
        case receiptCount = "receipt_count", source, seconds, accuracy, right, labelled, secondLookCount = "second_look_count"
        case errorCount = "error_count", extraItemPriceCount = "extra_item_price_count", stageSeconds = "stage_seconds"
        case extraLooks = "extra_looks", misses
    }

    /// One row of the extra-looks table: a kind of look, the field whose doubt asked for it, and what it changed.
    struct ExtraLookReport: Encodable {
        var look: String
        var doubt: String
        var receipts: Int
        var better: Int
        var worse: Int
    }

    init(summary: Summary, results: [Scored], seconds: Double, source: String) {
        receiptCount = results.count
        self.source = source
        self.seconds = round2(seconds)
        accuracy = summary.accuracies
        right = Dictionary(uniqueKeysWithValues: summary.right.map { ($0.key.key, $0.value) })
        labelled = Dictionary(uniqueKeysWithValues: summary.labelled.map { ($0.key.key, $0.value) })
        secondLookCount = summary.secondPasses
        errorCount = summary.errors
        extraItemPriceCount = summary.labelled[.field(.itemPrices)] != nil ? summary.extraPrices : nil
        let costs = CostSummary(results)
        stageSeconds = costs.read > 0
            ? Dictionary(uniqueKeysWithValues: costs.meanStages.map { ($0.name.replacingOccurrences(of: " ", with: "_"), (($0.seconds * 1000).rounded()) / 1000) })
            : nil
        extraLooks = LookEffect.kinds.flatMap { _, name in
            (costs.looks[name] ?? [:]).sorted { $0.key < $1.key }.map { doubt, row in
                ExtraLookReport(look: name, doubt: doubt, receipts: row.receipts, better: row.better, worse: row.worse)
            }
        }
        misses = results.flatMap(Miss.of).map(MissReport.init)
    }
}

/// `receipts eval --lines --json`: the reader's figures and every vendor, date and time line read wrong. Kinds of line
/// ("lines" all of them, "amounts", "dates", "times", "vendor_lines") as `eval --json` gives fields: the lines of the kind
/// (`labelled`, from the true text), those read exactly (`right`) and the percentage (`accuracy`, two decimals; absent
/// where there is no such line).
struct LinesReport: Encodable {
    var receiptCount: Int
    var lineCount: Int
    var seconds: Double
    var characterError: Double?
    var characterErrorCaseSensitive: Double?
    var accuracy: [String: Double]
    var right: [String: Int]
    var labelled: [String: Int]
    var errorCount: Int
    var misses: [LineMiss]

    enum CodingKeys: String, CodingKey {
        case receiptCount = "receipt_count", lineCount = "line_count", seconds, characterError = "character_error"
        case characterErrorCaseSensitive = "character_error_case_sensitive", accuracy, right, labelled, errorCount = "error_count", misses
    }

    struct LineMiss: Encodable {
        var sample: String
        var field: String
        var truth: String
        var read: String
    }

    static func percent(_ a: Int, _ b: Int) -> Double? { b == 0 ? nil : round2(100 * Double(a) / Double(b)) }

    init(_ f: LineEval.Figures, misses: [LineEval.Miss], receiptCount: Int, errorCount: Int, seconds: Double) {
        self.receiptCount = receiptCount
        lineCount = f.lines
        self.seconds = round2(seconds)
        characterError = Self.percent(f.errors, f.chars)
        characterErrorCaseSensitive = Self.percent(f.errorsCaseSensitive, f.chars)
        let kinds = [("lines", f.exact, f.lines), ("amounts", f.amountsExact, f.amountLines), ("dates", f.datesExact, f.dateLines),
                     ("times", f.timesExact, f.timeLines), ("vendor_lines", f.vendorsExact, f.vendorLines)]
        right = Dictionary(uniqueKeysWithValues: kinds.map { ($0.0, $0.1) })
        labelled = Dictionary(uniqueKeysWithValues: kinds.map { ($0.0, $0.2) })
        accuracy = Dictionary(uniqueKeysWithValues: kinds.compactMap { k in Self.percent(k.1, k.2).map { (k.0, $0) } })
        self.errorCount = errorCount
        self.misses = misses.map { LineMiss(sample: $0.receipt, field: $0.field, truth: $0.truth, read: $0.read) }
    }
}

struct MissReport: Encodable {
    var sample: String
    var field: String
    var expected: String
    var got: String?
    var evidence: EvidenceReport?
    var cause: MissCause?

    init(_ m: Miss) {
        sample = m.sample; field = m.fieldName; expected = m.expected; got = m.got; evidence = m.evidence.map(EvidenceReport.init); cause = m.cause
    }
}

/// `receipts eval --learn --json`.
struct LearnReport: Encodable {
    var receiptCount: Int
    var repeatCount: Int
    var seconds: Double
    var accuracy: [String: [String: Double]]
    var correctionCount: [String: Int]
    var falseMatchCount: Int
    var matchedCount: Int
    var strongMatchCount: Int
    var learnedTotalCount: Int
    var learnedDateCount: Int
    var steps: [Step]

    struct Step: Encodable {
        var sample: String
        var repeatShop: Bool
        var rightWithout: [String: Bool]
        var rightWith: [String: Bool]
        var learned: [String]
        var strongMatch: Bool?
        var falseMatch: Bool
        var corrected: [String]
        var bestHeader: Double?
        var bestHeaderRight: Bool?
        var secondHeader: Double?
        var strongRight: Bool?
        /// The learned fields' evidence, in words.
        var evidence: [String: String]?

        enum CodingKeys: String, CodingKey {
            case sample, repeatShop = "repeat_shop", rightWithout = "right_without", rightWith = "right_with", learned, strongMatch = "strong_match"
            case falseMatch = "false_match", corrected, bestHeader = "best_header", bestHeaderRight = "best_header_right"
            case secondHeader = "second_header", strongRight = "strong_right", evidence
        }
    }

    enum CodingKeys: String, CodingKey {
        case receiptCount = "receipt_count", repeatCount = "repeat_count", seconds, accuracy, correctionCount = "correction_count"
        case falseMatchCount = "false_match_count", matchedCount = "matched_count", strongMatchCount = "strong_match_count"
        case learnedTotalCount = "learned_total_count", learnedDateCount = "learned_date_count", steps
    }

    init(_ s: LearnSummary, steps: [LearnRun.Step], seconds: Double) {
        receiptCount = s.receipts; repeatCount = s.repeats; self.seconds = round2(seconds)
        accuracy = ["without": s.without.accuracies, "with": s.with.accuracies, "without_repeat": s.withoutRepeat.accuracies,
                    "with_repeat": s.withRepeat.accuracies]
        correctionCount = ["without": s.correctionsWithout, "with": s.correctionsWith]
        falseMatchCount = s.falseMatches; matchedCount = s.matched; strongMatchCount = s.matchedStrong
        learnedTotalCount = s.learnedTotals; learnedDateCount = s.learnedDates
        func right(_ x: Scored) -> [String: Bool] { Dictionary(uniqueKeysWithValues: x.right.map { ($0.key.rawValue, $0.value) }) }
        self.steps = steps.map { st in
            Step(sample: st.id, repeatShop: st.repeatShop, rightWithout: right(st.stranger), rightWith: right(st.learned),
                 learned: st.fields?.fieldNames ?? [], strongMatch: st.strong, falseMatch: st.falseMatch, corrected: st.corrected.map(\.rawValue),
                 bestHeader: st.bestHeader.map(round2), bestHeaderRight: st.bestHeaderRight, secondHeader: st.secondHeader.map(round2),
                 strongRight: st.strongRight, evidence: st.fields.map { f in
                     var e: [String: String] = [:]
                     if let v = f.vendor { e["vendor"] = v.value + ": " + v.evidence.notes.map(\.description).joined(separator: "; ") }
                     if let d = f.date { e["date"] = d.value.iso + ": " + d.evidence.notes.map(\.description).joined(separator: "; ") }
                     if let t = f.total { e["total"] = t.value.description + ": " + t.evidence.notes.map(\.description).joined(separator: "; ") }
                     return e
                 })
        }
    }
}
