import Foundation
import Testing
@testable import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline
import ReceiptTestSupport
import ReceiptHostileInputs
@testable import ReceiptsCLI

/// Normalisation off but grayscale: the decoder's pixels, to compare exactly.
let decoderPixelsOnly: IngestOptions = {
    var o = IngestOptions()
    o.cropToPaper = false; o.minLongSide = 0; o.deskew = false; o.contrastNormalize = false
    return o
}()

func formatFixture(_ name: String) -> String { Repo.fixtures + "/formats/" + name }
func fixtureData(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: formatFixture(name))) }

/// The error loading `data` as `name` gives (nil when it loads).
func ingestError(_ data: Data, _ name: String, _ options: IngestOptions = IngestOptions()) -> IngestError? {
    do { _ = try Ingest.load(data: data, name: name, options: options); return nil } catch { return error }
}

@Suite("Ingest: EXIF orientation of JPEG photos")
struct EXIFOrientationTests {
    /// `receipt-exif6.jpg` with its orientation tag set to `value` (PIL writes it big-endian,
    /// "MM": tag 0x0112, SHORT, count 1, then the value's two bytes).
    static func withOrientation(_ value: UInt8) throws -> Data {
        var d = try fixtureData("receipt-exif6.jpg")
        let entry = Data([0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01])
        let at = try #require(d.range(of: entry)).upperBound + 1
        #expect(d[at] == 6)
        d[at] = value
        return d
    }

    @Test func orientationSixIsTurnedUprightAtDecode() throws {
        let file = try Ingest.load(path: formatFixture("receipt-exif6.jpg"), options: decoderPixelsOnly)
        let page = file.pages[0]
        // Stored 140×520 (the photo lies on its side); upright it is the 520×140 receipt.
        #expect(page.originalWidth == 520 && page.originalHeight == 140)
        #expect(page.width == 520 && page.height == 140)
        #expect(page.steps.first == "EXIF orientation 6: rotate 90°")
        let stored = try Ingest.load(data: Self.withOrientation(1), name: "o1.jpg", options: decoderPixelsOnly).pages[0]
        #expect(stored.width == 140 && stored.height == 520 && !stored.steps.contains { $0.hasPrefix("EXIF") })
        #expect(page.pixelHash == stored.pageImage.rotated(quarterTurns: 1).pixelHash)
    }

    @Test("every EXIF orientation", arguments: [(3, 2), (8, 3), (6, 1)])
    func turns(_ value: Int, _ quarterTurns: Int) throws {
        let stored = try Ingest.load(data: Self.withOrientation(1), name: "o1.jpg", options: decoderPixelsOnly).pages[0].pageImage
        let turned = try Ingest.load(data: Self.withOrientation(UInt8(value)), name: "o.jpg", options: decoderPixelsOnly).pages[0]
        #expect(turned.pixelHash == stored.rotated(quarterTurns: quarterTurns).pixelHash)
    }

    @Test func mirroredOrientations() throws {
        let stored = try Ingest.load(data: Self.withOrientation(1), name: "o1.jpg", options: decoderPixelsOnly).pages[0].pageImage
        let mirrored = try Ingest.load(data: Self.withOrientation(2), name: "o2.jpg", options: decoderPixelsOnly).pages[0].pageImage
        #expect(mirrored.width == stored.width && mirrored.height == stored.height)
        // Mirrored left-right: row y of the mirror is row y of the stored image backwards.
        for (x, y) in [(0, 0), (10, 100), (139, 519), (70, 260)] {
            #expect(mirrored[x, y] == stored[stored.width - 1 - x, y])
        }
        // 5 (transpose) and 7 (transverse) swap the sides.
        for v: UInt8 in [5, 7] {
            let t = try Ingest.load(data: Self.withOrientation(v), name: "o.jpg", options: decoderPixelsOnly).pages[0]
            #expect(t.width == 520 && t.height == 140)
        }
        let transposed = try Ingest.load(data: Self.withOrientation(5), name: "o5.jpg", options: decoderPixelsOnly).pages[0].pageImage
        #expect(transposed[3, 100] == stored[100, 3] && transposed[519, 139] == stored[139, 519])
    }

    /// Tesseract reads the photo as the upright receipt, with no orientation model asked.
    @Test func pipelineReadsTheTurnedPhotoUpright() throws {
        var options = PipelineOptions()
        options.fixOrientation = false
        let r = try ReceiptPipeline(engine: try TesseractEngine(), options: options).process(path: formatFixture("receipt-exif6.jpg"))
        #expect(r.page.text.contains("TOTAL 12.50"))
        #expect(r.imageSteps.first == "EXIF orientation 6: rotate 90°")
    }

    @Test func damagedEXIFIsIgnoredNotTrusted() throws {
        // Orientation 9 does not exist: the image stays as stored.
        let bad = try Ingest.load(data: Self.withOrientation(9), name: "o9.jpg", options: decoderPixelsOnly).pages[0]
        #expect(bad.width == 140 && bad.height == 520)
        // A TIFF block whose IFD offset points past its end, and random bytes: no orientation, no crash.
        #expect(EXIF.tiffOrientation([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0]) == nil)
        // Little-endian ("II") blocks are read too.
        #expect(EXIF.tiffOrientation([0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]) == 8)
        #expect(EXIF.orientation(jpeg: Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45])) == nil)
        for seed in 0..<200 {
            var g = SystemRandomNumberGenerator()
            let junk = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x40] + Array("Exif".utf8) + [0, 0] + (0..<(seed % 90)).map { _ in UInt8.random(in: 0...255, using: &g) }
            _ = EXIF.orientation(jpeg: Data(junk))
        }
    }

    @Test func truncatedPhotoNamesTheFile() throws {
        let d = try fixtureData("receipt-exif6.jpg")
        let e = ingestError(d.prefix(d.count / 2), "IMG_0001.jpg")
        #expect(e?.description == "IMG_0001.jpg: truncated JPEG image (the file ends before the image does)")
    }
}

@Suite("Ingest and pipeline: multi-page files are one receipt")
struct MultiPageTests {
    @Test func everyPageOfATIFFIsDecoded() throws {
        let file = try Ingest.load(path: formatFixture("receipt-2pages.tif"))
        #expect(file.format == .tiff && file.pages.count == 2)
        #expect(file.pages.map(\.originalWidth) == [1080, 1080])
        #expect(file.pages.map(\.originalHeight) == [785, 800])
        #expect(file.pages[0].pixelHash != file.pages[1].pixelHash)
    }

    /// The vendor is on page 1, the total on page 2: both are found, and evidence names the page.
    @Test func pagesAreReadInOrderAndJoined() throws {
        let r = try ReceiptPipeline(engine: try TesseractEngine()).process(path: formatFixture("receipt-2pages.tif"))
        #expect(r.pageCount == 2 && r.reading.pages.count == 2)
        #expect(r.receipt.vendor?.value == "Harbor Lane Hardware LLC")
        #expect(r.receipt.vendor?.evidence.page == 1)
        #expect(r.receipt.total?.value == Amount("55.84"))
        #expect(r.receipt.total?.evidence.page == 2)
        #expect(r.receipt.date?.value == CalendarDate(year: 2024, month: 3, day: 4))
        // Page 2's lines come after page 1's, lower down.
        let vendorLine = try #require(r.receipt.vendor?.evidence.line), totalLine = try #require(r.receipt.total?.evidence.line)
        #expect(vendorLine < totalLine)
        #expect(r.passes.prefix(2).map(\.reason) == ["page 1: first", "page 2: first"])
        // Replayed from the stored reading, the same receipt, pages named the same.
        #expect(ReceiptParser().parse(r.reading).receipt == r.receipt)
        let coded = try JSONDecoder().decode(OCRReading.self, from: JSONEncoder().encode(r.reading))
        #expect(ReceiptParser().parse(coded).receipt == r.receipt)
    }

    @Test func tooManyPagesIsRefusedBeforeDecoding() throws {
        var o = IngestOptions()
        o.maxPages = 1
        let e = ingestError(try fixtureData("receipt-2pages.tif"), "long.tif", o)
        #expect(e == IngestError(file: "long.tif", reason: .tooManyPages(count: 2, limit: 1)))
        #expect(e?.description == "long.tif: 2 pages, over the limit of 1")
    }

    /// A TIFF whose second page claims 100000×100000 pixels: refused from its header, naming the page.
    @Test func bombOnPageTwo() throws {
        let tiff = TIFFMaker.file(pages: [(16, 16, true), (100_000, 100_000, false)])
        let e = ingestError(tiff, "bomb.tif")
        #expect(e == IngestError(file: "bomb.tif", reason: .tooLarge(width: 100_000, height: 100_000, limit: IngestOptions().maxPixels), page: 2))
        #expect(e?.description == "bomb.tif: page 2: image is 100000×100000 pixels, over the limit of 60 megapixels")
        // The same file with a sane second page reads both.
        #expect(try Ingest.load(data: TIFFMaker.file(pages: [(16, 16, true), (24, 8, true)]), name: "ok.tif").pages.count == 2)
    }

    @Test func truncatedSecondPageNamesFileAndFails() throws {
        let tiff = TIFFMaker.file(pages: [(16, 16, true), (400, 400, true)])
        let e = ingestError(tiff.prefix(tiff.count - 9000), "cut.tif")
        #expect(e?.description == "cut.tif: page 2: truncated TIFF image (the file ends before the image does)")
        // The real two-page scan cut short: refused, never read as one page.
        let real = try fixtureData("receipt-2pages.tif")
        #expect(ingestError(real.prefix(real.count * 3 / 4), "scan.tif")?.reason == .truncated(.tiff))
    }
}

/// Minimal uncompressed 8-bit grey TIFFs, page by page; a page's pixels may be left out
/// (`withPixels` false) so its header can claim any size.
enum TIFFMaker {
    static func file(pages: [(width: Int, height: Int, withPixels: Bool)]) -> Data {
        var d = Data([0x49, 0x49, 42, 0, 0, 0, 0, 0])
        var nextPointer = 4
        func put32(_ v: Int, at: Int) { for k in 0..<4 { d[at + k] = UInt8((v >> (8 * k)) & 0xFF) } }
        for (i, p) in pages.enumerated() {
            let dataOffset = d.count
            let bytes = p.withPixels ? p.width * p.height : 64
            d += (0..<bytes).map { UInt8(($0 * 7 + i * 50) % 256) }
            if d.count % 2 == 1 { d.append(0) }
            let ifd = d.count
            put32(ifd, at: nextPointer)
            let entries: [(UInt16, UInt16, Int)] = [
                (256, 4, p.width), (257, 4, p.height), (258, 3, 8), (259, 3, 1), (262, 3, 1),
                (273, 4, dataOffset), (277, 3, 1), (278, 4, p.height), (279, 4, p.width * p.height),
            ]
            d += [UInt8(entries.count), 0]
            for (tag, type, value) in entries {
                d += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0]
                d += (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
            }
            nextPointer = d.count
            d += [0, 0, 0, 0]
        }
        return d
    }
}

@Suite("Ingest: HEIC/HEIF and AVIF through libheif")
struct HEIFTests {
    @Test("reads the primary image", arguments: ["receipt.heic", "receipt.avif"])
    func readsPrimaryImage(_ name: String) throws {
        let file = try Ingest.load(path: formatFixture(name))
        #expect(file.format == (name.hasSuffix("avif") ? .avif : .heif))
        #expect(file.pages.count == 1)
        #expect(file.pages[0].originalWidth == 520 && file.pages[0].originalHeight == 140)
        let r = try ReceiptPipeline(engine: try TesseractEngine()).process(file: file)
        #expect(r.page.text.contains("TOTAL 12.50"), "\(r.page.text)")
    }

    /// Stored on its side with an `irot` transform: upright after decoding, read without the orientation model.
    @Test func transformsAreApplied() throws {
        let page = try Ingest.load(path: formatFixture("receipt-irot.heic"), options: decoderPixelsOnly).pages[0]
        #expect(page.width == 520 && page.height == 140)
        var options = PipelineOptions()
        options.fixOrientation = false
        let r = try ReceiptPipeline(engine: try TesseractEngine(), options: options).process(path: formatFixture("receipt-irot.heic"))
        #expect(r.page.text.contains("TOTAL 12.50"))
        #expect(r.receipt.vendor?.value == "ACME STORES LLC")
    }

    @Test func truncatedNamesTheFile() throws {
        let d = try fixtureData("receipt.heic")
        #expect(ingestError(d.prefix(2000), "IMG_0002.HEIC")?.description
            == "IMG_0002.HEIC: truncated HEIF image (the file ends before the image does)")
        // Cut inside its header boxes: damaged, in libheif's words.
        let e = ingestError(d.prefix(200), "IMG_0003.heic")
        #expect(e?.description.hasPrefix("IMG_0003.heic: damaged HEIF: ") == true, "\(String(describing: e))")
    }

    /// A header (`ispe`) claiming 100000×100000: refused before decoding.
    @Test func bombIsRefusedFromItsHeader() throws {
        var d = try fixtureData("receipt.heic")
        let ispe = try #require(d.range(of: Data("ispe".utf8))).upperBound + 4
        for (k, v) in [(0, 100_000), (4, 100_000)] { for b in 0..<4 { d[ispe + k + b] = UInt8((v >> (8 * (3 - b))) & 0xFF) } }
        let e = ingestError(d, "bomb.heic")
        #expect(e?.description == "bomb.heic: image is 100000×100000 pixels, over the limit of 60 megapixels", "\(String(describing: e))")
        // 30000×30000 is within libheif's own limit (32768 a side): our pixel limit refuses it.
        for (k, v) in [(0, 30_000), (4, 30_000)] { for b in 0..<4 { d[ispe + k + b] = UInt8((v >> (8 * (3 - b))) & 0xFF) } }
        #expect(ingestError(d, "big.heic") == IngestError(file: "big.heic", reason: .tooLarge(width: 30_000, height: 30_000, limit: IngestOptions().maxPixels)))
    }

    @Test func sniffedByContent() throws {
        // A HEIC named .jpg is read as HEIC; a JPEG named .heic as JPEG.
        #expect(try Ingest.load(data: fixtureData("receipt.heic"), name: "photo.jpg").format == .heif)
        #expect(try Ingest.load(data: fixtureData("receipt.jpg"), name: "photo.heic").format == .jpeg)
        #expect(HEIFDecoder().sniff(Data("....ftypisom\0\0\0\0isomiso2".utf8)) == nil)  // an MP4 is not an image
    }
}

@Suite("Ingest and pipeline: PDF through Poppler")
struct PDFTests {
    /// An engine that must not be asked: any call is recorded and fails.
    static func noOCR() -> ScriptedEngine { ScriptedEngine(pages: [:]) }

    @Test func textLayerIsParsedWithoutOCR() throws {
        let engine = Self.noOCR()
        let r = try ReceiptPipeline(engine: engine).process(path: formatFixture("receipt-text.pdf"))
        #expect(engine.calls == 0)
        #expect(r.passes.isEmpty && r.textLayerPages == 1 && r.reading.isTextLayer)
        #expect(r.receipt.vendor?.value == "Chapter & Verse Books Ltd")
        #expect(r.receipt.date?.value == CalendarDate(year: 2024, month: 10, day: 12))
        #expect(r.receipt.total?.value == Amount("32.49"))
        #expect(r.receipt.currency?.value == "GBP")
        // Exact characters, a printed row a line (amount beside its label), every word with a box inside the page.
        #expect(r.page.lines.map(\.text).contains("TOTAL GBP 32.49"))
        #expect(r.page.lines.map(\.text).contains("VISA ************4471 32.49"))
        let words = r.page.lines.flatMap(\.words)
        #expect(words.allSatisfy { w in w.confidence == 1 && w.box.map { $0.x >= 0 && $0.maxX <= r.page.width && $0.maxY <= r.page.height } == true })
        // The total's box lies on the total's row: below the date's.
        #expect((r.receipt.total?.evidence.box?.y ?? 0) > (r.receipt.date?.evidence.box?.y ?? .max))
        // A stored reading replays the same receipt.
        #expect(ReceiptParser().parse(r.reading).receipt == r.receipt)
    }

    @Test func textLayerOfTwoPagesNamesThePages() throws {
        let engine = Self.noOCR()
        let r = try ReceiptPipeline(engine: engine).process(path: formatFixture("receipt-text-2pages.pdf"))
        #expect(engine.calls == 0)
        #expect(r.pageCount == 2 && r.textLayerPages == 2)
        #expect(r.receipt.vendor?.evidence.page == 1)
        #expect(r.receipt.total?.value == Amount("32.49") && r.receipt.total?.evidence.page == 2)
        #expect(ReceiptParser().parse(r.reading).receipt == r.receipt)
    }

    /// The CLI's JSON says no OCR ran: source "text-layer", no passes, engine "none".
    @Test func jsonSaysTextLayer() throws {
        let c = CapturingConsole()
        let code = CLI.run(["parse", "--json", formatFixture("receipt-text.pdf")], context: CommandContext(console: c.console))
        #expect(code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(c.stdout.utf8)) as? [String: Any])
        let ocr = try #require(json["ocr"] as? [String: Any])
        #expect(ocr["source"] as? String == "text-layer")
        #expect(ocr["engine"] as? String == "none")
        #expect((ocr["passes"] as? [Any])?.isEmpty == true)
        #expect(ocr["page_count"] as? Int == 1)
        #expect((json["total"] as? [String: Any])?["value"] as? String == "32.49")
    }

    @Test func scannedPageIsRenderedAndRead() throws {
        let file = try Ingest.load(path: formatFixture("receipt-scan.pdf"))
        #expect(file.format == .pdf && file.pages.count == 1 && file.pages[0].textLayer == nil)
        // 3.6 × 5.28 in at 300 dpi: the scan's own pixels.
        #expect(file.pages[0].originalWidth == 1080 && file.pages[0].originalHeight == 1585)
        #expect(file.pages[0].steps.first == "PDF page rendered at 300 dpi")
        let r = try ReceiptPipeline(engine: try TesseractEngine()).process(file: file)
        #expect(!r.passes.isEmpty && r.textLayerPages == 0)
        #expect(r.receipt.vendor?.value == "Harbor Lane Hardware LLC")
        #expect(r.receipt.total?.value == Amount("55.84"))
    }

    /// Page 1 with a text layer, page 2 a scan: the text taken as it is, the scan OCR'd, joined.
    @Test func textAndScannedPagesInOneFile() throws {
        let engine = try TesseractEngine()
        let r = try ReceiptPipeline(engine: engine).process(path: formatFixture("receipt-mixed.pdf"))
        #expect(r.pageCount == 2 && r.textLayerPages == 1)
        #expect(r.passes.map(\.reason).first == "page 2: first")
        #expect(r.reading.pages.map { $0.textLayer == true } == [true, false])
        #expect(r.receipt.vendor?.value == "Chapter & Verse Books Ltd" && r.receipt.vendor?.evidence.page == 1)
        #expect(r.page.lines.last.map(\.text)?.contains("TOTAL 12.50") == true, "\(r.page.text)")
        #expect(ReceiptParser().parse(r.reading).receipt == r.receipt)
    }

    @Test func truncatedDamagedAndEncryptedNameTheFile() throws {
        let d = try fixtureData("receipt-text.pdf")
        #expect(ingestError(d.prefix(d.count / 2), "cut.pdf")?.description
            == "cut.pdf: truncated PDF document (the file ends before the document does)")
        let junk = Data("%PDF-1.4\nthis is not a document at all\n%%EOF\n".utf8)
        let e = ingestError(junk, "junk.pdf")
        #expect(e?.description.hasPrefix("junk.pdf: damaged PDF: ") == true, "\(String(describing: e))")
        #expect(ingestError(try fixtureData("receipt-encrypted.pdf"), "locked.pdf")?.description
            == "locked.pdf: the PDF is encrypted (needs a password)")
    }

    @Test func pageLimitAndRenderSizeLimit() throws {
        var o = IngestOptions()
        o.maxPages = 1
        #expect(ingestError(try fixtureData("receipt-text-2pages.pdf"), "two.pdf", o)
            == IngestError(file: "two.pdf", reason: .tooManyPages(count: 2, limit: 1)))
        // A page of 200 × 200 inches without text: 60000 × 60000 pixels at 300 dpi, refused before rendering.
        let huge = Self.minimalPDF(mediaBox: "0 0 14400 14400")
        let e = ingestError(huge, "poster.pdf")
        #expect(e == IngestError(file: "poster.pdf", reason: .tooLarge(width: 60_000, height: 60_000, limit: IngestOptions().maxPixels)))
        #expect(e?.description == "poster.pdf: image is 60000×60000 pixels, over the limit of 60 megapixels")
        // The same structure at a receipt's size is read (a blank page: one page, no text layer).
        #expect(try Ingest.load(data: Self.minimalPDF(mediaBox: "0 0 226 600"), name: "blank.pdf").pages.count == 1)
    }

    /// One empty page with the given MediaBox, with a correct cross-reference table.
    static func minimalPDF(mediaBox: String) -> Data {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [\(mediaBox)] >>",
        ]
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }
}

@Suite("A damaged JPEG needs review")
struct DamagedJPEGReviewTests {
    /// A sample cut at three quarters of its scan (an end marker after it): libjpeg reads the rows before the cut, the
    /// rest is left blank, and part of the receipt may be missing. The receipt says so and needs review, and a re-parse
    /// of the stored reading still knows it.
    @Test func aPageWithRowsLostNeedsReviewAndKeepsSaying() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: Repo.samples + "/my-bakery-01.jpg"))
        let b = [UInt8](good)
        let scan = try #require(HostileImages.jpegSegments(good).first { $0.marker == 0xDA })
        let sos = scan.offset + 2 + (Int(b[scan.offset + 2]) << 8 | Int(b[scan.offset + 3]))
        let cut = good.prefix(sos + (b.count - sos) * 3 / 4) + Data([0xFF, 0xD9])
        let pipeline = ReceiptPipeline(engine: try TesseractEngine())
        let r = try pipeline.process(data: cut, name: "cut.jpg")
        let warning = try #require(r.receipt.warnings?.first { $0.hasPrefix("the image is incomplete: rows 1–") }, "\(r.receipt.warnings ?? [])")
        #expect(warning.hasSuffix(" of 970 read, the rest left blank"), "\(warning)")
        #expect(ReviewPolicy.needsReview(r.receipt))
        #expect(ReviewPolicy.reason(r.receipt) == warning)
        #expect(r.reading.pages[0].lostRows.map { "the image is incomplete: " + $0 } == warning)
        // Stored and read back (JSON, as the store keeps it), parsed again: the same warning.
        let stored = try JSONDecoder().decode(OCRReading.self, from: JSONEncoder().encode(r.reading))
        #expect(ReceiptParser().parse(stored).receipt.warnings == r.receipt.warnings)
        // The whole sample: no warning, and it needs no review for that.
        let whole = try pipeline.process(data: good, name: "whole.jpg")
        #expect(whole.receipt.warnings == nil)
        #expect(whole.reading.pages[0].lostRows == nil)
    }

    /// A reading stored before `lost_rows` existed decodes with none; one with it writes it under that key.
    @Test func lostRowsIsAnOptionalKeyOfTheReading() throws {
        let page = OCRPage(text: "SHOP\nTOTAL 1.00")
        let old = try JSONEncoder().encode(OCRReading(first: page))
        #expect(!String(decoding: old, as: UTF8.self).contains("lost_rows"))
        #expect(try JSONDecoder().decode(OCRReading.self, from: old).pages[0].lostRows == nil)
        let lost = OCRReading(pages: OCRReading.Page(first: page, lostRows: "rows 1–10 of 20 read, the rest left blank"))
        #expect(String(decoding: try JSONEncoder().encode(lost), as: UTF8.self).contains("\"lost_rows\""))
        let parsed = ReceiptParser().parse(lost).receipt
        #expect(parsed.warnings == ["the image is incomplete: rows 1–10 of 20 read, the rest left blank"])
        #expect(ReviewPolicy.reason(parsed) == "the image is incomplete: rows 1–10 of 20 read, the rest left blank")
    }
}
