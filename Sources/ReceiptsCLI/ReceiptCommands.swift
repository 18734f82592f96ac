import Foundation
import ReceiptSupport
import ReceiptDrawing
import ReceiptIngest
import ReceiptLearning
import ReceiptModel
import ReceiptParser
import ReceiptStore

/// The receipt filters `list`, `export` and `review` share, declared once.
struct FilterArgs: ParsableArgs {
    var filter = ReceiptFilter()

    static let group = OptionGroup<FilterArgs>([
        .string("--vendor", value: "TEXT", \.filter.vendor, help: "Only receipts whose vendor contains TEXT (any case)."),
        .value("--from", value: "DATE", \.filter.from, help: "Only receipts dated on or after DATE (YYYY-MM-DD).",
               expected: "a date YYYY-MM-DD", parse: CalendarDate.init(iso:)),
        .value("--to", value: "DATE", \.filter.to, help: "Only receipts dated on or before DATE (YYYY-MM-DD).",
               expected: "a date YYYY-MM-DD", parse: CalendarDate.init(iso:)),
        .value("--min", value: "AMOUNT", \.filter.minTotal, help: "Only receipts whose total is at least AMOUNT.",
               expected: "an amount such as 12.30", parse: CorrectableField.amount),
        .value("--max", value: "AMOUNT", \.filter.maxTotal, help: "Only receipts whose total is at most AMOUNT.",
               expected: "an amount such as 12.30", parse: CorrectableField.amount),
        .value("--currency", value: "CODE", \.filter.currency, help: "Only receipts in this currency (ISO 4217, e.g. EUR).",
               expected: "a code such as EUR") { c in c.count == 3 && c.allSatisfy({ $0.isASCII && $0.isLetter }) ? c.uppercased() : nil },
        .value("--status", value: "STATUS", \.filter.state, kind: .oneOf(ReceiptState.allCases.map(\.argument)),
               help: "Only receipts with this status: needs-review, parsed, corrected or duplicate.",
               expected: ReceiptState.allCases.map(\.argument).joined(separator: ", "), parse: ReceiptState.init(argument:)),
        .flag("--unlinked", \.filter.unlinked, help: "Only receipts without a proposed or confirmed link to an item."),
    ], checks: [{ a in
        let f = a.filter
        if let a = f.from, let b = f.to, b < a { throw UsageError("--to \(b.iso) is before --from \(a.iso)") }
        if let a = f.minTotal, let b = f.maxTotal, b < a { throw UsageError("--max \(b) is below --min \(a)") }
    }])
}

/// `--by NAME`, for the commands that record who decided (edit, review, links).
struct ByArgs: ParsableArgs {
    var by: String?

    static let group = OptionGroup<ByArgs>([
        .string("--by", value: "NAME", \.by, help: "Who decides, as recorded (default: $USER)."),
    ])

    /// The name given, else $USER, else "user".
    func who(_ ctx: CommandContext) -> String {
        by ?? ctx.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "user"
    }
}

extension StoreSupport {
    /// A receipt named on the command line: `12` or `#12`, or an image file (found by its
    /// content when it exists, else by the path the store recorded).
    static func receiptID(_ arg: String, in store: any ReceiptStore) throws -> ReceiptID {
        let digits = arg.hasPrefix("#") ? String(arg.dropFirst()) : arg
        if let n = Int64(digits), n > 0 { return ReceiptID(n) }
        let hash = FileManager.default.contents(atPath: arg).map(ContentHash.sha256)
        guard let id = try attempt("finding \(arg)", { try store.findReceipt(path: arg, contentHash: hash) }) else {
            throw CLIFailure(.inputError, "\(arg): no such receipt in the store (give an id from `receipts list`, or an image that was read)")
        }
        return id
    }

    static func money(_ a: Amount?, _ currency: String?) -> String {
        guard let a else { return "—" }
        return a.description + (currency.map { " \($0)" } ?? "")
    }
}

/// `receipts list` options.
struct ListArgs: ParsableArgs {
    var store = StoreArgs()
    var filter = FilterArgs()
    var json = false

    static let options = StoreArgs.group.embedded(in: \ListArgs.store) + FilterArgs.group.embedded(in: \.filter)
        + OptionGroup([.flag("--json", \.json, help: "One JSON object per receipt (JSON Lines), keys sorted.")])
}

/// `receipts list`: find receipts.
enum ListCommand {
    static let command = Command(
        name: "list",
        summary: "List receipts, by date, with filters (vendor, dates, amounts, currency, status, unlinked).",
        discussion: """
        Values are shown as corrected (`receipts edit`). In the table, '?' marks a value the parser
        was unsure of (confidence below \(ReviewPolicy.threshold)) and '*' a corrected one.
        Status: needs-review (the parser was unsure and nobody corrected it), parsed, corrected,
        duplicate (another copy of a stored receipt, found by `receipts reconcile`).

        Examples:
          receipts list --status needs-review
          receipts list --vendor hardware --from 2024-01-01 --to 2024-03-31 --min 20
        """,
        options: ListArgs.options,
        arguments: .none("list takes no arguments (filters are options, e.g. --vendor TEXT)"),
        run: { args, ctx in
            let store = try StoreSupport.open(args.store, ctx)
            let rows = try StoreSupport.attempt("reading receipts") { try store.listReceipts(args.filter.filter) }
            if args.json {
                for r in rows { ctx.console.out(JSONLine.encode(ListingReport(r))) }
                return .ok
            }
            if rows.isEmpty { ctx.console.out("no receipts match"); return .ok }
            ctx.console.outRaw(table(rows))
            return .ok
        })

    static func mark(_ r: ReceiptListing, _ f: CorrectableField) -> String {
        if r.correctedFields.contains(f) { return "*" }
        if let c = r.confidences[f.rawValue], ReviewPolicy.isUnsure(confidence: c) { return "?" }
        return ""
    }

    static func table(_ rows: [ReceiptListing]) -> String {
        // A mark ('?' unsure, '*' corrected) follows its value in a column of its own, so numbers stay aligned.
        let cells = rows.map { r -> [(String, String)] in
            [(r.id.description, ""), (r.date?.iso ?? "—", mark(r, .date)), (StoreSupport.clip(r.vendor ?? "—", 32), mark(r, .vendor)),
             (r.total.map { $0.description } ?? "—", mark(r, .total)), (r.currency ?? "", ""), (r.state.argument, ""),
             (r.linkedItems.isEmpty ? "" : r.linkedItems.map(\.description).joined(separator: ","), ""), (StoreSupport.file(r.files.first), "")]
        }
        let head = ["ID", "DATE", "VENDOR", "TOTAL", "CUR", "STATUS", "ITEMS", "FILE"].map { ($0, "") }
        let right: Set<Int> = [0, 3]
        let marked: Set<Int> = [1, 2, 3]
        let widths = head.indices.map { i in max(head[i].0.count, cells.map { $0[i].0.count }.max() ?? 0) }
        func line(_ c: [(String, String)]) -> String {
            var out = ""
            for i in c.indices {
                let (v, m) = c[i]
                if i == c.count - 1 { out += v; break }
                let mm = marked.contains(i) ? (m.isEmpty ? " " : m) : ""
                out += right.contains(i) ? StoreSupport.lpad(v, widths[i]) + mm : StoreSupport.pad(v + mm, widths[i] + mm.count)
                out += "  "
            }
            while out.last == " " { out.removeLast() }
            return out + "\n"
        }
        var s = line(head)
        for c in cells { s += line(c) }
        let review = rows.filter { $0.state == .needsReview }.count
        s += "\(rows.count) receipt\(rows.count == 1 ? "" : "s")\(review > 0 ? ", \(review) need review" : ""); ? unsure, * corrected\n"
        return s
    }
}

/// `receipts show` options.
struct ShowArgs: ParsableArgs {
    var store = StoreArgs()
    var json = false
    var annotate: String?
    var receipt: [String] = []

    static let options = StoreArgs.group.embedded(in: \ShowArgs.store) + OptionGroup([
        .flag("--json", \.json, help: "One JSON object, keys sorted."),
        .string("--annotate", value: "OUT.png", \.annotate, kind: .file, help: "Also write the image with each field's box drawn and labelled."),
    ])
}

/// The one receipt `show` and `edit` take: an id, or an image that was read.
extension Positionals {
    static func receipt(_ command: String, _ path: WritableKeyPath<O, [String]> & Sendable) -> Positionals {
        Positionals("ID|FILE", kind: .receipt, count: .one("\(command) takes one receipt: an ID or an image FILE"),
                    help: "The receipt: its id (`receipts list`), or an image file that was read.", path)
    }
}

/// `receipts show ID|FILE`: everything about one receipt.
enum ShowCommand {
    static let command = Command(
        name: "show",
        summary: "Show one receipt: every field with its confidence and evidence, the OCR readings, files, links, corrections.",
        discussion: """
        ID is the number `receipts list` shows; FILE an image that was read (found by its content, else by its path).
        --annotate draws on the image the parser read (the receipt's file, prepared again as `batch` prepares
        it with the default options): each field's box and value in blue, line items in green, the
        candidates the parser rejected in red.
        """,
        options: ShowArgs.options, arguments: .receipt("show", \.receipt),
        run: { args, ctx in
            let store = try StoreSupport.open(args.store, ctx)
            let id = try StoreSupport.receiptID(args.receipt[0], in: store)
            guard let d = try StoreSupport.attempt("reading receipt \(id)", { try store.receiptDetail(id) }) else {
                throw CLIFailure(.inputError, "no receipt \(id) in the store")
            }
            if let out = args.annotate { try annotate(d, to: out, ctx) }
            if args.json { ctx.console.out(JSONLine.encode(ShowReport(d))); return .ok }
            ctx.console.outRaw(render(d))
            return .ok
        })

    /// The boxes of every field the parser read (its own values, not corrections: a corrected
    /// value has no place on the image), line items and rejected candidates.
    static func annotations(_ d: ReceiptDetail) -> [Annotation] {
        annotations(d.receipt.parsed, corrected: Dictionary(d.corrections.filter(\.isActive).map { ($0.field, $0) }, uniquingKeysWith: { _, b in b }))
    }

    static func annotations(_ p: ParsedReceipt, corrected: [CorrectableField: Correction] = [:]) -> [Annotation] {
        var out: [Annotation] = []
        func add<T>(_ name: String, _ f: Field<T>?, _ field: CorrectableField, _ show: (T) -> String) {
            guard let f else { return }
            if let box = f.evidence.box {
                var label = "\(name) \(show(f.value))"
                if let c = corrected[field] { label += " (corrected: \(c.value ?? "cleared"))" }
                out.append(Annotation(box: box, label: label, kind: .chosen))
            }
            for c in f.rejected { if let box = c.evidence.box { out.append(Annotation(box: box, label: "not \(name): \(c.value)", kind: .rejected)) } }
        }
        add("vendor", p.vendor, .vendor) { $0 }
        add("date", p.date, .date) { $0.iso }
        add("time", p.time, .time) { $0.description }
        add("total", p.total, .total) { $0.description }
        add("subtotal", p.subtotal, .subtotal) { $0.description }
        add("tax", p.tax, .tax) { $0.description }
        add("no.", p.receiptNumber, .receiptNumber) { $0 }
        add("card", p.cardLast4, .cardLast4) { $0 }
        for (i, l) in p.lineItems.enumerated() {
            if let box = l.evidence.box { out.append(Annotation(box: box, label: "item \(i + 1): \(l.amount)", kind: .lineItem)) }
        }
        return out
    }

    static func annotate(_ d: ReceiptDetail, to out: String, _ ctx: CommandContext) throws {
        guard let file = d.receipt.sourcePaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw CLIFailure(.inputError, "receipt \(d.receipt.id): none of its files is there now (\(d.receipt.sourcePaths.joined(separator: ", "))); cannot annotate")
        }
        let page: PageImage
        do {
            guard let first = try Ingest.load(path: file, options: .tool).pages.first?.pageImage else { throw CLIFailure(.inputError, "\(file): no page") }
            page = d.reading.map { Annotator.orient(first, to: $0.first) } ?? first
        } catch let e as IngestError {
            throw CLIFailure(.inputError, e.description)
        }
        let boxes = annotations(d)
        guard let png = Annotator.picture(page, boxes).flatMap(PNGEncoder.encode) else {
            throw CLIFailure(.inputError, "\(file): the annotated image could not be made")
        }
        do { try png.write(to: URL(fileURLWithPath: out)) } catch {
            throw CLIFailure(.inputError, "\(out): cannot write: \((error as NSError).localizedDescription)")
        }
        ctx.console.err("wrote \(out): \(file) with \(boxes.count) box\(boxes.count == 1 ? "" : "es")")
    }

    static func render(_ d: ReceiptDetail) -> String {
        let r = d.receipt, p = r.parsed, e = d.effective
        let active = Dictionary(d.corrections.filter(\.isActive).map { ($0.field, $0) }, uniquingKeysWith: { _, b in b })
        var s = "receipt \(r.id)  \(StoreSupport.file(r.sourcePaths.first))  [\(d.state.argument)]\n"
        func row<T>(_ name: String, _ shown: Field<T>?, _ parsed: Field<T>?, _ field: CorrectableField, learned: Field<T>? = nil, _ show: (T) -> String) {
            let value = shown.map { show($0.value) } ?? "—"
            let conf = shown.map { String(format: "%.2f", $0.confidence) } ?? ""
            let unsure = shown.map { ReviewPolicy.isUnsure(confidence: $0.confidence) } ?? false
            s += "  \(StoreSupport.pad(name, 9))\(StoreSupport.pad(value + (unsure ? " ?" : ""), 36)) \(conf)\n"
            let parserRead = "           parser read: " + (parsed.map { "\(show($0.value)) (\(String(format: "%.2f", $0.confidence)))" } ?? "nothing") + "\n"
            if let c = active[field] {
                s += "           corrected by \(c.by) at \(c.at) [user]\n"
                s += parserRead
            } else if learned != nil {
                // The value a shop you taught set (receipts shops show): its evidence, then what the parser alone read.
                s += "           learned from shop \(d.shop.map { "\($0.id) \($0.name)" } ?? "?") [shop]\n"
                s += parserRead
            }
            if let f = active[field] == nil ? learned ?? parsed : parsed {
                let ev = f.evidence
                var where_ = ev.line.map { "line \($0 + 1): " } ?? ""
                if let t = ev.text { where_ += "\"\(t)\"  " }
                s += "           \(where_)[\(ev.rule)]\(ev.box.map { "  box \($0)" } ?? "")\n"
                for n in ev.notes { s += "           · \(n)\n" }
                for c in f.rejected.prefix(3) {
                    s += "           ✗ \(c.value) (score \(String(format: "%.2f", c.score)))\(c.evidence.line.map { " from line \($0 + 1)" } ?? "")\n"
                }
            }
        }
        row("vendor", e.vendor, p.vendor, .vendor, learned: d.learned?.vendor) { $0 }
        row("date", e.date, p.date, .date, learned: d.learned?.date) { $0.iso }
        row("time", e.time, p.time, .time) { $0.description }
        row("total", e.total, p.total, .total, learned: d.learned?.total) { $0.description }
        row("subtotal", e.subtotal, p.subtotal, .subtotal) { $0.description }
        row("tax", e.tax, p.tax, .tax) { $0.description }
        row("currency", e.currency, p.currency, .currency) { $0 }
        row("number", e.receiptNumber, p.receiptNumber, .receiptNumber) { $0 }
        row("payment", e.paymentMethod, p.paymentMethod, .paymentMethod) { $0 }
        row("card", e.cardLast4, p.cardLast4, .cardLast4) { $0 }
        if !e.lineItems.isEmpty {
            s += "  line items\(active[.lineItems].map { " (corrected by \($0.by))" } ?? "")\n"
            for (i, l) in e.lineItems.enumerated() {
                let q = l.quantity.map { $0 == 1 ? "" : "\($0) × " } ?? ""
                s += "    \(StoreSupport.lpad("\(i + 1)", 2))  \(StoreSupport.pad(StoreSupport.clip(q + l.description, 40), 40)) \(StoreSupport.lpad(l.amount.description, 10))"
                s += (l.evidence.line.map { "  line \($0 + 1)" } ?? "") + "\n"
                if let d = l.details { s += "        · \(d.joined(separator: " · "))\n" }
                if let n = l.serials { s += "        serial \(n.joined(separator: ", "))\n" }
            }
        }
        for c in p.checks { s += "  check    \(c)\n" }
        if let shop = d.shop {
            let how = d.learned != nil ? "read as this shop" : "taught it"
            s += "  shop     \(shop.id) \(shop.name) (\(how); receipts shops show \(shop.id))\n"
        }
        s += "  files    \(r.sourcePaths.joined(separator: "\n           "))\n"
        s += "  image    sha256 \(r.contentHash)\n"
        s += "  read     \(r.processedAt) by \(r.engineVersion), parser \(r.parserVersion)\n"
        if let reading = d.reading {
            for rr in ReadingReport.all(reading) {
                var what = rr.kind
                if let l = rr.line { what += " of line \(l)" }
                s += "  ocr      \(what): \(rr.lineCount) line\(rr.lineCount == 1 ? "" : "s"), mean confidence \(String(format: "%.2f", rr.meanConfidence))"
                s += (rr.reason.map { " (\($0))" } ?? "") + (rr.text.map { ": \"\($0)\"" } ?? "") + "\n"
            }
        } else {
            s += "  ocr      only the text was kept (stored before schema 3)\n"
        }
        if let dup = r.duplicateOf { s += "  duplicate of \(dup): \(r.duplicateReason ?? "")\n" }
        let names = Dictionary(uniqueKeysWithValues: d.items.map { ($0.id, $0.item.name) })
        for l in d.links {
            var status = l.status.rawValue
            if let by = l.decidedBy, l.status != .proposed { status += " by \(by)" }
            s += "  link \(l.id)   \(String(format: "%.2f", l.score)) item \(l.itemID) '\(names[l.itemID] ?? "?")'"
            s += (l.linePosition.map { " (line item \($0 + 1))" } ?? "") + "  [\(status)]\n"
        }
        for c in d.corrections {
            s += "  history  \(c.at) \(c.by): \(c.field.rawValue) " + (c.value.map { "= \($0)" } ?? "cleared") + " (was \(c.previous ?? "—"))"
            s += (c.undoneAt.map { "; undone by \(c.undoneBy ?? "?") at \($0)" } ?? "") + "\n"
        }
        return s
    }
}

/// `receipts edit` options.
struct EditArgs: ParsableArgs {
    var store = StoreArgs()
    var values: [CorrectableField: FieldChange] = [:]
    var lines: [CorrectedLine] = []
    var clear: [CorrectableField] = []
    var undo: [CorrectableField] = []
    var by = ByArgs()
    var json = false
    var receipt: [String] = []

    /// Option → field, in `--help` order.
    static let fieldOptions: [(option: String, field: CorrectableField, value: String, help: String)] = [
        ("--vendor", .vendor, "NAME", "The shop's name."),
        ("--date", .date, "DATE", "YYYY-MM-DD."),
        ("--time", .time, "HH:MM", "Time of day."),
        ("--total", .total, "AMOUNT", "e.g. 12.30"),
        ("--subtotal", .subtotal, "AMOUNT", "Before tax."),
        ("--tax", .tax, "AMOUNT", "Tax."),
        ("--currency", .currency, "CODE", "ISO 4217, e.g. EUR."),
        ("--receipt-number", .receiptNumber, "TEXT", "The receipt's number."),
        ("--payment", .paymentMethod, "METHOD", "cash, card, …"),
        ("--card", .cardLast4, "DIGITS", "The card's last four digits."),
    ]

    /// A field's value, checked as the store will take it.
    static func fieldValue(_ field: CorrectableField, _ o: (option: String, value: String, help: String)) -> Option<EditArgs> {
        Option(o.option, value: o.value, kind: .text, help: o.help) { a, v, _ in
            do { a.values[field] = try .set(field, v) } catch let e as StoreError { throw UsageError(e.description) }
        }
    }

    /// `--clear FIELD`, `--undo FIELD`: a field's name.
    static func fieldName(_ name: String, _ path: WritableKeyPath<EditArgs, [CorrectableField]> & Sendable, help: String) -> Option<EditArgs> {
        Option(name, value: "FIELD", kind: .oneOf(CorrectableField.allCases.map(\.rawValue)), repeatable: true, help: help) { a, v, spelled in
            a[keyPath: path].append(try EditCommand.field(v, option: spelled))
        }
    }

    static let options = StoreArgs.group.embedded(in: \EditArgs.store)
        + OptionGroup(fieldOptions.map { fieldValue($0.field, ($0.option, $0.value, $0.help)) } + [
            Option("--line", value: "DESC=AMOUNT", kind: .text, repeatable: true, help: "A line item; repeat for each (replaces the list).") { a, v, _ in
                do { a.lines.append(try CorrectedLine.parse(v)) } catch let e as StoreError { throw UsageError(e.description) }
            },
            fieldName("--clear", \.clear, help: "Remove a field's value."),
            fieldName("--undo", \.undo, help: "Undo the field's latest correction."),
        ], checks: [{ a in
            for f in a.clear where a.changes.contains(where: { $0.field == f && $0.value != nil }) {
                throw UsageError("--clear \(f.rawValue) and a new \(f.rawValue) value: give one")
            }
            if a.changes.isEmpty && a.undo.isEmpty { throw UsageError("nothing to change: give a field (e.g. --total 12.30) or --undo FIELD") }
            if !a.changes.isEmpty && !a.undo.isEmpty { throw UsageError("--undo cannot be combined with new values; run edit twice") }
        }])
        + ByArgs.group.embedded(in: \.by)
        + OptionGroup([.flag("--json", \.json, help: "The corrections made, one JSON object each (JSON Lines).")])

    /// The changes asked for: new values in `--help` order, the line items, then the fields cleared.
    var changes: [FieldChange] {
        var out = Self.fieldOptions.compactMap { values[$0.field] }
        if !lines.isEmpty, let json = try? CorrectedLine.encode(lines) { out.append(FieldChange(field: .lineItems, value: json)) }
        return out + clear.map { FieldChange(field: $0, value: nil) }
    }
}

/// `receipts edit ID|FILE --total 12.30 …`: correct fields; `--undo FIELD`.
enum EditCommand {
    static let command = Command(
        name: "edit",
        summary: "Correct a receipt's fields (kept over later re-reads), or undo a correction.",
        discussion: """
        A corrected field holds the user's value (confidence 1, rule `user`), recorded with who and
        when. `batch --force` and `batch --reparse` read the receipt again but keep the corrected
        value; the new reading is kept beside it (`receipts show`). A corrected receipt leaves the
        needs-review queue, and `receipts reconcile` matches on the corrected values.
        Line items: --line "DESCRIPTION=AMOUNT", repeated, replaces the whole list.
        --clear FIELD removes a field the parser found wrongly (e.g. --clear tax).
        --undo FIELD undoes the field's latest correction (an earlier one, else the parser's value, holds again).
        A corrected receipt teaches its shop (`receipts shops`): its numbers, address and header, and for
        a total or date set to a value printed on it, which kind of line holds it; an undo unlearns.
        Fields: \(CorrectableField.allCases.map(\.rawValue).joined(separator: ", ")).
        """,
        options: EditArgs.options, arguments: .receipt("edit", \.receipt), run: run)

    static func field(_ name: String, option: String) throws -> CorrectableField {
        let key = name.lowercased().replacingOccurrences(of: "-", with: "_")
        let aliases: [String: CorrectableField] = ["number": .receiptNumber, "payment": .paymentMethod, "card": .cardLast4, "lines": .lineItems, "line": .lineItems]
        guard let f = CorrectableField(rawValue: key) ?? aliases[key] else {
            throw UsageError("\(option) takes a field (\(CorrectableField.allCases.map(\.rawValue).joined(separator: ", "))), not '\(name)'")
        }
        return f
    }

    static func run(_ args: EditArgs, _ ctx: CommandContext) throws -> ExitCode {
        let changes = args.changes, undo = args.undo
        let who = args.by.who(ctx)
        return try StoreSupport.writing(args.store, ctx) { store in
            let id = try StoreSupport.receiptID(args.receipt[0], in: store)
            var made: [Correction] = []
            do {
                // What the receipt teaches its shop changes with its corrections (`receipts shops`).
                let teacher = ShopLearning.teacher()
                if undo.isEmpty {
                    made = try store.correct(id, changes, by: who, teacher: teacher)
                } else {
                    for f in undo { made.append(try store.undoCorrection(id, field: f, by: who, teacher: teacher)) }
                }
            } catch let e as StoreError {
                if e.code == .notFound { throw CLIFailure(.inputError, e.description) }
                throw CLIFailure(.storeError, "receipt \(id): \(e)")
            }
            if args.json {
                for c in made { ctx.console.out(JSONLine.encode(CorrectionReport(c))) }
                return .ok
            }
            for c in made {
                if c.undoneAt != nil {
                    ctx.console.out("receipt \(id): \(c.field.rawValue): undid \(c.value ?? "the clearing") (by \(c.by) at \(c.at)); undone by \(who)")
                } else {
                    ctx.console.out("receipt \(id): \(c.field.rawValue) \(c.previous ?? "—") → \(c.value ?? "cleared") (corrected by \(who))")
                }
            }
            if let state = try? store.receiptDetail(id)?.state { ctx.console.out("receipt \(id) is now \(state.argument)") }
            return .ok
        }
    }
}
