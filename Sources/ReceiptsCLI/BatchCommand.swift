import Foundation
import Synchronization
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline
import ReceiptStore

/// `receipts batch` options.
struct BatchArgs: ParsableArgs {
    var store = StoreArgs()
    var jobs = JobsArgs()
    var jsonl: String?
    var include: [String] = []
    var exclude: [String] = []
    var force = false
    var lease: Int?
    var reparse = false
    var quiet = false
    var noLearn = false
    var pipeline = PipelineArgs()
    var paths: [String] = []

    static let options = StoreArgs.group.embedded(in: \BatchArgs.store) + JobsArgs.group.embedded(in: \.jobs) + OptionGroup<BatchArgs>([
        .string("--jsonl", value: "FILE", \.jsonl, kind: .file, help: "Also write one JSON object per receipt as it finishes (FILE, or - for stdout)."),
        .list("--include", value: "GLOB", \.include, kind: .glob, help: "Only files whose name matches (e.g. '*.jpg'); repeatable."),
        .list("--exclude", value: "GLOB", \.exclude, kind: .glob, help: "Skip files or folders whose name matches; repeatable."),
        .flag("--force", \.force, help: "Read images again even if the store has them."),
        .int("--lease", value: "SECONDS", \.lease, in: 1...86_400,
             help: "How long this batch's claim on an image holds without renewal (default 90): another batch takes it over after that."),
        .flag("--reparse", \.reparse, help: "Re-parse what OCR read (kept in the store: words, boxes, every look) with this parser version, no OCR; no folders needed."),
        .flag("--quiet", short: "-q", \.quiet, help: "No progress line."),
        .flag("--no-learn", \.noLearn, help: "Read as a stranger would: without the shops the store learned from your corrections (`receipts shops`)."),
    ], checks: [{ a in
        if a.reparse, !a.paths.isEmpty { throw UsageError("--reparse works on the store alone; give no folders") }
        if !a.reparse, a.paths.isEmpty { throw UsageError("no folders or files to read") }
    }]) + PipelineArgs.group.embedded(in: \.pipeline)

    static let arguments = Positionals<BatchArgs>("DIR|FILE", kind: .path, count: .any,
                                                  help: "Folders (walked recursively) and image files to read; none with --reparse.", \.paths)
}

/// `receipts batch DIR|FILE…`: whole folders into the store, at the OCR engine's speed.
enum BatchCommand {
    static let command = Command(
        name: "batch",
        summary: "Read every receipt image under folders into the store: parallel, resumable, never stopping on a bad file.",
        discussion: """
        Folders are walked recursively as they are read (not listed first). A file is read when it looks
        like a receipt, by its extension or by its first bytes (a JPEG named .heic is read as JPEG);
        other files are counted by extension in the summary. Images already in the store
        (same content hash) are skipped, so running the same command again continues where it stopped.
        Ctrl-C finishes the receipts in flight, keeps what is done and says how to resume.
        Files that cannot be read are recorded in the store with the reason and listed at the end;
        the exit code is then 3.

        Each receipt is read with the shops the store learned from your corrections (`receipts shops`,
        docs/learning.md): a receipt of a known shop takes its name, and the total and date its habits
        point at, with evidence saying so. --no-learn reads as a stranger would.

        Several batches may share one store (a PostgreSQL store across machines, a SQLite file on one
        host) over the same folder or files: each image is claimed in the store before it is read, with
        a lease renewed while it is read, so no image is read by two at once. A batch that dies
        (kill -9, a lost machine) loses its claims when the lease runs out, and the others finish its images.

        Examples:
          receipts batch ~/Scans/receipts --store receipts.sqlite
          receipts batch --jobs 2 --jsonl results.jsonl SampleReceipts
          receipts batch --reparse          # re-parse what OCR read (kept in the store) with this parser, no OCR
          receipts batch --store postgres://scan@db.local/receipts /mnt/share/receipts   # on each of several machines
        """,
        options: BatchArgs.options, arguments: BatchArgs.arguments, run: run)

    static func run(_ args: BatchArgs, _ ctx: CommandContext) throws -> ExitCode {
        let setup = try PipelineSetup.make(args.pipeline)
        for p in args.paths where !FolderWalk.exists(p) {
            throw CLIFailure(.inputError, "\(p): no such file or folder")
        }
        // --reparse works on what a store holds: it does not make one.
        return try StoreSupport.writing(args.store, ctx, create: !args.reparse) { store in
            try run(args, ctx, setup: setup, store: store)
        }
    }

    static func run(_ args: BatchArgs, _ ctx: CommandContext, setup: PipelineSetup.Made, store: any ReceiptStore) throws -> ExitCode {
        if args.reparse {
            return try reparse(store: store, setup: setup, ctx: ctx, force: args.force, learn: !args.noLearn)
        }
        let jobs = args.jobs.count
        // A missing language file fails before any work; the engines themselves are loaded by
        // each worker when it first needs OCR, so a folder already in the store costs only hashing.
        do { _ = try Tessdata.locate(language: setup.ocr.language, explicit: setup.ocr.tessdataDirectory) } catch {
            throw CLIFailure(.missingDependency, error.description)
        }
        let sink = try LineSink(args.jsonl, console: ctx.console)
        defer { sink.close() }
        var options = BatchOptions(jobs: jobs)
        options.force = args.force
        options.learn = !args.noLearn
        if let lease = args.lease { options.lease = Double(lease) }
        options.walk = FolderWalk(include: args.include, exclude: args.exclude, decoders: setup.pipeline.ingest.decoders)
        let storePath = (args.store.location(ctx) as NSString).standardizingPath
        options.walk.neverOpen = Set(["", "-wal", "-shm", "-journal"].map { storePath + $0 })
        options.ingest = setup.pipeline.ingest
        let showProgress = !args.quiet && ctx.console.errIsTerminal
        if showProgress { options.progressInterval = 0.1 }
        let interruption = ctx.interruption
        let runner = BatchRunner(store: store, options: options, makePipeline: { try setup.makePipeline() },
                                 isCancelled: { interruption.isRaised })
        let console = ctx.console
        let jsonl = sink.isActive ? sink : nil
        let storeCount = ThrottledCount(every: 2)
        var summary = BatchSummary(counts: runner.run(args.paths, outcome: { outcome in
            switch outcome {
            case .stored(let result, let engine, let status, let id):
                var report = ReceiptReport(result: result, engine: engine, explain: false, includeText: false, timings: true)
                report.receiptID = id.rawValue
                report.status = status.rawValue
                jsonl?.write(JSONLine.encode(report))
            case .failed(let path, let report):
                if report.code == FailureReport.storeCode { console.error("\(path): the store could not be written: \(report.message)") }
                jsonl?.write(JSONLine.encode(ReceiptReport(file: path, error: report)))
            case .skipped: break
            }
        }, progress: { p in
            let eta = !p.totalIsFinal || p.rate == 0 ? "…" : BatchSummary.duration(Double(max(0, p.total - p.done)) / p.rate)
            var line = String(format: "\r\u{1B}[K%d/%d%@  %.2f receipts/s  ETA %@  failed %d", p.done, p.total, p.totalIsFinal ? "" : "+", p.rate, eta, p.failed)
            // Other batches on the same store: what they hold, and what the store holds in all (asked every 2 s).
            if p.heldElsewhere > 0, let stored = storeCount.current(store) {
                line += "  left to other batches \(p.heldElsewhere)  the store holds \(stored)"
            }
            console.errRaw(line)
        }))
        if showProgress { ctx.console.errRaw("\r\u{1B}[K") }
        summary.peakRSSMB = BatchSummary.peakRSSMB()
        summary.worker = options.worker
        // What the whole store holds now: other batches may be writing to it too.
        if let stats = try? store.stats() { summary.store = stats }
        summary.otherClaims = ((try? store.claims()) ?? []).filter { $0.worker != options.worker && $0.secondsLeft > 0 }.count
        ctx.console.errRaw(summary.text(resumeCommand: "receipts " + (["batch"] + CommandLine.arguments.dropFirst(2)).joined(separator: " ")))
        if ctx.interruption.isRaised { return .interrupted }
        return summary.counts.failed.isEmpty ? .ok : .inputError
    }

    static func reparse(store: any ReceiptStore, setup: PipelineSetup.Made, ctx: CommandContext, force: Bool, learn: Bool) throws -> ExitCode {
        let interruption = ctx.interruption
        let n = try StoreSupport.attempt("re-parsing the store") {
            try Reparse.run(store: store, parser: ReceiptParser(options: setup.parser), force: force, learn: learn, isCancelled: { interruption.isRaised })
        }
        ctx.console.err("re-parsed \(n) receipt\(n == 1 ? "" : "s") with parser \(ReceiptParser.version) (no OCR)")
        // Without --force only receipts an older parser read are parsed again: say how to read the rest with what the shops learned since.
        if !force, learn, (try? store.stats().shops) ?? 0 > 0 {
            ctx.console.err("receipts this parser read already are left as they were; --reparse --force reads them again with what your shops learned since")
        }
        return ctx.interruption.isRaised ? .interrupted : .ok
    }
}

/// The store's receipt count for the progress line, asked at most every `every` seconds.
final class ThrottledCount: Sendable {
    private let state = Mutex<(at: Date, value: Int?)>((.distantPast, nil))
    private let every: Double
    init(every: Double) { self.every = every }

    func current(_ store: any ReceiptStore) -> Int? {
        let due = state.withLock { s -> Bool in
            guard Date().timeIntervalSince(s.at) >= every else { return false }
            s.at = Date()
            return true
        }
        if due, let n = try? store.stats().receipts { state.withLock { $0.value = n } }
        return state.withLock { $0.value }
    }
}

/// Where `--jsonl` lines go: a file, stdout (`-`), or nowhere.
final class LineSink: Sendable {
    /// Held while writing, so lines from several workers never interleave (Console serializes itself).
    private let handle: Mutex<FileHandle?>
    private let console: Console?
    let isActive: Bool

    init(_ target: String?, console: Console) throws {
        if target == "-" { self.console = console; handle = Mutex(nil); isActive = true; return }
        self.console = nil
        guard let target else { handle = Mutex(nil); isActive = false; return }
        guard FileManager.default.createFile(atPath: target, contents: nil), let h = FileHandle(forWritingAtPath: target) else {
            throw CLIFailure(.usage, "\(target): cannot create the JSON Lines file")
        }
        handle = Mutex(h)
        isActive = true
    }

    func write(_ line: String) {
        if let console { console.out(line); return }
        handle.withLock { $0?.write(Data((line + "\n").utf8)) }
    }

    func close() { handle.withLock { try? $0?.close() } }
}

/// A batch run's counts as the CLI prints them.
struct BatchSummary {
    var counts: BatchCounts
    var peakRSSMB = 0.0
    var worker = ""
    var store: StoreStats?
    /// Images other batches hold claims on right now.
    var otherClaims = 0

    func text(resumeCommand: String) -> String {
        let c = counts
        var s = ""
        if c.interrupted { s += "interrupted: the receipts in flight were finished and everything done is in the store.\n" }
        s += "\(c.processed) read: \(c.parsed) parsed, \(c.needsReview) need review, \(c.failed.count) failed; "
        s += "\(c.skippedDone) skipped (already in the store), \(c.skippedOther) other files"
        if !c.otherByExtension.isEmpty {
            // Most common first, so a folder of something unsupported shows at once.
            let kinds = c.otherByExtension.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            s += " (" + kinds.map { "\($0.value) \($0.key.isEmpty ? "without extension" : "." + $0.key)" }.joined(separator: ", ") + ")"
        }
        s += "\n"
        if c.heldElsewhere > 0 || c.takenOver > 0 || otherClaims > 0 {
            s += "worker \(worker): \(c.heldElsewhere) image\(c.heldElsewhere == 1 ? " was" : "s were") being read by other batches when reached (left to them)"
            s += ", \(c.takenOver) taken over from batches whose lease ran out\n"
        }
        if let st = store {
            s += "the store holds \(st.receipts) receipt\(st.receipts == 1 ? "" : "s") (\(st.needsReview) need review), \(st.failures) failure\(st.failures == 1 ? "" : "s")"
            s += otherClaims > 0 ? "; other batches are reading \(otherClaims) now\n" : "\n"
        }
        let rate = c.seconds > 0 ? Double(c.processed) / c.seconds : 0
        s += String(format: "%.1f s, %.2f receipts/s; second OCR look on %d; peak memory %.0f MB\n", c.seconds, rate, c.secondPasses, peakRSSMB)
        if !c.failed.isEmpty {
            s += "failed:\n"
            for (file, why) in c.failed.prefix(50) { s += "  \(file): \(why)\n" }
            if c.failed.count > 50 { s += "  … and \(c.failed.count - 50) more (receipts store info)\n" }
        }
        if c.interrupted { s += "to continue, run the same command again: \(resumeCommand)\n" }
        return s
    }
}

extension BatchSummary {
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
