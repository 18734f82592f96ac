import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline

/// Options shared by every command that runs the pipeline (parse, eval, batch).
enum PipelineSetup {
    static let options: [OptionSpec] = [
        OptionSpec("--psm", value: "N", help: "Tesseract page segmentation mode: 3, 4, 6, 7, 8 or 11 (default 6: one block, best for receipts)."),
        OptionSpec("--model", value: "NAME", help: "The OCR model: receipt (default: the receipt line model that comes with receipts) or a stock Tesseract language, e.g. eng or eng+deu."),
        OptionSpec("--lang", value: "LANGS", help: "The same as --model (Tesseract's name for it)."),
        OptionSpec("--tessdata", value: "DIR", help: "Folder holding the .traineddata files (default: $TESSDATA_PREFIX, then share/receipts beside the binary or the tree's Model/, then Tesseract's system folder)."),
        OptionSpec("--rules", value: "FILE", help: "Extra parser rules (JSON, the shape `receipts rules` prints): keywords, skip-lists, month names."),
        OptionSpec("--vendors", value: "FILE", help: "Known vendors, one a line: `Name | alias | alias`; matched fuzzily at the top of the receipt."),
        OptionSpec("--date-order", value: "ORDER", help: "How to read 03/04/2024: auto (default: from evidence on the receipt), day-first or month-first."),
        OptionSpec("--currency", value: "CODE", help: "Currency to assume when the receipt shows none (ISO code, e.g. EUR)."),
        OptionSpec("--time-limit", value: "SECONDS", help: "Give up on one image after this long (default 60)."),
        OptionSpec("--max-pixels", value: "N", help: "Refuse images larger than N pixels, checked before decoding (default 60000000)."),
        OptionSpec("--no-second-pass", help: "Never take a second OCR look, even when the first fails its checks."),
        OptionSpec("--no-reread", help: "Do not read the rows with a total, tax, payment or date again alone (single-line mode)."),
        OptionSpec("--no-orientation", help: "Do not check whether a page is turned 90/180/270°."),
        OptionSpec("--ocr-cache", value: "DIR", help: "Keep Tesseract's readings in DIR and reuse them: re-measuring a parser change takes seconds. Keyed by the pixels OCR sees, so image changes miss it."),
    ]

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

    static func make(_ args: Arguments) throws -> Made {
        var ocr = OCROptions()
        if let p = args.value("--psm") {
            guard let n = Int(p), let layout = PageLayout(psm: n) else { throw UsageError("--psm takes 3, 4, 6, 7, 8 or 11, not '\(p)'") }
            ocr.layout = layout
        }
        if args.value("--model") != nil, args.value("--lang") != nil { throw UsageError("--model and --lang name the same thing: give one") }
        if let (name, l) = [("--model", args.value("--model")), ("--lang", args.value("--lang"))].first(where: { $0.1 != nil }).map({ ($0.0, $0.1!) }) {
            guard l.range(of: #"^[A-Za-z_]+(\+[A-Za-z_]+)*$"#, options: .regularExpression) != nil else { throw UsageError("\(name) takes names like receipt, eng or eng+deu, not '\(l)'") }
            ocr.language = l
        }
        ocr.tessdataDirectory = args.value("--tessdata")
        let ocrCache = args.value("--ocr-cache")
        if let t = try args.double("--time-limit", in: 0.1...3600) { ocr.timeLimit = t }
        var pipeline = PipelineOptions()
        if let m = try args.int("--max-pixels", in: 1...1_000_000_000) { pipeline.ingest.maxPixels = m }
        pipeline.secondPass = !args.flag("--no-second-pass")
        pipeline.fixOrientation = !args.flag("--no-orientation")
        pipeline.rereadLines = !args.flag("--no-reread")
        var parser = ParserOptions()
        if let file = args.value("--rules") {
            do { parser.rules = try ParserRules.builtIn(extendedWith: file) } catch {
                throw CLIFailure(.usage, "\(error)")
            }
        }
        if let file = args.value("--vendors") { parser.knownVendors = try loadVendors(file) }
        if let o = args.value("--date-order") {
            guard let order = DateOrder(rawValue: o) else { throw UsageError("--date-order takes auto, day-first or month-first, not '\(o)'") }
            parser.dateOrder = order
        }
        if let c = args.value("--currency") {
            guard c.count == 3, c.allSatisfy(\.isLetter) else { throw UsageError("--currency takes a 3-letter ISO code such as EUR, not '\(c)'") }
            parser.defaultCurrency = c.uppercased()
        }
        return Made(ocr: ocr, pipeline: pipeline, parser: parser, ocrCache: ocrCache)
    }

    /// `Name | alias | alias` per line; `#` starts a comment.
    static func loadVendors(_ file: String) throws -> [KnownVendor] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw CLIFailure(.usage, "\(file): cannot read the vendors file")
        }
        return KnownVendor.list(fromText: text)
    }

}
