import Foundation
import ReceiptSupport
import ReceiptIngest
import ReceiptModel
import ReceiptParser
import ReceiptStore
import ReceiptLearning

/// What a batch is asked to do, besides its roots.
public struct BatchOptions: Sendable {
    /// Workers, each with its own OCR engine.
    public var jobs: Int
    /// Read images again even when the store has them.
    public var force = false
    public var walk = FolderWalk()
    public var ingest = IngestOptions()
    /// Report progress at most this often (seconds); nil for none. A second, counting walk
    /// then gives the total early.
    public var progressInterval: Double? = nil
    /// Who this batch is when it claims images in the store (host:pid:random), so that several
    /// batches on one store, on one machine or many, never read the same image at once.
    public var worker = BatchOptions.workerName()
    /// How long a claim holds without renewal (seconds). The batch renews its claims every
    /// third of it while it reads; a batch that dies loses them that long after its last renewal.
    public var lease: Double = 90
    /// Read each receipt with the shops the store's directory learned from the user's corrections
    /// (loaded when the run starts); false reads as a stranger would (`--no-learn`).
    public var learn = true

    /// `host:pid:random`: unique among the workers on one store.
    public static func workerName() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        return "\(host):\(getpid()):\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    public init(jobs: Int) { self.jobs = jobs }
}

/// What happened to one file.
public enum BatchOutcome: Sendable {
    /// Read and stored, with the status it was stored under and its id in the store.
    case stored(ReceiptResult, engine: String, status: ReceiptStatus, id: ReceiptID)
    /// The store already has this image (same content hash); its path was recorded.
    case skipped(path: String)
    /// Not read; recorded in the store with its reason when the store could take it.
    case failed(path: String, FailureReport)
}

/// Counts and lists of one batch run.
public struct BatchCounts: Sendable {
    public var parsed = 0
    public var needsReview = 0
    public var skippedDone = 0
    public var skippedOther = 0
    /// The other files by lower-case extension ("" for none).
    public var otherByExtension: [String: Int] = [:]
    public var secondPasses = 0
    /// Images another worker held when this one came to them (waited for, then done by it or taken over).
    public var heldElsewhere = 0
    /// Images this worker took over from a worker whose lease ran out.
    public var takenOver = 0
    public var failed: [(path: String, message: String)] = []
    public var seconds = 0.0
    public var interrupted = false

    public init() {}
    public var processed: Int { parsed + needsReview + failed.count }
}

/// A progress snapshot: `done` of `total` (`totalIsFinal` once every root is walked).
public struct BatchProgress: Sendable {
    public var done: Int
    public var total: Int
    public var totalIsFinal: Bool
    /// Receipts read per second so far.
    public var rate: Double
    public var failed: Int
    /// Images other workers were reading when this one reached them.
    public var heldElsewhere: Int
}

/// The batch use case, for any front end: walk the roots, hash each file, skip what the
/// store has, read the rest on a pool of pipelines, store each receipt with its review
/// status or its failure. One bad file never stops the batch.
public final class BatchRunner: Sendable {
    public let store: any ReceiptStore
    public let options: BatchOptions
    private let makePipeline: @Sendable () throws -> ReceiptPipeline
    private let isCancelled: @Sendable () -> Bool
    private let state = Locked(RunState())
    /// Raised by `stop()`: the run ends as when `isCancelled` says so.
    private let stopped: Locked<Bool>
    /// The store's shop directory as the run started (`options.learn`).
    private let directory = Locked<ShopDirectory?>(nil)

    private struct RunState {
        var counts = BatchCounts()
        var discovered = 0
        var walking = true
        var counted = 0
        var countingDone = false
        var lastProgress = Date.distantPast
        /// Files another worker held, to try again once its lease may have run out.
        var deferred: [(path: String, secondsLeft: Double)] = []
        var heldPaths = Set<String>()
        var finished = false
    }

    /// A batch that stores into `store`. `makePipeline` is called once per worker, when it first
    /// needs OCR (so a folder the store already holds costs hashing only); `isCancelled` is asked
    /// between files (a signal handler's flag, a task's cancellation): once true, the files in
    /// flight finish and the run returns.
    public init(store: any ReceiptStore, options: BatchOptions, makePipeline: @escaping @Sendable () throws -> ReceiptPipeline,
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        let stopped = Locked(false)
        self.store = store; self.options = options; self.makePipeline = makePipeline; self.stopped = stopped
        self.isCancelled = { stopped.value || isCancelled() }
    }

    /// Stops the run as `isCancelled` would: the files in flight finish, the rest are left.
    public func stop() { stopped.withLock { $0 = true } }

    /// Reads every image under `roots`. `outcome` is called once per file as it finishes (from
    /// worker threads); `progress` at most every `options.progressInterval` seconds.
    public func run(_ roots: [String], outcome: @escaping @Sendable (BatchOutcome) -> Void = { _ in },
                    progress: @escaping @Sendable (BatchProgress) -> Void = { _ in }) -> BatchCounts {
        let start = Date()
        // A store that cannot be read fails each receipt's save too, with the reason.
        if options.learn, let shops = try? store.shops(), !shops.isEmpty { directory.withLock { $0 = ShopDirectory(shops) } }
        if options.progressInterval != nil { startCountingWalk(roots) }
        startRenewing()
        defer { state.withLock { $0.finished = true } }
        // One file to the end; one another worker holds is put aside (see `handle`).
        let work: @Sendable (String, inout ReceiptPipeline?) -> Void = { [self] path, pipeline in
            guard let result = handle(path, &pipeline) else { return }
            outcome(result)
            if let p = record(result, start: start) { progress(p) }
        }
        WorkerPool.run(jobs: options.jobs, isCancelled: isCancelled, produce: { put in
            for root in roots where !isCancelled() {
                var going = true
                options.walk.walk(root, other: { ext in
                    state.withLock { $0.counts.skippedOther += 1; $0.counts.otherByExtension[ext, default: 0] += 1 }
                }) { path in
                    state.withLock { $0.discovered += 1 }
                    going = put(path)
                    return going
                }
                if !going { break }
            }
            state.withLock { $0.walking = false }
        }, work: work)
        // Images other workers held: wait until each is stored, or its lease runs out and it is ours.
        var pending = state.withLock { s in defer { s.deferred = [] }; return s.deferred }
        while !pending.isEmpty, !isCancelled() {
            let wait = min(max(pending.map(\.secondsLeft).min() ?? 1, 0.2), 2)
            let until = Date().addingTimeInterval(wait)
            while Date() < until, !isCancelled() { usleep(50_000) }
            let paths = pending.map(\.path)
            WorkerPool.run(jobs: min(options.jobs, paths.count), isCancelled: isCancelled, produce: { put in
                for p in paths where !put(p) { break }
            }, work: work)
            pending = state.withLock { s in defer { s.deferred = [] }; return s.deferred }
        }
        return state.withLock { s in
            s.counts.seconds = Date().timeIntervalSince(start)
            s.counts.interrupted = isCancelled()
            return s.counts
        }
    }

    /// A second walk that keeps no paths: the feeding walk runs only a few files ahead of the workers.
    private func startCountingWalk(_ roots: [String]) {
        let walk = options.walk
        Thread { [state, isCancelled] in
            var n = 0
            for root in roots where !isCancelled() {
                walk.walk(root) { _ in
                    n += 1
                    if n % 64 == 0 { state.withLock { [n] in $0.counted = n } }
                    return !isCancelled()
                }
            }
            state.withLock { [n] in $0.counted = n; $0.countingDone = !isCancelled() }
        }.start()
    }

    /// Renews this worker's claims every third of the lease until the run ends, so that a slow
    /// read never loses its image to another worker; a worker that dies stops renewing.
    private func startRenewing() {
        let every = max(options.lease / 3, 0.05)
        Thread { [state, store, options] in
            var next = Date().addingTimeInterval(every)
            while !state.withLock({ $0.finished }) {
                usleep(20_000)
                guard Date() >= next else { continue }
                _ = try? store.renewClaims(worker: options.worker, lease: options.lease)
                next = Date().addingTimeInterval(every)
            }
        }.start()
    }

    /// One file, start to end; never throws. Nil when another worker holds the image (it is
    /// put aside to try again).
    func handle(_ path: String, _ pipeline: inout ReceiptPipeline?) -> BatchOutcome? {
        var hash: String?
        var claimed = false
        do {
            let data = try ImageFile.read(path: path, maxBytes: options.ingest.maxFileBytes)
            let h = ContentHash.sha256(data)
            hash = h
            // Another copy of a stored image (a second folder, a renamed file): remember where it is too.
            // Asked first without a claim: a re-run over a stored folder then costs reads only.
            if !options.force, try store.containsReceipt(contentHash: h) {
                try store.addSourcePath(contentHash: h, path: path)
                return .skipped(path: path)
            }
            switch try store.claim(contentHash: h, path: path, worker: options.worker, lease: options.lease, evenIfStored: options.force) {
            case .stored:
                try store.addSourcePath(contentHash: h, path: path)
                return .skipped(path: path)
            case .heldElsewhere(_, let left):
                state.withLock { s in
                    s.deferred.append((path, left))
                    if s.heldPaths.insert(path).inserted { s.counts.heldElsewhere += 1 }
                }
                return nil
            case .claimed(let from):
                claimed = true
                if from != nil { state.withLock { $0.counts.takenOver += 1 } }
            }
            let file = try Ingest.load(data: data, name: path, options: options.ingest)
            if pipeline == nil { pipeline = try makePipeline() }
            guard let pipeline else { throw FailureReport(code: "failed", message: "no pipeline") }
            var result = try pipeline.process(file: file)
            if let directory = directory.value {
                result.learned = ShopLearning(directory: directory, parser: pipeline.parser).read(result.receipt, reading: result.reading, page: result.page)
            }
            let status: ReceiptStatus = ReviewPolicy.needsReview(result.shown) ? .needsReview : .parsed
            // A PDF read from its text layer alone was never seen by the engine.
            let engine = result.textLayerPages == result.pageCount ? "pdf-text-layer" : pipeline.engine.identity
            let id = try store.saveReceipt(StoredReceiptInput(contentHash: h, sourcePath: path, ocrText: result.page.text, reading: result.reading, parsed: result.receipt,
                                                     learned: result.learned, engineVersion: engine, status: status))
            return .stored(result, engine: engine, status: status, id: id)
        } catch let e as StoreError {
            if claimed, let hash { try? store.releaseClaim(contentHash: hash, worker: options.worker) }
            return .failed(path: path, FailureReport(code: FailureReport.storeCode, message: "\(e)"))
        } catch {
            let report = FailureReport(error)
            // Recording the failure ends the claim; if even that fails, let the image go.
            do { try store.recordFailure(contentHash: hash, path: path, code: report.code, message: report.message) } catch {
                if claimed, let hash { try? store.releaseClaim(contentHash: hash, worker: options.worker) }
            }
            return .failed(path: path, report)
        }
    }

    /// Counts one outcome; returns a progress snapshot when one is due.
    private func record(_ outcome: BatchOutcome, start: Date) -> BatchProgress? {
        state.withLock { s in
            switch outcome {
            case .stored(let r, _, let status, _):
                if status == .needsReview { s.counts.needsReview += 1 } else { s.counts.parsed += 1 }
                if r.passes.count > 1 { s.counts.secondPasses += 1 }
            case .skipped: s.counts.skippedDone += 1
            case .failed(let path, let report):
                s.counts.failed.append((path, report.code == FailureReport.storeCode ? "store: \(report.message)" : report.message))
            }
            guard let every = options.progressInterval, Date().timeIntervalSince(s.lastProgress) >= every else { return nil }
            s.lastProgress = Date()
            let elapsed = Date().timeIntervalSince(start)
            let known = !s.walking || s.countingDone
            return BatchProgress(done: s.counts.processed + s.counts.skippedDone,
                                 total: s.walking ? max(s.discovered, s.counted) : s.discovered, totalIsFinal: known,
                                 rate: elapsed > 0 ? Double(s.counts.processed) / elapsed : 0, failed: s.counts.failed.count,
                                 heldElsewhere: s.counts.heldElsewhere)
        }
    }
}
