import Foundation
import Testing
@testable import ReceiptIngest
import ReceiptHostileInputs

@Suite("Ingest: loading and refusing images")
struct IngestTests {
    static let formats = ["receipt.jpg", "receipt.png", "receipt.tif", "receipt.bmp", "receipt.gif", "receipt.webp", "receipt.pgm"]

    @Test("reads every supported format", arguments: formats)
    func readsFormat(_ name: String) throws {
        let file = try Ingest.load(path: Repo.fixtures + "/formats/" + name)
        #expect(file.pages.count == 1)
        let image = file.pages[0]
        #expect(image.originalWidth == 520)
        #expect(image.originalHeight == 140)
        #expect(image.steps.contains("grayscale"))
        // 520 px is a small scan: upscaled to the minimum long side.
        #expect(image.width >= 1000)
    }

    @Test("a 600-dpi A4 JPEG is decoded by libjpeg at half size, in grey, never whole")
    func bigJPEGDecodedSmaller() throws {
        let path = Repo.samples + "/my-a4-invoice-01.jpg"  // 4961 × 7016: 34.8 Mpx, over the 24 Mpx default
        let page = try Ingest.load(path: path).pages[0]
        #expect(page.steps.first == "decode 1/2")
        #expect(page.originalWidth == 4961 && page.originalHeight == 7016)
        #expect(page.width == 2481 && page.height == 3508)  // libjpeg rounds an odd side up
        #expect(page.pageImage.bytesPerPixel == 1)
        var whole = IngestOptions()
        whole.reduceAbove = 0
        let full = try Ingest.load(path: path, options: whole).pages[0]
        #expect(!full.steps.contains { $0.hasPrefix("decode") })
        #expect(full.width == 4961 && full.originalWidth == 4961)
    }

    @Test("the reduction halves until the page is under the limit; a colour JPEG is read as grey")
    func reductionSteps() throws {
        let limits = DecodeLimits(maxPixels: 60_000_000, maxPages: 1, renderDPI: 300, reduceAbove: 24_000_000)
        #expect(limits.reduction(width: 4961, height: 7016) == 2)
        #expect(limits.reduction(width: 4000, height: 6000) == 1)
        #expect(limits.reduction(width: 9921, height: 14032) == 4)  // 1200 dpi A4
        #expect(limits.reduction(width: 100_000, height: 100_000) == 8)  // libjpeg reduces at most 8×
        #expect(DecodeLimits(maxPixels: 1, maxPages: 1, renderDPI: 300).reduction(width: 4961, height: 7016) == 1)
        var o = IngestOptions()
        o.reduceAbove = 20_000  // the 520 × 140 colour fixture: once halved, 260 × 70 = 18,200 px
        let jpeg = try Ingest.load(path: Repo.fixtures + "/formats/receipt.jpg", options: o).pages[0]
        #expect(jpeg.steps.contains("decode 1/2") && jpeg.originalWidth == 520 && jpeg.originalHeight == 140)
        #expect(jpeg.pageImage.bytesPerPixel == 1)
    }

    @Test("a page its decoder cannot read smaller is halved once grey")
    func bigPNGHalved() throws {
        var o = IngestOptions()
        o.reduceAbove = 10_000  // 520 × 140 → 260 × 70 → 130 × 35
        let page = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png", options: o).pages[0]
        #expect(page.steps.filter { $0 == "halve" }.count == 2)
        #expect(page.originalWidth == 520 && page.originalHeight == 140)
        #expect(!page.steps.contains { $0.hasPrefix("decode") })
    }

    @Test func loadsFromBytes() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.fixtures + "/formats/receipt.png"))
        let file = try Ingest.load(data: data, name: "upload.png")
        #expect(file.name == "upload.png" && file.pages[0].name == "upload.png" && file.pages[0].pageImage.name == "upload.png")
        #expect(file.format == .png)
    }

    func refusal(_ path: String, options: IngestOptions = IngestOptions()) -> IngestError? {
        do { _ = try Ingest.load(path: path, options: options); return nil } catch { return error }
    }

    @Test func missingFile() {
        let e = refusal("/nonexistent/receipt.jpg")
        #expect(e?.reason == .missing)
        #expect(e?.description == "/nonexistent/receipt.jpg: no such file")
    }

    @Test func emptyFile() throws {
        let dir = try TempDir()
        _ = FileManager.default.createFile(atPath: dir.file("empty.jpg"), contents: Data())
        #expect(refusal(dir.file("empty.jpg"))?.reason == .empty)
    }

    @Test func notAnImage() throws {
        let dir = try TempDir()
        _ = FileManager.default.createFile(atPath: dir.file("notes.jpg"), contents: Data("shopping list: milk, eggs".utf8))
        let e = refusal(dir.file("notes.jpg"))
        #expect(e?.reason == .notAnImage(supported: [.jpeg, .png, .tiff, .bmp, .gif, .webp, .pnm, .heif, .avif, .pdf]))
        #expect(e?.description == dir.file("notes.jpg") + ": not an image (supported: JPEG, PNG, TIFF, BMP, GIF, WebP, PNM, HEIC/HEIF, AVIF, PDF)")
    }

    @Test func directory() throws {
        let dir = try TempDir()
        #expect(refusal(dir.path)?.reason == .isDirectory)
    }

    @Test("truncated images are refused, not half-read", arguments: ["receipt.jpg", "receipt.png", "receipt.gif"])
    func truncated(_ name: String) throws {
        let dir = try TempDir()
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.fixtures + "/formats/" + name))
        _ = FileManager.default.createFile(atPath: dir.file(name), contents: data.prefix(data.count / 2))
        guard case .truncated? = refusal(dir.file(name))?.reason else {
            Issue.record("expected a truncation error for \(name), got \(String(describing: refusal(dir.file(name))))")
            return
        }
    }

    /// A scan with one byte of its entropy-coded data changed near the end: Leptonica stops at the
    /// scanline its file reader returns nothing for and gives no page (Tesseract's own reader neither);
    /// libjpeg reading from memory goes on, as viewers do, and the page says it was damaged. The
    /// rows above the damage are the undamaged file's, byte for byte.
    @Test("a JPEG with a damaged scan is read past the damage, and says so")
    func damagedJPEGReadPastTheDamage() throws {
        let path = Repo.samples + "/my-bakery-01.jpg"
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let b = [UInt8](good)
        let scan = try #require(HostileImages.jpegSegments(good).first { $0.marker == 0xDA })
        let sos = scan.offset + 2 + (Int(b[scan.offset + 2]) << 8 | Int(b[scan.offset + 3]))  // after the scan's header
        // The first byte in the scan's last fifth whose change Leptonica cannot read past.
        var damaged: Data?
        for at in stride(from: sos + (b.count - sos) * 4 / 5, to: b.count - 2, by: 97) where b[at] != 0xFF {
            var d = good
            d[at] = b[at] ^ 0x5A == 0xFF ? 0x7F : b[at] ^ 0x5A
            if PixImage.decodeJPEG(d, reduction: 1, luminance: true) == nil, PixImage.decodeJPEG(d, reduction: 1, luminance: false) == nil {
                damaged = d; break
            }
        }
        let bytes = try #require(damaged, "no change in the scan's last fifth stops Leptonica")
        var plain = IngestOptions()
        plain.contrastNormalize = false
        plain.deskew = false
        let read = try Ingest.load(data: bytes, name: "damaged.jpg", options: plain).pages[0]
        let step = try #require(read.steps.first { $0.hasPrefix("damaged JPEG") }, "\(read.steps)")
        #expect(step.contains("libjpeg: Corrupt JPEG data"), "\(step)")
        #expect(read.originalWidth == 540 && read.originalHeight == 970)
        let whole = try Ingest.load(path: path, options: plain).pages[0]
        #expect(whole.width == read.width && whole.height == read.height)
        let top = read.pageImage.bytesPerRow * (read.height / 2)
        #expect(read.pageImage.pixels.prefix(top) == whole.pageImage.pixels.prefix(top))
        // Cut at three quarters of its scan (an end marker after it): the rows before the cut, the rest blank.
        let cut = good.prefix(sos + (b.count - sos) * 3 / 4) + Data([0xFF, 0xD9])
        let part = try Ingest.load(data: cut, name: "cut.jpg", options: plain).pages[0]
        let partStep = try #require(part.steps.first { $0.hasPrefix("damaged JPEG") }, "\(part.steps)")
        #expect(partStep.contains("premature end of data segment") && partStep.hasSuffix("of 970 read, the rest left blank"), "\(partStep)")
        let lastRow = (part.height - 1) * part.pageImage.bytesPerRow
        let last = part.pageImage.pixels[lastRow..<(lastRow + part.width)]
        // Blank paper, the paper's grey: white would be a second paper to Tesseract's one threshold.
        let paper = try #require(last.first)
        #expect(paper > 150 && paper < 255 && last.allSatisfy { $0 == paper }, "\(Array(last.prefix(8)))")
        #expect(part.pageImage.pixels.prefix(top) == whole.pageImage.pixels.prefix(top))
        // Cut to its first third (an end marker after it), it is under half a page: refused as before.
        let stub = good.prefix(sos + (b.count - sos) / 3) + Data([0xFF, 0xD9])
        #expect(throws: IngestError.self) { try Ingest.load(data: stub, name: "stub.jpg") }
    }

    /// A PNG whose header claims 100000×100000 pixels: refused from the header, before any decoding.
    @Test func decompressionBomb() throws {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        var ihdr = Data("IHDR".utf8)
        for v in [UInt32(100_000), UInt32(100_000)] { withUnsafeBytes(of: v.bigEndian) { ihdr.append(contentsOf: $0) } }
        ihdr.append(contentsOf: [8, 0, 0, 0, 0])
        png.append(ihdr)
        png.append(contentsOf: [0, 0, 0, 0] + [UInt8](repeating: 0, count: 64))
        do {
            _ = try Ingest.load(data: png, name: "bomb.png")
            Issue.record("a 10-gigapixel image was accepted")
        } catch {
            #expect(error.reason == .tooLarge(width: 100_000, height: 100_000, limit: IngestOptions().maxPixels))
        }
    }

    /// A photo of paper on a grey table is cropped to the paper (then deskewed); a scan, white to its
    /// edges, is left whole; the option turns it off.
    @Test func photoIsCroppedToThePaperAndScansAreNot() throws {
        let photo = try Ingest.load(path: Repo.samples + "/photo-us-cafe-01.jpg").pages[0]
        let crop = try #require(photo.steps.first { $0.hasPrefix("crop to paper") })
        #expect(photo.width < photo.originalWidth && photo.height < photo.originalHeight, "\(crop)")
        // The paper is most of the photo, not a sliver of it.
        #expect(photo.width * photo.height * 2 > photo.originalWidth * photo.originalHeight)
        let scan = try Ingest.load(path: Repo.samples + "/my-hardware-01.jpg").pages[0]
        #expect(!scan.steps.contains { $0.hasPrefix("crop") })
        var o = IngestOptions()
        o.cropToPaper = false
        #expect(!(try Ingest.load(path: Repo.samples + "/photo-us-cafe-01.jpg", options: o)).pages[0].steps.contains { $0.hasPrefix("crop") })
    }

    @Test func pixelLimitIsAnOption() throws {
        var o = IngestOptions()
        o.maxPixels = 1000
        guard case .tooLarge? = refusal(Repo.fixtures + "/formats/receipt.png", options: o)?.reason else {
            Issue.record("limit not applied")
            return
        }
    }
}

