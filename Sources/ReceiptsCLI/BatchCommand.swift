import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline
import ReceiptStore
#if canImport(Glibc)
import Glibc
#endif

/// `receipts batch DIR|FILE…`: whole folders into the store, at the OCR engine's speed.
enum BatchCommand {
    static let command = Command(
        name: "batch",
        summary: "Read every receipt image under folders into the store: parallel, resumable, never stopping on a bad file.",
        usage: "receipts batch [options] DIR|FILE...",
        discussion: """
        Folders are walked recursively as they are read (not listed first). Images already in the store
        (same content hash) are skipped, so running the same command again continues where it stopped.
        Ctrl-C finishes the receipts in flight, keeps what is done and says how to resume.
        Files that cannot be read are recorded in the store with the reason and listed at the end;
        the exit code is then 3.

        Examples:
          receipts batch ~/Scans/receipts --store receipts.sqlite
          receipts batch --jobs 2 --jsonl results.jsonl SampleReceipts
          receipts batch --reparse          # re-parse stored OCR text with this parser, no OCR
        """,
        options: [
            StoreSupport.storeOption,
            OptionSpec("--jobs", short: "-j", value: "N", help: "OCR engines working in parallel (default: the number of cores)."),
            OptionSpec("--jsonl", value: "FILE", help: "Also write one JSON object per receipt as it finishes (FILE, or - for stdout)."),
            OptionSpec("--include", value: "GLOB", repeatable: true, help: "Only files whose name matches (e.g. '*.jpg'); repeatable."),
            OptionSpec("--exclude", value: "GLOB", repeatable: true, help: "Skip files or folders whose name matches; repeatable."),
            OptionSpec("--force", help: "Read images again even if the store has them."),
            OptionSpec("--reparse", help: "Re-parse the OCR text already in the store with this parser version (no OCR); no folders needed."),
            OptionSpec("--quiet", short: "-q", help: "No progress line."),
        ] + PipelineSetup.options,
        run: run)

    static func run(_ args: Arguments, _ ctx: CommandContext) throws -> ExitCode {
        let setup = try PipelineSetup.make(args)
        let store = try StoreSupport.open(args, ctx)
        if args.flag("--reparse") {
            guard args.positionals.isEmpty else { throw UsageError("--reparse works on the store alone; give no folders") }
            return try reparse(store: store, setup: setup, ctx: ctx, force: args.flag("--force"))
        }
        guard !args.positionals.isEmpty else { throw UsageError("no folders or files to read") }
        for p in args.positionals where !FileManager.default.fileExists(atPath: p) {
            throw CLIFailure(.inputError, "\(p): no such file or folder")
        }
        let jobs = try args.int("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        let sink = try LineSink(args.value("--jsonl"), console: ctx.console)
        defer { sink.close() }
        let job = BatchJob(store: store, setup: setup, jobs: jobs, force: args.flag("--force"),
                           include: args.all("--include"), exclude: args.all("--exclude"), ctx: ctx,
                           progress: !args.flag("--quiet") && ctx.console.errIsTerminal,
                           jsonl: sink.isActive ? sink : nil)
        let summary = try job.run(args.positionals)
        ctx.console.errRaw(summary.text(resumeCommand: "receipts " + (["batch"] + CommandLine.arguments.dropFirst(2)).joined(separator: " ")))
        if ctx.interruption.isRaised { return .interrupted }
        return summary.failed.isEmpty ? .ok : .inputError
    }

    static func reparse(store: ReceiptStore, setup: PipelineSetup.Made, ctx: CommandContext, force: Bool) throws -> ExitCode {
        let parser = ReceiptParser(options: setup.parser)
        let texts = try StoreSupport.attempt("reading the store") { try store.ocrTexts(parserVersionOtherThan: force ? nil : ReceiptParser.version) }
        var n = 0
        for t in texts {
            if ctx.interruption.isRaised { break }
            let r = parser.parse(text: t.ocrText)
            try StoreSupport.attempt("writing the store") {
                _ = try store.saveReceipt(StoredReceiptInput(contentHash: t.contentHash, sourcePath: t.sourcePaths.first ?? "", ocrText: t.ocrText,
                                                             parsed: r, engineVersion: t.engineVersion,
                                                             status: ReviewPolicy.needsReview(r) ? .needsReview : .parsed))
            }
            n += 1
        }
        ctx.console.err("re-parsed \(n) receipt\(n == 1 ? "" : "s") with parser \(ReceiptParser.version) (no OCR)")
        return ctx.interruption.isRaised ? .interrupted : .ok
    }
}

/// Where `--jsonl` lines go: a file, stdout (`-`), or nowhere.
final class LineSink: @unchecked Sendable {
    // @unchecked: the file handle is only written under `lock`; Console serializes itself.
    private let lock = NSLock()
    private let handle: FileHandle?
    private let console: Console?

    init(_ target: String?, console: Console) throws {
        if target == "-" { self.console = console; handle = nil; return }
        self.console = nil
        guard let target else { handle = nil; return }
        guard FileManager.default.createFile(atPath: target, contents: nil), let h = FileHandle(forWritingAtPath: target) else {
            throw CLIFailure(.usage, "\(target): cannot create the JSON Lines file")
        }
        handle = h
    }

    func write(_ line: String) {
        if let console { console.out(line); return }
        lock.withLock { handle?.write(Data((line + "\n").utf8)) }
    }

    func close() { lock.withLock { try? handle?.close() } }

    var isActive: Bool { console != nil || handle != nil }
}

/// Counts and lists of one batch run.
struct BatchSummary {
    var parsed = 0
    var needsReview = 0
    var skippedDone = 0
    var skippedOther = 0
    var secondPasses = 0
    var failed: [(String, String)] = []
    var seconds = 0.0
    var interrupted = false
    var peakRSSMB = 0.0

    var processed: Int { parsed + needsReview + failed.count }

    func text(resumeCommand: String) -> String {
        var s = ""
        if interrupted { s += "interrupted: the receipts in flight were finished and everything done is in the store.\n" }
        s += "\(processed) read: \(parsed) parsed, \(needsReview) need review, \(failed.count) failed; "
        s += "\(skippedDone) skipped (already in the store), \(skippedOther) other files\n"
        let rate = seconds > 0 ? Double(processed) / seconds : 0
        s += String(format: "%.1f s, %.2f receipts/s; second OCR look on %d; peak memory %.0f MB\n", seconds, rate, secondPasses, peakRSSMB)
        if !failed.isEmpty {
            s += "failed:\n"
            for (file, why) in failed.prefix(50) { s += "  \(file): \(why)\n" }
            if failed.count > 50 { s += "  … and \(failed.count - 50) more (receipts store info)\n" }
        }
        if interrupted { s += "to continue, run the same command again: \(resumeCommand)\n" }
        return s
    }
}

/// A bounded hand-off from the folder walker to the workers: memory stays flat
/// however many files there are, and a slow receipt holds up only its worker.
final class WorkQueue: @unchecked Sendable {
    // @unchecked: all state is guarded by `cond`.
    private let cond = NSCondition()
    private var items: [String] = []
    private var closed = false
    private let capacity: Int
    init(capacity: Int) { self.capacity = capacity }

    /// False when the queue was closed (stop walking).
    func put(_ item: String) -> Bool {
        cond.lock(); defer { cond.unlock() }
        while items.count >= capacity && !closed { cond.wait() }
        guard !closed else { return false }
        items.append(item)
        cond.broadcast()
        return true
    }

    func take() -> String? {
        cond.lock(); defer { cond.unlock() }
        while items.isEmpty && !closed { cond.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        cond.broadcast()
        return item
    }

    /// No more items will come: workers drain what is queued, then stop.
    func finish() { cond.lock(); closed = true; cond.broadcast(); cond.unlock() }
    /// Stop now: queued items are dropped.
    func cancel() { cond.lock(); closed = true; items.removeAll(); cond.broadcast(); cond.unlock() }
}

final class BatchJob: @unchecked Sendable {
    // @unchecked: the counters are guarded by `lock`; the rest is immutable or Sendable.
    let store: ReceiptStore
    let setup: PipelineSetup.Made
    let jobs: Int
    let force: Bool
    let include: [String]
    let exclude: [String]
    let ctx: CommandContext
    let showProgress: Bool
    /// Where `--jsonl` lines go; nil without `--jsonl`, so no report is encoded for nobody.
    let jsonl: LineSink?
    private let lock = NSLock()
    private var summary = BatchSummary()
    private var discovered = 0
    private var walking = true
    /// Images found by the counting walk (for the progress total and ETA), and whether it has finished.
    private var counted = 0
    private var countingDone = false
    private var lastDraw = Date.distantPast
    private let start = Date()

    init(store: ReceiptStore, setup: PipelineSetup.Made, jobs: Int, force: Bool, include: [String], exclude: [String],
         ctx: CommandContext, progress: Bool, jsonl: LineSink?) {
        self.store = store; self.setup = setup; self.jobs = jobs; self.force = force; self.include = include
        self.exclude = exclude; self.ctx = ctx; showProgress = progress; self.jsonl = jsonl
    }

    func run(_ roots: [String]) throws -> BatchSummary {
        // A missing language file fails before any work; the engines themselves are
        // loaded by each worker when it first needs OCR, so a folder already in the
        // store costs only reading and hashing.
        do { _ = try Tessdata.locate(language: setup.ocr.language, explicit: setup.ocr.tessdataDirectory) } catch {
            throw CLIFailure(.missingDependency, error.description)
        }
        let queue = WorkQueue(capacity: jobs * 4)
        let group = DispatchGroup()
        for _ in 0..<jobs {
            let t = Thread { [self] in
                var pipeline: ReceiptPipeline?  // this worker's own engine
                while let path = queue.take() {
                    if ctx.interruption.isRaised { queue.cancel(); break }
                    handle(path) {
                        if let pipeline { return pipeline }
                        let made = try setup.makePipeline()
                        pipeline = made
                        return made
                    }
                }
                group.leave()
            }
            t.stackSize = 8 << 20
            group.enter()
            t.start()
        }
        // A second, counting walk (it keeps no paths) gives the progress line its total early:
        // the feeding walk below only runs a few files ahead of the workers.
        if showProgress {
            let counter = Thread { [self] in
                var n = 0
                for root in roots where !ctx.interruption.isRaised {
                    walk(root, countOthers: false) { _ in
                        n += 1
                        if n % 64 == 0 { lock.withLock { counted = n } }
                        return !ctx.interruption.isRaised
                    }
                }
                lock.withLock { counted = n; countingDone = !ctx.interruption.isRaised }
            }
            counter.start()
        }
        // The walker: streams paths into the queue as it finds them.
        for root in roots {
            if ctx.interruption.isRaised { break }
            walk(root) { path in
                lock.withLock { discovered += 1 }
                return queue.put(path) && !ctx.interruption.isRaised
            }
        }
        lock.withLock { walking = false }
        if ctx.interruption.isRaised { queue.cancel() } else { queue.finish() }
        group.wait()
        if showProgress { ctx.console.errRaw("\r\u{1B}[K") }
        return lock.withLock {
            summary.seconds = Date().timeIntervalSince(start)
            summary.interrupted = ctx.interruption.isRaised
            summary.peakRSSMB = BatchJob.peakRSSMB()
            return summary
        }
    }

    /// Calls `visit` for each image under `root` (or `root` itself), in name order per folder; stops when it returns false.
    func walk(_ root: String, countOthers: Bool = true, _ visit: (String) -> Bool) {
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root, isDirectory: &isDir) || !isDir.boolValue {
            _ = visit(root)  // a file named on the command line is always tried, so a bad one gets a clear error
            return
        }
        guard let e = FileManager.default.enumerator(atPath: root) else { return }
        while let rel = e.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            if exclude.contains(where: { fnmatch($0, name, 0) == 0 || fnmatch($0, rel, 0) == 0 }) {
                if (e.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { e.skipDescendants() }
                continue
            }
            if (e.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { continue }
            if name.hasPrefix(".") { continue }
            guard ImageFormat.fileExtensions.contains((name as NSString).pathExtension.lowercased()),
                  include.isEmpty || include.contains(where: { fnmatch($0, name, 0) == 0 || fnmatch($0, rel, 0) == 0 }) else {
                if countOthers { lock.withLock { summary.skippedOther += 1 } }
                continue
            }
            if !visit((root as NSString).appendingPathComponent(rel)) { return }
        }
    }

    func handle(_ path: String, _ pipelineForWorker: () throws -> ReceiptPipeline) {
        var hash: String?
        do {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw IngestError(file: path, reason: FileManager.default.fileExists(atPath: path) ? .unreadable((error as NSError).localizedDescription) : .missing)
            }
            let h = ContentHash.sha256(data)
            hash = h
            if !force, try store.containsReceipt(contentHash: h) {
                // Another copy of a stored image (a second folder, a renamed file): remember where it is too.
                try store.addSourcePath(contentHash: h, path: path)
                count { $0.skippedDone += 1 }
                return
            }
            let file = try Ingest.load(data: data, name: path, options: setup.pipeline.ingest)
            let pipeline = try pipelineForWorker()
            let result = try pipeline.process(file: file)
            let review = ReviewPolicy.needsReview(result.receipt)
            try store.saveReceipt(StoredReceiptInput(contentHash: h, sourcePath: path, ocrText: result.page.text, parsed: result.receipt,
                                                     engineVersion: pipeline.engine.identity, status: review ? .needsReview : .parsed))
            jsonl?.write(JSONLine.encode(ReceiptReport(result: result, engine: pipeline.engine.identity, explain: false, includeText: false)))
            count {
                if review { $0.needsReview += 1 } else { $0.parsed += 1 }
                if result.passes.count > 1 { $0.secondPasses += 1 }
            }
        } catch let e as StoreError {
            ctx.console.error("\(path): the store could not be written: \(e)")
            count { $0.failed.append((path, "store: \(e)")) }
        } catch {
            let report = PipelineSetup.describe(error)
            try? store.recordFailure(contentHash: hash, path: path, code: report.code, message: report.message)
            jsonl?.write(JSONLine.encode(ReceiptReport(file: path, error: report)))
            count { $0.failed.append((path, report.message)) }
        }
    }

    private func count(_ change: (inout BatchSummary) -> Void) {
        let line: String? = lock.withLock {
            change(&summary)
            guard showProgress, Date().timeIntervalSince(lastDraw) >= 0.1 else { return nil }
            lastDraw = Date()
            let done = summary.processed + summary.skippedDone
            let elapsed = Date().timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(summary.processed) / elapsed : 0
            let known = !walking || countingDone
            let total = walking ? max(discovered, counted) : discovered
            let eta = !known || rate == 0 ? "…" : Self.duration(Double(max(0, total - done)) / rate)
            return String(format: "\r\u{1B}[K%d/%d%@  %.2f receipts/s  ETA %@  failed %d", done, total, known ? "" : "+", rate, eta, summary.failed.count)
        }
        if let line { ctx.console.errRaw(line) }
    }

    static func duration(_ s: Double) -> String {
        guard s.isFinite else { return "…" }
        let t = Int(s.rounded())
        return t >= 3600 ? "\(t / 3600)h\(t % 3600 / 60)m" : t >= 60 ? "\(t / 60)m\(t % 60)s" : "\(t)s"
    }

    /// Peak resident memory of this process (Linux: VmHWM).
    static func peakRSSMB() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb / 1024
    }
}
