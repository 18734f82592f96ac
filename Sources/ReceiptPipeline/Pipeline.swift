import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser

public struct PipelineOptions: Sendable, Hashable {
    public var ingest = IngestOptions()
    /// Ask Tesseract's orientation model when the first read looks like a turned page.
    public var fixOrientation = true
    /// A second OCR look when the first result fails its own checks.
    public var secondPass = true
    /// Below this mean word confidence the page may be turned: orientation is checked.
    public var orientationCheckBelow = 0.6
    /// How the second look reads the page: psm 11 (sparse text) finds words a block read misses.
    /// Dev set, end to end, over psm 4: date +2.1, total +0.4 points.
    public var secondLookSegmentation: PageSegmentation = .sparse
    /// Take the second look at the image before contrast normalisation.
    public var secondLookWithoutContrastNorm = true
    /// Also take the second look when the first read's mean word confidence is below this (0 = only on failed checks).
    public var secondLookBelowConfidence = 0.0

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
        let image = try Ingest.load(path: path, options: options.ingest)
        return try process(image: image)
    }

    public func process(data: Data, name: String) throws -> ReceiptResult {
        try process(image: Ingest.load(data: data, name: name, options: options.ingest))
    }

    public func process(image original: IngestedImage) throws -> ReceiptResult {
        let start = Date()
        var image = original
        var passes: [OCRPass] = []
        var page = try read(image, nil, "first", into: &passes)

        if options.fixOrientation, page.meanConfidence < options.orientationCheckBelow || page.lines.count < 3 {
            let turns = try engine.uprightQuarterTurns(image)
            if turns != 0 {
                let turned = image.rotated(quarterTurns: turns)
                let second = try read(turned, nil, "orientation: turned \(turns * 90)°", into: &passes)
                if second.meanConfidence > page.meanConfidence { image = turned; page = second }
            }
        }
        let lowConfidence = page.meanConfidence < options.secondLookBelowConfidence
        let force = lowConfidence ? String(format: "mean confidence %.2f", page.meanConfidence) : nil
        var ocrReading = OCRReading(first: page)
        let reading = try parser.parseWithSecondLook(page, allowed: options.secondPass, force: force) { reason in
            let look = try read(options.secondLookWithoutContrastNorm ? image.withoutContrastNormalization : image,
                                options.secondLookSegmentation, reason, into: &passes)
            ocrReading = OCRReading(first: ocrReading.first, secondLook: look, reason: reason, forced: force != nil)
            return look
        }
        page = reading.page
        let receipt = reading.receipt
        return ReceiptResult(file: original.name, receipt: receipt, page: page, imageSteps: image.steps,
                             passes: passes, seconds: Date().timeIntervalSince(start), image: image, reading: ocrReading)
    }

    private func read(_ image: IngestedImage, _ psm: PageSegmentation?, _ reason: String, into passes: inout [OCRPass]) throws -> OCRPage {
        let t = Date()
        let page = try engine.recognize(image, segmentation: psm)
        passes.append(OCRPass(name: psm.map { "psm\($0.rawValue)" } ?? "default", reason: reason,
                              meanConfidence: page.meanConfidence, seconds: Date().timeIntervalSince(t), page: page))
        return page
    }
}
