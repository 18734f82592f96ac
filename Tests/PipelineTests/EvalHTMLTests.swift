import Foundation
import ReceiptIngest
import ReceiptModel
import Testing
@testable import ReceiptsCLI
@testable import ReceiptEval

/// `receipts eval --html FILE`: one self-contained page with the accuracy against the
/// baseline and every miss with its picture, read back as a reader would.
@Suite("eval --html")
struct EvalHTMLTests {
    func run(_ args: [String]) -> (code: Int32, out: String, err: String) {
        let c = CapturingConsole()
        let code = CLI.run(args, context: CommandContext(console: c.console, environment: ProcessInfo.processInfo.environment))
        return (code, c.stdout, c.stderr)
    }

    /// The page's tables as rows of cells (tags stripped, entities decoded), each row with its attributes.
    struct Row {
        var attributes: String
        var cells: [String]
        /// The raw HTML of each cell.
        var raw: [String]
    }

    static func rows(_ html: String) -> [Row] {
        let rowRE = try! NSRegularExpression(pattern: "<tr([^>]*)>(.*?)</tr>", options: [.dotMatchesLineSeparators])
        let cellRE = try! NSRegularExpression(pattern: "<td[^>]*>(.*?)</td>", options: [.dotMatchesLineSeparators])
        let ns = html as NSString
        return rowRE.matches(in: html, range: NSRange(location: 0, length: ns.length)).map { m in
            let body = ns.substring(with: m.range(at: 2)) as NSString
            let raw = cellRE.matches(in: body as String, range: NSRange(location: 0, length: body.length)).map { body.substring(with: $0.range(at: 1)) }
            return Row(attributes: ns.substring(with: m.range(at: 1)), cells: raw.map(text), raw: raw)
        }
    }

    /// The text of an HTML fragment: tags dropped, the five entities the page uses decoded.
    static func text(_ fragment: String) -> String {
        fragment.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every `data:image/png;base64,…` picture in a fragment, decoded.
    static func pictures(_ fragment: String) -> [Data] {
        let re = try! NSRegularExpression(pattern: "src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"")
        let ns = fragment as NSString
        return re.matches(in: fragment, range: NSRange(location: 0, length: ns.length)).compactMap { Data(base64Encoded: ns.substring(with: $0.range(at: 1))) }
    }

    /// A PNG decoded by Leptonica, in colour, exactly as it is.
    static func decode(_ png: Data) throws -> PageImage {
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG signature")
        var o = IngestOptions()
        o.grayscale = false; o.deskew = false; o.contrastNormalize = false; o.cropToPaper = false; o.minLongSide = 0
        let file = try Ingest.load(data: png, name: "picture.png", options: o)
        #expect(file.format == .png)
        return try #require(file.pages.first).pageImage
    }

    /// Pixels of `image` that are clearly blue (the chosen value's box) or green (where the label's value was read).
    static func count(_ image: PageImage, _ isColour: (Int, Int, Int) -> Bool) -> Int {
        guard image.bytesPerPixel == 4 else { return 0 }
        var n = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = y * image.bytesPerRow + x * 4
                if isColour(Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2])) { n += 1 }
            }
        }
        return n
    }

    static func blue(_ r: Int, _ g: Int, _ b: Int) -> Bool { b > 170 && r < 80 && g < 150 }
    static func green(_ r: Int, _ g: Int, _ b: Int) -> Bool { g > 110 && r < 80 && b < 110 }

    /// Two clean samples read by OCR, their labels changed so that three fields are missed: the
    /// vendor (a label holding HTML), a total no line holds, and a total that is on the receipt
    /// (the subtotal) but not chosen, since the receipt's own sum (subtotal + tax) gives another.
    @Test func theReportShowsAccuracyAgainstTheBaselineAndEveryMissWithItsPicture() throws {
        let dir = try TempDir()
        let folder = dir.file("labelled")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["us-hardware-01", "de-moebel-01"] {
            for ext in ["png", "json"] { try FileManager.default.copyItem(atPath: "\(Repo.samples)/\(name).\(ext)", toPath: "\(folder)/\(name).\(ext)") }
        }
        func relabel(_ name: String, _ change: (inout [String: Any]) -> Void) throws {
            let path = "\(folder)/\(name).json"
            var obj = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            change(&obj)
            try JSONSerialization.data(withJSONObject: obj).write(to: URL(fileURLWithPath: path))
        }
        let hostile = "<script>alert('x')</script> Möbel & \"Co\""
        try relabel("de-moebel-01") { $0["vendor"] = hostile; $0["total"] = "999.99" }
        try relabel("us-hardware-01") { $0["total"] = "51.41" }  // its subtotal
        let baseline = dir.file("baseline.json")
        try #"{"vendor": 40.0, "date": 100.0, "total": 25.0, "all": 0.0}"#.write(toFile: baseline, atomically: true, encoding: .utf8)
        let out = dir.file("report.html")

        let r = run(["eval", "--jobs", "1", "--html", out, "--baseline", baseline, folder])
        // Below the baseline in "total": the check fails, and the page is written all the same.
        #expect(r.code == ExitCode.checkFailed.rawValue, "\(r.err)")
        #expect(r.err.contains("report written to \(out)"))
        let html = try String(contentsOfFile: out, encoding: .utf8)

        // Self-contained: no script, no stylesheet or picture fetched from elsewhere.
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("src=\"http"))
        #expect(html.components(separatedBy: "src=\"").count == html.components(separatedBy: "src=\"data:image/png;base64,").count)
        // The label's HTML is text on the page, escaped.
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Möbel &amp; &quot;Co&quot;"))

        // Accuracy per field, with the baseline and the change.
        let rows = Self.rows(html)
        func field(_ f: String) throws -> [String] { try #require(rows.first { $0.attributes.contains("data-field=\"\(f)\"") && !$0.attributes.contains("miss") }).cells }
        #expect(try field("vendor").prefix(6) == ["vendor", "1", "2", "50.0 %", "40.0 %", "+10.0"])
        #expect(try field("date").prefix(6) == ["date", "2", "2", "100.0 %", "100.0 %", "+0.0"])
        #expect(try field("total").prefix(6) == ["total", "0", "2", "0.0 %", "25.0 %", "−25.0"])
        #expect(try field("all").prefix(6) == ["all three", "0", "2", "0.0 %", "0.0 %", "+0.0"])
        #expect(try field("total")[6...] == ["1", "0", "1"])  // one not read, one where the label disagrees with the receipt's sum
        // The sidecars label subtotal, tax, time and the line items too: each has its row.
        for f in ["subtotal", "tax", "time", "item_prices", "item_names"] { #expect(try field(f).count == 9, "\(f)") }
        #expect(try field("item_prices")[0] == "item prices")
        #expect(html.contains("id=\"extra-prices\""))

        // One row per miss: expected, found, why, the evidence, pictures that decode as PNG.
        let misses = rows.filter { r in r.attributes.contains("class=\"miss\"") && ["vendor", "date", "total"].contains { r.attributes.contains("data-field=\"\($0)\"") } }
        #expect(misses.count == 3)
        let vendor = try #require(misses.first { $0.attributes.contains("data-field=\"vendor\"") })
        #expect(vendor.cells[0].hasPrefix("de-moebel-01"))
        #expect(vendor.cells[1] == hostile)
        #expect(vendor.cells[2] == "Wohnwelt Hansen GmbH")
        #expect(vendor.cells[3] == "not read")
        #expect(vendor.cells[4].contains("“Wohnwelt Hansen GmbH”"))
        let notRead = try #require(misses.first { $0.attributes.contains("data-field=\"total\"") && $0.cells[0].hasPrefix("de-moebel-01") })
        #expect(notRead.cells[1...3] == ["999.99", "1236.98", "not read"])
        #expect(notRead.cells[4].contains("SUMME"))
        let found = Self.pictures(notRead.raw[5])
        #expect(found.count == 1)
        // The crop is the row the total was read on, its box in blue, small enough for a page.
        let crop = try Self.decode(try #require(found.first))
        #expect(crop.width <= EvalPictures.cropSize.width && crop.height <= EvalPictures.cropSize.height)
        #expect(crop.width > 300 && crop.height > 30)
        #expect(Self.count(crop, Self.blue) > 200)

        let disagrees = try #require(misses.first { $0.attributes.contains("data-field=\"total\"") && $0.cells[0].hasPrefix("us-hardware-01") })
        #expect(disagrees.cells[1...3] == ["51.41", "55.84", "label disagrees"])
        #expect(disagrees.cells[5].contains("found here") && disagrees.cells[5].contains("the label's value was read here"))
        let two = try Self.pictures(disagrees.raw[5]).map(Self.decode)
        #expect(two.count == 2)
        #expect(Self.count(two[0], Self.blue) > 200)
        #expect(Self.count(two[1], Self.green) > 200)
    }

    /// With --truth-text nothing went through the pipeline: the pictures are cut from the
    /// original image with the true text's boxes, and a field with nothing found gets a thumbnail.
    @Test func truthTextPicturesComeFromTheOriginalImage() throws {
        let dir = try TempDir()
        for sub in ["img", "key", "box"] { try FileManager.default.createDirectory(atPath: dir.file(sub), withIntermediateDirectories: true) }
        let image = Repo.samples + "/us-hardware-01.png"
        try FileManager.default.copyItem(atPath: image, toPath: dir.file("img/a.png"))
        // A box around a region of the real image, and no date on any line.
        try "20,40,500,40,500,90,20,90,Harbor Lane Hardware LLC\n20,900,600,900,600,950,20,950,TOTAL 55.84\n"
            .write(toFile: dir.file("box/a.txt"), atomically: true, encoding: .utf8)
        try #"{"company": "Harbor Lane Hardware LLC", "date": "04/03/2024", "total": "12.34"}"#
            .write(toFile: dir.file("key/a.json"), atomically: true, encoding: .utf8)
        let out = dir.file("truth.html")
        let r = run(["eval", "--truth-text", "--html", out, dir.path])
        #expect(r.code == 0, "\(r.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let misses = Self.rows(html).filter { $0.attributes.contains("class=\"miss\"") }
        #expect(misses.count == 2)
        let date = try #require(misses.first { $0.attributes.contains("data-field=\"date\"") })
        #expect(date.cells[2] == "nothing")
        #expect(date.cells[5].contains("nothing found: the page"))
        let thumb = try Self.decode(try #require(Self.pictures(date.raw[5]).first))
        let original = try #require(try Ingest.load(path: image).pages.first)
        // The whole page, scaled down, its shape kept.
        #expect(thumb.width <= EvalPictures.thumbnailSize.width && thumb.height <= EvalPictures.thumbnailSize.height)
        let ratio = Double(thumb.height) / Double(thumb.width), want = Double(original.originalHeight) / Double(original.originalWidth)
        #expect(abs(ratio - want) < 0.05 * want, "thumbnail \(thumb.width)×\(thumb.height), image \(original.originalWidth)×\(original.originalHeight)")

        let total = try #require(misses.first { $0.attributes.contains("data-field=\"total\"") })
        #expect(total.cells[1...3] == ["12.34", "55.84", "not read"])
        let crop = try Self.decode(try #require(Self.pictures(total.raw[5]).first))
        #expect(Self.count(crop, Self.blue) > 200)
    }
}
