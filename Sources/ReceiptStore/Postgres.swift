internal import CLibPQ
import Foundation

/// Reads one cell of a PostgreSQL result (text format; see `Row`).
enum PostgresCells {
    static func isNull(_ r: OpaquePointer, _ row: Int32, _ i: Int32) -> Bool { PQgetisnull(r, row, i) == 1 }
    static func text(_ r: OpaquePointer, _ row: Int32, _ i: Int32) -> String {
        guard let p = PQgetvalue(r, row, i) else { return "" }
        return String(cString: p)
    }
}

/// The one owner of a libpq connection (`PGconn*`) and its prepared statements. Not
/// Sendable: only `Database` holds one, behind its lock.
///
/// Every statement is prepared once per connection and run with bound parameters, sent as
/// text and typed by the server from where they stand. Writes are SERIALIZABLE: PostgreSQL
/// then behaves as if transactions ran one at a time, and a transaction that would break
/// that fails with SQLSTATE 40001, which `Database.write` answers by running it again.
final class PostgresConnection: SQLConnection {
    /// The connection string as given, with any password replaced (for messages).
    let path: String
    var dialect: SQLDialect { .postgres }
    private let handle: OpaquePointer
    private var statements: [String: String] = [:]

    /// Connects to `conninfo` (a `postgres://` or `postgresql://` URL, or libpq's `key=value`
    /// form); libpq's environment variables (PGHOST, PGUSER, PGPASSWORD, …) fill in the rest.
    init(conninfo: String) throws {
        path = PostgresConnection.redacted(conninfo)
        guard let h = PQconnectdb(conninfo) else {
            throw StoreError(.connection, "out of memory", location: path, context: "connecting")
        }
        handle = h  // from here on, deinit closes it, also when init throws
        guard PQstatus(h) == CONNECTION_OK else {
            throw StoreError(.connection, PostgresConnection.firstLine(PQerrorMessage(h)), location: path, context: "connecting")
        }
        // Notices ("there is no transaction in progress", "relation exists, skipping") are not ours to print.
        PQsetNoticeProcessor(h, { _, _ in }, nil)
        try exec("SET client_min_messages TO warning; SET TIME ZONE 'UTC'", context: "setting up the session")
    }

    deinit { PQfinish(handle) }

    /// `postgres://user:secret@host/db` -> `postgres://user:***@host/db`; `password=secret` -> `password=***`.
    static func redacted(_ conninfo: String) -> String {
        var s = conninfo
        if let scheme = s.range(of: "://"), let at = s[scheme.upperBound...].firstIndex(of: "@"),
           let colon = s[scheme.upperBound..<at].firstIndex(of: ":") {
            s.replaceSubrange(s.index(after: colon)..<at, with: "***")
        }
        if let r = s.range(of: #"password=[^ &]*"#, options: .regularExpression) { s.replaceSubrange(r, with: "password=***") }
        return s
    }

    static func firstLine(_ p: UnsafePointer<CChar>?) -> String {
        let s = p.map { String(cString: $0) } ?? "unknown error"
        return s.split(separator: "\n").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? s
    }

    // MARK: transactions

    func beginWrite() throws { try begin("BEGIN ISOLATION LEVEL SERIALIZABLE", "starting a write transaction") }
    func beginRead() throws { try begin("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", "starting a read transaction") }

    /// libpq learns that the server ended the session only when a command fails: a BEGIN that
    /// fails on a connection now bad is sent once more on a new one (nothing ran yet, so that
    /// is safe). A connection lost later in a transaction is an error: whether its COMMIT
    /// arrived cannot be known, so it is not run again blindly.
    private func begin(_ sql: String, _ context: String) throws {
        try reconnectIfLost()
        do { try exec(sql, context: context) } catch {
            guard PQstatus(handle) == CONNECTION_BAD else { throw error }
            try reconnectIfLost()
            try exec(sql, context: context)
        }
    }
    func commit() throws { try exec("COMMIT", context: "committing") }
    func rollback() {
        if PQtransactionStatus(handle) != PQTRANS_IDLE, let r = PQexec(handle, "ROLLBACK") { PQclear(r) }
    }

    /// A serialization failure (40001) or a deadlock (40P01): the other transaction won; run again.
    func shouldRetry(_ error: any Error) -> Bool {
        guard let state = (error as? StoreError)?.code.sqlState else { return false }
        return state == "40001" || state == "40P01"
    }

    /// A connection the server dropped (restart, network) is opened again before the next
    /// transaction; its prepared statements went with it.
    private func reconnectIfLost() throws {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        statements = [:]
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError(.connection, PostgresConnection.firstLine(PQerrorMessage(handle)), location: path, context: "reconnecting")
        }
        try exec("SET client_min_messages TO warning; SET TIME ZONE 'UTC'", context: "setting up the session")
    }

    // MARK: statements

    /// Runs statements without parameters (several may be separated by semicolons).
    func exec(_ sql: String, context: String? = nil) throws {
        let r = PQexec(handle, sql)
        defer { PQclear(r) }
        try check(r, context ?? "running \(Self.abbreviate(sql))", statement: sql)
    }

    /// The single place that turns a failed result into a Swift error: PostgreSQL's SQLSTATE
    /// when the server answered, else a connection error (libpq's own message).
    private func check(_ r: OpaquePointer?, _ context: @autoclosure () -> String, statement: String) throws {
        let status = r.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = r.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
            let message = r.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
                ?? Self.firstLine(PQerrorMessage(handle))
            throw StoreError(state.isEmpty ? .connection : .postgres(sqlState: state), message, location: path, context: context(), statement: statement)
        }
    }

    /// `?` placeholders numbered `$1`, `$2`, … (outside quoted text).
    static func numbered(_ sql: String) -> String {
        var out = ""
        var n = 0
        var quote: Character?
        for c in sql {
            if let q = quote {
                if c == q { quote = nil }
                out.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                out.append(c)
            } else if c == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(c)
            }
        }
        return out
    }

    private func prepared(_ sql: String) throws -> String {
        if let name = statements[sql] { return name }
        let name = "s\(statements.count + 1)"
        let r = PQprepare(handle, name, Self.numbered(sql), 0, nil)
        defer { PQclear(r) }
        try check(r, "preparing \(Self.abbreviate(sql))", statement: sql)
        statements[sql] = name
        return name
    }

    private func execute(_ sql: String, _ params: [SQLValue]) throws -> OpaquePointer {
        let name = try prepared(sql)
        let texts: [String?] = params.map {
            switch $0 {
            case .null: nil
            case let .int(v): String(v)
            case let .real(v): v.isFinite ? "\(v)" : (v.isNaN ? "NaN" : v > 0 ? "Infinity" : "-Infinity")
            case let .text(v): v
            }
        }
        let cStrings = texts.map { $0.map { strdup($0) } ?? nil }
        defer { for p in cStrings { free(p) } }
        let pointers = cStrings.map { UnsafePointer($0) }
        let r = pointers.withUnsafeBufferPointer { buf in
            PQexecPrepared(handle, name, Int32(params.count), buf.baseAddress, nil, nil, 0)
        }
        do { try check(r, Self.abbreviate(sql), statement: sql) } catch {
            PQclear(r)
            throw error
        }
        return r!
    }

    func run(_ sql: String, _ params: [SQLValue]) throws {
        PQclear(try execute(sql, params))
    }

    func query<T>(_ sql: String, _ params: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        let r = try execute(sql, params)
        defer { PQclear(r) }
        let n = PQntuples(r)
        var out: [T] = []
        out.reserveCapacity(Int(n))
        for i in 0..<n { out.append(try map(Row(source: .postgres(r, i)))) }
        return out
    }
}
