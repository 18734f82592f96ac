import Foundation
import Testing
import ReceiptModel
import ReceiptStore
@testable import ReceiptsCLI

/// `receipts batch` on real images, the real engine and real SQLite files.
@Suite("batch", .serialized)
struct BatchTests {
    static let goodImages = ["us-hardware-01.png", "de-moebel-01.png", "fr-maison-01.png", "my-hardware-01.jpg"]

    /// A folder of good images (one in a subfolder) plus a truncated JPEG, an empty image and a text file.
    static func mixedFolder() throws -> TempDir {
        let f = try TempDir()
        try FileManager.default.createDirectory(atPath: f.path("2024/march"), withIntermediateDirectories: true)
        for (i, name) in goodImages.enumerated() {
            let dest = i == 0 ? f.path("2024/march/" + name) : f.path(name)
            try FileManager.default.copyItem(atPath: Repo.samples + "/" + name, toPath: dest)
        }
        let jpg = try Data(contentsOf: URL(fileURLWithPath: Repo.samples + "/my-hardware-01.jpg"))
        _ = FileManager.default.createFile(atPath: f.path("torn.jpg"), contents: jpg.prefix(jpg.count / 3))
        _ = FileManager.default.createFile(atPath: f.path("empty.png"), contents: Data())
        _ = FileManager.default.createFile(atPath: f.path("notes.txt"), contents: Data("not a receipt".utf8))
        return f
    }

    func batch(_ args: [String]) -> (code: Int32, out: String, err: String) {
        let c = CapturingConsole()
        let code = CLI.run(["batch"] + args, context: CommandContext(console: c.console))
        return (code, c.stdout, c.stderr)
    }

    @Test func mixedFolderGoesOnPastBadFilesAndRecordsThem() throws {
        let dir = try Self.mixedFolder()
        let store = dir.path("store.sqlite")
        let r = batch(["--store", store, "--jobs", "2", "--quiet", dir.url.path])
        #expect(r.code == ExitCode.inputError.rawValue)
        #expect(r.err.contains("4 parsed") || r.err.contains("need review"))
        #expect(r.err.contains("2 failed"))
        #expect(r.err.contains("torn.jpg: truncated JPEG"))
        #expect(r.err.contains("empty.png: the file is empty"))
        let s = try SQLReceiptStore(path: store)
        #expect(try s.receipts().count == 4)
        let failures = try s.failures()
        #expect(Set(failures.map(\.code)) == ["truncated", "empty"])
        #expect(failures.allSatisfy { !$0.message.isEmpty })
    }

    /// Content decides, not the name: a JPEG named `.heic` and a PNG without extension are
    /// read; a `.jxl` that cannot be read fails with its reason; the rest are counted by extension.
    @Test func contentNotExtensionDecidesWhatIsAReceipt() throws {
        let f = try TempDir()
        let jpg = try Data(contentsOf: URL(fileURLWithPath: Repo.path("Tests/Fixtures/formats/receipt.jpg")))
        let png = try Data(contentsOf: URL(fileURLWithPath: Repo.path("Tests/Fixtures/formats/receipt.png")))
        _ = FileManager.default.createFile(atPath: f.path("IMG_0042.heic"), contents: jpg)
        _ = FileManager.default.createFile(atPath: f.path("scan-0001"), contents: png)
        _ = FileManager.default.createFile(atPath: f.path("photo.jxl"), contents: Data([0xFF, 0x0A, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))
        for (name, text) in [("notes.txt", "milk"), ("a.json", "{}"), ("b.json", "[]"), ("data.csv", "a,b"), ("README", "read me")] {
            _ = FileManager.default.createFile(atPath: f.path(name), contents: Data(text.utf8))
        }
        let store = f.path("store.sqlite")
        let r = batch(["--store", store, "--jobs", "1", "--quiet", "--exclude", "store.sqlite*", f.url.path])
        #expect(r.code == ExitCode.inputError.rawValue)
        #expect(r.err.contains("3 read: "), "\(r.err)")
        #expect(r.err.contains("1 failed"))
        #expect(r.err.contains("photo.jxl: not an image (supported: "))
        #expect(r.err.contains("5 other files (2 .json, 1 without extension, 1 .csv, 1 .txt)"), "\(r.err)")
        let s = try SQLReceiptStore(path: store)
        #expect(Set(try s.receipts().flatMap(\.sourcePaths).map { ($0 as NSString).lastPathComponent }) == ["IMG_0042.heic", "scan-0001"])
        #expect(try s.failures().map(\.code) == ["not-an-image"])
    }

    /// Every format a user keeps receipts in, good and broken, in one folder: the good ones are
    /// read (a text-layer PDF without OCR), each broken one fails with its reason, nothing is skipped in silence.
    @Test func everyInputFormatGoodAndBroken() throws {
        let f = try TempDir()
        let formats = Repo.path("Tests/Fixtures/formats") + "/"
        for name in ["receipt-text.pdf", "receipt-scan.pdf", "receipt.heic", "receipt-2pages.tif", "receipt-exif6.jpg", "receipt.avif"] {
            try FileManager.default.copyItem(atPath: formats + name, toPath: f.path(name))
        }
        func cut(_ name: String, _ to: String) throws {
            let d = try Data(contentsOf: URL(fileURLWithPath: formats + name))
            _ = FileManager.default.createFile(atPath: f.path(to), contents: d.prefix(d.count / 2))
        }
        try cut("receipt-text.pdf", "cut.pdf")
        try cut("receipt.heic", "cut.heic")
        try cut("receipt-2pages.tif", "cut.tif")
        try FileManager.default.copyItem(atPath: formats + "receipt-encrypted.pdf", toPath: f.path("locked.pdf"))
        let store = f.path("store.sqlite")
        let r = batch(["--store", store, "--jobs", "2", "--quiet", "--exclude", "store.sqlite*", f.url.path])
        #expect(r.code == ExitCode.inputError.rawValue)
        #expect(r.err.contains("10 read: "), "\(r.err)")
        #expect(r.err.contains("4 failed; 0 skipped (already in the store), 0 other files"), "\(r.err)")
        #expect(r.err.contains("cut.pdf: truncated PDF document"))
        #expect(r.err.contains("cut.heic: truncated HEIF image"))
        #expect(r.err.contains("cut.tif: truncated TIFF image"))
        #expect(r.err.contains("locked.pdf: the PDF is encrypted (needs a password)"))
        let s = try SQLReceiptStore(path: store)
        let stored = try s.receipts()
        #expect(stored.count == 6)
        let byName = Dictionary(uniqueKeysWithValues: stored.map { (($0.sourcePaths[0] as NSString).lastPathComponent, $0) })
        #expect(byName["receipt-text.pdf"]?.engineVersion == "pdf-text-layer")
        #expect(byName["receipt-text.pdf"]?.parsed.total?.value == Amount("32.49"))
        #expect(byName["receipt-scan.pdf"]?.parsed.total?.value == Amount("55.84"))
        #expect(byName["receipt-2pages.tif"]?.parsed.total?.evidence.page == 2)
        #expect(byName["receipt.heic"]?.ocrText?.contains("TOTAL 12.50") == true)
        #expect(byName["receipt-exif6.jpg"]?.ocrText?.contains("TOTAL 12.50") == true)
        #expect(Set(try s.failures().map(\.code)) == ["truncated", "encrypted"])
        // Re-parsed from the stored readings (pages, text layer), the same fields.
        let again = batch(["--store", store, "--quiet", "--reparse", "--force"])
        #expect(again.code == 0, "\(again.err)")
        let reparsed = Dictionary(uniqueKeysWithValues: try s.receipts().map { (($0.sourcePaths[0] as NSString).lastPathComponent, $0.parsed) })
        for (name, r) in byName { #expect(reparsed[name]?.total == r.parsed.total, "\(name)") }
    }

    @Test func secondRunSkipsWhatIsDoneAndForceRedoes() throws {
        let dir = try Self.mixedFolder()
        let store = dir.path("store.sqlite")
        _ = batch(["--store", store, "--quiet", dir.url.path])
        let again = batch(["--store", store, "--quiet", "--include", "*.png", "--include", "*.jpg", dir.url.path])
        #expect(again.err.contains("4 skipped (already in the store)"))
        #expect(again.err.contains("0 parsed"))
        let forced = batch(["--store", store, "--quiet", "--force", "--exclude", "2024", dir.url.path])
        #expect(forced.err.contains("0 skipped"))
        #expect(try SQLReceiptStore(path: store).receipts().count == 4)
    }

    @Test func oneJobAndTwoJobsGiveTheSameResults() throws {
        let dir = try Self.mixedFolder()
        func run(_ jobs: String) throws -> [String: String] {
            let store = dir.path("store-\(jobs).sqlite")
            _ = batch(["--store", store, "--jobs", jobs, "--quiet", dir.url.path])
            return Dictionary(uniqueKeysWithValues: try SQLReceiptStore(path: store).receipts().map { r in
                (r.contentHash, [r.parsed.vendor?.value, r.parsed.date?.value.iso, r.parsed.total?.value.description].map { $0 ?? "-" }.joined(separator: "|"))
            })
        }
        let one = try run("1"), two = try run("2")
        #expect(one.count == 4)
        #expect(one == two)
    }

    @Test func noRedrawCodesWhenStderrIsNotATerminal() throws {
        let dir = try Self.mixedFolder()
        let r = batch(["--store", dir.path("s.sqlite"), dir.url.path])  // no --quiet; CapturingConsole is not a terminal
        #expect(!r.err.contains("\r") && !r.err.contains("\u{1B}"))
        #expect(r.err.contains("read:"))
    }

    @Test func progressOnATerminalRedrawsOneLineWithTotalAndRate() throws {
        let dir = try Self.mixedFolder()
        let box = CapturingConsole()
        let capture = box.console
        let tty = Console(out: { _ in }, err: { s in capture.errRaw(s) }, errIsTerminal: true)
        let code = CLI.run(["batch", "--store", dir.path("s.sqlite"), "--jobs", "1", dir.url.path], context: CommandContext(console: tty))
        #expect(code == ExitCode.inputError.rawValue)
        let redraws = box.stderr.components(separatedBy: "\r\u{1B}[K").dropFirst().map { $0.components(separatedBy: "\n")[0] }
        #expect(!redraws.isEmpty)
        // The counting walk gives the total (6 images) before the work ends.
        #expect(redraws.contains { $0.hasPrefix("6/6  ") || $0.contains("/6  ") })
        // Every redraw but the last (the line cleared before the summary) is a progress line.
        #expect(redraws.dropLast().allSatisfy { $0.contains("receipts/s") })
        #expect(redraws.last?.contains("read:") == true)
        #expect(box.stderr.contains("2 failed"))
        let quiet = CapturingConsole()
        let q = Console(out: { _ in }, err: { s in quiet.console.errRaw(s) }, errIsTerminal: true)
        _ = CLI.run(["batch", "--quiet", "--store", dir.path("q.sqlite"), dir.url.path], context: CommandContext(console: q))
        #expect(!quiet.stderr.contains("\u{1B}"))
    }

    @Test func jsonlStreamsOneObjectPerReceipt() throws {
        let dir = try Self.mixedFolder()
        let r = batch(["--store", dir.path("s.sqlite"), "--jsonl", "-", "--quiet", dir.url.path])
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 6)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 6)
        #expect(objects.filter { $0["error"] != nil }.count == 2)
    }

    /// The `receipts` executable built with the tests; the process tests fail (not skip) without it.
    static func executable() throws -> String {
        try #require(Repo.executable("receipts"), "the receipts executable was not built")
    }

    /// Eight distinct sample images in a fresh folder (a batch over them takes a few seconds).
    static func eightImages() throws -> TempDir {
        let dir = try TempDir()
        for (i, name) in goodImages.enumerated() {
            try FileManager.default.copyItem(atPath: Repo.samples + "/" + name, toPath: dir.path("a\(i)-" + name))
        }
        for name in ["uk-diy-01.png", "se-jarnhandel-01.png", "ca-outfitters-01.png", "us-kitchen-01.png"] {
            try FileManager.default.copyItem(atPath: Repo.samples + "/" + name, toPath: dir.path(name))
        }
        return dir
    }

    /// A real child process killed mid-batch: nothing already stored is lost, and running
    /// the same command again finishes the rest without doing any receipt twice.
    @Test func resumeAfterKillLosesNothingAndRepeatsNothing() throws {
        let dir = try Self.eightImages()
        let store = dir.path("store.sqlite")
        let exe = try Self.executable()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["batch", "--store", store, "--jobs", "1", "--quiet", dir.url.path]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // Wait until some, but not all, receipts are in, then kill it hard.
        let deadline = Date().addingTimeInterval(120)
        var stored = 0
        while Date() < deadline, p.isRunning {
            stored = (try? SQLReceiptStore(path: store).receipts().count) ?? 0
            if stored >= 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(p.isRunning, "the batch finished before it could be interrupted")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let before = try SQLReceiptStore(path: store).receipts()
        #expect(before.count >= 2 && before.count < 8)

        let second = batch(["--store", store, "--quiet", dir.url.path])
        #expect(second.code == 0)
        #expect(second.err.contains("\(before.count) skipped (already in the store)"))
        let after = try SQLReceiptStore(path: store).receipts()
        #expect(after.count == 8)
        #expect(Set(after.map(\.contentHash)).count == 8)
        #expect(after.allSatisfy { $0.sourcePaths.count == 1 })
        // What was stored before the kill is still there, unchanged.
        for r in before { #expect(after.contains { $0.contentHash == r.contentHash && $0.parsed.total == r.parsed.total }) }
    }

    /// Ctrl-C / SIGTERM: the receipts in flight are finished and kept, the summary says how to
    /// resume, the exit code is 130; the same command then finishes the rest.
    @Test func sigtermStopsCleanlyAndSaysHowToResume() throws {
        let dir = try Self.eightImages()
        let store = dir.path("store.sqlite")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.executable())
        p.arguments = ["batch", "--store", store, "--jobs", "1", "--quiet", dir.url.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, p.isRunning, ((try? SQLReceiptStore(path: store).receipts().count) ?? 0) < 1 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(p.isRunning, "the batch finished before it could be interrupted")
        kill(p.processIdentifier, SIGTERM)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == ExitCode.interrupted.rawValue)
        #expect(stderr.contains("interrupted"))
        #expect(stderr.contains("to continue, run the same command again"))
        let kept = try SQLReceiptStore(path: store).receipts().count
        #expect(kept >= 1 && kept < 8)
        let again = batch(["--store", store, "--quiet", dir.url.path])
        #expect(again.code == 0)
        #expect(again.err.contains("\(kept) skipped (already in the store)"))
        #expect(try SQLReceiptStore(path: store).receipts().count == 8)
    }

    /// `--reparse` parses the stored OCR text again, without OCR, and keeps every receipt.
    @Test func reparseUsesStoredTextWithoutOCR() throws {
        let dir = try Self.mixedFolder()
        let store = dir.path("store.sqlite")
        _ = batch(["--store", store, "--quiet", dir.url.path])
        let before = try SQLReceiptStore(path: store).receipts()
        // A missing language folder would stop any OCR: --reparse must not need it.
        let r = batch(["--store", store, "--reparse", "--force", "--tessdata", dir.url.path])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("re-parsed 4 receipts"))
        let after = try SQLReceiptStore(path: store).receipts()
        #expect(after.count == before.count)
        #expect(Set(after.map { $0.parsed.total?.value }) == Set(before.map { $0.parsed.total?.value }))
        #expect(batch(["--store", store, "--reparse", dir.url.path]).code == ExitCode.usage.rawValue)
    }
}
