import ReceiptStore
import Testing

@Suite("StoreError: a typed code, the engine's message, the statement, the location")
struct StoreErrorTests {
    @Test("messages read location: context: message, with the engine's code at the end")
    func descriptions() {
        let full = StoreError(.sqlite(13), "database or disk is full", location: "/s.sqlite", context: "committing", statement: "COMMIT")
        #expect(full.description == "/s.sqlite: committing: database or disk is full (SQLite 13: database or disk is full)")
        #expect(full.statement == "COMMIT" && full.code.sqliteResult == 13 && full.code.sqlState == nil)
        let serial = StoreError(.postgres(sqlState: "40001"), "could not serialize access", location: "postgres://sam:***@db/r", context: "committing")
        #expect(serial.description == "postgres://sam:***@db/r: committing: could not serialize access (PostgreSQL 40001)")
        #expect(serial.code.sqlState == "40001")
        #expect(StoreError(.connection, "connection refused", location: "postgres:///r", context: "connecting").description
                == "postgres:///r: connecting: connection refused")
        #expect(StoreError.missing(location: "/nope/s.sqlite").description == "no store at /nope/s.sqlite")
        #expect(StoreError.schemaTooNew(found: 99, supported: 5, location: "/s.sqlite").description
                == "/s.sqlite: the store has schema version 99, this program knows up to 5; upgrade receipts")
        #expect(StoreError(.notFound, "no link 7").description == "no link 7")
    }

    @Test("the category says whose the problem is: the request, a record not there, or the store")
    func categories() {
        #expect(StoreError(.invalid, "x").category == .request)
        #expect(StoreError(.unsupported, "x").category == .request)
        #expect(StoreError(.notFound, "x").category == .notFound)
        let store: [StoreError.Code] = [.sqlite(5), .postgres(sqlState: "53100"), .connection, .missing, .schemaTooNew,
                                        .foreignDatabase, .filesystem, .unreadable]
        #expect(store.allSatisfy { $0.category == .store })
    }
}
