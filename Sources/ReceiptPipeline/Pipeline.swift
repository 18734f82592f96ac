import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser

/// What the pipeline does beyond the first read; the defaults are what `receipts parse` does.
public struct PipelineOptions: Sendable, Hashable {
    public var ingest = IngestOptions()
    /// Ask the engine's orientation model when the first read looks like a turned page.
    public var fixOrientation = true
    /// A second OCR look when the first result fails its own checks.
    public var secondPass = true
    /// Read the rows that carry a field again, each alone (single-line mode) …
    public var rereadLines = true
    /// … when the first parse doubts one of these fields (`Doubt.field`).
    /// Only the date: weighed on the dev sets with the receipt model (`receipts eval`'s extra-looks
    /// table), re-reads on a total or vendor doubt made no field right on 83 scans and 138 photos (one
    /// total better, one worse) for 7–11 % of the time; on a date doubt, 2 dates right of 64 photos.
    public var rereadWhenDoubting: Set<Doubt.Field> = [.date]
    /// Below this mean word confidence the page may be turned: orientation is checked.
    public var orientationCheckBelow = 0.6
    /// How the second look reads the page: sparse text (psm 11) finds words a block read misses.
    /// Dev set, end to end, over psm 4: date +2.1, total +0.4 points.
    public var secondLookLayout: PageLayout = .sparse
    /// Take the second look at the image before contrast normalisation.
    public var secondLookWithoutContrastNorm = true
    /// Read alone the bands of ink the first read returned no line for (`MissedRows`), when the
    /// first parse is in doubt. (Read on every page they cost 14 % of the scans' time and 3 % of the
    /// photos' and made one field right in 480 dev receipts.)
    public var readMissedRows = true
    /// Read the page again with its faint print stretched (`IngestedImage.faintPrintStretched`)
    /// when the first read found fewer than `faintPrintBelow` lines with a word of three letters or
    /// digits, keeping the read that finds more such lines. A faded thermal receipt with a black
    /// torn edge reads as nothing (4 of the 386 sroie-stream scans read one line or none).
    public var stretchFaintPrint = true
    public var faintPrintBelow = 3

    public init() {}
}

/// One OCR look at the image, for reports ("psm6", "psm4 after no total").
public struct OCRPass: Sendable, Hashable, Codable {
    public var name: String
    public var reason: String
    public var meanConfidence: Double
    public var seconds: Double
    /// What this look read (kept for frozen OCR fixtures and `--text`).
    public var page: OCRPage?

    enum CodingKeys: String, CodingKey { case name, reason, meanConfidence = "mean_confidence", seconds }
}

/// Where one receipt's time went, in seconds, stage by stage (`eval` and `make bench` print the
/// means). OCR stages are the engine's calls; `parse` is the rest of the pipeline's own work
/// (parsing each read, choosing, combining).
public struct StageSeconds: Sendable, Hashable {
    public var decode = 0.0
    public var normalise = 0.0
    /// The first read of every page.
    public var firstRead = 0.0
    /// The orientation check (Tesseract's OSD) of a page whose first read looks turned, and the turned read when taken.
    public var orientation = 0.0
    /// Bands of ink the first read missed, each read alone.
    public var missedRows = 0.0
    /// Rows carrying a field read again alone (a doubtful first parse).
    public var rereads = 0.0
    /// The second look at the page or its header (a parse still in doubt).
    public var secondLook = 0.0
    public var parse = 0.0

    public init() {}

    /// The stages in the order they run, with the names reports give them.
    public var named: [(name: String, seconds: Double)] {
        [("decode", decode), ("normalise", normalise), ("first read", firstRead), ("orientation", orientation), ("missed rows", missedRows),
         ("row re-reads", rereads), ("second look", secondLook), ("parse", parse)]
    }

    public var total: Double { named.map(\.seconds).reduce(0, +) }

    /// Stage by stage, the sum (a run's totals, from which reports take means).
    public static func + (a: StageSeconds, b: StageSeconds) -> StageSeconds {
        var s = StageSeconds()
        (s.decode, s.normalise, s.firstRead, s.orientation) = (a.decode + b.decode, a.normalise + b.normalise, a.firstRead + b.firstRead,
                                                                a.orientation + b.orientation)
        (s.missedRows, s.rereads, s.secondLook, s.parse) = (a.missedRows + b.missedRows, a.rereads + b.rereads, a.secondLook + b.secondLook,
                                                            a.parse + b.parse)
        return s
    }
}

/// What the pipeline produced for one image.
public struct ReceiptResult: Sendable {
    public var file: String
    public var receipt: ParsedReceipt
    public var page: OCRPage
    /// Normalisation steps applied to the image.
    public var imageSteps: [String]
    public var passes: [OCRPass]
    public var seconds: Double
    public var image: IngestedImage
    /// What OCR read, as the parser used it: `parser.parse(reading)` gives `receipt` and
    /// `page` again without OCR (the store keeps it for `batch --reparse`).
    public var reading: OCRReading
    /// Pages in the file (all read, joined in order).
    public var pageCount = 1
    /// Pages taken from their own text layer (a PDF's), without OCR: all of them means no OCR ran.
    public var textLayerPages = 0
    /// How long reading rows again alone took (`stages.rereads`).
    public var rereadSeconds: Double { stages.rereads }
    /// Where the time went, stage by stage.
    public var stages = StageSeconds()
    /// Rows of the first read that were read again alone (from `reading`).
    public var rereads: [Reread] { Reread.all(in: reading) }
    /// What a shop the user taught set on the receipt (`ShopLearning.read`), when it was read with a store.
    public var learned: LearnedFields?
    /// The receipt as read: the parser's values with what a shop set in place.
    public var shown: ParsedReceipt { receipt.applying(learned) }
}

/// Image → OCR → fields, with an orientation check and a second look only when needed: the
/// one entry point from a receipt's file to its `ParsedReceipt`.
///
///     let pipeline = ReceiptPipeline(engine: try TesseractEngine())
///     let result = try pipeline.process(path: "scan.jpg")
///     print(result.receipt.total?.value as Any)   // every field has its confidence and evidence
///
/// Owns one engine: not thread-safe, and blocking (a receipt takes a second or more of OCR).
/// A batch makes one pipeline per worker (`BatchRunner`); async code awaits a `ReceiptReader`.
public final class ReceiptPipeline {
    /// The OCR engine: `TesseractEngine`, or any `OCREngine` (tests give scripted ones).
    public let engine: OCREngine
    public let parser: ReceiptParser
    public let options: PipelineOptions

    /// A pipeline over `engine`; the parser's options (rules, known vendors, date order, the
    /// currency to assume) come with `parser`.
    public init(engine: OCREngine, parser: ReceiptParser = ReceiptParser(), options: PipelineOptions = PipelineOptions()) {
        self.engine = engine; self.parser = parser; self.options = options
    }

    /// Reads the receipt in the file at `path`: any format ingest reads (JPEG, PNG, TIFF, BMP, GIF,
    /// WebP, PNM, HEIC/HEIF, AVIF, PDF), judged by its content. Throws `IngestError` for a file that
    /// cannot be read as an image (with the reason), `OCRError` when the engine fails.
    public func process(path: String) throws -> ReceiptResult {
        try process(file: Ingest.load(path: path, options: options.ingest))
    }

    /// Reads a receipt from bytes already in memory (an upload, standard input); `name` is how
    /// the result and errors name it.
    public func process(data: Data, name: String) throws -> ReceiptResult {
        try process(file: Ingest.load(data: data, name: name, options: options.ingest))
    }

    /// Reads the file as one receipt. One page: `process(image:)`. Several (a long receipt
    /// scanned as a multi-page TIFF, a PDF): each page is read in order (its orientation put
    /// right on its own), their lines are joined top to bottom, and the looks that follow
    /// (row re-reads, the second look) are taken at the pages stacked as one image, so every
    /// box is in one frame; evidence names the page. A page with a text layer (a PDF's) is
    /// taken from its text, without OCR; a file made only of such pages is never OCR'd.
    /// (A file whose pages are separate receipts is read as one; split it first.)
    public func process(file: IngestedFile) throws -> ReceiptResult {
        if file.pages.count == 1, file.pages[0].textLayer == nil {
            var result = try process(image: file.pages[0])
            (result.stages.decode, result.stages.normalise) = (file.decodeSeconds, file.normaliseSeconds)
            return result
        }
        let start = Date()
        var stages = StageSeconds()
        (stages.decode, stages.normalise) = (file.decodeSeconds, file.normaliseSeconds)
        var passes: [OCRPass] = []
        var images: [IngestedImage] = []
        var firsts: [OCRReading.Page] = []
        for (i, original) in file.pages.enumerated() {
            if let text = original.textLayer {
                images.append(original)
                firsts.append(OCRReading.Page(first: text, textLayer: true))
                continue
            }
            let (image, page) = try firstRead(original, into: &passes, stages: &stages, label: file.pages.count > 1 ? "page \(i + 1)" : nil)
            images.append(image)
            firsts.append(OCRReading.Page(first: page, lostRows: original.lostRows))
        }
        if firsts.contains(where: { $0.textLayer != true }), inDoubt(OCRPage.joined(firsts.map(\.first)).page, stages: &stages) {
            let t = Date()
            for i in firsts.indices where firsts[i].textLayer != true {
                firsts[i].looks = try missedRows(of: images[i], read: firsts[i].first)
            }
            stages.missedRows = Date().timeIntervalSince(t)
        }
        guard let stacked = IngestedImage.stacked(images) else { throw IngestError(file: file.name, reason: .decodeFailed(file.format)) }
        let joined = OCRPage.joined(firsts.map(\.read))
        var result: ReceiptResult
        if firsts.contains(where: { $0.textLayer == true }) {
            // Exact text: nothing to re-read or look at again (and a text page's pixels are not at OCR resolution).
            let reading = OCRReading(pages: firsts[0], Array(firsts.dropFirst()))
            let parseStart = Date()
            let parsed = parser.parse(reading)
            stages.parse += Date().timeIntervalSince(parseStart)
            result = ReceiptResult(file: file.name, receipt: parsed.receipt, page: parsed.page, imageSteps: stacked.steps,
                                   passes: passes, seconds: 0, image: stacked, reading: reading)
            result.stages = stages
        } else {
            result = try finish(stacked, page: joined.page, passes: passes, stages: stages, start: start, reading: { _, looks in
                var pages = firsts
                pages[0].looks += looks
                return OCRReading(pages: pages[0], Array(pages.dropFirst()))
            })
            result.receipt = result.receipt.namingPages(starts: joined.starts)
        }
        result.pageCount = file.pages.count
        result.textLayerPages = firsts.filter { $0.textLayer == true }.count
        if file.pages.count > 1 {
            result.imageSteps = file.pages.enumerated().map { "page \($0.offset + 1) (\($0.element.steps.joined(separator: ", ")))" }
                + ["\(file.pages.count) pages joined"]
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// Reads one page already decoded and normalised (`Ingest.load` makes them).
    public func process(image original: IngestedImage) throws -> ReceiptResult {
        let start = Date()
        var passes: [OCRPass] = []
        var stages = StageSeconds()
        let (image, page) = try firstRead(original, into: &passes, stages: &stages, label: nil)
        var missed: [OCRReading.Look] = []
        if inDoubt(page, stages: &stages) {
            let t = Date()
            missed = try missedRows(of: image, read: page)
            stages.missedRows = Date().timeIntervalSince(t)
        }
        let read = OCRReading.Page(first: page, looks: missed)
        return try finish(image, page: read.read, passes: passes, stages: stages, start: start) { _, looks in
            OCRReading(pages: OCRReading.Page(first: page, looks: missed + looks, lostRows: original.lostRows))
        }
    }

    /// Whether the rows of ink the first read missed are to be read (`readMissedRows`): the parse
    /// of what it read is in doubt.
    private func inDoubt(_ first: OCRPage, stages: inout StageSeconds) -> Bool {
        guard options.readMissedRows else { return false }
        let t = Date()
        defer { stages.parse += Date().timeIntervalSince(t) }
        return ReceiptParser.doubt(parser.parse(first)) != nil
    }

    /// The first read of one page, turned upright first when it reads like a turned page, and read
    /// again with its faint print stretched when next to nothing was read.
    private func firstRead(_ original: IngestedImage, into passes: inout [OCRPass], stages: inout StageSeconds,
                           label: String?) throws -> (IngestedImage, OCRPage) {
        let start = Date()
        var image = original
        let prefix = label.map { "\($0): " } ?? ""
        var page = try read(image, .page, prefix + "first", into: &passes)
        let orientationStart = Date()
        stages.firstRead += orientationStart.timeIntervalSince(start)
        if options.fixOrientation, page.meanConfidence < options.orientationCheckBelow || page.lines.count < 3 {
            let turns = try engine.uprightQuarterTurns(image.pageImage)
            if turns != 0 {
                let turned = image.rotated(quarterTurns: turns)
                let second = try read(turned, .page, prefix + "orientation: turned \(turns * 90)°", into: &passes)
                if second.meanConfidence > page.meanConfidence { image = turned; page = second }
            }
        }
        let faintStart = Date()
        stages.orientation += faintStart.timeIntervalSince(orientationStart)
        // Still next to nothing read, upright or not: faint print, read again stretched (counted with the first read).
        let linesRead = Self.wordLines(page)
        if options.stretchFaintPrint, linesRead < options.faintPrintBelow, let stretched = image.faintPrintStretched() {
            let again = try read(stretched, .page, prefix + "faint print stretched", into: &passes)
            if Self.wordLines(again) > linesRead { image = stretched; page = again }
            stages.firstRead += Date().timeIntervalSince(faintStart)
        }
        return (image, page)
    }

    /// How many of the page's lines hold a word of three letters or digits.
    static func wordLines(_ page: OCRPage) -> Int {
        page.lines.filter { hasWord($0.words) }.count
    }

    /// A word of three letters or digits among `words`.
    static func hasWord(_ words: [OCRWord]) -> Bool {
        words.contains { $0.text.filter { $0.isLetter || $0.isNumber }.count >= 3 }
    }

    /// The bands of ink `page` has no line for, each read alone as one line; kept where the read
    /// has a word of three letters or digits, is mostly letters and digits (a dotted rule reads as
    /// "i i i _ _"), no one of them over 40 % of them, and was read with some confidence (mean word
    /// confidence 0.5).
    private func missedRows(of image: IngestedImage, read page: OCRPage) throws -> [OCRReading.Look] {
        try MissedRows.regions(image.pageImage, read: page).compactMap { region in
            let row = try read(region: region, of: image)
            let words = row.lines.flatMap(\.words)
            let text = words.map(\.text).joined()
            let alnum = text.filter { $0.isLetter || $0.isNumber }.count
            // A barcode or a rule reads as one character over and over ("OOOOOO TTTTT i i i").
            let commonest = Dictionary(grouping: text.uppercased().filter { $0.isLetter || $0.isNumber }, by: { $0 }).values.map(\.count).max() ?? 0
            guard Self.hasWord(words),
                  alnum * 10 >= text.count * 7, commonest * 10 <= alnum * 4, row.meanConfidence >= 0.5 else { return nil }
            return OCRReading.Look(kind: .missedRow, reason: "no line read in this band of ink", page: row, region: region)
        }
    }

    /// Row re-reads and the second look when the parse is doubtful, on `image`, whose pixels
    /// `page`'s boxes are in.
    private func finish(_ image: IngestedImage, page first: OCRPage, passes: [OCRPass], stages: StageSeconds, start: Date,
                        reading makeReading: (OCRPage, [OCRReading.Look]) -> OCRReading) throws -> ReceiptResult {
        var passes = passes
        var stages = stages
        let finishStart = Date()
        var secondLookSeconds = 0.0
        // A doubtful result first has the rows that carry a field read again alone: Tesseract
        // reads a line it is shown by itself better than the same line within the page.
        var rereadSeconds = 0.0
        var looks: [OCRReading.Look] = []
        let reading = try parser.parseWithSecondLook(first, allowed: options.secondPass, rereads: { [image] doubt in
            guard options.rereadLines, options.rereadWhenDoubting.contains(doubt.field) else { return [] }
            let t = Date()
            defer { rereadSeconds = Date().timeIntervalSince(t) }
            return try parser.rereadTargets(first).map { target in
                let line = try read(region: target.region, of: image)
                looks.append(OCRReading.Look(kind: .lineReread, reason: doubt.description, page: line, line: target.line, region: target.region))
                return Reread(line: target.line, region: target.region, page: line)
            }
        }) { doubt in
            let looked = options.secondLookWithoutContrastNorm ? image.withoutContrastNormalization : image
            // Only the vendor in doubt: the header alone (a third of the page's cost).
            let region = doubt.secondLookRegion(width: looked.pageImage.width, height: looked.pageImage.height)
            let t = Date()
            defer { secondLookSeconds = Date().timeIntervalSince(t) }
            let look = try read(looked, OCRRequest(layout: options.secondLookLayout, region: region, alternatives: true), doubt.description, into: &passes)
            looks.append(OCRReading.Look(kind: .secondLook, reason: doubt.description, page: look))
            return look
        }
        (stages.rereads, stages.secondLook) = (rereadSeconds, secondLookSeconds)
        stages.parse += max(0, Date().timeIntervalSince(finishStart) - rereadSeconds - secondLookSeconds)
        let kept = makeReading(first, looks)
        var result = ReceiptResult(file: image.name, receipt: reading.receipt.warningOfLostRows(in: kept), page: reading.page, imageSteps: image.steps,
                                   passes: passes, seconds: Date().timeIntervalSince(start), image: image, reading: kept)
        result.stages = stages
        return result
    }

    /// Reads one rectangle of the image again (`region` in the image's pixels, as the boxes of
    /// its `OCRPage` are), e.g. one line as a single line. Boxes in the result are page coordinates.
    /// With the reader's digit alternatives: a row is read alone because the receipt is in doubt.
    public func read(region: BoundingBox, of image: IngestedImage, layout: PageLayout = .singleLine) throws -> OCRPage {
        try engine.recognize(image.pageImage, request: OCRRequest(layout: layout, region: region, alternatives: true))
    }

    private func read(_ image: IngestedImage, _ request: OCRRequest, _ reason: String, into passes: inout [OCRPass]) throws -> OCRPage {
        let t = Date()
        let page = try engine.recognize(image.pageImage, request: request)
        passes.append(OCRPass(name: request.name, reason: reason,
                              meanConfidence: page.meanConfidence, seconds: Date().timeIntervalSince(t), page: page))
        return page
    }
}
