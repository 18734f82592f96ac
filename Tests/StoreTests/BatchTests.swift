import Foundation
import Testing
import ReceiptModel
import ReceiptStore
@testable import ReceiptsCLI

/// `receipts batch` on real images, the real engine and real SQLite files.
@Suite("batch", .serialized)
struct BatchTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = root.appendingPathComponent("SampleReceipts").path
    static let goodImages = ["us-hardware-01.png", "de-moebel-01.png", "fr-maison-01.png", "sroie-X51005447833.jpg"]

    final class Folder {
        let path = NSTemporaryDirectory() + "receipts-batch-" + UUID().uuidString
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A folder of good images (one in a subfolder) plus a truncated JPEG, an empty image and a text file.
    static func mixedFolder() throws -> Folder {
        let f = try Folder()
        try FileManager.default.createDirectory(atPath: f.file("2024/march"), withIntermediateDirectories: true)
        for (i, name) in goodImages.enumerated() {
            let dest = i == 0 ? f.file("2024/march/" + name) : f.file(name)
            try FileManager.default.copyItem(atPath: samples + "/" + name, toPath: dest)
        }
        let jpg = try Data(contentsOf: URL(fileURLWithPath: samples + "/sroie-X51005447833.jpg"))
        _ = FileManager.default.createFile(atPath: f.file("torn.jpg"), contents: jpg.prefix(jpg.count / 3))
        _ = FileManager.default.createFile(atPath: f.file("empty.png"), contents: Data())
        _ = FileManager.default.createFile(atPath: f.file("notes.txt"), contents: Data("not a receipt".utf8))
        return f
    }

    func batch(_ args: [String]) -> (code: Int32, out: String, err: String) {
        let c = CapturingConsole()
        let code = CLI.run(["batch"] + args, context: CommandContext(console: c.console))
        return (code, c.stdout, c.stderr)
    }

    @Test func mixedFolderGoesOnPastBadFilesAndRecordsThem() throws {
        let dir = try Self.mixedFolder()
        let store = dir.file("store.sqlite")
        let r = batch(["--store", store, "--jobs", "2", "--quiet", dir.path])
        #expect(r.code == ExitCode.inputError.rawValue)
        #expect(r.err.contains("4 parsed") || r.err.contains("need review"))
        #expect(r.err.contains("2 failed"))
        #expect(r.err.contains("torn.jpg: truncated JPEG"))
        #expect(r.err.contains("empty.png: the file is empty"))
        let s = try ReceiptStore(path: store)
        #expect(try s.receipts().count == 4)
        let failures = try s.failures()
        #expect(Set(failures.map(\.code)) == ["truncated", "empty"])
        #expect(failures.allSatisfy { !$0.message.isEmpty })
    }

    @Test func secondRunSkipsWhatIsDoneAndForceRedoes() throws {
        let dir = try Self.mixedFolder()
        let store = dir.file("store.sqlite")
        _ = batch(["--store", store, "--quiet", dir.path])
        let again = batch(["--store", store, "--quiet", "--include", "*.png", "--include", "*.jpg", dir.path])
        #expect(again.err.contains("4 skipped (already in the store)"))
        #expect(again.err.contains("0 parsed"))
        let forced = batch(["--store", store, "--quiet", "--force", "--exclude", "2024", dir.path])
        #expect(forced.err.contains("0 skipped"))
        #expect(try ReceiptStore(path: store).receipts().count == 4)
    }

    @Test func oneJobAndTwoJobsGiveTheSameResults() throws {
        let dir = try Self.mixedFolder()
        func run(_ jobs: String) throws -> [String: String] {
            let store = dir.file("store-\(jobs).sqlite")
            _ = batch(["--store", store, "--jobs", jobs, "--quiet", dir.path])
            return Dictionary(uniqueKeysWithValues: try ReceiptStore(path: store).receipts().map { r in
                (r.contentHash, [r.parsed.vendor?.value, r.parsed.date?.value.iso, r.parsed.total?.value.description].map { $0 ?? "-" }.joined(separator: "|"))
            })
        }
        let one = try run("1"), two = try run("2")
        #expect(one.count == 4)
        #expect(one == two)
    }

    @Test func noRedrawCodesWhenStderrIsNotATerminal() throws {
        let dir = try Self.mixedFolder()
        let r = batch(["--store", dir.file("s.sqlite"), dir.path])  // no --quiet; CapturingConsole is not a terminal
        #expect(!r.err.contains("\r") && !r.err.contains("\u{1B}"))
        #expect(r.err.contains("read:"))
    }

    @Test func progressOnATerminalRedrawsOneLineWithTotalAndRate() throws {
        let dir = try Self.mixedFolder()
        let box = CapturingConsole()
        let capture = box.console
        let tty = Console(out: { _ in }, err: { s in capture.errRaw(s) }, errIsTerminal: true)
        let code = CLI.run(["batch", "--store", dir.file("s.sqlite"), "--jobs", "1", dir.path], context: CommandContext(console: tty))
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
        _ = CLI.run(["batch", "--quiet", "--store", dir.file("q.sqlite"), dir.path], context: CommandContext(console: q))
        #expect(!quiet.stderr.contains("\u{1B}"))
    }

    @Test func jsonlStreamsOneObjectPerReceipt() throws {
        let dir = try Self.mixedFolder()
        let r = batch(["--store", dir.file("s.sqlite"), "--jsonl", "-", "--quiet", dir.path])
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 6)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 6)
        #expect(objects.filter { $0["error"] != nil }.count == 2)
    }

    /// The `receipts` executable beside this test bundle (built by `swift test`).
    static func executable() throws -> String {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundleDir.appendingPathComponent("receipts").path,
                          bundleDir.deletingLastPathComponent().appendingPathComponent("receipts").path,
                          root.appendingPathComponent(".build/debug/receipts").path]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                            "the receipts executable was not built (looked in \(candidates))")
    }

    /// A real child process killed mid-batch: nothing already stored is lost, and running
    /// the same command again finishes the rest without doing any receipt twice.
    @Test func resumeAfterKillLosesNothingAndRepeatsNothing() throws {
        let dir = try Folder()
        // Eight distinct images: the samples, made distinct by a trailing comment-free byte pattern.
        for (i, name) in Self.goodImages.enumerated() {
            try FileManager.default.copyItem(atPath: Self.samples + "/" + name, toPath: dir.file("a\(i)-" + name))
        }
        for name in ["uk-diy-01.png", "se-jarnhandel-01.png", "ca-outfitters-01.png", "us-kitchen-01.png"] {
            try FileManager.default.copyItem(atPath: Self.samples + "/" + name, toPath: dir.file(name))
        }
        let store = dir.file("store.sqlite")
        let exe = try Self.executable()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["batch", "--store", store, "--jobs", "1", "--quiet", dir.path]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // Wait until some, but not all, receipts are in, then kill it hard.
        let deadline = Date().addingTimeInterval(120)
        var stored = 0
        while Date() < deadline, p.isRunning {
            stored = (try? ReceiptStore(path: store).receipts().count) ?? 0
            if stored >= 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(p.isRunning, "the batch finished before it could be interrupted")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let before = try ReceiptStore(path: store).receipts()
        #expect(before.count >= 2 && before.count < 8)

        let second = batch(["--store", store, "--quiet", dir.path])
        #expect(second.code == 0)
        #expect(second.err.contains("\(before.count) skipped (already in the store)"))
        let after = try ReceiptStore(path: store).receipts()
        #expect(after.count == 8)
        #expect(Set(after.map(\.contentHash)).count == 8)
        #expect(after.allSatisfy { $0.sourcePaths.count == 1 })
        // What was stored before the kill is still there, unchanged.
        for r in before { #expect(after.contains { $0.contentHash == r.contentHash && $0.parsed.total == r.parsed.total }) }
    }

    /// Ctrl-C / SIGTERM: the receipts in flight are finished and kept, the summary says how to
    /// resume, the exit code is 130; the same command then finishes the rest.
    @Test func sigtermStopsCleanlyAndSaysHowToResume() throws {
        let dir = try Folder()
        for (i, name) in Self.goodImages.enumerated() {
            try FileManager.default.copyItem(atPath: Self.samples + "/" + name, toPath: dir.file("b\(i)-" + name))
        }
        for name in ["uk-diy-01.png", "se-jarnhandel-01.png", "ca-outfitters-01.png", "us-kitchen-01.png"] {
            try FileManager.default.copyItem(atPath: Self.samples + "/" + name, toPath: dir.file(name))
        }
        let store = dir.file("store.sqlite")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.executable())
        p.arguments = ["batch", "--store", store, "--jobs", "1", "--quiet", dir.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, p.isRunning, ((try? ReceiptStore(path: store).receipts().count) ?? 0) < 1 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(p.isRunning, "the batch finished before it could be interrupted")
        kill(p.processIdentifier, SIGTERM)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == ExitCode.interrupted.rawValue)
        #expect(stderr.contains("interrupted"))
        #expect(stderr.contains("to continue, run the same command again"))
        let kept = try ReceiptStore(path: store).receipts().count
        #expect(kept >= 1 && kept < 8)
        let again = batch(["--store", store, "--quiet", dir.path])
        #expect(again.code == 0)
        #expect(again.err.contains("\(kept) skipped (already in the store)"))
        #expect(try ReceiptStore(path: store).receipts().count == 8)
    }

    /// `--reparse` parses the stored OCR text again, without OCR, and keeps every receipt.
    @Test func reparseUsesStoredTextWithoutOCR() throws {
        let dir = try Self.mixedFolder()
        let store = dir.file("store.sqlite")
        _ = batch(["--store", store, "--quiet", dir.path])
        let before = try ReceiptStore(path: store).receipts()
        // A missing language folder would stop any OCR: --reparse must not need it.
        let r = batch(["--store", store, "--reparse", "--force", "--tessdata", dir.path])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("re-parsed 4 receipts"))
        let after = try ReceiptStore(path: store).receipts()
        #expect(after.count == before.count)
        #expect(Set(after.map { $0.parsed.total?.value }) == Set(before.map { $0.parsed.total?.value }))
        #expect(batch(["--store", store, "--reparse", dir.path]).code == ExitCode.usage.rawValue)
    }
}
