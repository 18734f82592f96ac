import Foundation
import ReceiptStore

/// `--store`, which every command that reads or writes the store takes, declared once.
struct StoreArgs: ParsableArgs {
    var store: String?

    static let group = OptionGroup<StoreArgs>([
        .string("--store", value: "PATH|URL", \.store, kind: .store, setting: .store,
                help: "The store: a SQLite file, or a postgres://user@host/db URL (default: $RECEIPTS_STORE, else the config file's store, else $XDG_DATA_HOME/receipts/receipts.sqlite)."),
    ])

    /// Where the store is: the option (or its setting), else the built-in place.
    func location(_ ctx: CommandContext) -> String {
        StoreLocation.resolve(explicit: store, environment: ctx.environment)
    }
}

/// `--jobs`, for the commands that read images in parallel (batch, eval).
struct JobsArgs: ParsableArgs {
    var jobs: Int?

    static let group = OptionGroup<JobsArgs>([
        .int("--jobs", short: "-j", value: "N", \.jobs, in: 1...64, setting: .jobs,
             help: "OCR engines working in parallel (default: the number of cores)."),
    ])

    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}

/// What the store commands share: opening the store, writing to it, and table layout.
enum StoreSupport {

    /// Opens (upgrading as needed) the store, or fails with exit code 5. Only the commands that
    /// fill a store (`batch`, `items import`) pass `create`; the others, on a missing store,
    /// fail and create nothing.
    static func open(_ args: StoreArgs, _ ctx: CommandContext, create: Bool = false) throws -> any ReceiptStore {
        do { return try StoreLocation.open(args.location(ctx), create: create) } catch let e as StoreError where e.code == .missing {
            throw CLIFailure(.storeError, "no store at \(e.location) (run `receipts batch` or `receipts items import` first)")
        } catch {
            throw CLIFailure(.storeError, "cannot open the store: \(error)")
        }
    }

    /// Runs a command that writes to the store, then checkpoints it, so the store file alone is
    /// a complete copy once the command ends (also when it fails half-way: what was committed is kept).
    static func writing<T>(_ args: StoreArgs, _ ctx: CommandContext, create: Bool = false, _ body: (any ReceiptStore) throws -> T) throws -> T {
        let store = try open(args, ctx, create: create)
        if store.isReadOnly {
            throw CLIFailure(.storeError, "\(store.location): the store is read-only (no permission to write the file); nothing was changed")
        }
        defer {
            do { try store.checkpoint() } catch { ctx.console.warning("\(store.location): could not checkpoint the store: \(error)") }
        }
        return try body(store)
    }

    /// Runs a store operation; a store error ends the command with exit code 5.
    static func attempt<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StoreError {
            throw CLIFailure(.storeError, "\(what): \(e)")
        }
    }

    static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    static func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
    static func clip(_ s: String, _ n: Int) -> String { s.count <= n ? s : String(s.prefix(n - 1)) + "…" }
    static func file(_ p: String?) -> String { p.map { ($0 as NSString).lastPathComponent } ?? "" }
}

/// `receipts store info|backup`: where the store is and what it holds; a safe copy of it.
enum StoreCommand {
    static let command = Command(
        name: "store",
        summary: "Show the store (file, schema version, counts, failed files) or back it up.",
        subcommands: [info, backup])

    /// `--store`, `--json` (for the commands that print JSON) and the files named.
    struct Args: ParsableArgs {
        var store = StoreArgs()
        var json = false
        var files: [String] = []

        static let storeOnly = StoreArgs.group.embedded(in: \Args.store)
        static let storeAndJSON = storeOnly + OptionGroup([.flag("--json", \.json, help: "One JSON object, keys sorted.")])
    }

    static let backup = Command(
        name: "backup",
        summary: "Write a consistent copy of the store to a new file, also while other commands write to it.",
        discussion: """
        The copy is one SQLite file holding everything committed when the backup started
        (SQLite's VACUUM INTO); it opens with --store FILE like the original. FILE must not exist.
        """,
        options: Args.storeOnly,
        arguments: Positionals("FILE", kind: .file, count: .one("store backup takes one FILE (a new file)"),
                               help: "The copy to make: a new file.", \.files),
        run: { args, ctx in
            let target = args.files[0]
            let store = try StoreSupport.open(args.store, ctx)
            try StoreSupport.attempt("backing up the store") { try store.backup(to: target) }
            let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int).flatMap { $0 } ?? 0
            ctx.console.err("backed up \(store.location) to \(target) (\(size / 1024) KB)")
            return .ok
        })

    static let info = Command(
        name: "info",
        summary: "Show the store's file, schema version and what it holds (and which images batches are reading now).",
        discussion: "Opening a store made by an older receipts upgrades it in place (the migrations run in one transaction).",
        options: Args.storeAndJSON,
        arguments: .none("store info takes no arguments"),
        run: { args, ctx in
            let store = try StoreSupport.open(args.store, ctx)
            let s = try StoreSupport.attempt("reading the store") { try store.stats() }
            let failures = try StoreSupport.attempt("reading the store") { try store.failures() }
            if args.json {
                ctx.console.out(JSONLine.encode(StoreInfoReport(s, failures: failures)))
                return .ok
            }
            ctx.console.out("store     \(s.path) (schema version \(s.schemaVersion))")
            ctx.console.out("items     \(s.items)")
            ctx.console.out("receipts  \(s.receipts) (\(s.needsReview) need review, \(s.corrected) corrected, \(s.duplicates) duplicate\(s.duplicates == 1 ? "" : "s")), \(s.lineItems) line items")
            ctx.console.out("links     \(s.links["proposed"] ?? 0) proposed, \(s.links["confirmed"] ?? 0) confirmed, \(s.links["rejected"] ?? 0) rejected")
            ctx.console.out("shops     \(s.shops) learned from your corrections (receipts shops list), \(s.learnedReceipts) receipt\(s.learnedReceipts == 1 ? "" : "s") read with a shop's values")
            ctx.console.out("failures  \(s.failures)")
            for f in failures { ctx.console.out("  \(f.path): \(f.code): \(f.message)") }
            // Batches reading now (or dead, until their lease runs out): only when there are some.
            let claims = try StoreSupport.attempt("reading the store") { try store.claims() }
            if !claims.isEmpty {
                let live = claims.filter { $0.secondsLeft > 0 }
                let batches = Set(live.map(\.worker)).count
                ctx.console.out("claims    \(claims.count) (\(live.count) held by \(batches) batch\(batches == 1 ? "" : "es") now, \(claims.count - live.count) whose lease ran out)")
                for c in claims.prefix(20) {
                    ctx.console.out(String(format: "  %@: %@ (%@)", c.path, c.worker, c.secondsLeft > 0 ? String(format: "%.0f s left", c.secondsLeft) : "lease ran out"))
                }
            }
            return .ok
        })
}
