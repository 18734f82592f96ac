import Foundation
import Testing
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptPipeline
import ReceiptTestSupport

/// Print faded to light grey on a page with a black edge (a torn thermal roll) reads as nothing
/// with Tesseract's one threshold; the pipeline reads such a page again with the faint print
/// stretched. The page is made here from a project sample: its grey levels squeezed into
/// 102…245 and a black band added above and below.
@Suite("Pipeline: faint print")
struct FaintPrintTests {
    static func fadedTornPage() throws -> Data {
        var plain = IngestOptions()
        plain.contrastNormalize = false
        plain.deskew = false
        let page = try Ingest.load(path: Repo.samples + "/my-mart-01.jpg", options: plain).pages[0].pageImage
        #expect(page.bytesPerPixel == 1)
        let band = 25, w = page.width, h = page.height + 2 * band
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<page.height {
            for x in 0..<w {
                let v = Int(page.pixels[y * page.bytesPerRow + x])
                pixels[(y + band) * w + x] = UInt8(102 + v * 143 / 255)
            }
        }
        let faded = try #require(PageImage(name: "faded.png", width: w, height: h, bytesPerPixel: 1, pixels: pixels))
        return try #require(PNGEncoder.encode(faded))
    }

    static func wordLines(_ page: OCRPage) -> Int {
        page.lines.filter { $0.words.contains { $0.text.filter { $0.isLetter || $0.isNumber }.count >= 3 } }.count
    }

    @Test("a faded page with a black edge reads as nothing at first, and is read stretched")
    func fadedPageIsReadStretched() throws {
        let data = try Self.fadedTornPage()
        var off = PipelineOptions()
        off.stretchFaintPrint = false
        off.secondPass = false
        let stranger = try ReceiptPipeline(engine: TesseractEngine(), options: off).process(data: data, name: "faded.png")
        // The failure this guards against: without the stretch next to nothing is read.
        #expect(Self.wordLines(stranger.page) < 3)
        #expect(stranger.receipt.total == nil)

        var on = PipelineOptions()
        on.secondPass = false
        let read = try ReceiptPipeline(engine: TesseractEngine(), options: on).process(data: data, name: "faded.png")
        #expect(read.passes.map(\.reason) == ["first", "faint print stretched"])
        #expect(read.imageSteps.last == "faint-print stretch")
        #expect(Self.wordLines(read.page) > 15)
        #expect(read.receipt.total?.value.description == "51.50")
        #expect(read.receipt.date?.value == CalendarDate(year: 2019, month: 6, day: 10))
    }

    @Test("a page read well is never read again stretched")
    func clearPageIsReadOnce() throws {
        var o = PipelineOptions()
        o.secondPass = false
        let read = try ReceiptPipeline(engine: TesseractEngine(), options: o).process(path: Repo.samples + "/my-mart-01.jpg")
        #expect(!read.passes.map(\.reason).contains("faint print stretched"))
        #expect(!read.imageSteps.contains("faint-print stretch"))
    }
}
