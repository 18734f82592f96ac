import Foundation
import ReceiptDrawing
import ReceiptIngest
import ReceiptModel
import ReceiptStore
import Testing

/// `receipts show ID --annotate OUT.png`: the boxes land on the print they name, on the
/// real image, also for a page the pipeline had to turn upright.
@Suite("show --annotate")
struct AnnotateTests {
    /// The annotated PNG read back in colour, exactly as written.
    static func colourImage(_ path: String) throws -> PageImage {
        var o = IngestOptions()
        o.grayscale = false; o.deskew = false; o.contrastNormalize = false; o.cropToPaper = false; o.minLongSide = 0
        return try #require(try Ingest.load(path: path, options: o).pages.first).pageImage
    }

    static func rgb(_ p: PageImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = y * p.bytesPerRow + x * p.bytesPerPixel
        return (Int(p.pixels[i]), Int(p.pixels[i + 1]), Int(p.pixels[i + 2]))
    }

    @Test(arguments: ["us-hardware-01.png", "rot90-us-electronics.png"])
    func boxesAreDrawnWhereTheFieldsWereRead(_ sample: String) throws {
        let tmp = try TempDir()
        let store = tmp.path("s.sqlite")
        let image = Repo.samples + "/" + sample
        #expect(cli(["batch", "--store", store, "--quiet", "--jobs", "1", image]).code == 0)
        let out = tmp.path("annotated.png")
        let r = cli(["show", "--store", store, "--annotate", out, image])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("wrote \(out): \(image) with "))
        let d = try #require(try SQLReceiptStore(path: store).receiptDetail(ReceiptID(1)))
        let page = try #require(d.reading?.first)
        let png = try Self.colourImage(out)
        // The page as read, and a margin on the right for the labels.
        #expect(png.height == page.height)
        #expect(png.width > page.width + 100)
        // The total's box: its left edge (3 pixels out from the word box) is drawn in blue.
        let total = try #require(d.receipt.parsed.total?.evidence.box)
        let (r0, g0, b0) = Self.rgb(png, total.x - 4, total.y + total.height / 2)
        #expect(b0 > 180 && r0 < 60 && g0 < 140, "total box edge is (\(r0), \(g0), \(b0))")
        // A line item's box in green.
        let item = try #require(d.receipt.parsed.lineItems.first?.evidence.box)
        let (r1, g1, b1) = Self.rgb(png, item.x - 4, item.y + item.height / 2)
        #expect(g1 > 120 && r1 < 60 && b1 < 100, "line item box edge is (\(r1), \(g1), \(b1))")
        // The print under the boxes is the page the boxes were read on, upright: about 80 inside the
        // word boxes (about 19 for the turned sample left as it is in its file).
        let grey = Annotator.darkness(png, in: page.lines.flatMap { $0.words.compactMap(\.box) })
        let blank = Annotator.darkness(png, in: [BoundingBox(x: page.width + 4, y: 0, width: 20, height: page.height)])
        #expect(grey > 60 && blank < 5, "ink inside the word boxes \(grey), in the margin \(blank)")
    }

    /// `parse --annotate DIR`: one picture per file, boxes on the page as it was read (upright).
    @Test func parseAnnotatesEachFileIntoAFolder() throws {
        let tmp = try TempDir()
        let dir = tmp.path("pictures")
        let image = Repo.samples + "/rot90-us-electronics.png"
        let r = cli(["parse", "--json", "--annotate", dir, image])
        #expect(r.code == 0, "\(r.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let box = try #require(((report["total"] as? [String: Any])?["evidence"] as? [String: Any])?["box"] as? [String: Int])
        let png = try Self.colourImage(dir + "/rot90-us-electronics.annotated.png")
        let x = try #require(box["x"]), y = try #require(box["y"]), h = try #require(box["height"])
        let (red, green, blue) = Self.rgb(png, x - 4, y + h / 2)
        #expect(blue > 180 && red < 60 && green < 140, "total box edge is (\(red), \(green), \(blue))")
        #expect(png.height > png.width / 2)
    }

    @Test func aReceiptWhoseFileIsGoneCannotBeAnnotated() throws {
        let tmp = try TempDir()
        let store = tmp.path("s.sqlite")
        try save(try SQLReceiptStore(path: store), receipt(vendor: "Gone", date: "2024-01-01", total: "1.00"), hash: "g", path: tmp.path("gone.png"))
        let r = cli(["show", "--store", store, "--annotate", tmp.path("out.png"), "1"])
        #expect(r.code == 3)
        #expect(r.err.contains("none of its files is there now"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path("out.png")))
    }
}
