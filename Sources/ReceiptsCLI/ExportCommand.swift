import Foundation
import ReceiptStore

/// `receipts export`: receipts with their links, as CSV or JSON.
enum ExportCommand {
    static let command = Command(
        name: "export",
        summary: "Export receipts with their linked items as CSV (for a spreadsheet) or JSON (for an inventory app).",
        usage: "receipts export [--store PATH] [--format csv|json] [--status STATUS,...] [--linked] [--output FILE]",
        discussion: """
        CSV: one row per link (a receipt without links has one row with the item columns
        empty); columns \(StoreExport.csvHeader.joined(separator: ", ")).
        JSON: {"exported_at", "receipts": [{..., "links": [{..., "item": {...}}]}]}, keys sorted.
        The format follows --output's extension when --format is not given (default csv).
        """,
        options: [StoreSupport.storeOption,
                  OptionSpec("--format", value: "FORMAT", help: "csv or json."),
                  OptionSpec("--status", value: "LIST", help: "Only links with these statuses, e.g. confirmed or confirmed,proposed (default: all)."),
                  OptionSpec("--linked", help: "Only receipts with at least one (listed) link."),
                  OptionSpec("--output", short: "-o", value: "FILE", help: "Write to FILE instead of standard output.")],
        run: { args, ctx in
            guard args.positionals.isEmpty else { throw UsageError("export takes no arguments (use --output FILE)") }
            let output = args.value("--output")
            let format = args.value("--format")?.lowercased() ?? (output?.lowercased().hasSuffix(".json") == true ? "json" : "csv")
            guard format == "csv" || format == "json" else { throw UsageError("--format takes csv or json, not '\(format)'") }
            var statuses: Set<LinkStatus> = []
            for s in (args.value("--status") ?? "").split(separator: ",") where s != "all" {
                guard let v = LinkStatus(rawValue: String(s)) else { throw UsageError("--status takes proposed, confirmed, rejected, not '\(s)'") }
                statuses.insert(v)
            }
            let store = try StoreSupport.open(args, ctx)
            var doc = try StoreSupport.attempt("reading the store") { try store.export(linkStatuses: statuses) }
            if args.flag("--linked") { doc.receipts.removeAll { $0.links.isEmpty } }
            let text = format == "json" ? try doc.json() : doc.csv()
            if let output {
                do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                    throw CLIFailure(.inputError, "\(output): cannot write: \((error as NSError).localizedDescription)")
                }
                let links = doc.receipts.reduce(0) { $0 + $1.links.count }
                ctx.console.err("wrote \(doc.receipts.count) receipt\(doc.receipts.count == 1 ? "" : "s") with \(links) link\(links == 1 ? "" : "s") to \(output)")
            } else {
                ctx.console.outRaw(text)
            }
            return .ok
        })
}
