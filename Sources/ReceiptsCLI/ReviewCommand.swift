import Foundation
import ReceiptLearning
import ReceiptModel
import ReceiptParser
import ReceiptStore

/// `receipts review` options.
struct ReviewArgs: ParsableArgs {
    var store = StoreArgs()
    var by = ByArgs()
    var filter = FilterArgs()
    /// `--accept ID…`: accept these receipts without asking (for scripts).
    var accept = false
    var receipts: [String] = []

    static let options = StoreArgs.group.embedded(in: \ReviewArgs.store) + ByArgs.group.embedded(in: \.by)
        + FilterArgs.group.embedded(in: \.filter, where: { $0.name != "--status" })
        + OptionGroup([
            .flag("--accept", \.accept, help: "Accept the receipts given (ids or image files) without a terminal: their vendor, date and total as shown become confirmed, and teach their shop."),
        ], checks: [{ a in
            if a.accept, a.receipts.isEmpty { throw UsageError("--accept takes the receipts to accept: review --accept ID…") }
            if !a.accept, !a.receipts.isEmpty { throw UsageError("review walks the receipts that need review and takes no receipts; to accept some without a terminal: review --accept ID…") }
        }])
    static let arguments = Positionals("ID|FILE", kind: .receipt, count: .any,
                                       help: "With --accept: the receipts to accept, by id or image file.", \ReviewArgs.receipts)
}

/// `receipts review`: the needs-review receipts one by one on a terminal.
enum ReviewCommand {
    static let command = Command(
        name: "review",
        summary: "Walk the receipts that need review on a terminal: accept, edit a field, skip, quit.",
        discussion: """
        Shows each receipt that needs review (oldest first) with its fields, the unsure ones
        marked '?', and its image file, then asks:
          a               accept: the fields shown are right (they become corrected, confidence 1)
          e FIELD VALUE   edit a field, e.g. `e total 12.30` or `e date 2024-03-04`; then a, s or more edits
          s (or Enter)    skip to the next receipt
          q               quit (what was accepted or edited is kept)
        Fields: vendor, date, time, total, subtotal, tax, currency, receipt_number, payment_method, card_last4.
        Needs a terminal; from a script use `receipts review --accept ID…` to accept receipts as they are
        shown, and `receipts edit ID --total 12.30 …` to correct them (`receipts list --status needs-review` lists them).
        What you accept or edit teaches the receipt's shop (`receipts shops`, docs/learning.md).
        """,
        options: ReviewArgs.options, arguments: ReviewArgs.arguments, run: run)

    static func run(_ args: ReviewArgs, _ ctx: CommandContext) throws -> ExitCode {
        if args.accept { return try acceptGiven(args, ctx) }
        guard ctx.input.isTerminal else {
            throw CLIFailure(.usage, "review needs a terminal (standard input is not one); from a script use "
                             + "`receipts review --accept ID…` or `receipts edit ID --total 12.30 …` on the receipts `receipts list --status needs-review` shows")
        }
        var filter = args.filter.filter
        filter.state = .needsReview
        let who = args.by.who(ctx)
        // What is accepted or edited teaches the receipt's shop, as `receipts edit` does.
        let teacher = ShopLearning.teacher()
        return try StoreSupport.writing(args.store, ctx) { store in
            let queue = try StoreSupport.attempt("reading receipts") { try store.listReceipts(filter) }
            if queue.isEmpty { ctx.console.out("nothing needs review"); return .ok }
            var accepted = 0, edited = 0, skipped = 0
            var quit = false
            receipts: for (n, r) in queue.enumerated() {
                var changed = false
                while true {
                    guard let d = try StoreSupport.attempt("reading receipt \(r.id)", { try store.receiptDetail(r.id) }) else { continue receipts }
                    ctx.console.outRaw(render(d, position: n + 1, of: queue.count))
                    ctx.console.outRaw("a accept · e FIELD VALUE edit · s skip · q quit > ")
                    guard let answer = ctx.input.readLine() else { ctx.console.out(""); quit = true; break receipts }
                    let words = answer.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 2).map(String.init)
                    switch words.first?.lowercased() ?? "" {
                    case "a", "accept":
                        guard try accept(d, in: store, by: who, teacher: teacher) else {
                            ctx.console.out("nothing to accept: no vendor, date or total was found; set one with e FIELD VALUE, or s to skip")
                            continue
                        }
                        ctx.console.out("receipt \(r.id): accepted by \(who)")
                        if changed { edited += 1 } else { accepted += 1 }
                        continue receipts
                    case "e", "edit":
                        guard words.count == 3 else { ctx.console.out("edit takes a field and a value, e.g. e total 12.30"); continue }
                        do {
                            let field = try EditCommand.field(words[1], option: "e")
                            let change = try FieldChange.set(field, words[2])
                            let c = try store.correct(r.id, [change], by: who, teacher: teacher)
                            ctx.console.out("receipt \(r.id): \(field.rawValue) \(c.first?.previous ?? "—") → \(c.first?.value ?? "—")")
                            changed = true
                        } catch let e as UsageError {
                            ctx.console.out(e.message)
                        } catch let e as StoreError {
                            ctx.console.out(e.description)
                        }
                    case "s", "skip", "":
                        if changed { edited += 1 } else { skipped += 1 }
                        continue receipts
                    case "q", "quit":
                        if changed { edited += 1 }
                        quit = true
                        break receipts
                    default:
                        ctx.console.out("unknown answer '\(answer)': a, e FIELD VALUE, s or q")
                    }
                }
            }
            let seen = accepted + edited + skipped
            ctx.console.out("reviewed \(seen) of \(queue.count): \(accepted) accepted, \(edited) edited, \(skipped) skipped\(quit ? " (quit)" : "")")
            return .ok
        }
    }

    /// Accepts a receipt as shown: its vendor, date and total without a correction become confirmed
    /// (and teach its shop). False when there is nothing to accept: none of the three was found and none corrected.
    static func accept(_ d: ReceiptDetail, in store: any ReceiptStore, by who: String, teacher: any ShopTeacher) throws -> Bool {
        let corrected = Set(d.corrections.filter(\.isActive).map(\.field))
        let changes = FieldChange.accepting(d.effective, corrected: corrected)
        if changes.isEmpty && corrected.isEmpty { return false }
        if !changes.isEmpty { try StoreSupport.attempt("accepting \(d.receipt.id)") { _ = try store.correct(d.receipt.id, changes, by: who, teacher: teacher) } }
        return true
    }

    /// `review --accept ID…`: each receipt accepted as `a` accepts it, no terminal needed. Every receipt
    /// is looked up before any is accepted, so a wrong id changes nothing; one with nothing to accept is
    /// named and the exit code is 3.
    static func acceptGiven(_ args: ReviewArgs, _ ctx: CommandContext) throws -> ExitCode {
        let who = args.by.who(ctx)
        let teacher = ShopLearning.teacher()
        return try StoreSupport.writing(args.store, ctx) { store in
            var details: [ReceiptDetail] = []
            for arg in args.receipts {
                let id = try StoreSupport.receiptID(arg, in: store)
                guard let d = try StoreSupport.attempt("reading receipt \(id)", { try store.receiptDetail(id) }) else {
                    throw CLIFailure(.inputError, "\(arg): no receipt \(id) in the store (receipts list shows them)")
                }
                details.append(d)
            }
            var nothing = 0
            for d in details {
                if try accept(d, in: store, by: who, teacher: teacher) {
                    let shown = [("vendor", d.effective.vendor?.value), ("date", d.effective.date?.value.iso), ("total", d.effective.total?.value.description)]
                        .compactMap { name, v in v.map { "\(name) \($0)" } }.joined(separator: ", ")
                    ctx.console.out("receipt \(d.receipt.id): accepted by \(who) (\(shown))")
                } else {
                    ctx.console.err("receipt \(d.receipt.id): nothing to accept: no vendor, date or total was found; set one with receipts edit \(d.receipt.id.rawValue) --vendor …")
                    nothing += 1
                }
            }
            return nothing == 0 ? .ok : .inputError
        }
    }

    /// The receipt as the review shows it: every field on one line each, unsure ones marked.
    static func render(_ d: ReceiptDetail, position: Int, of count: Int) -> String {
        let e = d.effective
        let corrected = Set(d.corrections.filter(\.isActive).map(\.field))
        var s = "\n[\(position)/\(count)] receipt \(d.receipt.id)  [\(d.state.argument)]\n"
        func row<T>(_ name: String, _ f: Field<T>?, _ field: CorrectableField, _ show: (T) -> String) {
            let mark = corrected.contains(field) ? "*" : f.map { ReviewPolicy.isUnsure(confidence: $0.confidence) ? "?" : "" } ?? "?"
            let value = f.map { show($0.value) } ?? "—"
            s += "  \(StoreSupport.pad(name, 15))\(StoreSupport.pad(value + (mark.isEmpty ? "" : " " + mark), 40))"
            s += f.map { String(format: "%.2f", $0.confidence) } ?? ""
            s += "\n"
        }
        row("vendor", e.vendor, .vendor) { $0 }
        row("date", e.date, .date) { $0.iso }
        row("total", e.total, .total) { $0.description }
        if e.time != nil { row("time", e.time, .time) { $0.description } }
        if e.subtotal != nil { row("subtotal", e.subtotal, .subtotal) { $0.description } }
        if e.tax != nil { row("tax", e.tax, .tax) { $0.description } }
        if e.currency != nil { row("currency", e.currency, .currency) { $0 } }
        if e.receiptNumber != nil { row("receipt_number", e.receiptNumber, .receiptNumber) { $0 } }
        if e.paymentMethod != nil { row("payment_method", e.paymentMethod, .paymentMethod) { $0 } }
        if !e.lineItems.isEmpty { s += "  line items     \(e.lineItems.count)\n" }
        for f in d.receipt.sourcePaths {
            let path = f.hasPrefix("/") ? f : FileManager.default.currentDirectoryPath + "/" + f
            s += "  image          \(path)\(FileManager.default.fileExists(atPath: f) ? "" : " (not there now)")\n"
        }
        return s
    }
}
