import Foundation
import Testing
import ReceiptStore

/// Ctrl-C / SIGTERM: the work in flight may finish, but only for a grace period; then the process
/// exits, and the store is consistent with what was stored before.
@Suite("Interrupt with a bound", .serialized)
struct InterruptTests {
    @Test func aSignalDuringAMinuteLongOCREndsTheProcessAfterTheGracePeriod() throws {
        let exe = try #require(Repo.executable("receipts"), "receipts not built: run `swift build` (this test runs the real binary)")
        let dir = try TempDir()
        // Sorted first: a receipt stored at once. Then random noise, which Tesseract reads for a minute or more.
        try FileManager.default.copyItem(atPath: Repo.samples + "/us-hardware-01.png", toPath: dir.path("a-receipt.png"))
        var rng = SystemRandomNumberGenerator()
        let (w, h) = (2500, 3500)
        var noise = Data("P5\n\(w) \(h)\n255\n".utf8)
        noise.append(contentsOf: (0..<(w * h / 8)).flatMap { _ in withUnsafeBytes(of: rng.next() as UInt64, Array.init) })
        _ = FileManager.default.createFile(atPath: dir.path("b-noise.pgm"), contents: noise)
        let store = dir.path("s.sqlite")

        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["batch", "--jobs", "1", "--quiet", "--no-second-pass", "--store", store, dir.url.path]
        p.environment = ProcessInfo.processInfo.environment.merging(["RECEIPTS_INTERRUPT_GRACE": "2", "OMP_THREAD_LIMIT": "1"]) { $1 }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        // Wait for the first receipt to be stored: the noise is then in OCR.
        let start = Date()
        while Date().timeIntervalSince(start) < 60 {
            if let s = try? SQLReceiptStore(path: store), let n = try? s.receipts().count, n == 1 { break }
            usleep(200_000)
        }
        usleep(1_000_000)
        #expect(p.isRunning, "the noise image should still be in OCR")
        let signalled = Date()
        p.terminate()  // SIGTERM
        while p.isRunning && Date().timeIntervalSince(signalled) < 30 { usleep(50_000) }
        let took = Date().timeIntervalSince(signalled)
        #expect(!p.isRunning, "still running 30 s after SIGTERM")
        #expect(took < 8, "exited \(took) s after SIGTERM (grace 2 s)")
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 130)
        #expect(text.contains("did not finish within 2 s"), "\(text)")
        let s = try SQLReceiptStore(path: store)
        #expect(try s.integrityCheck() == "ok")
        #expect(try s.receipts().count == 1)
    }
}
