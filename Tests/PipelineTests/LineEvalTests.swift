import Foundation
import Testing
import ReceiptModel
import ReceiptTestSupport
@testable import ReceiptEval
@testable import ReceiptIngest

/// `receipts eval --lines`: every true line read alone with the real Tesseract, and the figures.
@Suite("eval --lines", .serialized)
struct LineEvalTests {
    /// A folder in the labelled layout (img/, key/, box/) made from one sample: the true lines are the
    /// words and boxes of its frozen reading, so a faithful reader gets them (nearly) all; `mangle` spoils
    /// some of the true texts, which the figures must then show.
    static func folder(mangle: Bool) throws -> TempDir {
        let dir = try TempDir()
        for sub in ["img", "key", "box"] { try FileManager.default.createDirectory(atPath: dir.file(sub), withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Repo.samples + "/us-hardware-01.png", toPath: dir.file("img/r1.png"))
        // (The vendor labelled as the first true line says it: spoilt with it, so that line stays the vendor's.)
        let vendor = mangle ? String("Harbor Lane Hardware LLC".reversed()) : "Harbor Lane Hardware LLC"
        try Data(#"{"company": "\#(vendor)", "date": "2024-03-04", "total": "51.41"}"#.utf8).write(to: URL(fileURLWithPath: dir.file("key/r1.json")))
        let rec = try JSONDecoder().decode(OCRRecording.self, from: Data(contentsOf: URL(fileURLWithPath: Repo.fixtures + "/ocr/us-hardware-01.json")))
        var box = ""
        for (i, l) in rec.first.lines.enumerated() {
            guard let b = l.box else { continue }
            var text = l.text
            if mangle, i % 2 == 0 { text = String(text.reversed()) }
            box += "\(b.x),\(b.y),\(b.maxX),\(b.y),\(b.maxX),\(b.maxY),\(b.x),\(b.maxY),\(text)\n"
        }
        try Data(box.utf8).write(to: URL(fileURLWithPath: dir.file("box/r1.txt")))
        return dir
    }

    static func figure(_ out: String, _ name: String) -> Double? {
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return line.dropFirst(name.count).split(separator: " ").first.flatMap { Double($0) }
    }

    @Test func readsEveryTrueLineAloneAndScoresIt() throws {
        let lines = try JSONDecoder().decode(OCRRecording.self, from: Data(contentsOf: URL(fileURLWithPath: Repo.fixtures + "/ocr/us-hardware-01.json"))).first.lines.count
        let faithful = try Self.folder(mangle: false), mangled = try Self.folder(mangle: true)  // kept until the end: removed on release
        let good = try runExecutable("receipts", ["eval", "--lines", "--jobs", "1", faithful.path])
        #expect(good.code == 0, "\(good.err)")
        #expect(good.out.contains("\(lines) lines of 1 receipts"), "\(good.out)")
        let cer = try #require(Self.figure(good.out, "character error (case-insensitive)"), "\(good.out)")
        #expect(cer < 3, "\(good.out)")
        #expect(try #require(Self.figure(good.out, "amounts exact")) >= 80)  // one of its ten amount lines may slip
        // The labelled vendor is the first line's whole text ("1457 Harbor Lane" is no part of it), and one line
        // holds a time: both read right here, and both spoiled (reversed) in the mangled folder.
        #expect(good.out.contains("(1 of 1 lines holding the labelled vendor)"), "\(good.out)")
        #expect(good.out.contains("(1 of 1 lines with a time)"), "\(good.out)")

        let bad = try runExecutable("receipts", ["eval", "--lines", "--jobs", "1", mangled.path])
        let badCER = try #require(Self.figure(bad.out, "character error (case-insensitive)"), "\(bad.out)")
        #expect(badCER > cer + 20, "\(bad.out)")
        #expect(bad.out.contains("(0 of 1 lines holding the labelled vendor)"), "\(bad.out)")
        #expect(bad.out.contains("(0 of 1 lines with a time)"), "\(bad.out)")
        // Those lines are listed, each once under the first field it spoils: the vendor's, and the date's line
        // (which also holds the time); the good folder has none to list.
        #expect(bad.out.contains("vendor, date and time lines read wrong:"), "\(bad.out)")
        #expect(bad.out.contains("  r1  vendor  \"CLL erawdraH enaL robraH\"  read \""), "\(bad.out)")
        #expect(bad.out.contains("  r1  date    \"7140 EROTS 23:41 4202/40/30\"  read \""), "\(bad.out)")
        #expect(!bad.out.contains("r1  time"), "\(bad.out)")
        #expect(!good.out.contains("read wrong"), "\(good.out)")

        // --json: the same figures and the same lines read wrong, as one object.
        let js = try runExecutable("receipts", ["eval", "--lines", "--json", "--jobs", "1", mangled.path])
        #expect(js.code == 0, "\(js.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(js.out.utf8)) as? [String: Any], "\(js.out)")
        #expect(o["line_count"] as? Int == lines)
        #expect((o["right"] as? [String: Int])?["vendor_lines"] == 0 && (o["labelled"] as? [String: Int])?["vendor_lines"] == 1, "\(js.out)")
        #expect((o["labelled"] as? [String: Int])?["times"] == 1, "\(js.out)")
        let jsCER = try #require(o["character_error"] as? Double)
        #expect(abs(jsCER - badCER) < 0.01, "\(js.out)")
        let listed = try #require(o["misses"] as? [[String: String]]).map { "\($0["sample"] ?? "") \($0["field"] ?? "") \($0["truth"] ?? "")" }
        #expect(listed.contains("r1 vendor CLL erawdraH enaL robraH") && listed.contains("r1 date 7140 EROTS 23:41 4202/40/30"), "\(listed)")
    }

    @Test("a vendor line is the labelled vendor or a part of it, as the vendor is scored")
    func vendorLines() {
        // Invented shops, in the shapes the labelled sets' vendor lines take.
        let label = "SAKURA GARDEN SDN BHD"
        #expect(LineEval.holdsVendor("Sakura Garden", label: label))
        #expect(LineEval.holdsVendor("SAKURA GARDEN SDN. BHD. (4821-K)", label: label))
        #expect(LineEval.holdsVendor("FUELSTOP 0004417", label: "FUELSTOP0004417"))
        #expect(LineEval.holdsVendor("KK RAVI SALON", label: "RAVISALON"))
        #expect(LineEval.holdsVendor("THE", label: "THE HARBOUR GRILL") == false)
        #expect(LineEval.holdsVendor("ZAP %", label: "ZAP%"))
        #expect(LineEval.holdsVendor("MEGA ZAPPER", label: "ZAP%") == false)
        #expect(LineEval.holdsVendor("Thank you for visiting FUN PIER PARK!", label: "FUN PIER PARK") == false)
        #expect(LineEval.holdsVendor("E-Mail: ravisalon2207@example.com", label: "RAVI SALON") == false)
        #expect(LineEval.holdsVendor("UR STATION QUICK FUEL", label: "QUICKFUEL"))
        #expect(LineEval.holdsVendor("1457 Harbor Lane", label: "Harbor Lane Hardware LLC") == false)
        #expect(LineEval.holdsVendor("Harbor Lane Hardware LLC", label: nil) == false)
    }

    @Test("a vendor line is read right as the vendor is scored: letters, digits and '&', spaces unless spaceless")
    func vendorLineRead() {
        func reads(_ truth: String, _ read: String, spaceless: Bool = false) -> Bool {
            LineEval.readsVendor(LineEval.Line(truth: truth, read: read, vendor: true), spaceless: spaceless)
        }
        #expect(reads("MARGO’S BAKEHOUSE", "Margo's Bakehouse"))
        #expect(reads("Keelers Bar", "Keelers, Bar"))
        #expect(!reads("PRICELO", "PriCeIo"))
        #expect(!reads("BRIGHTOLA", "BRIGHT OLA"))
        #expect(reads("BRIGHTOLA", "BRIGHT OLA", spaceless: true))
        #expect(!reads("FARM & FORK", "FARM FORK"))
    }

    @Test("the true boxes are in the file's pixels: a page over the reduction limit is read whole")
    func bigPagesStayWhole() throws {
        let page = try Ingest.load(path: Repo.samples + "/my-a4-invoice-01.jpg", options: LineEval.ingestOptions).pages[0]
        #expect(page.width == 4961 && page.height == 7016)
    }

    @Test func aFolderWithoutTrueLinesIsAUsageError() throws {
        let r = try runExecutable("receipts", ["eval", "--lines", Repo.samples])
        #expect(r.code == 2)
        #expect(r.err.contains("--lines needs the true text lines"))
    }

    @Test("--lines prints its own figures: the end-to-end outputs are refused, not ignored")
    func linesRefusesEndToEndOutputs() throws {
        for extra in [["--baseline", "b.json"], ["--write-baseline", "b.json"], ["--html", "r.html"], ["--predictions", "p.jsonl"],
                      ["--truth-text"], ["--save-readings", "dir"]] {
            let r = try runExecutable("receipts", ["eval", "--lines"] + extra + [Repo.samples])
            #expect(r.code == 2, "\(extra): \(r.err)")
            #expect(r.err.contains("--lines cannot be combined with \(extra[0])"), "\(r.err)")
        }
    }
}
