internal import CSQLite
import Foundation
import Synchronization

/// Everything that can go wrong in the store, with enough context to act on it.
public enum StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite returned `code` while doing `context` on the store at `path`.
    case sqlite(code: Int32, message: String, context: String, path: String)
    /// The file was written by a newer `receipts` (schema `found` > `supported`).
    case schemaTooNew(found: Int, supported: Int, path: String)
    /// A record named by the caller does not exist.
    case notFound(String)
    /// The caller asked for something the store refuses (bad status change, bad value).
    case invalid(String)
    /// The file is another program's SQLite database (not empty, not a receipts store): refused untouched.
    case foreignDatabase(path: String, tables: [String], applicationID: Int32)
    /// A command that only reads (or edits what is there) was pointed at a store that does not exist.
    case missing(path: String)
    /// PostgreSQL answered with SQLSTATE `state` (or the connection failed: state "") while doing
    /// `context` on the store at `location` (the URL without its password).
    case postgres(state: String, message: String, context: String, location: String)

    public var description: String {
        switch self {
        case let .sqlite(code, message, context, path):
            let name = String(cString: sqlite3_errstr(code))
            return "\(path): \(context): \(message) (SQLite \(code): \(name))"
        case let .schemaTooNew(found, supported, path):
            return "\(path): the store has schema version \(found), this program knows up to \(supported); upgrade receipts"
        case let .notFound(what): return what
        case let .invalid(what): return what
        case let .foreignDatabase(path, tables, app):
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            let owner = app != 0 ? "application id \(app)" : tables.isEmpty ? "no tables" : "tables: \(shown)"
            return "\(path): not a receipts store but another program's SQLite database (\(owner)); refused, nothing written"
        case let .missing(path): return "no store at \(path)"
        case let .postgres(state, message, context, location):
            return "\(location): \(context): \(message)\(state.isEmpty ? "" : " (PostgreSQL \(state))")"
        }
    }
}

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

    /// Opens the file at `path`; without `create`, a missing file is `StoreError.missing`
    /// and nothing is made (SQLite is not allowed to create it).
    init(path: String, create: Bool = true) throws {
        self.path = path
        var h: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &h, flags, nil)
        if !create, rc & 0xFF == SQLITE_CANTOPEN, !FileManager.default.fileExists(atPath: path) {
            if let h { sqlite3_close_v2(h) }
            throw StoreError.missing(path: path)
        }
        guard rc == SQLITE_OK, let h else {
            let message = h.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let h { sqlite3_close_v2(h) }
            throw StoreError.sqlite(code: rc, message: message, context: "opening the store", path: path)
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
                } catch let StoreError.sqlite(code, _, _, _) where code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED {
                    if Date() > deadline { throw StoreError.sqlite(code: code, message: "the store stayed locked", context: "enabling WAL", path: path) }
                }
                usleep(20_000)
            }
            if mode.lowercased() != "wal" {
                throw StoreError.sqlite(code: SQLITE_ERROR, message: "journal_mode is '\(mode)', not 'wal'", context: "enabling WAL", path: path)
            }
            try exec("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;")
        } catch let StoreError.sqlite(code, _, _, _) where code == SQLITE_READONLY | (6 << 8) {  // SQLITE_READONLY_DIRECTORY
            close()
            throw StoreError.invalid("\(path): the folder holding the store is read-only (the store needs to create its -wal and -shm files beside it)")
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
    private func checkIdentity() throws {
        let app = Int32(truncatingIfNeeded: try scalarInt("PRAGMA application_id") ?? 0)
        if app == Self.applicationID { return }
        let version = try scalarInt("PRAGMA user_version") ?? 0
        let tables = try query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
        if app == 0 {
            if version == 0 && tables.isEmpty { return }  // new (or empty): becomes a store
            if version >= 1 && Set(["items", "receipts", "receipt_sources", "line_items", "links"]).isSubset(of: tables) { return }
        }
        throw StoreError.foreignDatabase(path: path, tables: tables, applicationID: app)
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
    func check(_ rc: Int32, _ context: @autoclosure () -> String) throws {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            throw StoreError.sqlite(code: rc, message: String(cString: sqlite3_errmsg(handle)), context: context(), path: path)
        }
    }

    /// Runs one or more statements without parameters.
    func exec(_ sql: String, context: String? = nil) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), context ?? "running \(SQLiteConnection.abbreviate(sql))")
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var s: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil), "preparing \(SQLiteConnection.abbreviate(sql))")
        guard let s else { throw StoreError.invalid("empty statement: \(sql)") }
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
            try check(rc, "binding parameter \(idx) of \(SQLiteConnection.abbreviate(sql))")
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ params: [SQLValue]) throws {
        let s = try prepared(sql)
        defer { sqlite3_reset(s); sqlite3_clear_bindings(s) }
        try bind(s, params, sql)
        var rc = sqlite3_step(s)
        while rc == SQLITE_ROW { rc = sqlite3_step(s) }
        try check(rc, SQLiteConnection.abbreviate(sql))
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
            try check(rc, SQLiteConnection.abbreviate(sql))
            break
        }
        return out
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
}
