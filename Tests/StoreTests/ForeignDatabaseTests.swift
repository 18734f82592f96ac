import CSQLite
import Foundation
import ReceiptStore
import Testing

/// Plain SQLite on a file, outside the store: how another program (or an older receipts) made it.
enum RawSQLite {
    static func exec(_ path: String, _ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw StoreError(.invalid, "cannot open \(path)") }
        defer { sqlite3_close(db) }
        var err: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &err) == SQLITE_OK else {
            defer { sqlite3_free(err) }
            throw StoreError(.invalid, err.map { String(cString: $0) } ?? "error")
        }
    }

    static func int(_ path: String, _ sql: String) throws -> Int64 {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw StoreError(.invalid, "cannot open \(path)") }
        defer { sqlite3_close(db) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw StoreError(.invalid, "cannot prepare \(sql)") }
        defer { sqlite3_finalize(stmt) }
        guard sqlite3_step(stmt) == SQLITE_ROW else { return 0 }
        return sqlite3_column_int64(stmt, 0)
    }
}

@Suite("Store file: another program's database is refused")
struct ForeignDatabaseTests {
    static let receiptsID: Int64 = 0x5263_5074

    @Test func anotherProgramsDatabaseIsRefusedWithNothingWritten() throws {
        let tmp = try TempDir()
        let notes = tmp.path("notes.sqlite")
        try RawSQLite.exec(notes, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('buy milk');")
        let before = try Data(contentsOf: URL(fileURLWithPath: notes))
        let input = try tmp.write("receipt.txt", "not an image")
        let r = cli(["batch", "--quiet", "--store", notes, input])
        #expect(r.code == 5, "\(r.err)")
        #expect(r.err.contains("notes.sqlite: not a receipts store but another program's SQLite database (tables: notes); refused, nothing written"), "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == before)
        #expect(!FileManager.default.fileExists(atPath: notes + "-wal"))
        #expect(try RawSQLite.int(notes, "SELECT count(*) FROM sqlite_master WHERE name = 'receipts'") == 0)
        #expect(cli(["store", "info", "--store", notes]).code == 5)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == before)
    }

    @Test func aDatabaseWithAnotherApplicationIDIsRefusedEvenWithOurTables() throws {
        let tmp = try TempDir()
        let path = tmp.path("other.sqlite")
        _ = try SQLReceiptStore(path: path)
        try RawSQLite.exec(path, "PRAGMA application_id = 1234")
        do {
            _ = try SQLReceiptStore(path: path)
            Issue.record("a store with another application id was opened")
        } catch let e as StoreError where e.code == .foreignDatabase {
            #expect(e.location == path && e.description.contains("application id 1234"), "\(e)")
            #expect(try RawSQLite.int(path, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('receipts', 'items')") == 2)  // our tables, still refused
        }
    }

    @Test func aNewStoreSaysWhatItIs() throws {
        let tmp = try TempDir()
        let path = tmp.path("new.sqlite")
        _ = try SQLReceiptStore(path: path)
        #expect(try RawSQLite.int(path, "PRAGMA application_id") == Self.receiptsID)
        #expect(try RawSQLite.int(path, "PRAGMA user_version") == Int64(SQLReceiptStore.latestSchemaVersion))
        // An empty file (touch) is a new store too.
        let empty = tmp.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        _ = try SQLReceiptStore(path: empty)
        #expect(try RawSQLite.int(empty, "PRAGMA application_id") == Self.receiptsID)
    }

    @Test func aStoreFromBeforeTheIDOpensAndIsStamped() throws {
        let tmp = try TempDir()
        let path = tmp.path("old.sqlite")
        do {
            let s = try SQLReceiptStore(path: path, schemaVersion: 2)
            try save(s, receipt(vendor: "Shop", date: "2024-01-02", total: "10.00"), hash: "h1")
        }
        try RawSQLite.exec(path, "PRAGMA application_id = 0")
        #expect(try RawSQLite.int(path, "PRAGMA application_id") == 0)
        let store = try SQLReceiptStore(path: path)
        #expect(try store.receipts().map(\.contentHash) == ["h1"])
        #expect(try RawSQLite.int(path, "PRAGMA application_id") == Self.receiptsID)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
    }
}
