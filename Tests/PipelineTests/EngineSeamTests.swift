import Foundation
import Testing
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline
import ReceiptTestSupport
@testable import ReceiptsCLI

struct SomeEngineError: Error, Equatable {}

@Suite("Pipeline around failing and scripted engines")
struct EngineFailureTests {
    static let sample = Repo.fixtures + "/formats/receipt.png"
    static let doubtful = ScriptedEngine.page("ACME LLC\n03/14/2024\nthank you")

    @Test func recognitionFailureNamesTheFile() throws {
        #expect(throws: OCRError.recognitionFailed(file: Self.sample)) {
            try ReceiptPipeline(engine: FailingEngine(.recognitionFailed)).process(path: Self.sample)
        }
        #expect(throws: OCRError.recognitionFailed(file: "upload.png")) {
            try ReceiptPipeline(engine: FailingEngine(.recognitionFailed))
                .process(data: try Data(contentsOf: URL(fileURLWithPath: Self.sample)), name: "upload.png")
        }
    }

    @Test func timeoutOnTheSecondLookIsATimeoutForThatFile() throws {
        let engine = FailingEngine(.timeout(seconds: 60), succeedFirst: 1, page: Self.doubtful)
        do {
            _ = try ReceiptPipeline(engine: engine).process(path: Self.sample)
            Issue.record("a timed-out second look gave a result")
        } catch {
            #expect(error as? OCRError == .timedOut(file: Self.sample, seconds: 60))
            #expect(FailureReport(error).code == "timeout")
        }
        #expect(engine.calls == 2)
        // Without a second look the first reading stands.
        var o = PipelineOptions()
        o.secondPass = false
        let r = try ReceiptPipeline(engine: FailingEngine(.timeout(seconds: 60), succeedFirst: 1, page: Self.doubtful), options: o)
            .process(path: Self.sample)
        #expect(r.receipt.date?.value == CalendarDate(year: 2024, month: 3, day: 14))
    }

    @Test func orientationFailureAndOtherErrorsPropagate() throws {
        #expect(throws: OCRError.recognitionFailed(file: Self.sample)) {
            try ReceiptPipeline(engine: FailingEngine(.recognitionFailed, succeedFirst: 1, failOrientation: true)).process(path: Self.sample)
        }
        #expect(throws: SomeEngineError()) {
            try ReceiptPipeline(engine: FailingEngine(.error(SomeEngineError()))).process(path: Self.sample)
        }
        #expect(FailureReport(OCRError.recognitionFailed(file: "x")).code == "ocr-failed")
    }

    @Test func emptyPageGivesAReceiptWithNoFields() throws {
        let engine = FailingEngine(.emptyPage)
        let r = try ReceiptPipeline(engine: engine).process(path: Self.sample)
        #expect(r.page.lines.isEmpty)
        #expect(r.receipt.vendor == nil && r.receipt.date == nil && r.receipt.total == nil)
        #expect(r.receipt.lineItems.isEmpty)
        #expect(r.passes.map(\.reason) == ["first", "no total found"])
        #expect(ReviewPolicy.needsReview(r.receipt))
    }

    @Test func regionRequestReachesTheEngineWithItsBox() throws {
        let engine = ScriptedEngine()
        engine.regionPage = { box in OCRPage(lines: [OCRLine(words: [OCRWord(text: "TOTAL", box: box)])]) }
        let pipeline = ReceiptPipeline(engine: engine)
        let image = try Ingest.load(path: Self.sample).pages[0]
        let box = BoundingBox(x: 40, y: 120, width: 600, height: 60)
        let page = try pipeline.read(region: box, of: image)
        #expect(engine.requests == [OCRRequest(layout: .singleLine, region: box, alternatives: true)])
        #expect(engine.imageSizes.map(\.width) == [image.width])
        #expect(page.lines.first?.words.first?.box == box)
        _ = try pipeline.read(region: box, of: image, layout: .singleWord)
        #expect(engine.requests.last == OCRRequest(layout: .singleWord, region: box, alternatives: true))
    }

    @Test func rowsWithAFieldAreReadAgainAloneAndKeptInTheReading() throws {
        // The page: a total row with boxes; the engine answers a region read with "TOTAL 6.27".
        func boxed(_ text: String, y: Int) -> OCRLine {
            OCRLine(words: text.split(separator: " ").enumerated().map { j, w in
                OCRWord(text: String(w), box: BoundingBox(x: 20 + 90 * j, y: y, width: 80, height: 20), confidence: 0.9)
            })
        }
        let lines = [boxed("CORNER BAKERY LTD", y: 10), boxed("Date: 14/03/2024", y: 40), boxed("SUBTOTAL 5.70", y: 70),
                     boxed("VAT 0.57", y: 100), boxed("TOTAL", y: 130)]  // VAT: no sum is made without a total line
        let engine = ScriptedEngine(pages: [nil: OCRPage(lines: lines)])
        engine.regionPage = { box in
            box.y < 130 && box.maxY > 150 ? OCRPage(lines: [boxed("TOTAL 6.27", y: 130)]) : OCRPage(lines: [])
        }
        // Rows are read again on a total doubt when asked to (by default only on a date doubt).
        var asked = PipelineOptions()
        asked.rereadWhenDoubting = [.total]
        let r = try ReceiptPipeline(engine: engine, options: asked).process(path: Self.sample)
        let regionRequests = engine.requests.filter { $0.region != nil }
        #expect(regionRequests.count == 4, "date, subtotal, tax and total rows")
        #expect(regionRequests.allSatisfy { $0.layout == .singleLine })
        #expect(r.receipt.total?.value.description == "6.27")
        #expect(r.rereads.count == 4)
        #expect(r.reading.lineRereads.count == 4)
        // Replayed without OCR, the reading gives the same receipt.
        #expect(ReceiptParser().parse(r.reading).receipt == r.receipt)
        // --no-reread: no region reads, the misread total stays.
        var options = asked
        options.rereadLines = false
        let plain = ScriptedEngine(pages: [nil: OCRPage(lines: lines)])
        let p = try ReceiptPipeline(engine: plain, options: options).process(path: Self.sample)
        #expect(plain.requests.allSatisfy { $0.region == nil })
        #expect(p.receipt.total?.value.description != "6.27")
        // The defaults: a total doubt alone has no row read again.
        let byDefault = ScriptedEngine(pages: [nil: OCRPage(lines: lines)])
        byDefault.regionPage = engine.regionPage
        let d = try ReceiptPipeline(engine: byDefault).process(path: Self.sample)
        #expect(d.rereads.isEmpty && d.receipt.total?.value.description != "6.27")
    }

    @Test func passesAreNamedByLayout() throws {
        let engine = ScriptedEngine(pages: [nil: Self.doubtful, .sparse: ScriptedEngine.page("ACME LLC\n03/14/2024\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine).process(path: Self.sample)
        #expect(r.passes.map(\.name) == ["default", "psm11"])
        #expect(OCRRequest(layout: .singleLine, region: BoundingBox(x: 1, y: 2, width: 3, height: 4)).name == "psm7 region 1,2 3x4")
    }

    /// One file, several pages: every page is read, in order, and the lines are joined.
    @Test func multiPageFileReadsEveryPage() throws {
        var options = PipelineOptions()
        options.ingest = DecoderRegistryTests.withXYZ
        options.secondPass = false
        options.rereadLines = false
        let engine = ScriptedEngine(pages: [nil: ScriptedEngine.page("ACME LLC\n03/14/2024\nSUBTOTAL 10.00\nTAX 0.80\nTOTAL $10.80")])
        let r = try ReceiptPipeline(engine: engine, options: options)
            .process(data: XYZDecoder.file(width: 120, height: 80, pages: 3), name: "scan.xyz")
        #expect(engine.calls == 3)
        #expect(r.pageCount == 3 && r.reading.pages.count == 3)
        #expect(r.passes.map(\.reason) == ["page 1: first", "page 2: first", "page 3: first"])
        #expect(r.page.lines.count == 15)
        #expect(r.imageSteps.last == "3 pages joined")
        let single = try ReceiptPipeline(engine: engine).process(path: Self.sample)
        #expect(single.pageCount == 1 && !single.imageSteps.contains { $0.hasPrefix("page") })
    }
}

@Suite("CLI pipeline setup: the engine is injected")
struct EngineFactoryTests {
    @Test func setupTakesAnyEngine() throws {
        var made = try PipelineSetup.make(PipelineArgs())
        made.makeEngine = { _ in ScriptedEngine(identity: "fake 1.0") }
        let pipeline = try made.makePipeline()
        #expect(pipeline.engine.identity == "fake 1.0")
        #expect(try pipeline.process(path: EngineFailureTests.sample).passes.first?.name == "default")
    }

    @Test func engineThatCannotStartIsAMissingDependency() throws {
        var made = try PipelineSetup.make(PipelineArgs())
        made.makeEngine = { _ in throw OCRError.missingLanguageData(language: "eng", searched: ["/nowhere"]) }
        do {
            _ = try made.makePipeline()
            Issue.record("a pipeline without an engine")
        } catch let e as CLIFailure {
            #expect(e.code == .missingDependency)
            #expect(e.message.contains("/nowhere"))
        }
    }

    @Test func psmNumbersMapToLayouts() throws {
        for (n, layout) in [(3, PageLayout.auto), (4, .singleColumn), (6, .singleBlock), (7, .singleLine), (8, .singleWord), (11, .sparse)] {
            let made = try PipelineSetup.make(PipelineArgs.group.parse(["--psm", String(n)]))
            #expect(made.ocr.layout == layout)
            #expect(layout.psm == n)
        }
        #expect(try PipelineSetup.make(PipelineArgs()).ocr.layout == .singleBlock)
        #expect(throws: UsageError.self) { try PipelineArgs.group.parse(["--psm", "5"]) }
    }
}

@Suite("OCR: regions of a page, with the real Tesseract")
struct RegionOCRTests {
    /// Reading one line's box returns that line's words, boxed in page coordinates, and nothing else.
    @Test func regionReadReturnsOnlyTheWordsInside() throws {
        let engine = try TesseractEngine()
        let image = try Ingest.load(path: Repo.samples + "/us-hardware-01.png").pages[0]
        let page = try engine.recognize(image.pageImage)
        let lines = page.lines.filter { $0.words.count >= 3 && $0.confidence > 0.85 }
        let target = try #require(lines.dropFirst(lines.count / 2).first, "no clear line in the middle of the page")
        let lineBox = try #require(target.box)
        let region = BoundingBox(x: lineBox.x - 6, y: lineBox.y - 6, width: lineBox.width + 12, height: lineBox.height + 12)

        let read = try engine.recognize(image.pageImage, request: OCRRequest(layout: .singleBlock, region: region))
        let words = read.lines.flatMap(\.words)
        #expect(!words.isEmpty)
        for w in words {
            let b = try #require(w.box)
            #expect(b.x >= region.x && b.y >= region.y && b.maxX <= region.maxX && b.maxY <= region.maxY, "\(w.text) at \(b) outside \(region)")
        }
        #expect(read.lines.count == 1)
        // Read alone, the line reads (nearly) as it did in the whole page.
        let same = Set(target.words.map(\.text)).intersection(words.map(\.text))
        #expect(same.count * 3 >= target.words.count * 2, "region: '\(read.text)', whole page: '\(target.text)'")
        #expect((read.width, read.height) == (image.width, image.height))
        // Nothing from the first line of the page.
        let firstWords = Set(page.lines[0].words.map(\.text)).subtracting(target.words.map(\.text))
        #expect(firstWords.isDisjoint(with: words.map(\.text)))

        // A region partly off the page is clipped to it; one wholly off the page reads nothing.
        let wide = try engine.recognize(image.pageImage, request: OCRRequest(layout: .singleLine,
            region: BoundingBox(x: -50, y: region.y, width: image.width + 100, height: region.height)))
        #expect(!wide.lines.isEmpty && wide.lines.flatMap(\.words).allSatisfy { ($0.box?.y ?? -1) >= region.y })
        let off = try engine.recognize(image.pageImage, request: OCRRequest(region: BoundingBox(x: image.width + 10, y: 0, width: 50, height: 50)))
        #expect(off.lines.isEmpty)
    }
}
