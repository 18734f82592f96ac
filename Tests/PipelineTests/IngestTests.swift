import Foundation
import Testing
@testable import ReceiptIngest

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
