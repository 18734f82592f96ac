import Foundation
import ReceiptModel
import ReceiptReconcile
import ReceiptStore

/// `receipts reconcile` options: the reconciler's own, set where given.
struct ReconcileArgs: ParsableArgs {
    var store = StoreArgs()
    var options = ReconcileOptions()
    var json = false

    static let declared = StoreArgs.group.embedded(in: \ReconcileArgs.store) + OptionGroup<ReconcileArgs>([
        .flag("--auto-confirm", \.options.autoConfirm, help: "Confirm confident, unambiguous links automatically."),
        .double("--auto-threshold", value: "SCORE", in: 0...1, help: "Lowest score --auto-confirm confirms (default 0.90).") { a, v in
            a.options.autoConfirmThreshold = v
        },
        .double("--threshold", value: "SCORE", in: 0...1, help: "Lowest score that is proposed (default 0.60).") { a, v in a.options.proposeThreshold = v },
        .int("--date-window", value: "DAYS", in: 0...365, help: "Days apart that still count as the same purchase (default 3).") { a, v in
            a.options.dateWindowDays = v
            a.options.maxDateGapDays = max(a.options.maxDateGapDays, v)
        },
        .value("--tolerance", value: "PERCENT", kind: .number(0...50), help: "Amount tolerance in percent (default 1; never below 0.05).",
               expected: "a percentage between 0 and 50", parse: { s in
            Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).flatMap { $0 >= 0 && $0 <= 50 ? $0 : nil }
        }) { a, v in a.options.amountTolerance = v / 100 },
        .flag("--json", \.json, help: "Print the result as one JSON object (keys sorted)."),
    ])
}

/// `receipts reconcile`: propose links between receipts and inventory items.
enum ReconcileCommand {
    static let command = Command(
        name: "reconcile",
        summary: "Propose links between stored receipts and inventory items, with the reasons.",
        discussion: """
        Each item is compared with the receipts whose amounts are near its price (the total,
        the subtotal, a line's amount or unit price, a line with the receipt's tax added or
        VAT removed) or whose date is near its purchase date. A candidate is scored from
        amount (45%), date (25%), vendor (15%, fuzzy, store numbers and legal forms ignored)
        and line text vs the item's name, brand and model (15%, fuzzy); vendor and text count
        only when both sides have them. Each proposal says why, e.g.
          line 'SONY WH-1000XM5 HEADPHONES' 349.99 = price; same date 2024-11-23; vendor ...

        An item gets its best receipt; a line backs as many items as its quantity. When
        another candidate comes within 0.10 of the best, every contender is proposed and
        marked ambiguous. Two photos of one receipt (same vendor, date, total and receipt
        number) are flagged as a duplicate instead of being linked twice.

        Re-running refreshes proposals, withdraws those the data no longer supports, and
        never changes a link you confirmed or rejected (a rejected pair is not proposed again;
        an item with a confirmed receipt gets no new proposals).

        With --auto-confirm, proposals scoring at least --auto-threshold that are not
        ambiguous are confirmed (decided by 'auto'). Off by default: review with
        `receipts links list`, then `receipts links confirm|reject ID...`.
        """,
        options: ReconcileArgs.declared, arguments: .none("reconcile takes no arguments"), run: run)

    static func run(_ args: ReconcileArgs, _ ctx: CommandContext) throws -> ExitCode {
        try StoreSupport.writing(args.store, ctx) { store in try run(args, ctx, options: args.options, store: store) }
    }

    static func run(_ args: ReconcileArgs, _ ctx: CommandContext, options o: ReconcileOptions, store: any ReceiptStore) throws -> ExitCode {
        let run = try StoreSupport.attempt("reconciling") { try Reconciler(options: o).run(store: store) }
        let links = try StoreSupport.attempt("reading links") { try store.links() }
        let receipts = try StoreSupport.attempt("reading receipts") { try store.receiptSummaries() }
        let items = try StoreSupport.attempt("reading items") { try store.items() }
        let receiptByID = Dictionary(uniqueKeysWithValues: receipts.map { ($0.id, $0) })
        let itemByID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        struct Pair: Hashable { var r: ReceiptID; var i: ItemID }
        let linkByPair = Dictionary(links.map { (Pair(r: $0.receiptID, i: $0.itemID), $0) }, uniquingKeysWith: { a, _ in a })
        let shown = run.plan.proposals.compactMap { linkByPair[Pair(r: $0.receiptID, i: $0.itemID)] }

        if args.json {
            struct Out: Encodable {
                var receiptCount: Int; var itemCount: Int; var proposedCount: Int; var refreshedCount: Int; var autoConfirmedCount: Int
                var keptDecisionCount: Int; var withdrawnCount: Int; var duplicates: [Dup]; var links: [LinkReport]; var seconds: Double
                struct Dup: Encodable {
                    var receiptID: Int64; var duplicateOf: Int64; var reason: String
                    enum CodingKeys: String, CodingKey { case receiptID = "receipt_id", duplicateOf = "duplicate_of", reason }
                }
                enum CodingKeys: String, CodingKey {
                    case receiptCount = "receipt_count", itemCount = "item_count", proposedCount = "proposed_count"
                    case refreshedCount = "refreshed_count", autoConfirmedCount = "auto_confirmed_count", keptDecisionCount = "kept_decision_count"
                    case withdrawnCount = "withdrawn_count", duplicates, links, seconds
                }
            }
            let w = run.written
            ctx.console.out(JSONLine.encode(Out(
                receiptCount: run.plan.stats.receipts, itemCount: run.plan.stats.items, proposedCount: w.proposed, refreshedCount: w.refreshed,
                autoConfirmedCount: w.autoConfirmed, keptDecisionCount: w.keptDecisions, withdrawnCount: w.withdrawn,
                duplicates: run.plan.duplicates.map { .init(receiptID: $0.id.rawValue, duplicateOf: $0.original.rawValue, reason: $0.reason) },
                links: shown.map { LinkReport($0, itemName: itemByID[$0.itemID]?.item.name) }, seconds: round2(run.totalSeconds))))
            return .ok
        }
        let w = run.written, st = run.plan.stats
        ctx.console.out("reconciled \(st.receipts) receipt\(st.receipts == 1 ? "" : "s") with \(st.items) item\(st.items == 1 ? "" : "s") in \(String(format: "%.2f", run.totalSeconds)) s: "
                        + "\(w.proposed) new proposal\(w.proposed == 1 ? "" : "s"), \(w.refreshed) refreshed, \(w.autoConfirmed) auto-confirmed, "
                        + "\(w.keptDecisions) left as you decided, \(w.withdrawn) withdrawn")
        if st.itemsAlreadyConfirmed > 0 { ctx.console.out("  \(st.itemsAlreadyConfirmed) item\(st.itemsAlreadyConfirmed == 1 ? " has" : "s have") a confirmed receipt already") }
        if st.itemsWithoutPriceOrDate > 0 { ctx.console.out("  \(st.itemsWithoutPriceOrDate) item\(st.itemsWithoutPriceOrDate == 1 ? " has" : "s have") neither price nor date: nothing to match on") }
        for d in run.plan.duplicates {
            ctx.console.out("duplicate: receipt \(d.id) (\(StoreSupport.file(receiptByID[d.id]?.sourcePath))): \(d.reason)")
        }
        for l in shown { ctx.console.outRaw(LinksCommand.render(l, receipt: receiptByID[l.receiptID], item: itemByID[l.itemID]?.item)) }
        let waiting = links.filter { $0.status == .proposed }.count
        if waiting > 0 { ctx.console.out("\(waiting) link\(waiting == 1 ? "" : "s") wait for you: receipts links confirm|reject ID...") }
        return .ok
    }
}
