import Foundation
import Testing
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline

@Suite("OCR: the real Tesseract engine")
struct OCRTests {
    @Test func readsWordsWithBoxesAndConfidences() throws {
        let engine = try TesseractEngine()
        let image = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png")
        let page = try engine.recognize(image)
        #expect(page.lines.count == 2)
        #expect(page.text.contains("TOTAL 12.50"))
        let words = page.lines.flatMap(\.words)
        #expect(words.allSatisfy { $0.box != nil && (0...1).contains($0.confidence) })
        #expect(page.meanConfidence > 0.8)
        // Boxes are in the normalised image's pixels: the total line lies below the name line.
        let y0 = try #require(page.lines[0].box?.y), y1 = try #require(page.lines[1].box?.y)
        #expect(y1 > y0)
    }

    @Test func missingLanguageDataNamesThePackage() throws {
        let dir = try TempDir()
        var o = OCROptions()
        o.tessdataDirectory = dir.path
        do {
            _ = try TesseractEngine(options: o)
            Issue.record("an engine started without language data")
        } catch {
            #expect(error.description.contains("apt-get install tesseract-ocr-eng"))
            #expect(error.description.contains(dir.path))
        }
    }

    @Test func tessdataPrefixIsSearchedFirst() {
        let dirs = Tessdata.candidates(environment: ["TESSDATA_PREFIX": "/opt/td"])
        #expect(dirs.prefix(2) == ["/opt/td", "/opt/td/tessdata"])
        #expect(dirs.contains("/usr/share/tesseract-ocr/5/tessdata"))
    }

    @Test func turnedPageIsPutUpright() throws {
        let pipeline = ReceiptPipeline(engine: try TesseractEngine())
        let result = try pipeline.process(path: Repo.samples + "/rot90-us-electronics.png")
        #expect(result.imageSteps.contains { $0.hasPrefix("rotate") })
        #expect(result.receipt.total?.value == Amount("102.92"))
    }

    @Test func uprightScanIsNotTurned() throws {
        let pipeline = ReceiptPipeline(engine: try TesseractEngine())
        let result = try pipeline.process(path: Repo.samples + "/us-hardware-01.png")
        #expect(!result.imageSteps.contains { $0.hasPrefix("rotate") })
        #expect(result.passes.first?.reason == "first")
    }
}

/// An engine that returns canned pages: tests the pipeline's decisions without Tesseract.
final class ScriptedEngine: OCREngine {
    var pages: [PageSegmentation?: OCRPage]
    var turns = 0
    private(set) var calls: [PageSegmentation?] = []
    let identity = "scripted"

    init(pages: [PageSegmentation?: OCRPage]) { self.pages = pages }

    func recognize(_ image: IngestedImage, segmentation: PageSegmentation?) throws -> OCRPage {
        calls.append(segmentation)
        return pages[segmentation] ?? OCRPage(lines: [])
    }

    func uprightQuarterTurns(_ image: IngestedImage) throws -> Int { turns }
}

@Suite("Pipeline decisions, with a scripted engine")
struct PipelineDecisionTests {
    let image: IngestedImage
    init() throws { image = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png") }

    static func page(_ text: String, confidence: Double = 0.9) -> OCRPage {
        OCRPage(lines: text.split(separator: "\n").map { OCRLine(text: String($0), confidence: confidence) })
    }

    @Test func noSecondPassWhenTheFirstChecksOut() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("ACME LLC\n03/14/2024\nSUBTOTAL 10.00\nTAX 0.80\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        #expect(engine.calls.count == 1)
        #expect(r.receipt.total?.value == Amount("10.80"))
    }

    @Test func secondPassWhenNoTotalIsFound() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("ACME LLC\n03/14/2024\nthank you"),
                                            .sparse: Self.page("ACME LLC\n03/14/2024\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        #expect(engine.calls == [nil, .sparse])
        #expect(r.receipt.total?.value == Amount("10.80"))
        #expect(r.passes.last?.reason == "no total found")
    }

    @Test func secondPassCanBeTurnedOff() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("ACME LLC\nthank you")])
        var o = PipelineOptions()
        o.secondPass = false
        _ = try ReceiptPipeline(engine: engine, options: o).process(image: image)
        #expect(engine.calls.count == 1)
    }

    @Test func lowConfidenceAsksForOrientation() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("x\ny", confidence: 0.2)])
        engine.turns = 1
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        #expect(r.passes.contains { $0.reason.hasPrefix("orientation") })
    }
}
