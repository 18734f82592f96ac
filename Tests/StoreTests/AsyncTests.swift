import Foundation
import Testing
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptPipeline
import ReceiptStore
import ReceiptTestSupport

/// The async surface an app awaits: one receipt (`ReceiptReader`), a batch as an AsyncSequence
/// (`BatchRunner.events`). Scripted engines, real images, a real SQLite store.
@Suite("async: a reader and a batch as an AsyncSequence")
struct AsyncTests {
    /// The scripted page, read slowly (as OCR is), so that a batch can be stopped half-way.
    final class SlowEngine: OCREngine {
        let inner = ScriptedEngine(pages: [nil: ScriptedEngine.page(BatchRunnerTests.receiptText)])
        let delay: UInt32
        init(delay: UInt32 = 0) { self.delay = delay }
        var identity: String { inner.identity }
        func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage {
            usleep(delay)
            return try inner.recognize(image, request: request)
        }
        func uprightQuarterTurns(_ image: PageImage) throws -> Int { 0 }
    }

    @Test func aReaderReadsReceiptsAwaitedAtOnce() async throws {
        let made = Locked(0)
        let reader = ReceiptReader(makePipeline: {
            made.withLock { $0 += 1 }
            return ReceiptPipeline(engine: SlowEngine(delay: 20_000))
        })
        async let a = reader.read(path: Repo.samples + "/us-hardware-01.png")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Repo.samples + "/de-moebel-01.png"))
        async let b = reader.read(data: bytes, name: "upload.png")
        let (ra, rb) = try await (a, b)
        #expect(ra.receipt.total?.value.description == "55.84" && ra.file.hasSuffix("us-hardware-01.png"))
        #expect(rb.file == "upload.png" && rb.receipt.vendor?.value == "HARBOR LANE HARDWARE LLC")
        #expect(made.value == 1, "one pipeline, made once")
        await #expect(throws: IngestError.self) { try await reader.read(path: "/nonexistent/scan.jpg") }
    }

    @Test func aBatchIsASequenceOfOutcomesThenItsCounts() async throws {
        let dir = try BatchRunnerTests.folder()
        let store = try openStore(dir.path("s.sqlite"))
        var options = BatchOptions(jobs: 2)
        options.progressInterval = 0
        let runner = BatchRunner(store: store, options: options, makePipeline: { ReceiptPipeline(engine: SlowEngine()) })
        var stored: [ReceiptID] = [], failed: [String] = [], progress = 0
        var last: BatchCounts?
        for await event in runner.events([dir.url.path]) {
            #expect(last == nil, "nothing after the counts")
            switch event {
            case .outcome(.stored(_, _, _, let id)): stored.append(id)
            case .outcome(.failed(let path, _)): failed.append((path as NSString).lastPathComponent)
            case .outcome(.skipped): Issue.record("nothing was stored before")
            case .progress: progress += 1
            case .finished(let counts): last = counts
            }
        }
        let counts = try #require(last)
        #expect(counts.parsed == 3 && counts.failed.count == 1 && !counts.interrupted)
        #expect(Set(stored) == Set(try store.receipts().map(\.id)) && stored.count == 3)
        #expect(failed == ["notes.jpg"])
        #expect(progress == 4)
    }

    /// Reads the first image it is given at once, and waits at every other image until released:
    /// the batch cannot run ahead of a test that is slow to be scheduled.
    final class GatedEngine: OCREngine, @unchecked Sendable {
        // @unchecked: `first` and `calls` are only touched by the batch's one worker (jobs 1).
        let inner = ScriptedEngine(pages: [nil: ScriptedEngine.page(BatchRunnerTests.receiptText)])
        let released = Locked(false)
        let images = Locked<Set<String>>([])
        private var first: String?
        var identity: String { inner.identity }
        func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage {
            if first == nil { first = image.name }
            images.withLock { _ = $0.insert(image.name) }
            while image.name != first && !released.value { usleep(10_000) }
            return try inner.recognize(image, request: request)
        }
        func uprightQuarterTurns(_ image: PageImage) throws -> Int { 0 }
    }

    /// Leaving the loop stops the batch as Ctrl-C does: what is in flight finishes, the rest is left.
    @Test func leavingTheLoopStopsTheBatch() async throws {
        let dir = try TempDir()
        for i in 0..<12 {
            try FileManager.default.copyItem(atPath: Repo.samples + "/" + BatchRunnerTests.images[i % 3], toPath: dir.path("r\(i).png"))
            // Each a different image: bytes after the PNG's end (a new content hash, the same picture).
            let h = try FileHandle(forWritingTo: dir.url.appendingPathComponent("r\(i).png"))
            try h.seekToEnd(); try h.write(contentsOf: Data([UInt8(i)])); try h.close()
        }
        let store = try openStore(dir.path("s.sqlite"))
        let engine = GatedEngine()
        let runner = BatchRunner(store: store, options: BatchOptions(jobs: 1), makePipeline: { ReceiptPipeline(engine: engine) })
        for await event in runner.events([dir.url.path]) {
            if case .outcome = event { break }
        }
        engine.released.withLock { $0 = true }
        // The worker finishes the receipt in flight (if it had started one), then stops; wait until it is idle.
        var seen = -1, waits = 0
        while waits < 300, try seen != engine.images.value.count || store.receipts().isEmpty {
            seen = engine.images.value.count
            waits += 1
            try await Task.sleep(for: .milliseconds(500))
        }
        let n = try store.receipts().count
        #expect((1...2).contains(n), "\(n) of 12 stored after the loop was left")
        #expect(engine.images.value.count <= 2)
    }
}
