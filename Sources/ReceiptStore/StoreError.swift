/// Everything that can go wrong in the store, with enough to act on it: a typed `code` to
/// compare (never the text), the engine's `message`, the SQL `statement` when there was one,
/// the store's `location` and what was being done (`context`). Like GRDB's `DatabaseError`
/// and postgres-nio's `PSQLError`: one type, the engine's own code inside.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. Compare with `==` or `case`; the engine's own code
    /// (SQLite result code, PostgreSQL SQLSTATE) is kept as it came.
    public enum Code: Sendable, Hashable {
        /// SQLite answered with this (extended) result code.
        case sqlite(Int32)
        /// PostgreSQL answered with this SQLSTATE (e.g. "40001", a serialization failure).
        case postgres(sqlState: String)
        /// No PostgreSQL server could be reached (or it went away), so there is no SQLSTATE.
        case connection
        /// A command that only reads (or edits what is there) found no store at `location`.
        case missing
        /// The store was written by a newer `receipts` (its schema version is above ours).
        case schemaTooNew
        /// The database is another program's (not empty, not a receipts store): refused untouched.
        case foreignDatabase
        /// A file or folder of the store cannot be made or written outside the engine
        /// (the store's folder cannot be created; SQLite's folder is read-only).
        case filesystem
        /// A stored value this program cannot read (written by a newer receipts, or damaged).
        case unreadable
        /// A record the caller named does not exist.
        case notFound
        /// The caller's value or request is refused (a bad field value, a backup file that
        /// exists, an unknown kind of store).
        case invalid
        /// This store cannot do what was asked (a PostgreSQL store is not backed up to a file;
        /// a store held at an older schema version has no corrections or claims).
        case unsupported

        /// The SQLite result code, for an SQLite error.
        public var sqliteResult: Int32? { if case let .sqlite(c) = self { c } else { nil } }
        /// The SQLSTATE, for an error PostgreSQL answered with.
        public var sqlState: String? { if case let .postgres(s) = self { s } else { nil } }
    }

    public var code: Code
    /// What went wrong, in the engine's words where the engine said it.
    public var message: String
    /// The SQL that failed, when a statement did.
    public var statement: String?
    /// The store: a file path, or a PostgreSQL URL without its password ("" when not about one store).
    public var location: String
    /// What the store was doing ("opening the store", "committing", the statement abbreviated).
    public var context: String

    public init(_ code: Code, _ message: String, location: String = "", context: String = "", statement: String? = nil) {
        self.code = code; self.message = message; self.location = location; self.context = context; self.statement = statement
    }

    /// `location: context: message`, with the engine's code at the end.
    public var description: String {
        if code == .missing { return "no store at \(location)" }
        let text = [location, context, message].filter { !$0.isEmpty }.joined(separator: ": ")
        switch code {
        case let .sqlite(c): return "\(text) (SQLite \(c): \(SQLiteConnection.resultName(c)))"
        case let .postgres(state): return "\(text) (PostgreSQL \(state))"
        default: return text
        }
    }

    /// No store at `location`, and the command may not create one.
    public static func missing(location: String) -> StoreError { StoreError(.missing, "no store", location: location) }

    /// The store at `location` has schema version `found`; this program knows up to `supported`.
    public static func schemaTooNew(found: Int, supported: Int, location: String) -> StoreError {
        StoreError(.schemaTooNew, "the store has schema version \(found), this program knows up to \(supported); upgrade receipts", location: location)
    }

    /// Another program's database at `location`; `owner` says whose ("another program's tables (a, b)").
    static func foreignDatabase(location: String, owner: String) -> StoreError {
        StoreError(.foreignDatabase, "not a receipts store but \(owner); refused, nothing written", location: location)
    }

    /// Up to five table names, for a message.
    static func shown(_ tables: [String]) -> String {
        tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
    }
}

extension StoreError {
    /// Whose the problem is: what a front end needs to choose an exit code or a response.
    public enum Category: Sendable, Hashable {
        /// The caller asked for something the store refuses or cannot do (`invalid`,
        /// `unsupported`): fixed by asking differently.
        case request
        /// A record the caller named is not in the store (`notFound`).
        case notFound
        /// The store could not be opened, read or written: none there (`missing`), another
        /// program's, newer, unreadable data, file-system or engine errors, no server.
        case store
    }

    public var category: Category { code.category }
}

extension StoreError.Code {
    public var category: StoreError.Category {
        switch self {
        case .invalid, .unsupported: .request
        case .notFound: .notFound
        case .sqlite, .postgres, .connection, .missing, .schemaTooNew, .foreignDatabase, .filesystem, .unreadable: .store
        }
    }
}
