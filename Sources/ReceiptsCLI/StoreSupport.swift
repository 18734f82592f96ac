import Foundation
import ReceiptStore

/// What the store commands share: the `--store` option and opening the file.
enum StoreSupport {
    static let storeOption = OptionSpec("--store", value: "PATH",
                                        help: "The store file (default: $RECEIPTS_STORE, else $XDG_DATA_HOME/receipts/receipts.sqlite).")

    static func location(_ args: Arguments, _ ctx: CommandContext) -> String {
        StoreLocation.resolve(explicit: args.value("--store"), environment: ctx.environment)
    }

    /// Opens (creating and upgrading as needed) the store, or fails with exit code 5.
    static func open(_ args: Arguments, _ ctx: CommandContext) throws -> any ReceiptStore {
        do { return try StoreLocation.open(location(args, ctx)) } catch {
            throw CLIFailure(.storeError, "cannot open the store: \(error)")
        }
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

/// `receipts store info`: where the store is and what it holds.
enum StoreCommand {
    static let command = Command(
        name: "store",
        summary: "Show the store: file, schema version, counts, failed files.",
        usage: "receipts store info [--store PATH] [--json]",
        subcommands: [info])

    static let info = Command(
        name: "info",
        summary: "Show the store's file, schema version and what it holds.",
        usage: "receipts store info [--store PATH] [--json]",
        discussion: "Opening a store made by an older receipts upgrades it in place (the migrations run in one transaction).",
        options: [StoreSupport.storeOption, OptionSpec("--json", help: "One JSON object, keys sorted.")],
        run: { args, ctx in
            guard args.positionals.isEmpty else { throw UsageError("store info takes no arguments") }
            let store = try StoreSupport.open(args, ctx)
            let s = try StoreSupport.attempt("reading the store") { try store.stats() }
            let failures = try StoreSupport.attempt("reading the store") { try store.failures() }
            if args.flag("--json") {
                ctx.console.out(JSONLine.encode(s))
                return .ok
            }
            ctx.console.out("store     \(s.path) (schema version \(s.schemaVersion))")
            ctx.console.out("items     \(s.items)")
            ctx.console.out("receipts  \(s.receipts) (\(s.needsReview) need review, \(s.duplicates) duplicate\(s.duplicates == 1 ? "" : "s")), \(s.lineItems) line items")
            ctx.console.out("links     \(s.links["proposed"] ?? 0) proposed, \(s.links["confirmed"] ?? 0) confirmed, \(s.links["rejected"] ?? 0) rejected")
            ctx.console.out("failures  \(s.failures)")
            for f in failures { ctx.console.out("  \(f.path): \(f.code): \(f.message)") }
            return .ok
        })
}
