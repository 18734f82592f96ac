import Foundation
import ReceiptModel
import ReceiptReconcile
import ReceiptStore
import ReceiptTestSupport
import Testing

/// Several real processes on one store file: two batch-like writers (half of their images
/// are the same files) and a user reconciling, confirming and rejecting at the same time.
@Suite("Concurrent processes on one store", .serialized)
struct ConcurrencyTests {
    @Test("two writers and a deciding user: nothing lost, nothing duplicated, decisions kept", arguments: Engine.allCases)
    func writersAndDecider(_ engine: Engine) throws {
        let exe = try #require(Repo.executable("receipts-bench"),
                               "receipts-bench not built: run `swift build` (it is built with the tests) — this test needs a second process")
        let tmp = try TempDir()
        let path = try tmp.storeLocation(engine, "shared.sqlite")  // empty: all three race to create and migrate it
        let n = 150
        let a = try StartedProcess(exe, ["write", "--store", path, "--tag", "A", "--count", "\(n)"])
        let b = try StartedProcess(exe, ["write", "--store", path, "--tag", "B", "--count", "\(n)"])
        let c = try StartedProcess(exe, ["decide", "--store", path, "--rounds", "25"])
        let ra = a.finish(), rb = b.finish(), rc = c.finish()
        #expect(ra.code == 0, "writer A: \(ra.err)")
        #expect(rb.code == 0, "writer B: \(rb.err)")
        #expect(rc.code == 0, "decider: \(rc.err)")

        let store = try openStore(path)
        let s = try store.stats()
        // Even i: the same image in both folders (one receipt, two paths); odd i: one per writer.
        let shared = (n + 1) / 2, own = n / 2
        #expect(s.receipts == shared + 2 * own)
        let receipts = try store.receipts()
        #expect(receipts.reduce(0) { $0 + $1.sourcePaths.count } == 2 * n)
        #expect(receipts.filter { $0.contentHash.hasPrefix("shared-") }.allSatisfy { $0.sourcePaths.count == 2 })
        #expect(Set(receipts.map(\.contentHash)).count == receipts.count)
        // Both writers upserted the same items (same name, date, price): one row each.
        #expect(s.items == n)
        #expect(s.lineItems == s.receipts)
        #expect(try store.failures().count == 2 * ((n + 9) / 10))

        // Every decision the user made is still there, as made.
        func ids(_ prefix: String) -> Set<Int64> {
            Set(rc.out.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }?.dropFirst(prefix.count + 1)
                .split(separator: ",").compactMap { Int64($0) } ?? [])
        }
        let confirmed = ids("confirmed"), rejected = ids("rejected")
        #expect(!confirmed.isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: try store.links().map { ($0.id.rawValue, $0) })
        for id in confirmed { #expect(byID[id]?.status == .confirmed, "link \(id) was confirmed") }
        for id in rejected where !confirmed.contains(id) { #expect(byID[id]?.status == .rejected, "link \(id) was rejected") }

        // A last reconcile over the full store keeps them and adds no second link for any pair.
        _ = try Reconciler().run(store: store)
        let after = try store.links()
        for id in confirmed { #expect(after.first { $0.id.rawValue == id }?.status == .confirmed) }
        struct Pair: Hashable { var r: ReceiptID; var i: ItemID }
        #expect(Set(after.map { Pair(r: $0.receiptID, i: $0.itemID) }).count == after.count)
        // An item with a confirmed receipt has no other proposal.
        let confirmedItems = Set(after.filter { $0.status == .confirmed }.map(\.itemID))
        #expect(after.filter { $0.status == .proposed && confirmedItems.contains($0.itemID) }.isEmpty)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test("threads of one process share one store object safely", arguments: Engine.allCases)
    func threads(_ engine: Engine) async throws {
        let tmp = try TempDir()
        let store = try openStore(try tmp.storeLocation(engine, "threads.sqlite"))
        await withTaskGroup(of: Void.self) { g in
            for t in 0..<4 {
                g.addTask {
                    for i in 0..<40 {
                        _ = try? save(store, receipt(vendor: "Shop", date: "2024-01-01", total: "\(i).00"), hash: i % 2 == 0 ? "s\(i)" : "t\(t)-\(i)",
                                      path: "t\(t)/\(i).png")
                    }
                }
            }
        }
        #expect(try store.stats().receipts == 20 + 4 * 20)
    }
}
