import Foundation
import ReceiptSupport
import Testing
import ReceiptModel
@testable import ReceiptIngest
import ReceiptPipeline

/// A grey image from a function of the pixel position.
func grayImage(_ w: Int, _ h: Int, name: String = "synthetic", _ value: (Int, Int) -> UInt8) -> PageImage {
    var px = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h { for x in 0..<w { px[y * w + x] = value(x, y) } }
    return PageImage(name: name, width: w, height: h, bytesPerPixel: 1, pixels: px)!
}

@Suite("PageImage: the plain pixels OCR reads")
struct PageImageTests {
    @Test func sizesThatDoNotAddUpAreRefused() {
        #expect(PageImage(width: 2, height: 2, bytesPerPixel: 1, pixels: [0, 0, 0]) == nil)
        #expect(PageImage(width: 2, height: 2, bytesPerPixel: 3, pixels: .init(repeating: 0, count: 12)) == nil)
        #expect(PageImage(width: 2, height: 2, bytesPerPixel: 1, bytesPerRow: 1, pixels: .init(repeating: 0, count: 4)) == nil)
        #expect(PageImage(width: 0, height: 2, bytesPerPixel: 1, pixels: []) == nil)
        #expect(PageImage(width: 2, height: 2, bytesPerPixel: 4, pixels: .init(repeating: 0, count: 16)) != nil)
    }

    @Test func equalPixelsHashEquallyAndOnePixelChangesTheHash() {
        let a = grayImage(37, 23) { x, y in UInt8((x * 7 + y * 3) % 256) }
        let b = grayImage(37, 23, name: "other name") { x, y in UInt8((x * 7 + y * 3) % 256) }
        #expect(a.pixelHash == b.pixelHash)
        // The same pixels with wider rows (padding) hash the same.
        var padded = [UInt8](repeating: 0xEE, count: 40 * 23)
        for y in 0..<23 { for x in 0..<37 { padded[y * 40 + x] = a[x, y] } }
        #expect(PageImage(width: 37, height: 23, bytesPerPixel: 1, bytesPerRow: 40, pixels: padded)!.pixelHash == a.pixelHash)
        for (x, y) in [(0, 0), (36, 22), (35, 10), (36, 5)] {
            let c = grayImage(37, 23) { px, py in UInt8((px * 7 + py * 3) % 256) &+ (px == x && py == y ? 1 : 0) }
            #expect(c.pixelHash != a.pixelHash, "pixel \(x),\(y)")
        }
        // Same bytes, other shape: another hash.
        #expect(grayImage(23, 37) { x, y in UInt8((y * 23 + x) % 251) }.pixelHash
                != grayImage(37, 23) { x, y in UInt8((y * 37 + x) % 251) }.pixelHash)
    }

    /// The hash is the one the C shim computed over Leptonica's words, so old OCR caches stay valid.
    @Test func hashMatchesLeptonicaWordHash() throws {
        let a = grayImage(5, 2) { x, y in UInt8(10 * y + x) }
        // Words per row: [0,1,2,3] [4,0,0,0]; then [10,11,12,13] [14,0,0,0].
        var h: UInt64 = 1_469_598_103_934_665_603
        for v: UInt64 in [5, 2, 8, 0x0001_0203, 0x0400_0000, 0x0A0B_0C0D, 0x0E00_0000] { h = (h ^ v) &* 1_099_511_628_211 }
        #expect(a.pixelHash == h)
    }

    /// The one FNV-1a 64 (pixel hashes, the traineddata checksum) gives the published values for bytes.
    @Test func fnv1aMatchesItsPublishedTestVectors() {
        for (text, expected): (String, UInt64) in [("", 0xcbf2_9ce4_8422_2325), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)] {
            var h = FNV1a64()
            Array(text.utf8).withUnsafeBytes { h.add(bytes: $0) }
            #expect(h.value == expected, "\"\(text)\"")
        }
    }

    @Test func quarterTurnsAreClockwise() throws {
        // 3 wide, 2 high:  a b c / d e f
        let img = PageImage(width: 3, height: 2, bytesPerPixel: 1, pixels: [1, 2, 3, 4, 5, 6], resolution: (150, 150))!
        let cw = img.rotated(quarterTurns: 1)
        #expect((cw.width, cw.height) == (2, 3))
        // Clockwise: d a / e b / f c
        #expect([cw[0, 0], cw[1, 0], cw[0, 1], cw[1, 1], cw[0, 2], cw[1, 2]] == [4, 1, 5, 2, 6, 3])
        let half = img.rotated(quarterTurns: 2)
        #expect([half[0, 0], half[1, 0], half[2, 0], half[0, 1], half[1, 1], half[2, 1]] == [6, 5, 4, 3, 2, 1])
        let ccw = img.rotated(quarterTurns: -1)
        #expect([ccw[0, 0], ccw[1, 0], ccw[0, 1], ccw[1, 1], ccw[0, 2], ccw[1, 2]] == [3, 6, 2, 5, 1, 4])
        #expect(img.rotated(quarterTurns: 3).pixelHash == ccw.pixelHash)
        #expect(cw.rotated(quarterTurns: 3).pixelHash == img.pixelHash)
        #expect(cw.resolution == (150, 150) && cw.name == img.name)
        // Colour pixels move whole.
        let rgba = PageImage(width: 2, height: 1, bytesPerPixel: 4, pixels: [1, 2, 3, 4, 5, 6, 7, 8])!.rotated(quarterTurns: 1)
        #expect((rgba.width, rgba.height) == (1, 2))
        #expect(Array(rgba.pixels[0..<4]) == [1, 2, 3, 4] && Array(rgba.pixels[rgba.bytesPerRow..<rgba.bytesPerRow + 4]) == [5, 6, 7, 8])
    }

    @Test func leptonicaRoundTripKeepsPixelsAndResolution() throws {
        for bpp in [1, 4] {
            let w = 13, h = 7
            let px = (0..<(w * h * bpp)).map { UInt8(($0 * 31) % 256) }
            let img = PageImage(width: w, height: h, bytesPerPixel: bpp, pixels: px, resolution: (192, 96))!
            let back = try #require(PixImage(img)?.pageImage(name: "x"))
            #expect(back.pixelHash == img.pixelHash && back.bytesPerPixel == bpp)
            #expect(back.resolution == (192, 96))
        }
    }

    /// Ingest makes the page image once; its hash, rotation and the image before contrast
    /// normalisation all come from it.
    @Test func ingestedPageCarriesTheDeclaredResolution() throws {
        let scan = try Ingest.load(path: Repo.samples + "/my-hardware-01.jpg").pages[0]
        #expect(scan.pageImage.resolution == (200, 200))  // JFIF density of that 200-dpi scan
        #expect(scan.pageImage.bytesPerPixel == 1)
        #expect(scan.withoutContrastNormalization.pixelHash != scan.pixelHash)
        #expect(scan.rotated(quarterTurns: 1).width == scan.height)
        let png = try #require(scan.pngData())
        let again = try Ingest.load(data: png, name: "again.png").pages[0]
        #expect(again.originalWidth == scan.width && again.originalHeight == scan.height)
    }
}

@Suite("Paper in a photo (crop to paper)")
struct PaperFinderTests {
    static func box(_ img: PageImage) throws -> BoundingBox? { PaperFinder.paperBox(try #require(PixImage(img))) }

    @Test func brightRectangleOnDarkBackgroundGivesItsBox() throws {
        let img = grayImage(800, 600) { x, y in (200..<600).contains(x) && (100..<500).contains(y) ? 225 : 40 }
        let b = try #require(try Self.box(img))
        // The rectangle with a small margin (4 px of the 400 px search image: 8 px here).
        #expect(b.x <= 200 && b.x >= 185 && b.y <= 100 && b.y >= 85)
        #expect(b.maxX >= 600 && b.maxX <= 615 && b.maxY >= 500 && b.maxY <= 515)
    }

    @Test func textOnThePaperStaysInside() throws {
        // Dark print lines on the paper must not split it.
        let img = grayImage(600, 900) { x, y in
            let paper = (150..<450).contains(x) && (100..<800).contains(y)
            let ink = paper && (y - 130) % 40 < 8 && (180..<420).contains(x)
            return paper ? (ink ? 30 : 230) : 60
        }
        let b = try #require(try Self.box(img))
        #expect(b.x <= 150 && b.y <= 100 && b.maxX >= 450 && b.maxY >= 800)
    }

    @Test func uniformImageGivesNothing() throws {
        #expect(try Self.box(grayImage(500, 700) { _, _ in 128 }) == nil)
        #expect(try Self.box(grayImage(500, 700) { _, _ in 255 }) == nil)
    }

    @Test func scanWhiteToItsEdgesGivesNothing() throws {
        let scan = grayImage(500, 900) { x, y in (y % 30 < 6 && (40..<460).contains(x)) ? 20 : 245 }
        #expect(try Self.box(scan) == nil)
    }

    @Test func tooSmallOrTooFaintGivesNothing() throws {
        #expect(try Self.box(grayImage(40, 40) { x, _ in x < 20 ? 250 : 10 }) == nil)
        // A slightly brighter rectangle (less than 40 grey levels) is not paper.
        #expect(try Self.box(grayImage(800, 600) { x, y in (200..<600).contains(x) && (100..<500).contains(y) ? 150 : 120 }) == nil)
    }

    @Test func theDecisionAlone() {
        let small = grayImage(100, 100) { x, y in (20..<80).contains(x) && (20..<80).contains(y) ? 200 : 50 }
        let paper = BoundingBox(x: 20, y: 20, width: 60, height: 60)
        // The largest component wins; margin 4, scale 0.5 back to full size.
        #expect(PaperFinder.choose(components: [BoundingBox(x: 0, y: 0, width: 5, height: 5), paper], in: small,
                                   scale: 0.5, fullWidth: 200, fullHeight: 200) == BoundingBox(x: 32, y: 32, width: 136, height: 136))
        // Too small a share of the image (under 15 %), or nearly all of it (over 90 %).
        #expect(PaperFinder.choose(components: [BoundingBox(x: 20, y: 20, width: 30, height: 30)], in: small, scale: 1, fullWidth: 100, fullHeight: 100) == nil)
        #expect(PaperFinder.choose(components: [BoundingBox(x: 0, y: 0, width: 98, height: 98)], in: small, scale: 1, fullWidth: 100, fullHeight: 100) == nil)
        #expect(PaperFinder.choose(components: [], in: small, scale: 1, fullWidth: 100, fullHeight: 100) == nil)
        // Clipped to the image at the far edges.
        let edge = grayImage(100, 100) { x, y in x >= 40 && y >= 40 ? 200 : 50 }
        #expect(PaperFinder.choose(components: [BoundingBox(x: 40, y: 40, width: 60, height: 60)], in: edge, scale: 1, fullWidth: 100, fullHeight: 100)
                == BoundingBox(x: 36, y: 36, width: 64, height: 64))
    }
}

/// A made-up format: "XYZPAGES", width, height and page count (one byte each), then grey pixels per page.
struct XYZDecoder: ImageDecoder {
    static let format = ImageFormat("xyz", name: "XYZ", fileExtensions: ["xyz"])
    var formats: [ImageFormat] { [Self.format] }

    func sniff(_ data: Data) -> SniffedImage? {
        guard data.starts(with: Data("XYZPAGES".utf8)), data.count >= 11 else { return nil }
        let b = [UInt8](data)
        return SniffedImage(format: Self.format, width: Int(b[8]), height: Int(b[9]))
    }

    func decode(_ data: Data, sniffed: SniffedImage, name: String, limits: DecodeLimits) throws(IngestError) -> [DecodedPage] {
        let b = [UInt8](data), (w, h, n) = (Int(b[8]), Int(b[9]), Int(b[10]))
        guard b.count >= 11 + w * h * n else { throw IngestError(file: name, reason: .truncated(Self.format)) }
        return (0..<n).map { p in
            DecodedPage(PageImage(width: w, height: h, bytesPerPixel: 1, pixels: Array(b[(11 + p * w * h)..<(11 + (p + 1) * w * h)]))!)
        }
    }

    static func file(width: Int, height: Int, pages: Int) -> Data {
        var d = Data("XYZPAGES".utf8) + [UInt8(width), UInt8(height), UInt8(pages)]
        for p in 0..<pages { d += (0..<(width * height)).map { UInt8(($0 + 40 * p) % 200 + 40) } }
        return d
    }
}

@Suite("Ingest: decoders are a registry")
struct DecoderRegistryTests {
    static var withXYZ: IngestOptions {
        var o = IngestOptions()
        o.decoders = ImageDecoders([XYZDecoder(), LeptonicaDecoder()])
        return o
    }

    /// A folder walk takes what the decoders read and the formats nothing here decodes, each
    /// extension declared by exactly one format.
    @Test func receiptExtensionsAreTheDecodersAndTheFormatsWithoutADecoder() throws {
        let standard = ImageDecoders.standard
        #expect(standard.receiptExtensions == standard.fileExtensions.union(["jxl", "jp2", "j2k", "jpf", "dng", "cr2", "cr3", "nef", "arw",
                                                                             "orf", "rw2", "raf", "psd", "svg", "eps", "xps", "oxps", "djvu", "djv", "ofd"]))
        let declared = (standard.formats + ImageFormat.withoutDecoder).flatMap(\.fileExtensions)
        #expect(declared.count == Set(declared).count, "an extension declared twice")
        #expect(Set(standard.formats).isDisjoint(with: ImageFormat.withoutDecoder))
        #expect(Self.withXYZ.decoders.receiptExtensions.isSuperset(of: ["xyz", "jxl", "png"]))
        #expect(FolderWalk().extensions == standard.receiptExtensions)
    }

    @Test func supportedFormatsComeFromTheDecoders() throws {
        #expect(ImageDecoders.standard.formats.map(\.name) == ["JPEG", "PNG", "TIFF", "BMP", "GIF", "WebP", "PNM", "HEIC/HEIF", "AVIF", "PDF"])
        #expect(ImageDecoders.standard.fileExtensions.isSuperset(of: ["jpg", "jpeg", "png", "tif", "webp", "pgm"]))
        #expect(!ImageDecoders.standard.fileExtensions.contains("xyz"))
        #expect(Self.withXYZ.decoders.fileExtensions.contains("xyz"))
        do {
            _ = try Ingest.load(data: Data("hello, this is no image".utf8), name: "notes.txt", options: Self.withXYZ)
            Issue.record("text accepted as an image")
        } catch {
            #expect(error.message == "not an image (supported: XYZ, JPEG, PNG, TIFF, BMP, GIF, WebP, PNM)")
        }
    }

    @Test func aSecondDecoderIsOneMoreEntry() throws {
        let file = try Ingest.load(data: XYZDecoder.file(width: 120, height: 80, pages: 3), name: "scan.xyz", options: Self.withXYZ)
        #expect(file.format == XYZDecoder.format)
        #expect(file.pages.count == 3)
        #expect(file.pages.allSatisfy { $0.originalWidth == 120 && $0.originalHeight == 80 && $0.width >= 1000 })
        #expect(Set(file.pages.map(\.pixelHash)).count == 3)
        // PNG still goes to Leptonica.
        let png = try Ingest.load(path: Repo.fixtures + "/formats/receipt.png", options: Self.withXYZ)
        #expect(png.format == .png)
        // Limits apply to every decoder's pages.
        var small = Self.withXYZ
        small.maxPixels = 5000
        #expect(throws: IngestError(file: "scan.xyz", reason: .tooLarge(width: 120, height: 80, limit: 5000))) {
            try Ingest.load(data: XYZDecoder.file(width: 120, height: 80, pages: 1), name: "scan.xyz", options: small)
        }
        #expect(throws: IngestError(file: "cut.xyz", reason: .truncated(XYZDecoder.format))) {
            try Ingest.load(data: XYZDecoder.file(width: 120, height: 80, pages: 2).dropLast(10), name: "cut.xyz", options: Self.withXYZ)
        }
    }
}
