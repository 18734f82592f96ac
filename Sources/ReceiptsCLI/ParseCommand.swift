import Foundation
import ReceiptDrawing
import ReceiptIngest
import ReceiptModel
import ReceiptLearning
import ReceiptParser
import ReceiptPipeline
import ReceiptStore

/// `receipts parse` options.
struct ParseArgs: ParsableArgs {
    var json = false
    var explain = false
    var text = false
    var timings = false
    var saveImage: String?
    var annotate: String?
    var noLearn = false
    var store = StoreArgs()
    var pipeline = PipelineArgs()
    var files: [String] = []

    static let options = OptionGroup<ParseArgs>([
        .flag("--json", \.json, help: "One JSON object per file (JSON Lines), keys sorted; fields as {value, confidence, evidence}."),
        .flag("--explain", \.explain, help: "Show why each value was chosen: the line, the rule, the checks, and the candidates that lost."),
        .flag("--text", \.text, help: "Also print the OCR text (in JSON: the \"text\" key)."),
        .flag("--timings", \.timings, help: "In JSON, also the seconds each image and each OCR look took (left out by default, so the same file always gives the same bytes)."),
        .string("--save-image", value: "DIR", \.saveImage, kind: .directory, help: "Write the normalised image OCR read (PNG) into DIR, to see what Tesseract saw."),
        .string("--annotate", value: "DIR", \.annotate, kind: .directory, help: "Write that image with each field's box drawn and labelled (NAME.annotated.png) into DIR."),
    ]) + StoreArgs.group.embedded(in: \ParseArgs.store).withoutSettings() + OptionGroup([
        .flag("--no-learn", \.noLearn, help: "With --store: read as a stranger would, without the shops the store learned from your corrections."),
    ], checks: [{ a in
        if a.noLearn, a.store.store == nil { throw UsageError("--no-learn goes with --store (without a store nothing is learned)") }
    }]) + PipelineArgs.group.embedded(in: \.pipeline)

    static let arguments = Positionals<ParseArgs>("FILE", kind: .file, count: .atLeastOne("no input files"),
                                                  help: "Receipt images or PDFs; - reads one from standard input.", \.files)
}

/// `receipts parse FILE…`: read receipts and print what they say.
enum ParseCommand {
    static let command = Command(
        name: "parse",
        summary: "Read receipt images and print vendor, date and total (and more).",
        discussion: """
        Each FILE is one receipt: an image (JPEG, PNG, TIFF, BMP, GIF, WebP, PNM, HEIC/HEIF, AVIF) or
        a PDF, judged by its content. Every page of a multi-page TIFF or PDF is read, in order; a PDF
        page with a text layer is taken from its text, without OCR. A file that cannot be read
        gets one `error:` line on stderr; the others are still parsed, and the exit code is 3.
        `-` reads one receipt from standard input (`cat scan.jpg | receipts parse -`).
        Fields the parser is unsure of (confidence below \(ReviewPolicy.threshold)) are marked '?'.
        With --store, each receipt is read with the shops that store learned from your corrections
        (`receipts shops`): a receipt of a known shop takes its name, and the total and date its habits
        point at (docs/learning.md); nothing is written to the store.

        Examples:
          receipts parse SampleReceipts/us-hardware-01.png
          receipts parse --json SampleReceipts/*.png > results.jsonl
          receipts parse --explain receipt.jpg
        """,
        options: ParseArgs.options, arguments: ParseArgs.arguments, run: run)

    static func run(_ args: ParseArgs, _ ctx: CommandContext) throws -> ExitCode {
        let setup = try PipelineSetup.make(args.pipeline)
        let json = args.json, explain = args.explain, showText = args.text
        let saveDir = args.saveImage, annotateDir = args.annotate
        for dir in [saveDir, annotateDir].compactMap({ $0 }) {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw CLIFailure(.usage, "\(dir): cannot create the folder: \((error as NSError).localizedDescription)")
            }
        }
        let pipeline = try setup.makePipeline()
        // The shops a store learned (--store): read once, nothing written.
        var learning: ShopLearning?
        if args.store.store != nil, !args.noLearn {
            let store = try StoreSupport.open(args.store, ctx)
            learning = ShopLearning(shops: try StoreSupport.attempt("reading the shops") { try store.shops() }, parser: pipeline.parser)
        }
        var failures = 0
        for file in args.files {
            if ctx.interruption.isRaised { return .interrupted }
            do {
                var result: ReceiptResult
                if file == "-" {
                    let limit = setup.pipeline.ingest.maxFileBytes
                    guard let data = ctx.input.readAll(limit), !data.isEmpty else {
                        throw CLIFailure(.inputError, "nothing on standard input, or more than \(limit / 1_048_576) MB")
                    }
                    result = try pipeline.process(data: data, name: "-")
                } else {
                    result = try pipeline.process(path: file)
                }
                if let learning { result.learned = learning.read(result.receipt, reading: result.reading, page: result.page) }
                if let saveDir, let png = result.image.pngData() {
                    let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".ocr.png"
                    let path = (saveDir as NSString).appendingPathComponent(name)
                    if (try? png.write(to: URL(fileURLWithPath: path))) == nil { ctx.console.warning("\(path): could not write the image") }
                }
                // What the parser left out of an enormous input, said where it is read.
                for w in result.receipt.warnings ?? [] { ctx.console.warning("\(file): \(w)") }
                if let annotateDir {
                    let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".annotated.png"
                    let path = (annotateDir as NSString).appendingPathComponent(name)
                    let png = Annotator.picture(result.image.pageImage, ShowCommand.annotations(result.shown)).flatMap(PNGEncoder.encode)
                    if png.flatMap({ try? $0.write(to: URL(fileURLWithPath: path)) }) == nil { ctx.console.warning("\(path): could not write the image") }
                }
                if json {
                    ctx.console.out(JSONLine.encode(ReceiptReport(result: result, engine: pipeline.engine.identity, explain: explain, includeText: showText, timings: args.timings)))
                } else {
                    ctx.console.outRaw(HumanReport.render(result, explain: explain, showText: showText))
                }
            } catch {
                failures += 1
                let e = FailureReport(error)
                ctx.console.error("\(file): \(e.message)")
                if json { ctx.console.out(JSONLine.encode(ReceiptReport(file: file, error: e))) }
            }
        }
        return failures > 0 ? .inputError : .ok
    }
}

/// The readable form of one result.
enum HumanReport {
    static func render(_ result: ReceiptResult, explain: Bool, showText: Bool) -> String {
        let r = result.shown
        var s = "\(result.file)\n"
        func row<T>(_ label: String, _ f: Field<T>?, _ show: (T) -> String) {
            guard let f else {
                if ["vendor", "date", "total"].contains(label) { s += "  \(pad(label, 9))—  (not found)\n" }
                return
            }
            let unsure = f.confidence < ReviewPolicy.threshold ? " ?" : ""
            s += "  \(pad(label, 9))\(pad(show(f.value) + unsure, 36)) \(String(format: "%.2f", f.confidence))\n"
            if explain { s += explainLines(f.evidence, rejected: f.rejected) }
        }
        row("vendor", r.vendor) { $0 }
        row("date", r.date) { $0.iso }
        row("total", r.total) { a in r.currency.map { "\(a) \($0.value)" } ?? a.description }
        var extras: [String] = []
        if let t = r.time { extras.append("time \(t.value)") }
        if let x = r.subtotal { extras.append("subtotal \(x.value)") }
        if let x = r.tax { extras.append("tax \(x.value)") }
        if let p = r.paymentMethod { extras.append(p.value + (r.cardLast4.map { " ****\($0.value)" } ?? "")) }
        if let n = r.receiptNumber { extras.append("no. \(n.value)") }
        if !r.lineItems.isEmpty { extras.append("\(r.lineItems.count) line item\(r.lineItems.count == 1 ? "" : "s")") }
        if !extras.isEmpty && !explain { s += "  \(pad("also", 9))\(extras.joined(separator: " · "))\n" }
        if explain {
            row("time", r.time) { $0.description }
            row("subtotal", r.subtotal) { $0.description }
            row("tax", r.tax) { $0.description }
            row("currency", r.currency) { $0 }
            row("payment", r.paymentMethod) { $0 }
            row("card", r.cardLast4) { "****" + $0 }
            row("number", r.receiptNumber) { $0 }
            for item in r.lineItems {
                let q = item.quantity.map { "\($0) × " } ?? ""
                s += "  \(pad("item", 9))\(pad(q + item.description, 36)) \(item.amount)\n"
                if let d = item.details { s += "  \(pad("", 9))· \(d.joined(separator: " · "))\n" }
                if let n = item.serials { s += "  \(pad("", 9))serial \(n.joined(separator: ", "))\n" }
            }
            if !r.checks.isEmpty { s += "  \(pad("checks", 9))\(r.checks.map(\.description).joined(separator: "; "))\n" }
            let passes = result.passes.map { "\($0.name) (\($0.reason), conf \(String(format: "%.2f", $0.meanConfidence)), \(String(format: "%.2f", $0.seconds)) s)" }
            let rows = result.rereads.isEmpty ? [] : ["\(result.rereads.count) rows re-read alone (\(String(format: "%.2f", result.rereadSeconds)) s)"]
            let text = result.textLayerPages == 0 ? [] : [result.textLayerPages == result.pageCount
                ? "none: the text layer of \(result.pageCount == 1 ? "the page" : "all \(result.pageCount) pages") (\(String(format: "%.3f", result.seconds)) s)"
                : "text layer of \(result.textLayerPages) of \(result.pageCount) pages"]
            s += "  \(pad("ocr", 9))\((text + passes + rows).joined(separator: "; "))\n"
            s += "  \(pad("image", 9))\(result.image.originalWidth)×\(result.image.originalHeight) → \(result.image.width)×\(result.image.height): \(result.imageSteps.isEmpty ? "as is" : result.imageSteps.joined(separator: ", "))\n"
        }
        if let why = ReviewPolicy.reason(r) { s += "  needs review: \(why)\n" }
        if showText {
            s += "  --- OCR text ---\n"
            for (i, l) in result.page.lines.enumerated() { s += "  \(pad(String(i + 1), 4))\(l.text)\n" }
        }
        return s
    }

    static func explainLines(_ e: Evidence, rejected: [Candidate]) -> String {
        var s = ""
        let indent = String(repeating: " ", count: 11)
        let page = e.page.map { "page \($0), " } ?? ""
        if let line = e.line { s += "\(indent)\(page)line \(line + 1): \"\(e.text ?? "")\"  [\(e.rule)]\n" } else { s += "\(indent)[\(e.rule)]\n" }
        for n in e.notes { s += "\(indent)· \(n)\n" }
        for c in rejected.prefix(3) {
            let where_ = c.evidence.line.map { "\(c.evidence.page.map { "page \($0), " } ?? "")line \($0 + 1): \"\(c.evidence.text ?? "")\"" } ?? c.evidence.rule
            s += "\(indent)✗ \(c.value) (score \(String(format: "%.2f", c.score))) from \(where_)\n"
        }
        return s
    }

    static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}
