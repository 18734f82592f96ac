import Foundation
import ReceiptModel
import ReceiptStore
import Testing

/// Runs the built `receipts` executable as a child process (the way a user runs it: the
/// process exits without closing the store, which is what left data in the -wal file).
@discardableResult
func runReceipts(_ args: [String], env extra: [String: String] = [:]) throws -> CLIResult {
    let exe = try #require(Repo.executable("receipts"), "the receipts executable was not built")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: exe)
    p.arguments = args
    var env = ProcessInfo.processInfo.environment
    env["OMP_THREAD_LIMIT"] = "1"
    for (k, v) in extra { env[k] = v }
    p.environment = env
    let out = Pipe(), err = Pipe()
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    return CLIResult(code: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
}

@Suite("Store safety: checkpoint, backup, missing store")
struct StoreSafetyTests {
    /// After `batch` and `items import` (real processes), the .sqlite file copied alone —
    /// without its -wal and -shm — holds everything they wrote.
    @Test func storeFileAloneIsCompleteAfterWritingCommands() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        let b = try runReceipts(["batch", "--store", store, "--jobs", "1", "--quiet",
                                 Repo.samples + "/us-hardware-01.png", Repo.samples + "/fr-maison-01.png"])
        #expect(b.code == 0, "\(b.err)")
        let i = try runReceipts(["items", "import", "--store", store, Repo.samples + "/inventory.csv"])
        #expect(i.code == 0, "\(i.err)")
        let r = try runReceipts(["reconcile", "--store", store])
        #expect(r.code == 0, "\(r.err)")

        let copyDir = try TempDir("copy")
        let copy = copyDir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        let opened = try SQLReceiptStore(path: copy, create: false)
        #expect(try opened.integrityCheck() == "ok")
        #expect(try opened.receipts().count == 2)
        #expect(try opened.items().count == 18)
        #expect(try opened.links().count == (try SQLReceiptStore(path: store).links().count))
        #expect(try opened.links().count > 0)
    }

    /// `store backup` copies a store while another thread keeps writing to it: the copy opens,
    /// passes the integrity check and holds a whole number of the writer's transactions.
    @Test func backupWhileAnotherWriterWrites() throws {
        let dir = try TempDir()
        let path = dir.path("s.sqlite")
        let store = try SQLReceiptStore(path: path)
        for n in 0..<20 { try save(store, receipt(vendor: "Shop \(n)", date: "2024-01-01", total: "1.00"), hash: "seed\(n)") }
        let writer = Thread {
            let other = try! SQLReceiptStore(path: path)
            // Two receipts per transaction: a consistent copy holds an even number of these.
            for n in 0..<100 {
                _ = try! other.saveReceipts([
                    StoredReceiptInput(contentHash: "w\(n)a", sourcePath: "a", ocrText: nil, parsed: receipt(vendor: "A", date: nil, total: "2.00"),
                                       engineVersion: "t", status: .parsed),
                    StoredReceiptInput(contentHash: "w\(n)b", sourcePath: "b", ocrText: nil, parsed: receipt(vendor: "B", date: nil, total: "3.00"),
                                       engineVersion: "t", status: .parsed),
                ])
            }
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.05)
        let r = cli(["store", "backup", "--store", path, dir.path("backup.sqlite")])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("backed up"))
        while !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        let copy = try SQLReceiptStore(path: dir.path("backup.sqlite"), create: false)
        #expect(try copy.integrityCheck() == "ok")
        let n = try copy.receipts().count
        #expect(n >= 20 && n <= 220 && (n - 20) % 2 == 0)
        #expect(try store.receipts().count == 220)

        // A backup never overwrites a file.
        let again = cli(["store", "backup", "--store", path, dir.path("backup.sqlite")])
        #expect(again.code == 5)
        #expect(again.err.contains("exists already"))
    }

    /// Every command that does not fill a store, pointed at a missing one, fails with exit
    /// code 5 and the same message, and creates neither the file nor its folder.
    @Test(arguments: [
        ["store", "info"], ["store", "backup", "OUT"], ["items", "list"], ["links", "list"], ["links", "confirm", "1"],
        ["reconcile"], ["export"], ["batch", "--reparse"], ["list"], ["show", "1"], ["edit", "1", "--total", "1.00"],
    ])
    func missingStoreFailsAndCreatesNothing(_ command: [String]) throws {
        let dir = try TempDir()
        for target in [dir.path("typo.sqlit"), dir.path("no/such/dir/x.sqlite")] {
            let args = command.map { $0 == "OUT" ? dir.path("out.sqlite") : $0 } + ["--store", target]
            let r = cli(args)
            #expect(r.code == 5, "\(args): \(r.err)")
            #expect(r.err == "error: no store at \(target) (run `receipts batch` or `receipts items import` first)\n", "\(args)")
            #expect(r.out.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty, "\(args) created something")
        }
        // The environment's store is checked the same way.
        let viaEnv = cli(command.map { $0 == "OUT" ? dir.path("out.sqlite") : $0 }, env: ["RECEIPTS_STORE": dir.path("env.sqlite")])
        #expect(viaEnv.code == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }
}
