import Foundation
import ReceiptModel
import ReceiptStore

/// `receipts links list` options.
struct LinksListArgs: ParsableArgs {
    var store = StoreArgs()
    /// Nil: every status.
    var status: LinkStatus?
    var json = false

    static let options = StoreArgs.group.embedded(in: \LinksListArgs.store) + OptionGroup<LinksListArgs>([
        .value("--status", value: "STATUS", kind: .oneOf(LinkStatus.allCases.map(\.rawValue) + ["all"]),
               help: "Only links with this status (default: all).", expected: "proposed, confirmed, rejected or all",
               parse: { s in s == "all" ? .some(nil) : LinkStatus(rawValue: s).map { .some($0) } }) { a, v in a.status = v },
        .flag("--json", \.json, help: "One JSON object per link (JSON Lines), keys sorted."),
    ])
}

/// `receipts links confirm|reject|undo` options.
struct LinksDecideArgs: ParsableArgs {
    var store = StoreArgs()
    var by = ByArgs()
    var given: [String] = []

    /// The ids given (each checked to be one).
    var ids: [LinkID] { given.compactMap { Int64($0).flatMap { $0 > 0 ? LinkID($0) : nil } } }

    static let options = StoreArgs.group.embedded(in: \LinksDecideArgs.store) + ByArgs.group.embedded(in: \.by)
        + OptionGroup([], checks: [{ a in
            if let bad = a.given.first(where: { Int64($0).map { $0 <= 0 } ?? true }) {
                throw UsageError("'\(bad)' is not a link id (a number from `receipts links list`)")
            }
        }])
}

/// `receipts links list|confirm|reject`: review what the reconciler proposed.
enum LinksCommand {
    static let command = Command(
        name: "links",
        summary: "List, confirm and reject receipt ↔ item links.",
        subcommands: [list, decide(.confirmed, name: "confirm"), decide(.rejected, name: "reject"), decide(.proposed, name: "undo")])

    static let list = Command(
        name: "list",
        summary: "List links with their score, status and reasons.",
        options: LinksListArgs.options, arguments: .none("links list takes no arguments"),
        run: { args, ctx in
            let status = args.status
            let store = try StoreSupport.open(args.store, ctx)
            let links = try StoreSupport.attempt("reading links") { try store.links(status: status) }
            if args.json {
                for l in links { ctx.console.out(JSONLine.encode(LinkReport(l))) }
                return .ok
            }
            if links.isEmpty { ctx.console.out("no links\(status.map { " with status \($0.rawValue)" } ?? "") (run: receipts reconcile)"); return .ok }
            let receipts = Dictionary(uniqueKeysWithValues: try StoreSupport.attempt("reading receipts") { try store.receiptSummaries() }.map { ($0.id, $0) })
            let items = Dictionary(uniqueKeysWithValues: try StoreSupport.attempt("reading items") { try store.items() }.map { ($0.id, $0.item) })
            for l in links { ctx.console.outRaw(render(l, receipt: receipts[l.receiptID], item: items[l.itemID])) }
            return .ok
        })

    /// Two or more lines: the link, then its reasons.
    static func render(_ l: Link, receipt: ReceiptSummary?, item: InventoryItem?) -> String {
        let r = receipt.map { "receipt \($0.id) \(StoreSupport.file($0.sourcePath))".trimmingCharacters(in: .whitespaces) } ?? "receipt \(l.receiptID)"
        let i = "item \(l.itemID) '\(item?.name ?? "?")'"
        var status = l.status.rawValue
        if let by = l.decidedBy, l.status != .proposed { status += " by \(by)" }
        if l.ambiguous && l.status == .proposed { status += ", ambiguous" }
        var s = "link \(l.id)  \(String(format: "%.2f", l.score))  \(r) ↔ \(i)  [\(status)]\n"
        s += "    " + l.reasons.joined(separator: "; ") + "\n"
        return s
    }

    static func decide(_ status: LinkStatus, name: String) -> Command {
        let what = status == .confirmed ? "Confirm" : status == .rejected ? "Reject" : "Undo the decision on (back to proposed)"
        return Command(
            name: name,
            summary: "\(what) links by id (see `receipts links list`).",
            discussion: status == .rejected ? "A rejected pair is never proposed again by `receipts reconcile`."
                : status == .confirmed ? "A confirmed link is kept by every later `receipts reconcile`; the item gets no new proposals."
                : "The link becomes a proposal again; the next `receipts reconcile` may refresh or withdraw it.",
            options: LinksDecideArgs.options,
            arguments: Positionals("ID", kind: .link, count: .atLeastOne("no link id given"), help: "Link ids, as `receipts links list` shows them.", \.given),
            run: { args, ctx in
                let ids = args.ids
                let who = args.by.who(ctx)
                return try StoreSupport.writing(args.store, ctx) { store in
                var missing = false
                for id in ids {
                    do {
                        let l = try store.decideLink(id, status: status, by: who)
                        ctx.console.out("link \(l.id): \(l.status.rawValue)\(l.status == .proposed ? "" : " by \(who)") (receipt \(l.receiptID) ↔ item \(l.itemID))")
                    } catch let e as StoreError {
                        if e.code == .notFound { ctx.console.error("\(e)"); missing = true; continue }
                        throw CLIFailure(.storeError, "link \(id): \(e)")
                    }
                }
                return missing ? .inputError : .ok
                }
            })
    }
}
