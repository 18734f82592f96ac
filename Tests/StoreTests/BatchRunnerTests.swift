import Foundation
import Testing
import ReceiptModel
import ReceiptOCR
import ReceiptPipeline
import ReceiptStore
import ReceiptTestSupport

/// The batch use case as a library: fake and failure-injecting engines, a real SQLite store.
@Suite("batch runner")
struct BatchRunnerTests {
    static let images = ["us-hardware-01.png", "de-moebel-01.png", "fr-maison-01.png"]

    /// Three sample images and a text file named like an image.
    static func folder() throws -> TempDir {
        let dir = try TempDir()
        for name in images { try FileManager.default.copyItem(atPath: Repo.samples + "/" + name, toPath: dir.path(name)) }
        _ = try dir.write("notes.jpg", "not an image")
        return dir
    }

    /// A runner whose workers each make `engine()`; counts how many pipelines were made.
    static func runner(_ store: any ReceiptStore, jobs: Int = 2, force: Bool = false, made: Locked<Int>,
                       engine: @escaping @Sendable () -> OCREngine) -> BatchRunner {
        var options = BatchOptions(jobs: jobs)
        options.force = force
        return BatchRunner(store: store, options: options, makePipeline: {
            made.withLock { $0 += 1 }
            return ReceiptPipeline(engine: engine())
        }, isCancelled: { false })
    }

    static let receiptText = """
        HARBOR LANE HARDWARE LLC
        2024-03-04 14:32
        SUBTOTAL 51.41
        TAX 4.43
        TOTAL 55.84
        """

    @Test(arguments: Engine.allCases) func storesEveryReceiptWithItsStatusAndSkipsThemNextTime(_ engine: Engine) throws {
        let dir = try Self.folder()
        let store = try openStore(try dir.storeLocation(engine))
        let made = Locked(0)
        let outcomes = Locked([String]())
        let counts = Self.runner(store, made: made) { ScriptedEngine(pages: [nil: ScriptedEngine.page(Self.receiptText)]) }
            .run([dir.url.path], outcome: { o in
                outcomes.withLock { list in
                    switch o {
                    case .stored(let r, let engine, let status, _): list.append("stored \((r.file as NSString).lastPathComponent) \(engine) \(status.rawValue)")
                    case .skipped(let path): list.append("skipped \(path)")
                    case .failed(let path, let report): list.append("failed \((path as NSString).lastPathComponent) \(report.code)")
                    }
                }
            })
        #expect(counts.parsed == 3 && counts.needsReview == 0 && counts.failed.count == 1)
        #expect(Set(outcomes.value) == Set(Self.images.map { "stored \($0) scripted parsed" } + ["failed notes.jpg not-an-image"]))
        #expect(made.value >= 1 && made.value <= 2, "one pipeline per worker, made when first needed")
        let stored = try store.receipts()
        #expect(stored.count == 3)
        #expect(stored.allSatisfy { $0.parsed.total?.value.description == "55.84" && $0.engineVersion == "scripted" })
        #expect(try store.readings().allSatisfy { $0.reading?.first.lines.count == 5 }, "the reading is kept for --reparse")
        #expect(try store.failures().map(\.code) == ["not-an-image"])

        // Again: everything is in the store, so no engine is even made.
        let again = Locked(0)
        let second = Self.runner(store, made: again) { ScriptedEngine() }.run([dir.url.path])
        #expect(second.skippedDone == 3 && second.processed == 1)
        #expect(again.value == 0)
    }

    /// An engine that, on its first read, deletes a file the batch has listed but not reached yet.
    final class DeletingEngine: OCREngine, @unchecked Sendable {
        let inner = ScriptedEngine(pages: [nil: ScriptedEngine.page(BatchRunnerTests.receiptText)])
        let victim: String
        var done = false
        init(deleting victim: String) { self.victim = victim }
        func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage {
            if !done { done = true; try? FileManager.default.removeItem(atPath: victim) }
            return try inner.recognize(image, request: request)
        }
        func uprightQuarterTurns(_ image: PageImage) throws -> Int { 0 }
        var identity: String { "deleting" }
    }

    /// A file that disappears while the batch runs (deleted, moved away) is one failure naming it; the rest is stored.
    @Test func aFileThatDisappearsMidBatchIsOneFailure() throws {
        let dir = try Self.folder()
        let store = try SQLReceiptStore(path: dir.path("s.sqlite"))
        let victim = dir.path("us-hardware-01.png")  // last in the walk's order
        let failed = Locked([String]())
        let counts = Self.runner(store, jobs: 1, made: Locked(0)) { DeletingEngine(deleting: victim) }
            .run([dir.url.path], outcome: { o in
                if case .failed(let path, let report) = o { failed.withLock { $0.append("\((path as NSString).lastPathComponent): \(report.message)") } }
            })
        #expect(counts.parsed == 2)
        #expect(failed.value.contains { $0.hasPrefix("us-hardware-01.png: ") && $0.contains("no such file") }, "\(failed.value)")
        #expect(try store.receipts().count == 2)
    }

    @Test(arguments: Engine.allCases) func aReceiptWithoutItsHeadlineFieldsNeedsReview(_ engine: Engine) throws {
        let dir = try Self.folder()
        let store = try openStore(try dir.storeLocation(engine))
        let counts = Self.runner(store, made: Locked(0)) { ScriptedEngine(pages: [nil: ScriptedEngine.page("THANK YOU")]) }.run([dir.url.path])
        #expect(counts.needsReview == 3 && counts.parsed == 0)
        #expect(try store.receipts(status: .needsReview).count == 3)
    }

    @Test(arguments: [
        (FailingEngine.Failure.timeout(seconds: 5), "timeout"),
        (FailingEngine.Failure.recognitionFailed, "ocr-failed"),
    ])
    func anEngineFailureIsRecordedPerFileAndLosesNothingStored(failure: FailingEngine.Failure, code: String) throws {
        let dir = try Self.folder()
        let store = try SQLReceiptStore(path: dir.path("s.sqlite"))
        // One receipt stored first, by a working engine.
        let first = Self.runner(store, made: Locked(0)) { ScriptedEngine(pages: [nil: ScriptedEngine.page(Self.receiptText)]) }
            .run([dir.path(Self.images[0])])
        #expect(first.parsed == 1)
        let before = try store.receipts()

        let counts = Self.runner(store, force: true, made: Locked(0)) { FailingEngine(failure) }.run([dir.url.path])
        #expect(counts.failed.count == 4 && counts.processed == 4)
        #expect(Set(try store.failures().map(\.code)) == [code, "not-an-image"])
        // The receipt stored before is still there, unchanged.
        let after = try store.receipts()
        #expect(after.count == 1)
        #expect(after.first?.parsed == before.first?.parsed)
    }
}
