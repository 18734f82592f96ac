import Foundation
import Testing
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline
import ReceiptTestSupport

@Suite("OCR: the real Tesseract engine")
struct OCRTests {
    @Test func readsWordsWithBoxesAndConfidences() throws {
        let engine = try TesseractEngine()
        let image = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png").pages[0]
        let page = try engine.recognize(image.pageImage)
        #expect(page.lines.count == 2)
        #expect(page.text.contains("TOTAL 12.50"))
        let words = page.lines.flatMap(\.words)
        #expect(words.allSatisfy { $0.box != nil && (0...1).contains($0.confidence) })
        #expect(page.meanConfidence > 0.8)
        // Boxes are in the normalised image's pixels: the total line lies below the name line.
        let y0 = try #require(page.lines[0].box?.y), y1 = try #require(page.lines[1].box?.y)
        #expect(y1 > y0)
    }

    /// Asked to, the engine keeps the LSTM's other readings of each digit it reads: every word with a digit
    /// says which (an empty list when none), and a faded scan has some; words without digits, a read that
    /// did not ask (the first read of every receipt), and an engine told not to, keep none.
    @Test func digitWordsKeepTheReadersAlternatives() throws {
        let image = try Ingest.load(path: Repo.samples + "/my-faded-mart-03.jpg").pages[0].pageImage
        let asking = OCRRequest(alternatives: true)
        let words = try TesseractEngine().recognize(image, request: asking).lines.flatMap(\.words)
        let digitWords = words.filter { $0.text.contains(where: \.isNumber) }
        #expect(digitWords.count > 10)
        #expect(digitWords.allSatisfy { $0.alternatives != nil })
        #expect(words.filter { !$0.text.contains(where: \.isNumber) }.allSatisfy { $0.alternatives == nil })
        let kept = digitWords.flatMap { $0.alternatives ?? [] }
        #expect(!kept.isEmpty)
        for w in digitWords {
            for a in w.alternatives ?? [] {
                #expect(a.at < w.text.count && Array(w.text)[a.at].isNumber, "\(w.text): \(a)")
                #expect(!a.characters.isEmpty && (0.2...1).contains(a.confidence), "\(w.text): \(a)")
            }
        }
        var off = OCROptions()
        off.digitAlternatives = false
        #expect(try TesseractEngine(options: off).recognize(image, request: asking).lines.flatMap(\.words).allSatisfy { $0.alternatives == nil })
        let plain = try TesseractEngine().recognize(image).lines
        #expect(plain.flatMap(\.words).allSatisfy { $0.alternatives == nil })
        // Asking for alternatives changes nothing of what is read.
        #expect(plain.map(\.text) == (try TesseractEngine().recognize(image, request: asking)).lines.map(\.text))
    }

    @Test func missingLanguageDataNamesThePackage() throws {
        let dir = try TempDir()
        var o = OCROptions()
        o.tessdataDirectory = dir.path
        o.language = "eng"
        do {
            _ = try TesseractEngine(options: o)
            Issue.record("an engine started without language data")
        } catch {
            #expect(error.description.contains("apt-get install tesseract-ocr-eng"))
            #expect(error.description.contains(dir.path))
        }
    }

    /// The receipt model is found beside the binary: where `make install` puts it
    /// (PREFIX/share/receipts for PREFIX/bin/receipts), or in the tree's Model/ above a binary built there.
    @Test func theReceiptModelIsFoundBesideTheBinary() throws {
        let tmp = try TempDir()
        let installed = Tessdata.candidates(environment: [:], executable: tmp.path + "/usr/bin/receipts")
        #expect(installed.first == tmp.path + "/usr/share/receipts")
        let built = Tessdata.candidates(environment: [:], executable: Repo.path(".build/x86_64-unknown-linux-gnu/release/receipts"))
        #expect(built.contains(Repo.path("Model")))
        #expect(try Tessdata.locate(language: Tessdata.receiptModel, environment: [:]).hasSuffix("/Model"))
        #expect(OCROptions().language == Tessdata.receiptModel)
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

@Suite("Pipeline decisions, with a scripted engine")
struct PipelineDecisionTests {
    let image: IngestedImage
    init() throws { image = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png").pages[0] }

    static func page(_ text: String, confidence: Double = 0.9) -> OCRPage { ScriptedEngine.page(text, confidence: confidence) }

    @Test func noSecondPassWhenTheFirstChecksOut() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("ACME LLC\n03/14/2024\nSUBTOTAL 10.00\nTAX 0.80\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        #expect(engine.calls == 1)
        #expect(r.receipt.total?.value == Amount("10.80"))
    }

    @Test func secondPassWhenNoTotalIsFound() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("ACME LLC\n03/14/2024\nthank you"),
                                            .sparse: Self.page("ACME LLC\n03/14/2024\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        #expect(engine.requests == [.page, OCRRequest(layout: .sparse, alternatives: true)])
        #expect(r.receipt.total?.value == Amount("10.80"))
        #expect(r.passes.last?.reason == "no total found")
    }

    @Test func secondPassCanBeTurnedOff() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("ACME LLC\nthank you")])
        var o = PipelineOptions()
        o.secondPass = false
        _ = try ReceiptPipeline(engine: engine, options: o).process(image: image)
        #expect(engine.calls == 1)
    }

    /// Only the vendor in doubt: the second look reads the top third of the page, where names are printed.
    @Test func secondLookForADoubtfulVendor() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("tie\n03/14/2024\nSUBTOTAL 10.00\nTAX 0.80\nTOTAL $10.80"),
                                            .sparse: Self.page("HARBOR LANE HARDWARE LLC\n03/14/2024\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        let (w, h) = (image.withoutContrastNormalization.pageImage.width, image.withoutContrastNormalization.pageImage.height)
        #expect(engine.requests == [.page, OCRRequest(layout: .sparse, region: BoundingBox(x: 0, y: 0, width: w, height: h / 3), alternatives: true)])
        #expect(r.passes.last?.reason.hasPrefix("vendor confidence") == true)
        #expect(r.receipt.vendor?.value == "HARBOR LANE HARDWARE LLC")
        #expect(r.receipt.total?.value == Amount("10.80"))
    }

    @Test func lowConfidenceAsksForOrientation() throws {
        let engine = ScriptedEngine(pages: [nil: Self.page("x\ny", confidence: 0.2)])
        engine.turns = 1
        let r = try ReceiptPipeline(engine: engine).process(image: image)
        #expect(engine.orientationChecks == 1)
        #expect(r.passes.contains { $0.reason.hasPrefix("orientation") })
    }
}

@Suite("OCR cache (eval --ocr-cache), around a scripted engine")
struct CachingEngineTests {
    @Test func readsEachLookOnceAndKeysByPixelsAndRequest() throws {
        let dir = try TempDir()
        let image = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png").pages[0].pageImage
        let turned = image.rotated(quarterTurns: 1)
        let inner = ScriptedEngine(pages: [nil: ScriptedEngine.page("ACME LLC\nTOTAL 1.00"), .sparse: ScriptedEngine.page("SPARSE")])
        inner.turns = 2
        let cache = try CachingEngine(inner, directory: dir.path)
        let first = try cache.recognize(image)
        #expect(try cache.recognize(image) == first)
        #expect(inner.requests == [.page])
        // Another look, other pixels, or another region: read again.
        #expect(try cache.recognize(image, request: OCRRequest(layout: .sparse)).text == "SPARSE")
        _ = try cache.recognize(turned)
        let line = BoundingBox(x: 10, y: 20, width: 300, height: 40)
        _ = try cache.recognize(image, request: OCRRequest(layout: .singleLine, region: line))
        _ = try cache.recognize(image, request: OCRRequest(layout: .singleLine, region: line))
        _ = try cache.recognize(image, request: OCRRequest(layout: .singleLine, region: BoundingBox(x: 10, y: 60, width: 300, height: 40)))
        _ = try cache.recognize(image, request: OCRRequest(layout: .singleWord, region: line))
        #expect(inner.calls == 6)
        #expect(try cache.uprightQuarterTurns(image) == 2)
        inner.turns = 0
        #expect(try cache.uprightQuarterTurns(image) == 2)
        // A new engine on the same folder (the next eval run) reads nothing.
        let again = ScriptedEngine()
        let cache2 = try CachingEngine(again, directory: dir.path)
        #expect(try cache2.recognize(image) == first)
        #expect(again.calls == 0)
        #expect((cache.hits, cache.misses, cache2.hits) == (3, 7, 1))
        // The same pixels under another name are the same entry; another engine's identity is not.
        #expect(try cache2.recognize(image.named("copy.png")) == first)
        let other = try CachingEngine(ScriptedEngine(identity: "other"), directory: dir.path)
        #expect(try other.recognize(image).lines.isEmpty)
    }
}
