import Foundation
import ReceiptInventory
import ReceiptModel
import ReceiptStore

/// `receipts items import` options.
struct ItemsImportArgs: ParsableArgs {
    var store = StoreArgs()
    var format: InventoryFormat?
    var files: [String] = []

    static let options = StoreArgs.group.embedded(in: \ItemsImportArgs.store) + OptionGroup<ItemsImportArgs>([
        .value("--format", value: "FORMAT", \.format, kind: .oneOf(InventoryFormat.allCases.map(\.rawValue)),
               help: "csv, homebox or nestory (default: recognised from the file).",
               expected: InventoryFormat.allCases.map(\.rawValue).joined(separator: ", ")) { InventoryFormat(rawValue: $0.lowercased()) },
    ])
}

/// `receipts items import|list`: the household inventory.
enum ItemsCommand {
    static let command = Command(
        name: "items",
        summary: "Import and list inventory items (what you own, what it cost, where and when you bought it).",
        subcommands: [importCommand, listCommand])

    static let importCommand = Command(
        name: "import",
        summary: "Import an inventory file: CSV, a Homebox CSV export, or a Nestory JSON backup.",
        discussion: """
        The format is recognised by the file: *.json is a Nestory backup
        (nestory-backup-YYYYMMDD-HHMMSS.json), a CSV whose header has HB.* columns is a
        Homebox export, any other CSV is read by column name. CSV columns (any order, any
        case; other names in brackets):
          name       (item, title)                          required
          brand      (manufacturer, make)
          model      (model number)
          serial     (serial number)
          category
          room       (location)
          quantity   (qty)                                  default 1
          price      (purchase price, cost, amount, value)  1249.99, $1,249.99, 1.249,99 €
          currency   (currency code)                        USD, EUR, …
          date       (purchase date, purchased, bought)     YYYY-MM-DD; DD.MM.YYYY; D/M or M/D only when unambiguous
          vendor     (store, shop, retailer, purchased from)
          notes      (description, comments)
          id         (external id, item id)
        Other columns are kept in the notes as "column: value". Comma, semicolon or tab separated.

        Importing a file again updates the items instead of adding them twice: an item is the
        same when its id matches, else when name, date and price match.

        A bad row is reported as `error: FILE:LINE: reason` and skipped; the rest is imported
        and the exit code is 3.
        """,
        options: ItemsImportArgs.options,
        arguments: Positionals("FILE", kind: .file, count: .atLeastOne("no inventory file given"), help: "Inventory files to import.", \.files),
        run: runImport)

    static func runImport(_ args: ItemsImportArgs, _ ctx: CommandContext) throws -> ExitCode {
        try StoreSupport.writing(args.store, ctx, create: true) { store in try runImport(args.files, ctx, format: args.format, store: store) }
    }

    static func runImport(_ files: [String], _ ctx: CommandContext, format: InventoryFormat?, store: any ReceiptStore) throws -> ExitCode {
        var bad = false
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                ctx.console.error("\(file): cannot read the file")
                bad = true
                continue
            }
            let parsed: InventoryParseResult
            do { parsed = try InventoryImporter.parse(data: data, fileName: file, format: format) } catch let e as ImportFileError {
                ctx.console.error("\(file)\(e.line.map { ":\($0)" } ?? ""): \(e.message)")
                bad = true
                continue
            }
            for issue in parsed.issues { ctx.console.error("\(file):\(issue.line): \(issue.message)") }
            if !parsed.issues.isEmpty { bad = true }
            let summary = try StoreSupport.attempt("\(file): writing the items") { try store.upsertItems(parsed.items.map(\.item)) }
            let n = parsed.items.count
            ctx.console.out("\(file) (\(parsed.format.rawValue)): \(n) item\(n == 1 ? "" : "s") read: \(summary.inserted) new, "
                            + "\(summary.updated) updated, \(summary.unchanged) unchanged; \(parsed.issues.count) bad row\(parsed.issues.count == 1 ? "" : "s") skipped")
            for note in parsed.notes { ctx.console.out("  \(note)") }
        }
        return bad ? .inputError : .ok
    }

    static let listCommand = Command(
        name: "list",
        summary: "List inventory items with the receipt linked to each.",
        options: StoreCommand.Args.storeOnly + OptionGroup([.flag("--json", \.json, help: "One JSON object per item (JSON Lines), keys sorted.")]),
        arguments: .none("items list takes no arguments"),
        run: { args, ctx in
            let store = try StoreSupport.open(args.store, ctx)
            let items = try StoreSupport.attempt("reading items") { try store.items() }
            let links = try StoreSupport.attempt("reading links") { try store.links() }
            var byItem: [ItemID: [Link]] = [:]
            for l in links where l.status != .rejected { byItem[l.itemID, default: []].append(l) }
            if args.json {
                for s in items { ctx.console.out(JSONLine.encode(ItemReport(s, links: byItem[s.id] ?? []))) }
                return .ok
            }
            if items.isEmpty { ctx.console.out("no items (import some: receipts items import FILE)"); return .ok }
            let nameW = min(34, max(4, items.map(\.item.name.count).max() ?? 4))
            ctx.console.out("\(StoreSupport.lpad("ID", 4))  \(StoreSupport.pad("NAME", nameW))  \(StoreSupport.lpad("PRICE", 13))  DATE        \(StoreSupport.pad("VENDOR", 26))  RECEIPT")
            for s in items {
                let i = s.item
                let price = i.price.map { "\($0)" + (i.currency.map { " \($0)" } ?? "") } ?? "—"
                let receipt = (byItem[s.id] ?? []).sorted { ($0.status == .confirmed ? 1 : 0, $0.score) > ($1.status == .confirmed ? 1 : 0, $1.score) }
                    .map { "\($0.receiptID) (\($0.status.rawValue))" }.joined(separator: ", ")
                ctx.console.out("\(StoreSupport.lpad(s.id.rawValue.description, 4))  \(StoreSupport.pad(StoreSupport.clip(i.name, nameW), nameW))  "
                                + "\(StoreSupport.lpad(price, 13))  \(StoreSupport.pad(i.purchaseDate?.iso ?? "—", 10))  "
                                + "\(StoreSupport.pad(StoreSupport.clip(i.vendor ?? "—", 26), 26))  \(receipt.isEmpty ? "—" : receipt)")
            }
            return .ok
        })
}
