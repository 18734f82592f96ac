import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptParser
import ReceiptPipeline

/// The evaluation use case: labelled receipts in, one `Scored` each out, in the receipts' order.
public enum EvalRun {
    /// Every receipt through the whole pipeline, `jobs` at a time, one pipeline per worker
    /// (made by `makePipeline`; an error making one stops the run and is rethrown). A receipt that
    /// cannot be read is scored as an error, never stops the run. `saveReadings`: a folder to write
    /// each receipt's OCR reading to (`ID.json`); `pictures`: crops of the misses for the HTML report.
    public static func ocr(_ receipts: [LabelledReceipt], makePipeline: @escaping @Sendable () throws -> ReceiptPipeline,
                           scoring: Scoring, jobs: Int, saveReadings: String? = nil, pictures: Bool = false,
                           isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> [Scored] {
        if let dir = saveReadings {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw EvalError(.input, "\(dir): cannot make the folder: \((error as NSError).localizedDescription)")
            }
        }
        return try read(receipts, makePipeline: makePipeline, jobs: jobs, isCancelled: isCancelled) { r, outcome, parser in
            switch outcome {
            case let .success(out):
                var s = Scored(r, got: out.receipt, scoring: scoring)
                s.stages = out.stages
                s.looks = LookEffect.of(out.reading, parser: parser, scored: s)
                if let dir = saveReadings, let data = try? JSONEncoder().encode(out.reading) {
                    _ = FileManager.default.createFile(atPath: (dir as NSString).appendingPathComponent(r.id + ".json"), contents: data)
                }
                s.texts = texts(out)
                s.secondPass = out.passes.count > 1
                s.seconds = out.seconds
                if pictures {
                    // The page as the parser read it (before contrast normalisation, easier on the eye: same pixels' places).
                    s.pictures = EvalPictures.make(for: s, image: out.image.withoutContrastNormalization.pageImage,
                                                   lines: EvalPictures.lines(page: out.page, reading: out.reading))
                }
                return s
            case let .failure(error):
                return Scored(r, got: nil, error: FailureReport(error).message, scoring: scoring)
            }
        }
    }

    /// Every line of text the parser had (page, second look, re-read rows).
    static func texts(_ out: ReceiptResult) -> [String] {
        out.reading.pages.flatMap { [$0.first] + $0.looks.map(\.page) }.flatMap { $0.lines.map(\.text) }
    }

    /// Every receipt through the whole pipeline, `jobs` at a time, one pipeline per worker (made by
    /// `makePipeline`; an error making one stops the run and is rethrown); `body` makes each
    /// receipt's outcome into a `T` on the worker. The results come in the receipts' order.
    static func read<T: Sendable>(_ receipts: [LabelledReceipt], makePipeline: @escaping @Sendable () throws -> ReceiptPipeline, jobs: Int,
                                  isCancelled: @escaping @Sendable () -> Bool,
                                  _ body: @escaping @Sendable (LabelledReceipt, Result<ReceiptResult, any Error>, ReceiptParser) -> T) throws -> [T] {
        let results = Locked([T?](repeating: nil, count: receipts.count))
        let failure = Locked<Error?>(nil)  // no pipeline could be made: stop
        WorkerPool.run(jobs: min(jobs, receipts.count), isCancelled: { isCancelled() || failure.value != nil },
                       produce: { put in for i in receipts.indices where !put(i) { break } },
                       work: { (i: Int, pipeline: inout ReceiptPipeline?) in
            let r = receipts[i]
            do {
                if pipeline == nil { pipeline = try makePipeline() }
            } catch {
                failure.withLock { $0 = $0 ?? error }
                return
            }
            let outcome: Result<ReceiptResult, any Error>
            do { outcome = .success(try pipeline!.process(path: r.image)) } catch { outcome = .failure(error) }
            let t = body(r, outcome, pipeline!.parser)
            results.withLock { $0[i] = t }
        })
        if let failure = failure.value { throw failure }
        return results.value.compactMap { $0 }
    }

    /// The parser alone on each receipt's true text (`--truth-text`).
    public static func truthText(_ receipts: [LabelledReceipt], parser: ReceiptParser, scoring: Scoring, pictures: Bool = false) throws(EvalError) -> [Scored] {
        guard !receipts.contains(where: { $0.truthPage == nil }) else {
            throw EvalError(.usage, "--truth-text needs the true text of every receipt (SROIE box/ folder)")
        }
        return receipts.map { r in
            var s = Scored(r, got: parser.parse(r.truthPage ?? OCRPage(lines: [])), scoring: scoring)
            s.texts = r.truthPage?.lines.map(\.text) ?? []
            if pictures { s.pictures = truthPictures(s) }
            return s
        }
    }

    /// With `--truth-text` no image went through the pipeline: the evidence boxes are the true
    /// text's, in the original image's pixels, so the pictures come from the file as it is
    /// (decoded, in grey, nothing else done to it). Only for receipts with a miss.
    static func truthPictures(_ s: Scored) -> [Miss.Key: [EvalPicture]] {
        guard !Miss.of(s).isEmpty else { return [:] }
        guard let image = (try? Ingest.load(path: s.expected.image, options: LineEval.ingestOptions))?.pages.first?.pageImage else { return [:] }
        let lines = (s.expected.truthPage?.lines ?? []).compactMap { l in l.box.map { PlacedLine(text: l.text, box: $0) } }
        return EvalPictures.make(for: s, image: image, lines: lines)
    }

    /// What `../shared/tools/score.py` reads, one a receipt (as JSON Lines).
    public struct Prediction: Encodable, Sendable {
        public var id: String
        public var vendor: String?
        public var date: String?
        public var total: String?
    }

    public static func predictions(_ results: [Scored]) -> [Prediction] {
        results.map { s in Prediction(id: s.id, vendor: s.got?.vendor?.value, date: s.got?.date?.value.iso, total: s.got?.total?.value.description) }
    }
}

/// Accuracy per row recorded on purpose (`--write-baseline`); a run below it fails (`--baseline`).
public struct Baseline: Sendable {
    public var path: String
    /// Row key ("vendor", "date", "total", "all") → accuracy in per cent.
    public var values: [String: Double]

    public init(path: String, values: [String: Double]) { self.path = path; self.values = values }

    /// Reads a baseline file: a JSON object of row → accuracy.
    public static func load(_ path: String) throws(EvalError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path),
              let values = try? JSONDecoder().decode([String: Double].self, from: data) else {
            throw EvalError(.usage, "\(path): not a baseline file (a JSON object of field → accuracy %)")
        }
        return Baseline(path: path, values: values)
    }

    /// The rows of `summary` below this baseline, as "total 80.0 % < baseline 82.0 %", in key order.
    public func shortfalls(_ summary: Summary) -> [String] {
        let got = summary.accuracies
        return values.keys.sorted().compactMap { key in
            guard let want = values[key], let have = got[key], have + 1e-9 < want else { return nil }
            return "\(key) \(fmt(have)) % < baseline \(fmt(want)) %"
        }
    }
}
