import Foundation
import ReceiptModel
@testable import ReceiptStore
import Synchronization
import Testing

/// What only the PostgreSQL engine has to get right (the behaviour both share runs on both
/// engines in the other store suites).
@Suite("PostgreSQL store")
struct PostgresStoreTests {
    /// A new empty schema and a connection to it for looking behind the store's back.
    func fresh() throws -> (location: String, raw: PostgresConnection) {
        let location = try TestPostgres.freshSchema()
        return (location, try PostgresConnection(conninfo: location))
    }

    @Test("a new database becomes a store at the latest version; opening it again changes nothing; a read-only command makes nothing")
    func createsAndMigrates() throws {
        let (location, raw) = try fresh()
        #expect(throws: StoreError.missing(location: location)) { try SQLReceiptStore(postgres: location, create: false) }
        #expect(try raw.query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()") { $0.int(0) } == [0],
                "without create nothing is made")
        let store = try SQLReceiptStore(postgres: location)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(store.engineName == "PostgreSQL" && !store.isReadOnly)
        try save(store, receipt(vendor: "Shop", date: "2024-01-02", total: "10.00"), hash: "h")
        let again = try SQLReceiptStore(postgres: location, create: false)
        #expect(try again.receipts().count == 1)
        #expect(try again.integrityCheck() == "ok")
    }

    @Test("another program's tables are refused untouched; a store from a newer receipts is refused")
    func refusesForeignAndNewer() throws {
        let (location, raw) = try fresh()
        try raw.exec("CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)")
        do {
            _ = try SQLReceiptStore(postgres: location)
            Issue.record("another program's schema was taken as a store")
        } catch let e as StoreError where e.code == .foreignDatabase {
            #expect(e.message.contains("not a receipts store") && e.message.contains("invoices"))
        }
        #expect(try raw.query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()") { $0.int(0) } == [1])

        let (newer, raw2) = try fresh()
        _ = try SQLReceiptStore(postgres: newer)
        try raw2.exec("UPDATE receipts_meta SET value = '99' WHERE key = 'schema_version'")
        #expect(throws: StoreError.schemaTooNew(found: 99, supported: SQLReceiptStore.latestSchemaVersion, location: newer)) {
            try SQLReceiptStore(postgres: newer)
        }
    }

    @Test("a connection the server drops is opened again before the next transaction")
    func reconnects() throws {
        let (location, raw) = try fresh()
        let name = "victim_" + UUID().uuidString.prefix(8).lowercased()
        let store = try SQLReceiptStore(postgres: location + "&application_name=" + name)
        try save(store, receipt(vendor: "Shop", date: "2024-01-02", total: "10.00"), hash: "a")
        // The server ends the store's session (as on a restart or an administrator's kill).
        let ended = try raw.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", [.text(name)]) { $0.text(0) }
        #expect(ended == ["t"])
        usleep(100_000)
        try save(store, receipt(vendor: "Shop", date: "2024-01-03", total: "11.00"), hash: "b")
        #expect(try store.receipts().map(\.contentHash) == ["a", "b"])
    }

    @Test("two writes that collide: PostgreSQL fails one (serialization failure), which is run again; both count")
    func collidingWritesAreRunAgain() throws {
        let (location, raw) = try fresh()
        try raw.exec("CREATE TABLE counter (n bigint NOT NULL); INSERT INTO counter VALUES (0)")
        let dbs = [Database(try PostgresConnection(conninfo: location)), Database(try PostgresConnection(conninfo: location))]
        let attempts = Mutex(0), readers = Mutex(0)
        let errors = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            do {
                try dbs[i].write { c in
                    let first = attempts.withLock { $0 += 1; return $0 <= 2 }
                    let n = try c.scalarInt("SELECT n FROM counter") ?? -1
                    if first {
                        // Both first attempts read before either writes: a lost update unless one is run again.
                        readers.withLock { $0 += 1 }
                        let until = Date().addingTimeInterval(10)
                        while readers.withLock({ $0 }) < 2, Date() < until { usleep(1_000) }
                    }
                    try c.run("UPDATE counter SET n = ?", [.int(n + 1)])
                }
            } catch { errors.withLock { $0.append("\(error)") } }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        #expect(try raw.scalarInt("SELECT n FROM counter") == 2, "no update lost")
        #expect(attempts.withLock { $0 } == 3, "one of the two was run again")
    }

    @Test("backup says to use pg_dump; checkpoint has nothing to do; messages never show the password")
    func engineSpecifics() throws {
        let (location, _) = try fresh()
        let store = try SQLReceiptStore(postgres: location)
        #expect(try store.checkpoint())
        do {
            try store.backup(to: "/tmp/never.sqlite")
            Issue.record("backup of a PostgreSQL store claimed to work")
        } catch let e as StoreError where e.code == .unsupported {
            #expect(e.message.contains("pg_dump"))
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.sqlite"))
        #expect(PostgresConnection.redacted("postgresql://sam:s3cret@db:5432/receipts") == "postgresql://sam:***@db:5432/receipts")
        #expect(PostgresConnection.redacted("host=db user=sam password=s3cret dbname=r") == "host=db user=sam password=*** dbname=r")
        #expect(PostgresConnection.numbered("SELECT ? WHERE a = '?' AND b = ?") == "SELECT $1 WHERE a = '?' AND b = $2")
    }
}
