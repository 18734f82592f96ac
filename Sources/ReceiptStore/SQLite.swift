internal import CSQLite
import Foundation
import Synchronization

/// Reads one cell of the current row of an SQLite statement (see `Row`).
enum SQLiteCells {
    static func isNull(_ s: OpaquePointer, _ i: Int32) -> Bool { sqlite3_column_type(s, i) == SQLITE_NULL }
    static func int(_ s: OpaquePointer, _ i: Int32) -> Int64 { sqlite3_column_int64(s, i) }
    static func double(_ s: OpaquePointer, _ i: Int32) -> Double { sqlite3_column_double(s, i) }
    static func text(_ s: OpaquePointer, _ i: Int32) -> String {
        guard let p = sqlite3_column_text(s, i) else { return "" }
        return String(cString: p)
    }
}

/// The one owner of the `sqlite3*` handle and its statement cache. Not Sendable: only
/// `Database` holds one, behind its lock. Opened with SQLITE_OPEN_NOMUTEX: that lock is what
/// serialises the threads of one process; other processes are serialised by SQLite's file
/// locks and the busy timeout.
final class SQLiteConnection: SQLConnection {
    let path: String
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    static let busyTimeoutMilliseconds: Int32 = 15_000

    /// Opens the file at `path`; without `create`, a missing file is a `StoreError` coded `.missing`
    /// and nothing is made (SQLite is not allowed to create it).
    init(path: String, create: Bool = true) throws {
        self.path = path
        var h: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &h, flags, nil)
        if !create, rc & 0xFF == SQLITE_CANTOPEN, !FileManager.default.fileExists(atPath: path) {
            if let h { sqlite3_close_v2(h) }
            throw StoreError.missing(location: path)
        }
        guard rc == SQLITE_OK, let h else {
            let message = h.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let h { sqlite3_close_v2(h) }
            throw StoreError(.sqlite(rc), message, location: path, context: "opening the store")
        }
        handle = h
        sqlite3_extended_result_codes(h, 1)
        sqlite3_busy_timeout(h, SQLiteConnection.busyTimeoutMilliseconds)
        do {
            // Before anything is written (switching to WAL rewrites the header): is this ours?
            try checkIdentity()
            // WAL: readers never block the writer and the writer never blocks readers;
            // one writer at a time across processes, others wait up to the busy timeout.
            // Switching a new file to WAL needs a moment alone with it, and SQLite answers BUSY
            // at once (without the busy handler) when another process is creating it too: retry.
            var mode = ""
            let deadline = Date().addingTimeInterval(Double(SQLiteConnection.busyTimeoutMilliseconds) / 1000)
            while true {
                do {
                    mode = try query("PRAGMA journal_mode=WAL", []) { $0.text(0) }.first ?? ""
                    if mode.lowercased() == "wal" || Date() > deadline { break }
                } catch let e as StoreError where SQLiteConnection.isBusy(e.code) {
                    if Date() > deadline { throw StoreError(e.code, "the store stayed locked", location: path, context: "enabling WAL") }
                }
                usleep(20_000)
            }
            if mode.lowercased() != "wal" {
                throw StoreError(.sqlite(SQLITE_ERROR), "journal_mode is '\(mode)', not 'wal'", location: path, context: "enabling WAL")
            }
            try exec("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;")
        } catch let e as StoreError where e.code == .sqlite(SQLITE_READONLY | (6 << 8)) {  // SQLITE_READONLY_DIRECTORY
            close()
            throw StoreError(.filesystem, "the folder holding the store is read-only (the store needs to create its -wal and -shm files beside it)", location: path)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// `PRAGMA application_id` of a receipts store ("RcPt").
    static let applicationID: Int32 = 0x5263_5074

    /// Refuses another program's database: ours carries our application id; an older store of
    /// ours (before the id was set) has our schema version and tables; a new file has nothing.
    /// Only reads, so a refused file is left exactly as it was.
    /// The three reads are one read transaction: another process creating the store commits its
    /// tables, version and id at once, and reads spread over that commit would see tables
    /// without the id and refuse a store of ours.
    private func checkIdentity() throws {
        try exec("BEGIN DEFERRED", context: "checking what the file is")
        let app: Int32, version: Int64, tables: [String]
        do {
            app = Int32(truncatingIfNeeded: try scalarInt("PRAGMA application_id") ?? 0)
            version = try scalarInt("PRAGMA user_version") ?? 0
            tables = try query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
            try exec("COMMIT", context: "checking what the file is")
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
        if app == Self.applicationID { return }
        if app == 0 {
            if version == 0 && tables.isEmpty { return }  // new (or empty): becomes a store
            if version >= 1 && Set(["items", "receipts", "receipt_sources", "line_items", "links"]).isSubset(of: tables) { return }
        }
        let owner = app != 0 ? "application id \(app)" : tables.isEmpty ? "no tables" : "tables: \(StoreError.shown(tables))"
        throw StoreError.foreignDatabase(location: path, owner: "another program's SQLite database (\(owner))")
    }

    private var closed = false
    private func close() {
        guard !closed else { return }
        closed = true
        for (_, s) in statements { sqlite3_finalize(s) }
        statements = [:]
        sqlite3_close_v2(handle)
    }

    /// SQLite fell back to read-only on opening (no write permission on the file).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    var dialect: SQLDialect { .sqlite }

    /// BEGIN IMMEDIATE takes the write lock up front, so two processes never deadlock
    /// upgrading a read lock; others wait for it up to the busy timeout.
    func beginWrite() throws { try exec("BEGIN IMMEDIATE", context: "starting a write transaction") }
    func beginRead() throws { try exec("BEGIN DEFERRED", context: "starting a read transaction") }
    func commit() throws { try exec("COMMIT", context: "committing") }
    func rollback() { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    /// The busy timeout already waits for other processes.
    func shouldRetry(_ error: any Error) -> Bool { false }

    // MARK: statements (call only inside read/write/locked)

    /// The single place that turns an SQLite return code into a Swift error.
    func check(_ rc: Int32, _ context: @autoclosure () -> String, statement: String? = nil) throws {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            throw StoreError(.sqlite(rc), String(cString: sqlite3_errmsg(handle)), location: path, context: context(), statement: statement)
        }
    }

    /// SQLite's name for a result code ("database is locked"), for `StoreError.description`.
    static func resultName(_ code: Int32) -> String { String(cString: sqlite3_errstr(code)) }

    /// Another connection holds the lock (SQLITE_BUSY or SQLITE_LOCKED, any extended code).
    static func isBusy(_ code: StoreError.Code) -> Bool {
        guard let rc = code.sqliteResult else { return false }
        return rc & 0xFF == SQLITE_BUSY || rc & 0xFF == SQLITE_LOCKED
    }

    /// Runs one or more statements without parameters.
    func exec(_ sql: String, context: String? = nil) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), context ?? "running \(SQLiteConnection.abbreviate(sql))", statement: sql)
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var s: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil), "preparing \(SQLiteConnection.abbreviate(sql))", statement: sql)
        guard let s else {
            throw StoreError(.sqlite(SQLITE_MISUSE), "no statement in the text", location: path, context: "preparing \(SQLiteConnection.abbreviate(sql))", statement: sql)
        }
        statements[sql] = s
        return s
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func bind(_ s: OpaquePointer, _ params: [SQLValue], _ sql: String) throws {
        for (i, p) in params.enumerated() {
            let idx = Int32(i + 1)
            let rc: Int32
            switch p {
            case .null: rc = sqlite3_bind_null(s, idx)
            case let .int(v): rc = sqlite3_bind_int64(s, idx, v)
            case let .real(v): rc = sqlite3_bind_double(s, idx, v)
            case let .text(v): rc = sqlite3_bind_text(s, idx, v, -1, SQLiteConnection.transient)
            }
            try check(rc, "binding parameter \(idx) of \(SQLiteConnection.abbreviate(sql))", statement: sql)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ params: [SQLValue]) throws {
        let s = try prepared(sql)
        defer { sqlite3_reset(s); sqlite3_clear_bindings(s) }
        try bind(s, params, sql)
        var rc = sqlite3_step(s)
        while rc == SQLITE_ROW { rc = sqlite3_step(s) }
        try check(rc, SQLiteConnection.abbreviate(sql), statement: sql)
    }

    /// Runs a query and maps each row.
    func query<T>(_ sql: String, _ params: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        let s = try prepared(sql)
        defer { sqlite3_reset(s); sqlite3_clear_bindings(s) }
        try bind(s, params, sql)
        var out: [T] = []
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_ROW { out.append(try map(Row(source: .sqlite(s)))); continue }
            try check(rc, SQLiteConnection.abbreviate(sql), statement: sql)
            break
        }
        return out
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
}
