import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser

public struct PipelineOptions: Sendable, Hashable {
    public var ingest = IngestOptions()
    /// Ask the engine's orientation model when the first read looks like a turned page.
    public var fixOrientation = true
    /// A second OCR look when the first result fails its own checks.
    public var secondPass = true
    /// Read the rows that carry a field again, each alone (single-line mode).
    public var rereadLines = true
    /// Below this mean word confidence the page may be turned: orientation is checked.
    public var orientationCheckBelow = 0.6
    /// How the second look reads the page: sparse text (psm 11) finds words a block read misses.
    /// Dev set, end to end, over psm 4: date +2.1, total +0.4 points.
    public var secondLookLayout: PageLayout = .sparse
    /// Take the second look at the image before contrast normalisation.
    public var secondLookWithoutContrastNorm = true

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
    /// Pages in the file; only the first is read for now.
    public var pageCount = 1
    /// How long reading rows again alone took.
    public var rereadSeconds = 0.0
    /// Rows of the first read that were read again alone (from `reading`).
    public var rereads: [Reread] { Reread.all(in: reading) }
}

/// Image → OCR → fields, with an orientation check and a second look only when needed.
/// Owns one engine: not thread-safe; a batch makes one pipeline per worker.
public final class ReceiptPipeline {
    public let engine: OCREngine
    public let parser: ReceiptParser
    public let options: PipelineOptions

    public init(engine: OCREngine, parser: ReceiptParser = ReceiptParser(), options: PipelineOptions = PipelineOptions()) {
        self.engine = engine; self.parser = parser; self.options = options
    }

    public func process(path: String) throws -> ReceiptResult {
        try process(file: Ingest.load(path: path, options: options.ingest))
    }

    public func process(data: Data, name: String) throws -> ReceiptResult {
        try process(file: Ingest.load(data: data, name: name, options: options.ingest))
    }

    /// Reads the file's first page.
    // TODO(multi-page): a receipt split over several pages (a multi-page TIFF or PDF, once a
    // decoder yields them) needs its pages read and joined into one OCRPage before parsing.
    // Until then the other pages are not read, and the result says so in its image steps.
    public func process(file: IngestedFile) throws -> ReceiptResult {
        var result = try process(image: file.pages[0])
        let n = file.pages.count
        if n > 1 {
            result.pageCount = n
            result.imageSteps.append("page 1 of \(n) read (pages 2–\(n) not read: multi-page receipts not supported yet)")
        }
        return result
    }

    public func process(image original: IngestedImage) throws -> ReceiptResult {
        let start = Date()
        var image = original
        var passes: [OCRPass] = []
        var page = try read(image, .page, "first", into: &passes)

        if options.fixOrientation, page.meanConfidence < options.orientationCheckBelow || page.lines.count < 3 {
            let turns = try engine.uprightQuarterTurns(image.pageImage)
            if turns != 0 {
                let turned = image.rotated(quarterTurns: turns)
                let second = try read(turned, .page, "orientation: turned \(turns * 90)°", into: &passes)
                if second.meanConfidence > page.meanConfidence { image = turned; page = second }
            }
        }
        // A doubtful result first has the rows that carry a field read again alone: Tesseract
        // reads a line it is shown by itself better than the same line within the page.
        var rereadSeconds = 0.0
        var looks: [OCRReading.Look] = []
        let reading = try parser.parseWithSecondLook(page, allowed: options.secondPass, rereads: { [image] reason in
            guard options.rereadLines else { return [] }
            let t = Date()
            defer { rereadSeconds = Date().timeIntervalSince(t) }
            return try parser.rereadTargets(page).map { target in
                let line = try read(region: target.region, of: image)
                looks.append(OCRReading.Look(kind: .lineReread, reason: reason, page: line, line: target.line, region: target.region))
                return Reread(line: target.line, region: target.region, page: line)
            }
        }) { reason in
            let looked = options.secondLookWithoutContrastNorm ? image.withoutContrastNormalization : image
            // Only the vendor in doubt: the header alone (a third of the page's cost).
            let region = ReceiptParser.secondLookRegion(for: reason, width: looked.pageImage.width, height: looked.pageImage.height)
            let look = try read(looked, OCRRequest(layout: options.secondLookLayout, region: region), reason, into: &passes)
            looks.append(OCRReading.Look(kind: .secondLook, reason: reason, page: look))
            return look
        }
        let ocrReading = OCRReading(pages: OCRReading.Page(first: page, looks: looks))
        page = reading.page
        let receipt = reading.receipt
        return ReceiptResult(file: original.name, receipt: receipt, page: page, imageSteps: image.steps,
                             passes: passes, seconds: Date().timeIntervalSince(start), image: image, reading: ocrReading,
                             rereadSeconds: rereadSeconds)
    }

    /// Reads one rectangle of the image again (`region` in the image's pixels, as the boxes of
    /// its `OCRPage` are), e.g. one line as a single line. Boxes in the result are page coordinates.
    public func read(region: BoundingBox, of image: IngestedImage, layout: PageLayout = .singleLine) throws -> OCRPage {
        try engine.recognize(image.pageImage, request: OCRRequest(layout: layout, region: region))
    }

    private func read(_ image: IngestedImage, _ request: OCRRequest, _ reason: String, into passes: inout [OCRPass]) throws -> OCRPage {
        let t = Date()
        let page = try engine.recognize(image.pageImage, request: request)
        passes.append(OCRPass(name: request.name, reason: reason,
                              meanConfidence: page.meanConfidence, seconds: Date().timeIntervalSince(t), page: page))
        return page
    }
}
