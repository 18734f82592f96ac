import Foundation
import Testing
import ReceiptModel
import ReceiptParser
@testable import ReceiptStore
import ReceiptTestSupport
@testable import ReceiptsCLI

/// `batch --reparse` replays what OCR read (words, boxes, both looks), so the same parser
/// gives the same receipts: nothing is lost between a batch and a re-parse.
@Suite("reparse", .serialized)
struct ReparseTests {
    /// Two receipts (a 150-dpi scan and a photo) whose vendor and date carry word boxes: re-parsing
    /// from flat text instead would lose the boxes, so a reparse must replay the reading.
    static let lossyFromText = ["my-restoran-01.jpg", "my-photo-mart-02.jpg"]

    /// Everything the store keeps of one receipt that a parse decides.
    struct Stored: Equatable, CustomStringConvertible {
        var status: ReceiptStatus
        var parsed: ParsedReceipt
        var ocrText: String?
        var parserVersion: String
        var engineVersion: String
        var lineItems: Int
        var description: String { "\(status) \(parsed.vendor?.value ?? "-") | \(parsed.date?.value.iso ?? "-") | \(parsed.total?.value.description ?? "-")" }
    }

    static func snapshot(_ path: String) throws -> [String: Stored] {
        Dictionary(uniqueKeysWithValues: try SQLReceiptStore(path: path).receipts().map { r in
            (r.contentHash, Stored(status: r.status, parsed: r.parsed, ocrText: r.ocrText, parserVersion: r.parserVersion,
                                   engineVersion: r.engineVersion, lineItems: r.parsed.lineItems.count))
        })
    }

    /// Every evidence box of a parsed receipt, field by field (lost when re-parsing text).
    static func boxes(_ p: ParsedReceipt) -> [BoundingBox] {
        let fields: [Evidence?] = [p.vendor?.evidence, p.date?.evidence, p.time?.evidence, p.total?.evidence, p.subtotal?.evidence,
                                   p.tax?.evidence, p.currency?.evidence, p.receiptNumber?.evidence, p.paymentMethod?.evidence,
                                   p.cardLast4?.evidence]
        return (fields.compactMap { $0 } + p.lineItems.map(\.evidence)).compactMap(\.box)
    }

    func batch(_ args: [String]) -> (code: Int32, err: String) {
        let c = CapturingConsole()
        let code = CLI.run(["batch"] + args, context: CommandContext(console: c.console))
        return (code, c.stderr)
    }

    /// Every row of every table, every column but the timestamps (`*_at`: when, not what), as text
    /// (SQLite's `quote()`), in a fixed order: what a reparse must leave byte for byte as it was.
    static func everyStoredColumn(_ path: String) throws -> [String: [String]] {
        let db = try SQLiteConnection(path: path, create: false)
        var dump: [String: [String]] = [:]
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
        for table in tables {
            let columns = try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { $0.text(0) }
                .filter { !$0.hasSuffix("_at") }
            guard !columns.isEmpty else { continue }
            let row = columns.map { "quote(\"\($0)\")" }.joined(separator: " || char(31) || ")
            dump[table] = try db.query("SELECT \(row) FROM \"\(table)\" ORDER BY 1") { $0.text(0) }.sorted()
        }
        return dump
    }

    @Test("batch, then reparse --force in a new process with the same parser: every stored column identical")
    func reparseWithTheSameParserChangesNothing() throws {
        let exe = try #require(Repo.executable("receipts"), "receipts not built: run `swift build` first (the test runs the real binary)")
        let dir = try TempDir()
        let images = try FileManager.default.contentsOfDirectory(atPath: Repo.samples)
            .filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
        #expect(images.count >= 35)  // every PNG and JPEG sample (35 when the rupiah one was added)
        for name in images { try FileManager.default.copyItem(atPath: Repo.samples + "/" + name, toPath: dir.path(name)) }
        let store = dir.path("store.sqlite")
        // Two processes, so two hash seeds: an order that came from a Dictionary or a Set would show.
        let first = try runProcess(exe, ["batch", "--store", store, "--jobs", "2", "--quiet", dir.url.path])
        #expect(first.code == 0, "\(first.err)")
        let before = try Self.snapshot(store)
        let columnsBefore = try Self.everyStoredColumn(store)
        #expect(before.count == images.count)
        let readings = try SQLReceiptStore(path: store).readings()
        #expect(readings.count == images.count && readings.allSatisfy { $0.reading != nil })
        #expect(readings.contains { $0.reading?.secondLook != nil }, "no sample took a second look: the test would not cover it")
        #expect(before.values.map { Self.boxes($0.parsed).count }.reduce(0, +) > 100)

        let r = try runProcess(exe, ["batch", "--store", store, "--reparse", "--force", "--tessdata", dir.url.path])  // no OCR: a bad tessdata folder is fine
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("re-parsed \(images.count) receipts"))
        let after = try Self.snapshot(store)
        #expect(after.count == before.count)
        for (hash, b) in before {
            let a = try #require(after[hash])
            #expect(a == b, "\(hash.prefix(12)): \(b) -> \(a)")
            #expect(Self.boxes(a.parsed) == Self.boxes(b.parsed))
        }
        let columnsAfter = try Self.everyStoredColumn(store)
        #expect(columnsAfter.keys.sorted() == columnsBefore.keys.sorted())
        #expect((columnsBefore["receipts"] ?? []).count == images.count)
        for (table, rows) in columnsBefore {
            let changed = zip(rows, columnsAfter[table] ?? []).filter { $0 != $1 }
            #expect(columnsAfter[table] == rows, "\(table): \(changed.count) rows changed, e.g. \(changed.first.map { "\($0.0.prefix(300)) -> \($0.1.prefix(300))" } ?? "row count")")
        }
        // The readings themselves are kept as they were.
        #expect(try SQLReceiptStore(path: store).readings().map(\.reading) == readings.map(\.reading))
        // Receipts whose fields came from word boxes keep their boxes.
        let named = try SQLReceiptStore(path: store).receipts().filter { r in Self.lossyFromText.contains { n in r.sourcePaths.contains { $0.hasSuffix("/" + n) } } }
        #expect(named.count == 2)
        for n in named { #expect(n.parsed.vendor?.evidence.box != nil && n.parsed.date != nil) }
    }

    @Test("a version 2 store with receipts upgrades in place, keeps their text and re-parses from it")
    func storeBeforeReadingsUpgradesAndKeepsText() throws {
        let tmp = try TempDir()
        let path = tmp.path("v2.sqlite")
        let text = "HARBOR LANE HARDWARE\n2024-03-09\nHAMMER 19.99\nTOTAL 19.99"
        do {
            let v2 = try SQLReceiptStore(path: path, schemaVersion: 2)
            #expect(try v2.schemaVersion() == 2)
            try v2.saveReceipt(StoredReceiptInput(contentHash: "old", sourcePath: "old.png", ocrText: text,
                                                  parsed: ReceiptParser().parse(text: text), engineVersion: "tesseract old", status: .parsed))
            // Older builds wrote no reading: the column does not exist yet.
            #expect(try v2.readings().map(\.ocrText) == [text])
        }
        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(SQLReceiptStore.latestSchemaVersion >= 3)
        #expect(try store.integrityCheck() == "ok")
        let old = try #require(try store.readings().first)
        #expect(old.contentHash == "old" && old.ocrText == text && old.reading == nil)
        #expect(try store.receipts().first?.ocrText == text)

        // A new receipt keeps its reading next to the old one.
        let page = OCRPage(lines: [OCRLine(words: [OCRWord(text: "TOTAL", box: BoundingBox(x: 1, y: 2, width: 30, height: 9), confidence: 0.9),
                                                   OCRWord(text: "5.00", box: BoundingBox(x: 40, y: 2, width: 20, height: 9), confidence: 0.8)])],
                           width: 100, height: 20)
        let reading = OCRReading(first: page)
        try store.saveReceipt(StoredReceiptInput(contentHash: "new", sourcePath: "new.png", ocrText: page.text, reading: reading,
                                                 parsed: ReceiptParser().parse(reading).receipt, engineVersion: "tesseract new", status: .parsed))
        #expect(try store.readings().map(\.reading) == [nil, reading])

        // --reparse: the old receipt from its text, the new one from its reading.
        let c = CapturingConsole()
        let code = CLI.run(["batch", "--store", path, "--reparse", "--force"], context: CommandContext(console: c.console))
        #expect(code == 0, "\(c.stderr)")
        #expect(c.stderr.contains("re-parsed 2 receipts"))
        let after = try store.receipts()
        #expect(after.map(\.ocrText) == [text, page.text])
        #expect(after[0].parsed == ReceiptParser().parse(text: text))
        #expect(after[1].parsed.total?.evidence.box != nil)
    }
}

/// The reading as a value: frozen fixtures replay through it exactly as before, and it
/// survives the store's JSON.
@Suite("OCR reading")
struct OCRReadingTests {
    static let fixtures = Repo.path("Tests/Fixtures/ocr")

    @Test("every frozen OCR fixture: parse(reading) = the fixture replay, and the reading round-trips through JSON")
    func fixturesReplayThroughTheReading() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures).filter { $0.hasSuffix(".json") }.sorted()
        // One fixture for every sample image (a sample without one would go unchecked here).
        let images = try FileManager.default.contentsOfDirectory(atPath: Repo.samples)
            .filter { ["png", "jpg", "heic", "pdf"].contains(($0 as NSString).pathExtension) }
        #expect(names.count == images.count && names.count >= 37)
        let parser = ReceiptParser()
        for name in names {
            let rec = try JSONDecoder().decode(OCRRecording.self, from: try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))
            let replay = parser.parse(rec.reading)
            let direct = parser.parseWithSecondLook(rec.first) { _ in rec.second }
            #expect(replay.receipt == direct.receipt, "\(name)")
            #expect(replay.page == direct.page, "\(name)")
            let back = try JSONDecoder().decode(OCRReading.self, from: try JSONEncoder().encode(rec.reading))
            #expect(back == rec.reading, "\(name)")
        }
    }

    @Test("the parser decides whether a stored second look is used, as the pipeline would")
    func storedLookUsedOnlyWhenDoubted() throws {
        let first = OCRPage(text: "HARBOR LANE HARDWARE\n2024-03-09\nTOTAL 19.99")
        let second = OCRPage(text: "HARBOR LANE HARDWARE\n2024-03-09\nTOTAL 29.99")
        let parser = ReceiptParser()
        let notForced = parser.parse(OCRReading(first: first, secondLook: second, reason: "psm11"))
        let direct = parser.parseWithSecondLook(first) { _ in second }
        #expect(notForced.receipt == direct.receipt)
        // No date and no vendor doubt: a first read the parser trusts keeps its total.
        let sure = OCRPage(text: "HARBOR LANE HARDWARE LLC\n2024-03-09\nSUBTOTAL 18.50\nTAX 1.49\nTOTAL 19.99")
        let kept = parser.parse(OCRReading(first: sure, secondLook: second, reason: "psm11"))
        #expect(ReceiptParser.doubt(parser.parse(sure)) == nil)
        #expect(kept.receipt == parser.parse(sure))
        #expect(kept.receipt.total?.value.description == "19.99")
        #expect(parser.parse(OCRReading(first: first)).receipt == parser.parse(first))
    }

    @Test("a look of a kind this build does not know decodes and is skipped; no pages is an error")
    func openLookKinds() throws {
        let json = """
            {"pages":[{"first":{"lines":[],"width":10,"height":10},
                       "looks":[{"kind":"line-reread","reason":"line 3 unsure","page":{"lines":[],"width":10,"height":10}}]}]}
            """
        let r = try JSONDecoder().decode(OCRReading.self, from: Data(json.utf8))
        #expect(r.pages[0].looks.map(\.kind.rawValue) == ["line-reread"])
        #expect(r.secondLook == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OCRReading.self, from: Data(#"{"pages":[]}"#.utf8)) }
    }
}
