import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptParser
import ReceiptPipeline

/// One labelled receipt: an image and what it should read as.
struct LabelledReceipt: Sendable {
    var id: String
    var image: String
    var vendor: String?
    /// Any of these days is right: one, or both readings of an ambiguous all-digit label with `--either-order`.
    var dates: [CalendarDate] = []
    /// Any of these is right (SROIE keys may list several, joined by " | ").
    var totals: [Amount]
    /// The true text lines with their boxes, when the data set has them (SROIE `box/`).
    var truthPage: OCRPage?

    /// A folder in SROIE layout (`img/`, `key/`, `box/`) or images with `.json` sidecars beside them.
    static func load(_ dir: String, scoring: Scoring = Scoring()) throws -> [LabelledReceipt] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw CLIFailure(.usage, "\(dir): not a folder")
        }
        let imgDir = (dir as NSString).appendingPathComponent("img"), keyDir = (dir as NSString).appendingPathComponent("key")
        let sroie = fm.fileExists(atPath: imgDir) && fm.fileExists(atPath: keyDir)
        let images = ((try? fm.contentsOfDirectory(atPath: sroie ? imgDir : dir)) ?? [])
            .filter { ImageDecoders.standard.fileExtensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        var out: [LabelledReceipt] = []
        for name in images {
            let id = (name as NSString).deletingPathExtension
            let image = ((sroie ? imgDir : dir) as NSString).appendingPathComponent(name)
            let labelPath = sroie ? (keyDir as NSString).appendingPathComponent(id + ".json") : (dir as NSString).appendingPathComponent(id + ".json")
            guard let data = fm.contents(atPath: labelPath) else { continue }
            guard let obj = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                throw CLIFailure(.inputError, "\(labelPath): not a JSON object")
            }
            var r = LabelledReceipt(id: id, image: image, totals: [])
            r.vendor = (obj["vendor"] as? String) ?? (obj["company"] as? String)
            if let d = obj["date"] as? String { r.dates = scoring.dates(d) }
            if let t = obj["total"] as? String {
                r.totals = t.components(separatedBy: " | ").compactMap(LabelValue.amount)
            } else if let t = obj["total"] as? NSNumber {
                r.totals = Amount(t.stringValue).map { [$0] } ?? []
            }
            if sroie {
                let box = ((dir as NSString).appendingPathComponent("box") as NSString).appendingPathComponent(id + ".txt")
                if let text = try? String(contentsOfFile: box, encoding: .utf8) { r.truthPage = truthPage(text) }
            }
            out.append(r)
        }
        return out
    }

    /// SROIE box lines are `x1,y1,…,x4,y4,text`: the text with its bounding box, in file order.
    static func truthPage(_ s: String) -> OCRPage {
        OCRPage(lines: s.split(whereSeparator: \.isNewline).compactMap { line in
            let parts = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
            guard parts.count == 9 else { return line.isEmpty ? nil : OCRLine(text: String(line)) }
            let n = parts.prefix(8).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard n.count == 8 else { return OCRLine(text: String(parts[8])) }
            let xs = [n[0], n[2], n[4], n[6]], ys = [n[1], n[3], n[5], n[7]]
            let box = BoundingBox(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            return OCRLine(text: String(parts[8]), box: box)
        }.filter { !$0.words.isEmpty })
    }
}

/// How labels are compared, as `score.py`'s flags of the same names do.
struct Scoring: Sendable {
    /// Vendors compared without spaces (the photo set's labels glue words: "KOREANRESTAURANT").
    var spaceless = false
    /// An ambiguous all-digit label date (03/04/2018) is month-first.
    var monthFirst = false
    /// An ambiguous all-digit label date accepts either reading.
    var eitherOrder = false

    func dates(_ label: String) -> [CalendarDate] {
        guard let d = LabelValue.date(label, monthFirst: monthFirst) else { return [] }
        guard eitherOrder, let other = LabelValue.date(label, monthFirst: !monthFirst), other != d else { return [d] }
        return [d, other]
    }

    func vendor(_ s: String) -> String {
        let v = LabelValue.vendor(s)
        return spaceless ? v.replacingOccurrences(of: " ", with: "") : v
    }
}

/// Why a field was missed, told from the text the pipeline had: was the right value on any reading?
enum MissCause: String, Encodable, CaseIterable {
    /// No reading (page, second look, re-read rows) holds the labelled value: OCR lost it.
    case notRead = "not read"
    /// Some reading holds it, and the parser chose something else (or nothing).
    case notChosen = "read, not chosen"

    static func of(field: String, expected: LabelledReceipt, texts: [String], scoring: Scoring) -> MissCause {
        switch field {
        case "vendor":
            guard let v = expected.vendor else { return .notRead }
            let want = LabelValue.vendor(v).replacingOccurrences(of: " ", with: "")
            let have = texts.map { LabelValue.vendor($0).replacingOccurrences(of: " ", with: "") }.joined()
            return !want.isEmpty && have.contains(want) ? .notChosen : .notRead
        default:
            return texts.contains { holds(field, expected: expected, line: $0) } ? .notChosen : .notRead
        }
    }

    /// Whether one line holds the labelled date (either reading) or total (a token of it).
    static func holds(_ field: String, expected: LabelledReceipt, line: String) -> Bool {
        switch field {
        case "date":
            return [false, true].contains { mf in LabelValue.date(line, monthFirst: mf).map(expected.dates.contains) ?? false }
        case "total":
            return line.split(whereSeparator: \.isWhitespace).contains { tok in
                LabelValue.amount(String(tok)).map { a in expected.totals.contains { $0.cents == a.cents } } ?? false
            }
        default:
            return false
        }
    }
}

/// Per-field right/wrong for one receipt.
struct Scored: Sendable {
    var id: String
    var got: ParsedReceipt?
    var error: String?
    var vendorOK: Bool?
    var dateOK: Bool?
    var totalOK: Bool?
    var secondPass = false
    var seconds = 0.0
    var expected: LabelledReceipt
    /// Every line of text the parser had (page, second look, re-read rows): to tell why a field was missed.
    var texts: [String] = []
    var scoring = Scoring()
    /// Field → pictures of the miss (`eval --html` only), made while the image was at hand.
    var pictures: [String: [EvalPicture]] = [:]

    var allOK: Bool { vendorOK != false && dateOK != false && totalOK != false && error == nil }

    init(_ l: LabelledReceipt, got: ParsedReceipt?, error: String? = nil, scoring: Scoring = Scoring()) {
        id = l.id; self.got = got; self.error = error; expected = l; self.scoring = scoring
        if let v = l.vendor { vendorOK = got?.vendor.map { scoring.vendor($0.value) == scoring.vendor(v) } ?? false }
        if !l.dates.isEmpty { dateOK = got?.date.map { l.dates.contains($0.value) } ?? false }
        if !l.totals.isEmpty { totalOK = got?.total.map { t in l.totals.contains { $0.cents == t.value.cents } } ?? false }
    }
}

/// `receipts eval DIR`: accuracy per field on a labelled folder.
enum EvalCommand {
    static let fields = ["vendor", "date", "total", "all"]

    static let command = Command(
        name: "eval",
        summary: "Run the pipeline on a labelled folder and print per-field accuracy and the misses.",
        usage: "receipts eval [options] DIR",
        discussion: """
        DIR holds images with a .json sidecar each (our format: vendor, date, total; or SROIE's: company,
        date, total), or is in SROIE layout (img/, key/, box/). Values are compared as the reference scorer
        does: vendor upper-cased without punctuation, date as a calendar day, total to the cent.

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
        options: [
            OptionSpec("--json", help: "Print the figures and misses as one JSON object."),
            OptionSpec("--misses", help: "List every miss: expected vs got, with the evidence (default: the first 20)."),
            OptionSpec("--html", value: "FILE", help: "Write a self-contained HTML page: accuracy against the baseline, every miss with a crop of the image."),
            OptionSpec("--baseline", value: "FILE", help: "Fail (exit 1) if any field's accuracy is below the one in FILE."),
            OptionSpec("--write-baseline", value: "FILE", help: "Write this run's accuracy to FILE as the new baseline."),
            OptionSpec("--predictions", value: "FILE", help: "Write predictions as JSON Lines for ../shared/tools/score.py."),
            OptionSpec("--lines", help: "Judge the reader alone: read each true text line (box/) by itself (psm 7, 15 % margin, the image as decoded) and print character error, lines exact, amounts exact and dates exact (case-insensitive; --spaceless drops spaces)."),
            OptionSpec("--truth-text", help: "Parse the true text lines (SROIE box/) instead of running OCR: measures the parser alone."),
            OptionSpec("--jobs", short: "-j", value: "N", help: "Parallel OCR engines (default: the number of cores)."),
            OptionSpec("--limit", value: "N", help: "Only the first N receipts (sorted by name)."),
            OptionSpec("--save-readings", value: "DIR", help: "Write what OCR read of each receipt (every look, with boxes and confidences) to DIR/ID.json, to study the misses."),
            OptionSpec("--spaceless", help: "Compare vendors without spaces (as score.py --spaceless; the photo set's labels glue words)."),
            OptionSpec("--month-first", help: "Read ambiguous all-digit label dates (03/04/2018) month-first (as score.py --month-first)."),
            OptionSpec("--either-order", help: "Accept either reading of an ambiguous all-digit label date (as score.py --either-order)."),
        ] + PipelineSetup.options,
        run: run)

    static func run(_ args: Arguments, _ ctx: CommandContext) throws -> ExitCode {
        guard args.positionals.count == 1, let dir = args.positionals.first else { throw UsageError("eval takes one folder") }
        let scoring = Scoring(spaceless: args.flag("--spaceless"), monthFirst: args.flag("--month-first"), eitherOrder: args.flag("--either-order"))
        var receipts = try LabelledReceipt.load(dir, scoring: scoring)
        if let n = try args.int("--limit", in: 1...1_000_000) { receipts = Array(receipts.prefix(n)) }
        guard !receipts.isEmpty else { throw CLIFailure(.inputError, "\(dir): no labelled images (image + .json sidecar, or img/ + key/)") }
        let setup = try PipelineSetup.make(args)
        let jobsForLines = try args.int("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        if args.flag("--lines") {
            guard !receipts.contains(where: { $0.truthPage == nil }) else {
                throw CLIFailure(.usage, "\(dir): --lines needs the true text lines of every receipt (a box/ folder)")
            }
            let start = Date()
            let (lines, failures) = LineEval.run(receipts, setup: setup, jobs: jobsForLines, ctx: ctx)
            for f in failures { ctx.console.error(f) }
            var figures = LineEval.Figures()
            for l in lines { figures.add(l, spaceless: scoring.spaceless) }
            ctx.console.outRaw(figures.table(source: "\(receipts.count) receipts", seconds: Date().timeIntervalSince(start)))
            return failures.isEmpty ? .ok : .inputError
        }
        let truth = args.flag("--truth-text")
        if truth, receipts.contains(where: { $0.truthPage == nil }) {
            throw CLIFailure(.usage, "\(dir): --truth-text needs the true text of every receipt (SROIE box/ folder)")
        }
        let jobs = try args.int("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        // The baseline is read before the run: a bad file fails before any work.
        let baseline = try args.value("--baseline").map { b in
            guard let data = FileManager.default.contents(atPath: b),
                  let base = try? JSONDecoder().decode([String: Double].self, from: data) else {
                throw CLIFailure(.usage, "\(b): not a baseline file (a JSON object of field → accuracy %)")
            }
            return (path: b, values: base)
        }
        let html = args.value("--html")
        let start = Date()
        let results: [Scored]
        if truth {
            let parser = ReceiptParser(options: setup.parser)
            results = receipts.map { r in
                var s = Scored(r, got: parser.parse(r.truthPage ?? OCRPage(lines: [])), scoring: scoring)
                s.texts = r.truthPage?.lines.map(\.text) ?? []
                if html != nil { s.pictures = truthPictures(s) }
                return s
            }
        } else {
            results = try runOCR(receipts, setup: setup, scoring: scoring, jobs: jobs, saveReadings: args.value("--save-readings"),
                                 pictures: html != nil, ctx: ctx)
        }
        let elapsed = Date().timeIntervalSince(start)
        let summary = Summary(results)

        if let p = args.value("--predictions") { try writePredictions(results, to: p) }
        if args.flag("--json") {
            ctx.console.out(JSONLine.encode(summary.report(results: results, seconds: elapsed, source: truth ? "truth-text" : "ocr")))
        } else {
            ctx.console.outRaw(summary.table(n: results.count, seconds: elapsed, jobs: truth ? 0 : jobs, source: truth ? "true text (parser alone)" : "OCR"))
            let misses = results.flatMap(Miss.of)
            if !misses.isEmpty {
                let shown = args.flag("--misses") ? misses : Array(misses.prefix(20))
                ctx.console.out("\nmisses\(shown.count < misses.count ? " (first \(shown.count) of \(misses.count); --misses for all)" : ""):")
                for m in shown { ctx.console.out("  " + m.line) }
            }
        }
        if let w = args.value("--write-baseline") {
            let data = JSONLine.encode(summary.accuracies, pretty: true) + "\n"
            do { try data.write(toFile: w, atomically: true, encoding: .utf8) } catch {
                throw CLIFailure(.inputError, "\(w): cannot write the baseline: \((error as NSError).localizedDescription)")
            }
            ctx.console.err("baseline written to \(w)")
        }
        if let html {
            let page = EvalHTML.render(results: results, summary: summary, baseline: baseline, folder: dir,
                                       source: truth ? "the true text (parser alone)" : "OCR", seconds: elapsed)
            do { try page.write(toFile: html, atomically: true, encoding: .utf8) } catch {
                throw CLIFailure(.inputError, "\(html): cannot write the report: \((error as NSError).localizedDescription)")
            }
            ctx.console.err("report written to \(html)")
        }
        if let baseline {
            let (b, base) = (baseline.path, baseline.values)
            var dropped: [String] = []
            for (field, want) in base.sorted(by: { $0.key < $1.key }) {
                guard let got = summary.accuracies[field] else { continue }
                if got + 1e-9 < want { dropped.append("\(field) \(fmt(got)) % < baseline \(fmt(want)) %") }
            }
            if !dropped.isEmpty {
                ctx.console.error("below the baseline in \(b): " + dropped.joined(separator: "; "))
                return .checkFailed
            }
            ctx.console.err("at or above the baseline in \(b)")
        }
        return results.contains { $0.error != nil } ? .inputError : .ok
    }

    static func runOCR(_ receipts: [LabelledReceipt], setup: PipelineSetup.Made, scoring: Scoring, jobs: Int, saveReadings: String? = nil,
                       pictures: Bool = false, ctx: CommandContext) throws -> [Scored] {
        if let dir = saveReadings {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw CLIFailure(.inputError, "\(dir): cannot make the folder: \((error as NSError).localizedDescription)")
            }
        }
        let results = Locked([Scored?](repeating: nil, count: receipts.count))
        let failure = Locked<Error?>(nil)  // no engine could be made: stop
        let interruption = ctx.interruption
        WorkerPool.run(jobs: min(jobs, receipts.count), isCancelled: { interruption.isRaised || failure.value != nil },
                       produce: { put in for i in receipts.indices where !put(i) { break } },
                       work: { (i: Int, pipeline: inout ReceiptPipeline?) in
            let r = receipts[i]
            do {
                if pipeline == nil { pipeline = try setup.makePipeline() }
            } catch {
                failure.withLock { $0 = $0 ?? error }
                return
            }
            var s: Scored
            do {
                let out = try pipeline!.process(path: r.image)
                s = Scored(r, got: out.receipt, scoring: scoring)
                if let dir = saveReadings, let data = try? JSONEncoder().encode(out.reading) {
                    _ = FileManager.default.createFile(atPath: (dir as NSString).appendingPathComponent(r.id + ".json"), contents: data)
                }
                s.texts = out.reading.pages.flatMap { [$0.first] + $0.looks.map(\.page) }.flatMap { $0.lines.map(\.text) }
                s.secondPass = out.passes.count > 1
                s.seconds = out.seconds
                if pictures {
                    // The page as the parser read it (before contrast normalisation, easier on the eye: same pixels' places).
                    s.pictures = EvalPictures.make(for: s, image: out.image.withoutContrastNormalization.pageImage,
                                                   lines: EvalPictures.lines(page: out.page, reading: out.reading))
                }
            } catch {
                s = Scored(r, got: nil, error: FailureReport(error).message, scoring: scoring)
            }
            results.withLock { $0[i] = s }
        })
        if let failure = failure.value { throw failure }
        if ctx.interruption.isRaised { throw CLIFailure(.interrupted, "interrupted") }
        return results.value.compactMap { $0 }
    }

    /// With `--truth-text` no image went through the pipeline: the evidence boxes are the true
    /// text's, in the original image's pixels, so the pictures come from the file as it is
    /// (decoded, in grey, nothing else done to it). Only for receipts with a miss.
    static func truthPictures(_ s: Scored) -> [String: [EvalPicture]] {
        guard !Miss.of(s).isEmpty else { return [:] }
        var o = IngestOptions()
        o.deskew = false; o.contrastNormalize = false; o.cropToPaper = false; o.minLongSide = 0
        guard let image = (try? Ingest.load(path: s.expected.image, options: o))?.pages.first?.pageImage else { return [:] }
        let lines = (s.expected.truthPage?.lines ?? []).compactMap { l in l.box.map { PlacedLine(text: l.text, box: $0) } }
        return EvalPictures.make(for: s, image: image, lines: lines)
    }

    static func writePredictions(_ results: [Scored], to path: String) throws {
        struct Prediction: Encodable { var id: String; var vendor: String?; var date: String?; var total: String? }
        let lines = results.map { s in
            JSONLine.encode(Prediction(id: s.id, vendor: s.got?.vendor?.value, date: s.got?.date?.value.iso, total: s.got?.total?.value.description))
        }
        do { try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIFailure(.inputError, "\(path): cannot write predictions: \((error as NSError).localizedDescription)")
        }
    }
}

func fmt(_ x: Double) -> String { String(format: "%.1f", x) }

struct Summary {
    var right: [String: Int] = [:]
    var labelled: [String: Int] = [:]
    var secondPasses = 0
    var errors = 0
    var ocrSeconds = 0.0
    /// field → cause → misses.
    var causes: [String: [MissCause: Int]] = [:]

    init(_ results: [Scored]) {
        for m in results.flatMap(Miss.of) { if let c = m.cause { causes[m.field, default: [:]][c, default: 0] += 1 } }
        for s in results {
            for (f, ok) in [("vendor", s.vendorOK), ("date", s.dateOK), ("total", s.totalOK)] {
                guard let ok else { continue }
                labelled[f, default: 0] += 1
                if ok { right[f, default: 0] += 1 }
            }
            labelled["all", default: 0] += 1
            if s.allOK { right["all", default: 0] += 1 }
            if s.secondPass { secondPasses += 1 }
            if s.error != nil { errors += 1 }
            ocrSeconds += s.seconds
        }
    }

    var accuracies: [String: Double] {
        Dictionary(uniqueKeysWithValues: labelled.map { f, n in (f, n == 0 ? 0 : (100 * Double(right[f, default: 0]) / Double(n) * 10).rounded() / 10) })
    }

    func table(n: Int, seconds: Double, jobs: Int, source: String) -> String {
        var s = "receipts eval: \(n) receipts, read from \(source)"
        if jobs > 0 { s += ", \(jobs) job\(jobs == 1 ? "" : "s")" }
        s += String(format: ", %.1f s (%.2f s/receipt)\n\n", seconds, seconds / Double(max(1, n)))
        s += "field        right  of    accuracy\n"
        for f in EvalCommand.fields {
            guard let total = labelled[f] else { continue }
            let label = f == "all" ? "all three" : f
            s += label.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%6d %4d %9.1f %%\n", right[f, default: 0], total, accuracies[f] ?? 0)
        }
        if jobs > 0 {
            s += String(format: "\nsecond OCR pass: %d of %d receipts (%.1f %%)\n", secondPasses, n, 100 * Double(secondPasses) / Double(max(1, n)))
        }
        if errors > 0 { s += "errors: \(errors) receipts could not be read\n" }
        if !causes.isEmpty {
            s += "\nwhere the misses go  " + MissCause.allCases.map(\.rawValue).joined(separator: "  ") + "\n"
            for f in EvalCommand.fields where causes[f] != nil {
                s += "  " + f.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + MissCause.allCases.map { c in String(format: "%\(c.rawValue.count)d", causes[f]?[c] ?? 0) }.joined(separator: "  ") + "\n"
            }
        }
        return s
    }

    struct Report: Encodable {
        var receiptCount: Int
        var source: String
        var seconds: Double
        var accuracy: [String: Double]
        var right: [String: Int]
        var labelled: [String: Int]
        var secondLookCount: Int
        var errorCount: Int
        var misses: [Miss]
        enum CodingKeys: String, CodingKey {
            case receiptCount = "receipt_count", source, seconds, accuracy, right, labelled, secondLookCount = "second_look_count"
            case errorCount = "error_count", misses
        }
    }

    func report(results: [Scored], seconds: Double, source: String) -> Report {
        Report(receiptCount: results.count, source: source, seconds: round2(seconds), accuracy: accuracies, right: right, labelled: labelled,
               secondLookCount: secondPasses, errorCount: errors, misses: results.flatMap(Miss.of))
    }
}

struct Miss: Encodable {
    /// The labelled sample's name (its file name without the extension).
    var sample: String
    var field: String
    var expected: String
    var got: String?
    var evidence: EvidenceReport?
    var cause: MissCause?

    static func of(_ s: Scored) -> [Miss] {
        if let e = s.error { return [Miss(sample: s.id, field: "error", expected: "", got: e)] }
        var out = fields(s)
        for i in out.indices { out[i].cause = MissCause.of(field: out[i].field, expected: s.expected, texts: s.texts, scoring: s.scoring) }
        return out
    }

    private static func fields(_ s: Scored) -> [Miss] {
        var out: [Miss] = []
        let r = s.got
        if s.vendorOK == false { out.append(Miss(sample: s.id, field: "vendor", expected: s.expected.vendor ?? "", got: r?.vendor?.value, evidence: r?.vendor.map { EvidenceReport($0.evidence) })) }
        if s.dateOK == false { out.append(Miss(sample: s.id, field: "date", expected: s.expected.dates.map(\.iso).joined(separator: " | "), got: r?.date?.value.iso, evidence: r?.date.map { EvidenceReport($0.evidence) })) }
        if s.totalOK == false { out.append(Miss(sample: s.id, field: "total", expected: s.expected.totals.map(\.description).joined(separator: " | "), got: r?.total?.value.description, evidence: r?.total.map { EvidenceReport($0.evidence) })) }
        return out
    }

    var line: String {
        if field == "error" { return "\(sample)  error: \(got ?? "")" }
        var s = "\(sample)  \(field.padding(toLength: 6, withPad: " ", startingAt: 0))  expected \(expected)  got \(got ?? "nothing")"
        if let cause { s += "  [\(cause.rawValue)]" }
        if let e = evidence { s += "  (\(e.line.map { "line \($0): " } ?? "")\"\(e.text ?? "")\" \(e.rule))" }
        return s
    }
}
