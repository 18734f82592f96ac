import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline

/// The options every command that runs the pipeline shares (parse, batch, eval), declared once.
struct PipelineArgs: ParsableArgs {
    var layout: PageLayout?
    var model: String?
    var tessdata: String?
    var rules: String?
    var vendors: String?
    var dateOrder: DateOrder?
    var currency: String?
    var timeLimit: Double?
    var maxPixels: Int?
    var noSecondPass = false
    var noReread = false
    var noOrientation = false
    var ocrCache: String?

    static let group = OptionGroup<PipelineArgs>([
        .value("--psm", value: "N", \.layout, kind: .oneOf(PageLayout.choices.map { String($0.psm) }), setting: .psm,
               help: "Tesseract page segmentation mode: 3, 4, 6, 7, 8 or 11 (default 6: one block, best for receipts).",
               expected: "3, 4, 6, 7, 8 or 11") { Int($0).flatMap(PageLayout.init(psm:)) },
        .value("--model", value: "NAME", \.model, kind: .model, setting: .model,
               help: "The OCR model: receipt (default: the receipt line model that comes with receipts) or a stock Tesseract language, e.g. eng or eng+deu.",
               expected: "names like receipt, eng or eng+deu", parse: modelName),
        .value("--lang", value: "LANGS", \.model, kind: .model, sameAs: "--model", help: "The same as --model (Tesseract's name for it).",
               expected: "names like receipt, eng or eng+deu", parse: modelName),
        .string("--tessdata", value: "DIR", \.tessdata, kind: .directory, setting: .tessdata,
                help: "Folder holding the .traineddata files (default: $TESSDATA_PREFIX, then share/receipts beside the binary or the tree's Model/, then Tesseract's system folder)."),
        .string("--rules", value: "FILE", \.rules, kind: .file, setting: .rules,
                help: "Extra parser rules (JSON, the shape `receipts rules` prints): keywords, skip-lists, month names."),
        .string("--vendors", value: "FILE", \.vendors, kind: .file, setting: .vendors,
                help: "Known vendors, one a line: `Name | alias | alias`; matched fuzzily at the top of the receipt."),
        .value("--date-order", value: "ORDER", \.dateOrder, kind: .oneOf(DateOrder.allCases.map(\.rawValue)), setting: .dateOrder,
               help: "How to read 03/04/2024: auto (default: from evidence on the receipt), day-first or month-first.",
               expected: "auto, day-first or month-first", parse: DateOrder.init(rawValue:)),
        .value("--currency", value: "CODE", \.currency, setting: .currency,
               help: "Currency to assume when the receipt shows none (ISO code, e.g. EUR).",
               expected: "a 3-letter ISO code such as EUR") { c in c.count == 3 && c.allSatisfy(\.isLetter) ? c.uppercased() : nil },
        .double("--time-limit", value: "SECONDS", \.timeLimit, in: 0.1...3600, setting: .timeLimit,
                help: "Give up on one image after this long (default 60)."),
        .int("--max-pixels", value: "N", \.maxPixels, in: 1...1_000_000_000,
             help: "Refuse images larger than N pixels, checked before decoding (default 60000000)."),
        .flag("--no-second-pass", \.noSecondPass, help: "Never take a second OCR look, even when the first fails its checks."),
        .flag("--no-reread", \.noReread, help: "Do not read the rows with a total, tax, payment or date again alone (single-line mode)."),
        .flag("--no-orientation", \.noOrientation, help: "Do not check whether a page is turned 90/180/270°."),
        .string("--ocr-cache", value: "DIR", \.ocrCache, kind: .directory,
                help: "Keep Tesseract's readings in DIR and reuse them: re-measuring a parser change takes seconds. Keyed by the pixels OCR sees, so image changes miss it."),
    ])

    @Sendable static func modelName(_ s: String) -> String? {
        s.range(of: #"^[A-Za-z_]+(\+[A-Za-z_]+)*$"#, options: .regularExpression) != nil ? s : nil
    }
}

extension PageLayout {
    /// The layouts `--psm` takes, in Tesseract's order.
    static var choices: [PageLayout] { allCases.sorted { $0.psm < $1.psm } }
}

/// What the pipeline options make: the OCR, pipeline and parser options, and pipelines.
enum PipelineSetup {
    struct Made: Sendable {
        var ocr: OCROptions
        var pipeline: PipelineOptions
        var parser: ParserOptions
        /// Keep what Tesseract read in this folder and reuse it (`--ocr-cache`).
        var ocrCache: String? = nil
        /// Makes each pipeline's engine (one per worker): Tesseract, unless a test or another
        /// front end puts its own here.
        var makeEngine: @Sendable (OCROptions) throws -> any OCREngine = { try TesseractEngine(options: $0) }

        /// A pipeline with its own engine: one per worker.
        func makePipeline() throws -> ReceiptPipeline {
            var engine: OCREngine
            do { engine = try makeEngine(ocr) } catch let e as OCRError {
                throw CLIFailure(.missingDependency, e.description)
            } catch {
                throw CLIFailure(.missingDependency, "cannot start the OCR engine: \(error)")
            }
            if let dir = ocrCache {
                do { engine = try CachingEngine(engine, directory: dir) } catch {
                    throw CLIFailure(.inputError, "\(dir): cannot use as the OCR cache: \((error as NSError).localizedDescription)")
                }
            }
            return ReceiptPipeline(engine: engine, parser: ReceiptParser(options: parser), options: pipeline)
        }
    }

    static func make(_ args: PipelineArgs) throws -> Made {
        var ocr = OCROptions()
        if let layout = args.layout { ocr.layout = layout }
        if let model = args.model { ocr.language = model }
        ocr.tessdataDirectory = args.tessdata
        if let t = args.timeLimit { ocr.timeLimit = t }
        var pipeline = PipelineOptions()
        pipeline.ingest = .tool
        if let m = args.maxPixels { pipeline.ingest.maxPixels = m }
        pipeline.secondPass = !args.noSecondPass
        pipeline.fixOrientation = !args.noOrientation
        pipeline.rereadLines = !args.noReread
        var parser = ParserOptions()
        if let file = args.rules {
            do { parser.rules = try ParserRules.builtIn(extendedWith: file) } catch {
                throw CLIFailure(.usage, "\(error)")
            }
        }
        if let file = args.vendors { parser.knownVendors = try loadVendors(file) }
        if let order = args.dateOrder { parser.dateOrder = order }
        if let c = args.currency { parser.defaultCurrency = c }
        return Made(ocr: ocr, pipeline: pipeline, parser: parser, ocrCache: args.ocrCache)
    }

    /// `Name | alias | alias` per line; `#` starts a comment.
    static func loadVendors(_ file: String) throws -> [KnownVendor] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw CLIFailure(.usage, "\(file): cannot read the vendors file")
        }
        return KnownVendor.list(fromText: text)
    }

}

extension IngestOptions {
    /// The tool's defaults: it writes its own lines to `StandardError.fd`, so descriptor 2 is only the libraries',
    /// and what a library prints there with no hook is kept off the user's stderr (`capturesLibraryStderr`).
    static var tool: IngestOptions {
        var o = IngestOptions()
        o.capturesLibraryStderr = true
        return o
    }
}
