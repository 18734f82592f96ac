import Foundation
import ReceiptInventory
import ReceiptModel
import ReceiptStore

/// `receipts export` options.
struct ExportArgs: ParsableArgs {
    var store = StoreArgs()
    var format: ExportCommand.Format?
    var filter = FilterArgs()
    /// Empty: every status.
    var linkStatuses: Set<LinkStatus> = []
    var linked = false
    var output: String?

    static let options = StoreArgs.group.embedded(in: \ExportArgs.store) + OptionGroup<ExportArgs>([
        .value("--format", value: "FORMAT", \.format, kind: .oneOf(ExportCommand.Format.allCases.map(\.rawValue)), help: "csv, json or ledger.",
               expected: "csv, json or ledger") { ExportCommand.Format(rawValue: $0.lowercased()) },
    ]) + FilterArgs.group.embedded(in: \.filter) + OptionGroup([
        Option("--link-status", value: "LIST", kind: .text,
               help: "Only links with these statuses, e.g. confirmed or confirmed,proposed (default: all).") { a, v, spelled in
            for s in v.split(separator: ",") where s != "all" {
                guard let status = LinkStatus(rawValue: String(s)) else { throw Option<ExportArgs>.bad(spelled, "proposed, confirmed, rejected", String(s)) }
                a.linkStatuses.insert(status)
            }
        },
        .flag("--linked", \.linked, help: "Only receipts with at least one (listed) link."),
        .string("--output", short: "-o", value: "FILE", \.output, kind: .file, help: "Write to FILE instead of standard output."),
    ])
}

/// `receipts export`: receipts with every field and their linked items, as CSV, JSON or an
/// hledger/ledger journal; the same filters as `receipts list`.
enum ExportCommand {
    enum Format: String, CaseIterable, Sendable { case csv, json, ledger }

    static let command = Command(
        name: "export",
        summary: "Export receipts (every field, linked items) as CSV, JSON or an hledger/ledger journal; the filters of `receipts list`.",
        discussion: """
        csv: one row per receipt and link (a receipt without links has one row, the link and item
        columns empty); columns \(csvHeader.joined(separator: ", ")).
        json: {"exported_at", "receipts": [...]}, each receipt as `receipts show --json` prints it (fields
        with confidence and evidence, line items, OCR looks, corrections) and its links with the item.
        ledger: an hledger (and ledger) journal: one transaction per receipt (date, vendor as payee,
        receipt number as code), the total less tax to expenses:receipts, the tax to expenses:tax
        when known, paid from assets:cash, liabilities:card or assets:unknown; comments with the
        receipt id, its files and the items it is linked to. Receipts without a date or a total, and
        duplicates (unless --status duplicate), are left out with a comment saying why.
        Values are as corrected (`receipts edit`). The format follows --output's extension
        (.csv, .json, .journal/.ledger) when --format is not given (default csv).
        """,
        options: ExportArgs.options, arguments: .none("export takes no arguments (use --output FILE)"), run: run)

    static func run(_ args: ExportArgs, _ ctx: CommandContext) throws -> ExitCode {
        let output = args.output
        let format: Format
        if let f = args.format {
            format = f
        } else {
            let ext = ((output ?? "") as NSString).pathExtension.lowercased()
            format = ext == "json" ? .json : ["journal", "ledger", "hledger"].contains(ext) ? .ledger : .csv
        }
        let statuses = args.linkStatuses
        let filter = args.filter.filter
        let store = try StoreSupport.open(args.store, ctx)
        let doc = try StoreSupport.attempt("reading the store") { try store.export(filter, details: format == .json) }
        var view = ExportView(doc, linkStatuses: statuses)
        if args.linked {
            let linked = view.linksByReceipt.filter { !$0.value.isEmpty }
            view.receipts.removeAll { linked[$0.id] == nil }
        }
        var skipped: [String] = []
        let text: String
        switch format {
        case .csv: text = csv(view)
        case .json: text = try json(view)
        case .ledger: (text, skipped) = ledger(view, includeDuplicates: filter.state == .duplicate)
        }
        for s in skipped { ctx.console.warning(s) }
        if let output {
            do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                throw CLIFailure(.inputError, "\(output): cannot write: \((error as NSError).localizedDescription)")
            }
            let n = view.receipts.count - skipped.count
            let links = view.receipts.reduce(0) { $0 + view.links(of: $1.id).count }
            ctx.console.err("wrote \(n) receipt\(n == 1 ? "" : "s") with \(links) link\(links == 1 ? "" : "s") to \(output)")
        } else {
            ctx.console.outRaw(text)
        }
        return .ok
    }

    /// The snapshot with links filtered by status and indexed.
    struct ExportView {
        var doc: StoreExport
        var receipts: [ReceiptListing]
        var linksByReceipt: [ReceiptID: [Link]]
        var items: [ItemID: StoredItem]

        init(_ doc: StoreExport, linkStatuses: Set<LinkStatus>) {
            self.doc = doc
            receipts = doc.receipts
            var by: [ReceiptID: [Link]] = [:]
            for l in doc.links where linkStatuses.isEmpty || linkStatuses.contains(l.status) { by[l.receiptID, default: []].append(l) }
            linksByReceipt = by.mapValues { $0.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id } }
            items = Dictionary(uniqueKeysWithValues: doc.items.map { ($0.id, $0) })
        }

        func links(of id: ReceiptID) -> [Link] { linksByReceipt[id] ?? [] }
    }

    // MARK: csv

    static let fieldNames: [CorrectableField] = [.vendor, .date, .time, .total, .subtotal, .tax, .currency, .receiptNumber, .paymentMethod, .cardLast4]

    static let csvHeader: [String] = ["receipt_id", "status", "file", "files"] + fieldNames.map(\.rawValue)
        + ["line_item_count", "duplicate_of", "content_hash"] + fieldNames.map { $0.rawValue + "_confidence" } + ["corrected"]
        + ["link_id", "link_status", "score", "line_item", "line_item_text", "item_id", "item_external_id", "item_name", "item_price",
           "item_currency", "item_purchase_date", "item_vendor", "reasons"]

    static func csv(_ v: ExportView) -> String {
        var out = CSVTable.row(csvHeader) + "\n"
        for r in v.receipts {
            let values: [String?] = [r.vendor, r.date?.iso, r.time, r.total?.description, r.subtotal?.description, r.tax?.description,
                                     r.currency, r.receiptNumber, r.paymentMethod, r.cardLast4]
            let head = [r.id.rawValue.description, r.state.rawValue, r.files.first ?? "", r.files.joined(separator: "; ")]
                + values.map { $0 ?? "" }
                + [r.lineItemCount.description, r.duplicateOf.map { $0.rawValue.description } ?? "", r.contentHash]
                + fieldNames.map { f in r.confidences[f.rawValue].map { String(format: "%.2f", $0) } ?? "" }
                + [r.correctedFields.map(\.rawValue).joined(separator: ";")]
            let links = v.links(of: r.id)
            if links.isEmpty { out += CSVTable.row(head + Array(repeating: "", count: csvHeader.count - head.count)) + "\n" }
            for l in links {
                let item = v.items[l.itemID]?.item
                out += CSVTable.row(head + [
                    l.id.rawValue.description, l.status.rawValue, String(format: "%.2f", l.score), l.linePosition.map { "\($0 + 1)" } ?? "",
                    l.linePosition.flatMap { p in v.doc.lineItems[r.id]?.first { $0.position == p }?.description } ?? "", l.itemID.rawValue.description, item?.externalID ?? "", item?.name ?? "", item?.price?.description ?? "",
                    item?.currency ?? "", item?.purchaseDate?.iso ?? "", item?.vendor ?? "", l.reasons.joined(separator: "; "),
                ]) + "\n"
            }
        }
        return out
    }

    // MARK: json

    struct JSONDoc: Encodable {
        var exportedAt: String
        var receipts: [ShowReport]
        enum CodingKeys: String, CodingKey { case exportedAt = "exported_at", receipts }
    }

    static func json(_ v: ExportView) throws -> String {
        let receipts = v.receipts.compactMap { r -> ShowReport? in
            guard var d = v.doc.details[r.id] else { return nil }
            d.links = v.links(of: r.id)
            var report = ShowReport(d)
            report.links = d.links.map { l in
                var lr = LinkReport(l, itemName: v.items[l.itemID]?.item.name)
                lr.item = v.items[l.itemID].map { ItemReport($0, links: nil) }
                return lr
            }
            return report
        }
        return JSONLine.encode(JSONDoc(exportedAt: v.doc.exportedAt, receipts: receipts), pretty: true) + "\n"
    }

    // MARK: ledger

    /// Text safe in a journal's description or comment: no ';' (starts a comment), '|'
    /// (payee|note), ',' (ends a tag value), newlines.
    static func journalText(_ s: String) -> String {
        String(s.map { ";|,\n\r\t".contains($0) ? " " : $0 }).split(separator: " ").joined(separator: " ")
    }

    static func ledger(_ v: ExportView, includeDuplicates: Bool) -> (String, [String]) {
        var out = "; receipts export \(v.doc.exportedAt)\n; hledger -f FILE balance\n"
        var skipped: [String] = []
        for r in v.receipts {
            let name = StoreSupport.file(r.files.first)
            var why: String?
            if r.date == nil { why = "no date" } else if r.total == nil { why = "no total" }
            if let d = r.duplicateOf, !includeDuplicates { why = "a duplicate of \(d)" }
            if let why {
                out += "\n; receipt \(r.id) (\(name)) left out: \(why)\n"
                skipped.append("receipt \(r.id) (\(name)) left out of the journal: \(why)")
                continue
            }
            guard let date = r.date, let total = r.total else { continue }
            let commodity = r.currency.map { " \($0)" } ?? ""
            func amount(_ a: Amount) -> String { a.description + commodity }
            let code = r.receiptNumber.map { " (\(journalText($0).replacingOccurrences(of: ")", with: " ")))" } ?? ""
            let payee = journalText(r.vendor ?? "unknown vendor")
            out += "\n\(date.iso)\(code) \(payee)  ; receipt:\(r.id.rawValue), status:\(r.state.rawValue)\n"
            for f in r.files { out += "    ; file: \(f)\n" }
            for l in v.links(of: r.id) {
                let item = v.items[l.itemID]?.item
                out += "    ; item:\(l.itemID.rawValue) \(journalText(item?.name ?? "?")) (link \(l.id.rawValue) \(l.status.rawValue))\n"
            }
            if !r.correctedFields.isEmpty { out += "    ; corrected: \(r.correctedFields.map(\.rawValue).joined(separator: " "))\n" }
            if let tax = r.tax, tax.value > 0, tax < total {
                out += "    \(account("expenses:receipts"))\(amount(total - tax))\n"
                out += "    \(account("expenses:tax"))\(amount(tax))\n"
            } else {
                out += "    \(account("expenses:receipts"))\(amount(total))\n"
            }
            let payment = r.paymentMethod?.lowercased()
            let from = payment == "cash" ? "assets:cash"
                : payment.map { $0.contains("card") || $0 == "debit" || $0 == "credit" } == true
                ? "liabilities:card" + (r.cardLast4.map { ":\($0)" } ?? "") : "assets:unknown"
            out += "    \(from)\n"
        }
        return (out, skipped)
    }

    /// An account padded so the amounts line up (two spaces at least: hledger's separator).
    static func account(_ a: String) -> String { StoreSupport.pad(a, 24) + "  " }
}
