import Foundation
import ReceiptModel
import ReceiptStore

/// `receipts links list|confirm|reject`: review what the reconciler proposed.
enum LinksCommand {
    static let command = Command(
        name: "links",
        summary: "List, confirm and reject receipt ↔ item links.",
        usage: "receipts links list|confirm|reject [options]",
        subcommands: [list, decide(.confirmed, name: "confirm"), decide(.rejected, name: "reject"), decide(.proposed, name: "undo")])

    static let list = Command(
        name: "list",
        summary: "List links with their score, status and reasons.",
        usage: "receipts links list [--store PATH] [--status proposed|confirmed|rejected|all] [--json]",
        options: [StoreSupport.storeOption,
                  OptionSpec("--status", value: "STATUS", help: "Only links with this status (default: all)."),
                  OptionSpec("--json", help: "One JSON object per link (JSON Lines), keys sorted.")],
        run: { args, ctx in
            guard args.positionals.isEmpty else { throw UsageError("links list takes no arguments") }
            var status: LinkStatus?
            if let s = args.value("--status"), s != "all" {
                guard let v = LinkStatus(rawValue: s) else { throw UsageError("--status takes proposed, confirmed, rejected or all, not '\(s)'") }
                status = v
            }
            let store = try StoreSupport.open(args, ctx)
            let links = try StoreSupport.attempt("reading links") { try store.links(status: status) }
            if args.flag("--json") {
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
            usage: "receipts links \(name) [--store PATH] [--by NAME] ID...",
            discussion: status == .rejected ? "A rejected pair is never proposed again by `receipts reconcile`."
                : status == .confirmed ? "A confirmed link is kept by every later `receipts reconcile`; the item gets no new proposals."
                : "The link becomes a proposal again; the next `receipts reconcile` may refresh or withdraw it.",
            options: [StoreSupport.storeOption, OptionSpec("--by", value: "NAME", help: "Who decided (default: $USER).")],
            run: { args, ctx in
                guard !args.positionals.isEmpty else { throw UsageError("no link id given") }
                let ids = try args.positionals.map { p -> LinkID in
                    guard let v = Int64(p), v > 0 else { throw UsageError("'\(p)' is not a link id (a number from `receipts links list`)") }
                    return LinkID(v)
                }
                let who = args.value("--by") ?? ctx.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "user"
                return try StoreSupport.writing(args, ctx) { store in
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
