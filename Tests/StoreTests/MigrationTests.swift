import Foundation
import ReceiptModel
import ReceiptStore
import Testing

@Suite("Store file: creation, migrations, settings")
struct MigrationTests {
    @Test("a new file is created at the latest schema and is usable")
    func fromEmpty() throws {
        let tmp = try TempDir()
        let path = tmp.path("sub/dir/new.sqlite")  // folders are created too
        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(SQLReceiptStore.latestSchemaVersion >= 2)
        let id = try save(store, receipt(vendor: "Shop", date: "2024-01-02", total: "10.00", lines: [("THING", "10.00", 1)]), hash: "h1")
        try store.upsertItems([InventoryItem(name: "Thing", price: Amount("10.00"), purchaseDate: CalendarDate(iso: "2024-01-02"))])
        let s = try store.stats()
        #expect(s.receipts == 1 && s.items == 1 && s.lineItems == 1)
        #expect(try store.integrityCheck() == "ok")
        // WAL mode leaves its side file next to the store.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try store.receipt(id)?.parsed.total?.value == Amount("10.00"))
    }

    @Test("an older (version 1) store with data is upgraded in place, data kept")
    func fromOlder() throws {
        let tmp = try TempDir()
        let path = tmp.path("old.sqlite")
        do {
            let v1 = try SQLReceiptStore(path: path, schemaVersion: 1)
            #expect(try v1.schemaVersion() == 1)
            try save(v1, receipt(vendor: "Brightwave Electronics", date: "2024-11-23", total: "349.99", lines: [("SONY WH-1000XM5", "349.99", 1)]), hash: "old-1")
            try v1.upsertItems([InventoryItem(name: "Sony WH-1000XM5", externalID: "x1", price: Amount("349.99"),
                                              purchaseDate: CalendarDate(iso: "2024-11-23"), vendor: "Brightwave")])
        }
        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.items().map(\.item.name) == ["Sony WH-1000XM5"])
        #expect(try store.receipts().map(\.contentHash) == ["old-1"])
        // Saving again on the upgraded file (touches the failures table version 2 added).
        try save(store, receipt(vendor: "Brightwave Electronics", date: "2024-11-23", total: "349.99", lines: [("SONY WH-1000XM5", "349.99", 1)]), hash: "old-1")
        let s = try store.stats()
        #expect(s.receipts == 1 && s.items == 1 && s.lineItems == 1)
        // What version 2 added works on the upgraded file: failures, duplicates, line positions on links.
        try store.recordFailure(contentHash: nil, path: "bad.png", code: "unreadable", message: "not an image")
        #expect(try store.failures().map(\.path) == ["bad.png"])
        let run = try ReceiptReconcileFacade.reconcile(store)
        #expect(run == 1)
        let link = try #require(try store.links().first)
        #expect(link.linePosition == 0)
        // Opening again is a no-op.
        #expect(try SQLReceiptStore(path: path).schemaVersion() == SQLReceiptStore.latestSchemaVersion)
    }

    /// Before schema 6 notes and checks were stored as the sentences they render to; the upgrade
    /// makes each a `.text` case once, which shows as it did, and leaves every other value alone.
    @Test("a version 5 store's sentence notes and checks become codes, shown as they were")
    func notesBecomeCodes() throws {
        let tmp = try TempDir()
        let path = tmp.path("v5.sqlite")
        do {
            let v5 = try SQLReceiptStore(path: path, schemaVersion: 5)
            _ = try save(v5, receipt(vendor: "Shop", date: "2024-01-02", total: "43.20", lines: [("THING", "43.20", 1)]), hash: "h5")
        }
        // What a version 5 program wrote: notes and checks as sentences.
        let old = #"{"checks":["subtotal 40.00 + tax 3.20 = 43.20","subtotal + tax ≠ total"],"lineItems":[],"parserVersion":"0.0.9","#
            + #""total":{"confidence":0.9,"evidence":{"line":4,"notes":["keyword 'total'","subtotal 40.00 + tax 3.20 = 43.20"],"rule":"total.keyword","text":"TOTAL 43.20"},"#
            + #""rejected":[{"evidence":{"notes":["printed 2×"],"rule":"total.keyword"},"score":0.4,"value":"40.00"}],"value":"43.20"}}"#
        try RawSQLite.exec(path, "UPDATE receipts SET parsed_json = '\(old.replacingOccurrences(of: "'", with: "''"))'")
        try RawSQLite.exec(path, #"UPDATE line_items SET evidence_json = '{"notes":["amount on the next line"],"rule":"line-item"}'"#)

        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        let r = try #require(try store.receipts().first)
        #expect(r.parsed.total?.value == Amount("43.20") && r.parsed.total?.evidence.line == 4 && r.parsed.total?.confidence == 0.9)
        #expect(r.parsed.total?.evidence.notes == [.text("keyword 'total'"), .text("subtotal 40.00 + tax 3.20 = 43.20")])
        #expect(r.parsed.total?.rejected.first?.evidence.notes == [.text("printed 2×")])
        #expect(r.parsed.checks == [.text("subtotal 40.00 + tax 3.20 = 43.20"), .text("subtotal + tax ≠ total")])
        #expect(r.parsed.total?.evidence.notes.map(\.description) == ["keyword 'total'", "subtotal 40.00 + tax 3.20 = 43.20"])
        // Line items' evidence is kept for SQL readers of the store: migrated the same way.
        #expect(try RawSQLite.int(path, #"SELECT instr(evidence_json, '{"text":{"_0":"amount on the next line"}}') FROM line_items"#) > 0)
        // Stored now as codes, not sentences: opening again reads the same, and nothing is left to migrate.
        #expect(try RawSQLite.int(path, #"SELECT instr(parsed_json, '{"text":{"_0":"keyword ''total''"}}') FROM receipts"#) > 0)
        #expect(try RawSQLite.int(path, #"SELECT instr(parsed_json, '["keyword') FROM receipts"#) == 0)
        #expect(try SQLReceiptStore(path: path).receipts().first?.parsed == r.parsed)
    }

    /// Version 8 gave line items their serial numbers: a version 7 store's lines read as without any, and a receipt
    /// saved after the upgrade keeps its lines' serials, one a line of the column.
    @Test("a version 7 store gains line items' serial numbers")
    func lineSerials() throws {
        let tmp = try TempDir()
        let path = tmp.path("v7.sqlite")
        do {
            let v7 = try SQLReceiptStore(path: path, schemaVersion: 7)
            _ = try save(v7, receipt(vendor: "Shop", date: "2024-01-02", total: "43.20", lines: [("THING", "43.20", 1)]), hash: "h7")
            #expect(try v7.receiptSummaries().first?.lines.map(\.serials) == [[]])
        }
        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(try store.receiptSummaries().first?.lines.map(\.serials) == [[]])
        let phones = receipt(vendor: "Shop", date: "2024-01-03", total: "398.00", lines: []).with(lines: [
            LineItem(description: "SMARTWATCH 5", quantity: 2, amount: Amount("398.00")!, serials: ["356938035643809", "356938035643817"], evidence: ev()),
            LineItem(description: "STRAP", amount: Amount("0.00")!, evidence: ev())])
        _ = try save(store, phones, hash: "h8")
        #expect(try store.receiptSummaries().last?.lines.map(\.serials) == [["356938035643809", "356938035643817"], []])
        #expect(try RawSQLite.int(path, "SELECT COUNT(*) FROM line_items WHERE serials = '356938035643809' || char(10) || '356938035643817'") == 1)
        #expect(try store.receipts().last?.parsed.lineItems.first?.serials == ["356938035643809", "356938035643817"])
    }

    /// A correction of the line items gives names and amounts only: a line put right keeps the serials of the read line
    /// it stands for (same amount and name, else the only one of its amount), and a new line has none.
    @Test("corrected line items keep the serial numbers of the lines they stand for")
    func correctedLinesKeepSerials() throws {
        let tmp = try TempDir()
        let store = try SQLReceiptStore(path: tmp.path("s.sqlite"))
        let read = receipt(vendor: "Shop", date: "2024-01-03", total: "1848.00", lines: []).with(lines: [
            LineItem(description: "0RBITAL LAPT0P", amount: Amount("1149.00")!, serials: ["QF14-7730-2291"], evidence: ev()),
            LineItem(description: "NIMBUS PHONE", amount: Amount("699.00")!, serials: ["356938035643809"], evidence: ev())])
        let id = try save(store, read, hash: "h")
        _ = try store.correct(id, [try FieldChange.set(.lineItems, "[{\"description\":\"ORBITAL LAPTOP\",\"amount\":\"1149.00\"},"
            + "{\"description\":\"NIMBUS PHONE\",\"amount\":\"699.00\"},{\"description\":\"CASE\",\"amount\":\"19.99\"}]")], by: "kim")
        #expect(try store.receiptSummaries().first?.lines.map(\.serials) == [["QF14-7730-2291"], ["356938035643809"], []])
    }

    @Test("default path: --store, else RECEIPTS_STORE, else XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(StoreLocation.resolve(explicit: "/x/s.sqlite", environment: ["RECEIPTS_STORE": "/y"]) == "/x/s.sqlite")
        #expect(StoreLocation.resolve(environment: ["RECEIPTS_STORE": "/y/r.sqlite", "XDG_DATA_HOME": "/d"]) == "/y/r.sqlite")
        #expect(StoreLocation.resolve(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/receipts/receipts.sqlite")
        #expect(StoreLocation.resolve(environment: ["HOME": "/h"]) == "/h/.local/share/receipts/receipts.sqlite")
    }

    @Test("a location opens its engine: a path or file:// URL is SQLite; postgres:// is PostgreSQL, and no server there is a clear error")
    func openByLocation() throws {
        let tmp = try TempDir()
        let store = try StoreLocation.open(tmp.path("a.sqlite"))
        #expect(store is SQLReceiptStore && store.location == tmp.path("a.sqlite"))
        #expect(try StoreLocation.open("file://" + tmp.path("b.sqlite")).location == tmp.path("b.sqlite"))
        #expect(try StoreLocation.open(tmp.path("odd://name.sqlite")).location == tmp.path("odd://name.sqlite"))  // not a scheme: a path
        #expect(throws: StoreError.self) { try StoreLocation.open("mysql://localhost/receipts") }
        // No server at the socket folder: the error names the store (password hidden) and what failed.
        let nowhere = "postgresql://sam:secret@/receipts?host=\(tmp.path("no-server"))"
        #expect(throws: StoreError.self) { try StoreLocation.open(nowhere) }
        let r = cli(["store", "info", "--store", nowhere])
        #expect(r.code == 5, "\(r.err)")
        #expect(r.err.contains("postgresql://sam:***@/receipts") && r.err.contains("connecting") && !r.err.contains("secret"), "\(r.err)")
    }

    @Test("saving the same image again updates it and adds the new path; OCR text is kept for re-parsing")
    func upsertByHash() throws {
        let tmp = try TempDir()
        let store = try SQLReceiptStore(path: tmp.path("s.sqlite"))
        try store.recordFailure(contentHash: "h", path: "b/copy.png", code: "ocr", message: "timeout")
        let a = try save(store, receipt(vendor: "Shop", date: "2024-01-02", total: "10.00", lines: [("A", "4.00", 1), ("B", "6.00", 1)]), hash: "h", path: "a/r.png")
        var p = receipt(vendor: "Shop", date: "2024-01-02", total: "10.00", lines: [("A", "10.00", 1)])
        p.parserVersion = "test-2"
        let b = try save(store, p, hash: "h", path: "b/copy.png")
        #expect(a == b)
        #expect(try store.containsReceipt(contentHash: "h"))
        #expect(try !store.containsReceipt(contentHash: "other"))
        let r = try #require(try store.receipt(a))
        #expect(r.sourcePaths == ["a/r.png", "b/copy.png"])
        #expect(r.parsed.lineItems.count == 1)
        #expect(r.parserVersion == "test-2")
        #expect(try store.stats().lineItems == 1)
        #expect(try store.failures().isEmpty)  // the file that failed before has now been read
        #expect(try store.addSourcePath(contentHash: "h", path: "c/third.png"))
        #expect(try store.addSourcePath(contentHash: "h", path: "c/third.png"))  // once only
        #expect(try !store.addSourcePath(contentHash: "unknown", path: "x.png"))
        #expect(try store.receipt(a)?.sourcePaths.count == 3)
        #expect(try store.readings().map(\.ocrText) == ["text of h"])
        #expect(try store.readings(parserVersionOtherThan: "test-2").isEmpty)
        #expect(try store.readings(parserVersionOtherThan: "test-3").map(\.contentHash) == ["h"])
        // Evidence survives the round trip.
        #expect(r.parsed.vendor?.evidence.rule == "test")
    }
}
