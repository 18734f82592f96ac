import Foundation
import ReceiptSupport
import ReceiptModel
import ReceiptStore
import ReceiptTestSupport
import Testing

/// Several `receipts batch` processes on one store, splitting the work through claims with
/// leases: no coordinator, nothing read twice while a lease holds, nothing lost when one dies.
@Suite("Several batch workers on one store", .serialized)
struct DistributedBatchTests {
    /// The content hashes of the receipt images in SampleReceipts/ (what a batch over it must store).
    static func sampleHashes() throws -> Set<String> {
        let kinds: Set<String> = ["png", "jpg", "jpeg", "heic", "pdf", "tif", "tiff"]
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.samples).filter { kinds.contains(($0 as NSString).pathExtension.lowercased()) }
        return Set(try names.map { ContentHash.sha256(try Data(contentsOf: URL(fileURLWithPath: Repo.samples + "/" + $0))) })
    }

    static func start(_ exe: String, _ args: [String]) throws -> StartedProcess {
        var env = ProcessInfo.processInfo.environment
        env["OMP_THREAD_LIMIT"] = "1"
        return try StartedProcess(exe, args, environment: env)
    }

    @Test("three workers, one killed with -9 midway: every receipt stored once; the killed worker's image finished by the others after its lease ran out",
          arguments: Engine.allCases)
    func threeWorkersOneKilled(_ engine: Engine) throws {
        let exe = try #require(Repo.executable("receipts"), "the receipts executable is not built: run `swift build`")
        let tmp = try TempDir()
        let location = try tmp.storeLocation(engine, "shared.sqlite")
        let expected = try Self.sampleHashes()
        let lease = 4.0
        let args = ["batch", "--store", location, "--jobs", "1", "--lease", "\(Int(lease))", "--quiet", Repo.samples]
        let a = try Self.start(exe, args), b = try Self.start(exe, args), c = try Self.start(exe, args)

        // Midway: some receipts stored, and the victim holding a claim (it is reading an image).
        let victim = a.pid
        let mark = ":\(victim):"
        var store: SQLReceiptStore?
        var killedAt: Date?
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline, a.isRunning {
            if store == nil { store = try? openStore(location, create: false) }
            if let s = store, let n = try? s.stats().receipts, n >= 4, let held = try? s.claims(), held.contains(where: { $0.worker.contains(mark) }) {
                kill(victim, SIGKILL)
                killedAt = Date()
                break
            }
            usleep(20_000)
        }
        let killTime = try #require(killedAt, "the victim finished or never held a claim with 4 receipts stored")
        let ra = a.finish()
        #expect(a.process.terminationReason == .uncaughtSignal && ra.code == SIGKILL, "killed with -9")
        let s = try #require(store)
        let orphaned = try s.claims().filter { $0.worker.contains(mark) }
        #expect(!orphaned.isEmpty, "the dead worker's claim stays until its lease runs out")

        let rb = b.finish(), rc = c.finish()
        #expect(rb.code == 0, "worker B: \(rb.err)")
        #expect(rc.code == 0, "worker C: \(rc.err)")

        // Every receipt exactly once, nothing claimed any more, no failures.
        let receipts = try s.receipts()
        #expect(Set(receipts.map(\.contentHash)) == expected)
        #expect(receipts.count == expected.count, "no image stored twice")
        #expect(try s.claims().isEmpty)
        #expect(try s.failures().isEmpty)

        // The image the victim held was finished by another worker, once its lease had run out
        // (it renewed at most a third of a lease before it died).
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for claim in orphaned {
            let r = try #require(receipts.first { $0.contentHash == claim.contentHash }, "\(claim.path) was never stored")
            let done = try #require(iso.date(from: r.processedAt) ?? ISO8601DateFormatter().date(from: r.processedAt))
            #expect(done.timeIntervalSince(killTime) > lease / 2, "\(claim.path) was read again before the lease ran out")
        }
        let takenOver = [rb.err, rc.err].compactMap { err in
            err.split(separator: "\n").first { $0.contains("taken over from batches whose lease ran out") }
                .flatMap { line in line.split(separator: ",").last?.split(separator: " ").first.flatMap { Int($0) } }
        }.reduce(0, +)
        #expect(takenOver == orphaned.count, "B: \(rb.err)\nC: \(rc.err)")
        // Each survivor says what it did and what the whole store holds.
        #expect(rb.err.contains("the store holds \(expected.count) receipts"), "\(rb.err)")
    }

    @Test("a claim holds against other workers until its lease runs out; saving or a failure ends it", arguments: Engine.allCases)
    func claimsAndLeases(_ engine: Engine) throws {
        let tmp = try TempDir()
        let location = try tmp.storeLocation(engine)
        let s = try openStore(location)
        #expect(try s.claim(contentHash: "h1", path: "a/1.png", worker: "A", lease: 0.6, evenIfStored: false) == .claimed(takenFrom: nil))
        let info = cli(["store", "info", "--store", location])
        #expect(info.out.contains("claims    1 (1 held by 1 batch now, 0 whose lease ran out)\n  a/1.png: A ("), "\(info.out)")
        guard case let .heldElsewhere(who, left) = try s.claim(contentHash: "h1", path: "b/1.png", worker: "B", lease: 30, evenIfStored: false) else {
            Issue.record("B got A's image while A's lease held"); return
        }
        #expect(who == "A" && left > 0 && left <= 0.6)
        #expect(try s.claim(contentHash: "h1", path: "a/1.png", worker: "A", lease: 0.6, evenIfStored: false) == .claimed(takenFrom: nil), "A asking again renews")
        #expect(try s.renewClaims(worker: "A", lease: 0.6) == 1)
        usleep(700_000)
        #expect(try s.claim(contentHash: "h1", path: "b/1.png", worker: "B", lease: 30, evenIfStored: false) == .claimed(takenFrom: "A"))
        #expect(try s.claims().map(\.worker) == ["B"])
        try save(s, receipt(vendor: "Shop", date: "2024-01-01", total: "1.00"), hash: "h1", path: "b/1.png")
        #expect(try s.claims().isEmpty, "saving the receipt ends the claim")
        #expect(try s.claim(contentHash: "h1", path: "c/1.png", worker: "C", lease: 30, evenIfStored: false) == .stored)
        #expect(try s.claim(contentHash: "h1", path: "c/1.png", worker: "C", lease: 30, evenIfStored: true) == .claimed(takenFrom: nil), "--force reads it again")
        try s.releaseClaim(contentHash: "h1", worker: "C")
        #expect(try s.claims().isEmpty)
        #expect(try s.claim(contentHash: "h2", path: "x.png", worker: "A", lease: 30, evenIfStored: false) == .claimed(takenFrom: nil))
        try s.recordFailure(contentHash: "h2", path: "x.png", code: "ocr-failed", message: "no text")
        #expect(try s.claims().isEmpty, "recording the failure ends the claim")
    }
}
