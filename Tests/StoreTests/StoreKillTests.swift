import Foundation
import ReceiptModel
import ReceiptStore
import Testing

/// SplitMix64 with a fixed seed: the kill moments are the same on every run and machine.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `kill -9` of the real binary at random moments of `items import`, `reconcile` and `edit`,
/// 20 times each: after each kill `PRAGMA integrity_check` is `ok`, what was stored before is
/// there, the command's own write is whole or absent (each is one transaction), and the next
/// command works. (`batch` killed mid-run: `BatchTests.resumeAfterKillLosesNothingAndRepeatsNothing`.)
@Suite("Store faults: kill -9", .serialized)
struct StoreKillTests {
    static let rounds = 20

    static func exe() throws -> String {
        try #require(Repo.executable("receipts"), "receipts not built: run `swift build` (this test runs the real binary)")
    }

    /// Runs `receipts ARGS` to the end; returns the exit code, stderr and the seconds it took.
    @discardableResult
    static func run(_ args: [String]) throws -> (code: Int32, err: String, seconds: Double) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try exe())
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        let start = Date()
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self), Date().timeIntervalSince(start))
    }

    /// Starts `receipts ARGS`, sends SIGKILL after `delay` seconds; true when the kill ended it
    /// (false when it had finished first).
    static func runAndKill(_ args: [String], after delay: Double) throws -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try exe())
        p.arguments = args
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: delay)
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        return p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL
    }

    /// A store with the sample inventory (18 items) and a receipt for each sample sidecar (its true fields).
    static func seededStore(_ dir: TempDir) throws -> String {
        let store = dir.path("s.sqlite")
        #expect(try run(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        let s = try SQLReceiptStore(path: store)
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.samples)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("nestory") }.map { String($0.dropLast(5)) }.sorted()
        for name in names { try save(s, try parsedFromSidecar(name), hash: "hash-\(name)", path: name + ".png") }
        #expect(try s.receipts().count == names.count)
        _ = try s.checkpoint()
        return store
    }

    struct Counts: Equatable, CustomStringConvertible {
        var items, receipts, links, corrections: Int
        var description: String { "items \(items), receipts \(receipts), links \(links), corrections \(corrections)" }
    }

    /// Opens the store as the next command would (recovering the WAL a kill left), checks its integrity, counts.
    static func check(_ store: String, _ what: String) throws -> Counts {
        let s = try SQLReceiptStore(path: store, create: false)
        #expect(try s.integrityCheck() == "ok", "\(what)")
        let c = Counts(items: try s.items().count, receipts: try s.receipts().count, links: try s.links().count,
                       corrections: Int(try RawSQLite.int(store, "SELECT count(*) FROM corrections")))
        withExtendedLifetime(s) {}  // the WAL a kill left is recovered and open while the raw count reads
        return c
    }

    /// Random delays within the command's measured run time (its first 90 %, so that a slower
    /// moment of the machine does not let most kills land after the end).
    static func delays(_ seconds: Double, seed: UInt64) -> [Double] {
        var rng = SeededRandom(state: seed)
        return (0..<rounds).map { _ in Double.random(in: 0...max(0.05, 0.9 * seconds), using: &rng) }
    }

    @Test func killedItemsImportIsAllOrNothing() throws {
        let dir = try TempDir()
        let store = try Self.seededStore(dir)
        func csv(_ round: Int) throws -> String {
            var text = "name,brand,price,currency,date,vendor\n"
            for i in 0..<200 { text += "Kill \(round) item \(i),Brand,\(i).25,USD,2024-02-03,Shop\n" }
            return try dir.write("round\(round).csv", text)
        }
        // How long an import of 200 new rows takes, on a copy of the store.
        try FileManager.default.copyItem(atPath: store, toPath: dir.path("timing.sqlite"))
        let timing = try Self.run(["items", "import", "--store", dir.path("timing.sqlite"), try csv(-1)])
        #expect(timing.code == 0, "\(timing.err)")
        var killed = 0, landed = 0
        for (round, delay) in Self.delays(timing.seconds, seed: 16_0001).enumerated() {
            let file = try csv(round)
            let before = try Self.check(store, "before round \(round)")
            let names = Set(try SQLReceiptStore(path: store).items().map(\.item.name))
            if try Self.runAndKill(["items", "import", "--store", store, file], after: delay) { killed += 1 }
            let after = try Self.check(store, "after the kill in round \(round) at \(delay) s")
            // One file is one transaction: its 200 rows are all in or none.
            #expect(after.items == before.items || after.items == before.items + 200, "round \(round): \(before) → \(after)")
            if after.items == before.items + 200 { landed += 1 }
            #expect(Counts(items: before.items, receipts: after.receipts, links: after.links, corrections: after.corrections) == before)
            #expect(names.isSubset(of: Set(try SQLReceiptStore(path: store).items().map(\.item.name))), "round \(round)")
            // The next command works: the same import again leaves exactly the 200 rows in.
            let again = try Self.run(["items", "import", "--store", store, file])
            #expect(again.code == 0, "round \(round): \(again.err)")
            #expect(try Self.check(store, "after round \(round)").items == before.items + 200)
        }
        // The kills must have hit the command while it ran, not only after it ended.
        #expect(killed >= Self.rounds / 4, "only \(killed) of \(Self.rounds) kills hit a running import")
        print("items import: \(killed) of \(Self.rounds) killed mid-run, \(landed) had committed; run time \(timing.seconds) s")
    }

    @Test func killedReconcileKeepsDecisionsAndWritesWholePlans() throws {
        let dir = try TempDir()
        let store = try Self.seededStore(dir)
        // The state each round starts from: strict proposals, one confirmed and one rejected by the user.
        #expect(try Self.run(["reconcile", "--store", store, "--threshold", "0.9"]).code == 0)
        do {  // closed before the file is copied
            let s = try SQLReceiptStore(path: store)
            let strict = try s.links()
            try #require(strict.count >= 2, "the sample receipts and inventory give fewer than two strict links")
            _ = try s.decideLink(strict[0].id, status: .confirmed, by: "tester")
            _ = try s.decideLink(strict[1].id, status: .rejected, by: "tester")
        }
        let pristine = dir.path("pristine.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: pristine)
        func restore() throws {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            try FileManager.default.copyItem(atPath: pristine, toPath: store)
        }
        struct L: Hashable { var receipt: Int64; var item: Int64; var status: String }
        func links() throws -> Set<L> {
            Set(try SQLReceiptStore(path: store).links().map { L(receipt: $0.receiptID.rawValue, item: $0.itemID.rawValue, status: $0.status.rawValue) })
        }
        let start = try links()
        let timing = try Self.run(["reconcile", "--store", store])
        #expect(timing.code == 0, "\(timing.err)")
        let full = try links()
        #expect(full != start, "a default reconcile changes nothing: the kills would test nothing")
        let decided = start.filter { $0.status == "confirmed" || $0.status == "rejected" }
        #expect(decided.count == 2 && decided.isSubset(of: full))
        var killed = 0, landed = 0
        for (round, delay) in Self.delays(timing.seconds, seed: 16_0002).enumerated() {
            try restore()
            let before = try Self.check(store, "before round \(round)")
            if try Self.runAndKill(["reconcile", "--store", store], after: delay) { killed += 1 }
            let after = try Self.check(store, "after the kill in round \(round) at \(delay) s")
            #expect(after.items == before.items && after.receipts == before.receipts && after.corrections == before.corrections)
            // One reconciliation is one transaction: the links are as they were, or as a whole run leaves them.
            let now = try links()
            #expect(now == start || now == full, "round \(round): \(now.count) links, neither the \(start.count) before nor the \(full.count) of a whole run")
            if now == full { landed += 1 }
            #expect(decided.isSubset(of: now), "round \(round): a user's decision was lost")
            let again = try Self.run(["reconcile", "--store", store])
            #expect(again.code == 0, "round \(round): \(again.err)")
            #expect(try links() == full, "round \(round)")
        }
        #expect(killed >= Self.rounds / 4, "only \(killed) of \(Self.rounds) kills hit a running reconcile")
        print("reconcile: \(killed) of \(Self.rounds) killed mid-run, \(landed) had committed; run time \(timing.seconds) s")
    }

    @Test func killedEditRecordsTheCorrectionWholeOrNotAtAll() throws {
        let dir = try TempDir()
        let store = try Self.seededStore(dir)
        let id = try #require(try SQLReceiptStore(path: store).receipts().first?.id)
        func total() throws -> Decimal? { try SQLReceiptStore(path: store).receiptDetail(id)?.effective.total?.value.value }
        let timing = try Self.run(["edit", "--store", store, "--by", "tester", "\(id.rawValue)", "--total", "1.01"])
        #expect(timing.code == 0, "\(timing.err)")
        var killed = 0, landed = 0
        for (round, delay) in Self.delays(timing.seconds, seed: 16_0003).enumerated() {
            let before = try Self.check(store, "before round \(round)")
            let oldTotal = try total()
            let value = "\(100 + round).25"
            if try Self.runAndKill(["edit", "--store", store, "--by", "tester", "\(id.rawValue)", "--total", value], after: delay) { killed += 1 }
            let after = try Self.check(store, "after the kill in round \(round) at \(delay) s")
            #expect(after.items == before.items && after.receipts == before.receipts && after.links == before.links)
            // The correction and the receipt's value go together: both or neither.
            if after.corrections == before.corrections + 1 {
                landed += 1
                #expect(try total() == Decimal(string: value), "round \(round)")
            } else {
                #expect(after.corrections == before.corrections, "round \(round): \(before) → \(after)")
                #expect(try total() == oldTotal, "round \(round)")
            }
            let next = "\(200 + round).50"
            let again = try Self.run(["edit", "--store", store, "--by", "tester", "\(id.rawValue)", "--total", next])
            #expect(again.code == 0, "round \(round): \(again.err)")
            #expect(try Self.check(store, "after round \(round)").corrections == after.corrections + 1)
            let got = try total()
            #expect(got == Decimal(string: next), "round \(round): \(got.map { "\($0)" } ?? "none") after setting \(next)")
        }
        #expect(killed >= Self.rounds / 4, "only \(killed) of \(Self.rounds) kills hit a running edit")
        print("edit: \(killed) of \(Self.rounds) killed mid-run, \(landed) had committed; run time \(timing.seconds) s")
    }
}
