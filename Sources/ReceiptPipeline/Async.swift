import Foundation
import ReceiptModel
import ReceiptOCR
import ReceiptParser

// The async surface, for apps and servers that await: one receipt (`ReceiptReader`), and a
// batch with progress as an `AsyncSequence` (`BatchRunner.events`). Both are built on the
// synchronous API, which stays: OCR blocks a thread for seconds, so it runs on threads of
// its own, never on the caller's executor (Swift's cooperative pool has one thread a core).

/// Reads receipts one at a time from async code: `let result = try await reader.read(path:)`.
///
/// The reader owns one `ReceiptPipeline` (and so one OCR engine), made on first use, and reads
/// on a thread of its own; calls made at once wait their turn. For several at a time, make
/// several readers, or run a `BatchRunner`. A task cancelled while its receipt is being read
/// gets its result anyway: Tesseract cannot be stopped half-way.
public final class ReceiptReader: Sendable {
    /// The pipeline, touched only on `queue`, one work item at a time.
    private final class Slot: @unchecked Sendable {
        // @unchecked: only ever used from the reader's serial queue.
        var pipeline: ReceiptPipeline?
    }

    private let queue = DispatchQueue(label: "receipts.reader")
    private let slot = Slot()
    private let makePipeline: @Sendable () throws -> ReceiptPipeline

    /// A reader whose pipeline `makePipeline` makes (on the reader's thread, when first needed):
    /// any engine, parser options and pipeline options.
    public init(makePipeline: @escaping @Sendable () throws -> ReceiptPipeline) {
        self.makePipeline = makePipeline
    }

    /// A reader with Tesseract (`ocr` names the model, the layout, where the models are), the
    /// parser with `parser`'s rules and the pipeline's `options`.
    public convenience init(ocr: OCROptions = OCROptions(), parser: ParserOptions = ParserOptions(),
                            options: PipelineOptions = PipelineOptions()) {
        self.init(makePipeline: {
            ReceiptPipeline(engine: try TesseractEngine(options: ocr), parser: ReceiptParser(options: parser), options: options)
        })
    }

    /// Reads the receipt in the file at `path` (every page of a TIFF or PDF). Throws what
    /// `ReceiptPipeline.process(path:)` throws: `IngestError` for a file that is not a readable
    /// image, `OCRError` for a missing model or a failed read.
    public func read(path: String) async throws -> ReceiptResult {
        try await onQueue { try $0.process(path: path) }
    }

    /// Reads a receipt from bytes (an upload); `name` is how results and errors name it.
    public func read(data: Data, name: String) async throws -> ReceiptResult {
        try await onQueue { try $0.process(data: data, name: name) }
    }

    private func onQueue(_ body: @escaping @Sendable (ReceiptPipeline) throws -> ReceiptResult) async throws -> ReceiptResult {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [slot, makePipeline] in
                continuation.resume(with: Result {
                    if slot.pipeline == nil { slot.pipeline = try makePipeline() }
                    return try body(slot.pipeline!)
                })
            }
        }
    }
}

/// What `BatchRunner.events` delivers: each file's outcome as it finishes, progress snapshots
/// (when `BatchOptions.progressInterval` is set), then the counts, last.
public enum BatchEvent: Sendable {
    case outcome(BatchOutcome)
    case progress(BatchProgress)
    case finished(BatchCounts)
}

extension BatchRunner {
    /// The batch over `roots` as an `AsyncSequence`:
    ///
    ///     for await event in runner.events(["/srv/uploads"]) {
    ///         if case .outcome(.stored(let result, _, _, let id)) = event { … }
    ///     }
    ///
    /// The batch runs on its worker threads as `run` does and ends with `.finished(counts)`.
    /// Leaving the loop early (or cancelling the task that iterates) stops the batch as Ctrl-C
    /// stops `receipts batch`: the receipts in flight finish and are stored, the rest are left
    /// for the next run (a stopped runner stays stopped; make a new one). Each `.stored`
    /// outcome holds the page image, so iterate as they come rather than collecting them.
    public func events(_ roots: [String]) -> AsyncStream<BatchEvent> {
        AsyncStream { continuation in
            continuation.onTermination = { [self] _ in stop() }
            Thread { [self] in
                let counts = run(roots, outcome: { continuation.yield(.outcome($0)) }, progress: { continuation.yield(.progress($0)) })
                continuation.yield(.finished(counts))
                continuation.finish()
            }.start()
        }
    }
}
