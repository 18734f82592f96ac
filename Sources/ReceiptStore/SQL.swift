import Foundation
import Synchronization

/// A value bound to a statement parameter. Statements are written with `?` placeholders
/// for every engine (the PostgreSQL connection numbers them).
enum SQLValue {
    case null
    case int(Int64)
    case real(Double)
    case text(String)

    static func of(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
    static func of(_ i: Int?) -> SQLValue { i.map { .int(Int64($0)) } ?? .null }
    static func of(_ i: Int64?) -> SQLValue { i.map { .int($0) } ?? .null }
    static func of(_ d: Double?) -> SQLValue { d.map { .real($0) } ?? .null }
}

/// Which SQL the connection speaks, where the two engines' SQL differs.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// `column` contains `?` as text, ignoring case.
    func containsIgnoringCase(_ column: String) -> String {
        switch self {
        case .sqlite: "instr(lower(\(column)), lower(?)) > 0"
        case .postgres: "strpos(lower(\(column)), lower(?)) > 0"
        }
    }

    /// `column` equals `?`, ignoring case (SQLite: through the NOCASE index).
    func equalsIgnoringCase(_ column: String) -> String {
        switch self {
        case .sqlite: "\(column) = ? COLLATE NOCASE"
        case .postgres: "lower(\(column)) = lower(?)"
        }
    }

    /// `column` equals `?`, where NULL equals NULL.
    func isSame(_ column: String) -> String {
        switch self {
        case .sqlite: "\(column) IS ?"
        case .postgres: "\(column) IS NOT DISTINCT FROM ?"
        }
    }
}

/// One result row; column getters by index. The engine's own cursor, read in place.
struct Row {
    enum Source {
        case sqlite(OpaquePointer)
        /// A PGresult and the row number in it (text format).
        case postgres(OpaquePointer, Int32)
    }
    let source: Source

    func isNull(_ i: Int32) -> Bool {
        switch source {
        case let .sqlite(s): SQLiteCells.isNull(s, i)
        case let .postgres(r, n): PostgresCells.isNull(r, n, i)
        }
    }
    func int(_ i: Int32) -> Int64 {
        switch source {
        case let .sqlite(s): SQLiteCells.int(s, i)
        case let .postgres(r, n): Int64(PostgresCells.text(r, n, i)) ?? 0
        }
    }
    func intOrNil(_ i: Int32) -> Int64? { isNull(i) ? nil : int(i) }
    func double(_ i: Int32) -> Double {
        switch source {
        case let .sqlite(s): SQLiteCells.double(s, i)
        case let .postgres(r, n): Double(PostgresCells.text(r, n, i)) ?? 0
        }
    }
    func doubleOrNil(_ i: Int32) -> Double? { isNull(i) ? nil : double(i) }
    func text(_ i: Int32) -> String {
        switch source {
        case let .sqlite(s): SQLiteCells.text(s, i)
        case let .postgres(r, n): PostgresCells.text(r, n, i)
        }
    }
    func textOrNil(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }
}

/// What the store's SQL needs of a connection. Implemented by `SQLiteConnection` and
/// `PostgresConnection`, the only two places that call C.
protocol SQLConnection: AnyObject {
    /// Where the store is, for messages (a file path, or a PostgreSQL URL without its password).
    var path: String { get }
    var dialect: SQLDialect { get }
    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ params: [SQLValue]) throws
    /// Runs a query and maps each row.
    func query<T>(_ sql: String, _ params: [SQLValue], _ map: (Row) throws -> T) throws -> [T]

    /// Transactions: a write takes the write lock (SQLite) or is serializable (PostgreSQL);
    /// a read sees one snapshot.
    func beginWrite() throws
    func beginRead() throws
    func commit() throws
    func rollback()
    /// The transaction failed only because another one ran at the same time: run it again.
    func shouldRetry(_ error: any Error) -> Bool
}

extension SQLConnection {
    func run(_ sql: String) throws { try run(sql, []) }
    func query<T>(_ sql: String, _ map: (Row) throws -> T) throws -> [T] { try query(sql, [], map) }

    func scalarInt(_ sql: String, _ params: [SQLValue] = []) throws -> Int64? {
        try query(sql, params) { $0.intOrNil(0) }.first ?? nil
    }

    static func abbreviate(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
    }
}

/// The store's connection, shared by threads: every use holds the lock for the whole
/// transaction. Other processes are kept apart by the engine (SQLite's file locks and busy
/// timeout; PostgreSQL's serializable transactions, run again when they collide).
final class Database<C: SQLConnection>: Sendable {
    let path: String
    private let connection: Mutex<C>

    init(_ connection: sending C) {
        path = connection.path
        self.connection = Mutex(connection)
    }

    /// How many times a write that collided with another transaction is run again.
    static var attempts: Int { 40 }

    /// Runs `body` in a write transaction: commits when it returns, rolls back when it throws.
    /// A write that another process's write made impossible (PostgreSQL: a serialization
    /// failure or deadlock) is run again from the start, after a short random pause.
    func write<T: Sendable>(_ body: sending (C) throws -> T) throws -> T {
        try connection.withLock { db in
            var attempt = 0
            while true {
                attempt += 1
                do {
                    try db.beginWrite()
                    let result = try body(db)
                    try db.commit()
                    return result
                } catch {
                    db.rollback()
                    guard attempt < Self.attempts, db.shouldRetry(error) else { throw error }
                    usleep(UInt32.random(in: 1_000...(5_000 * UInt32(min(attempt, 20)))))
                }
            }
        }
    }

    /// Runs `body` in a read transaction: one consistent snapshot for all its queries.
    func read<T: Sendable>(_ body: sending (C) throws -> T) throws -> T {
        try connection.withLock { db in
            try db.beginRead()
            do {
                let result = try body(db)
                try db.commit()
                return result
            } catch {
                db.rollback()
                throw error
            }
        }
    }

    /// For work that manages its own transactions (migrations, engine-specific commands).
    func locked<T: Sendable>(_ body: sending (C) throws -> T) throws -> T {
        try connection.withLock { db in try body(db) }
    }
}
