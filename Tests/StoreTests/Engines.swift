import Foundation
@testable import ReceiptStore
import Testing

/// The two engines every store test runs on. PostgreSQL is a real server: `make test` starts
/// a throw-away cluster (scripts/pg-test-cluster) and names it in RECEIPTS_TEST_POSTGRES.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

struct NoPostgresServer: Error, CustomStringConvertible {
    var description: String {
        """
        the PostgreSQL store tests need a server and RECEIPTS_TEST_POSTGRES is not set: run `make test` \
        (it starts a throw-away cluster) or set RECEIPTS_TEST_POSTGRES=postgresql://user@host/db
        """
    }
}

enum TestPostgres {
    /// The server the tests use, from RECEIPTS_TEST_POSTGRES; a test on PostgreSQL fails without it.
    static func base() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["RECEIPTS_TEST_POSTGRES"], !url.isEmpty else { throw NoPostgresServer() }
        return url
    }

    /// `base` with the search path set to `schema` (libpq's `options`).
    static func url(_ base: String, schema: String) -> String {
        base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// A new, empty schema on the test server: a store of its own. Left in place (tests often
    /// drop their folder before the store): `make test`'s cluster is thrown away whole; on a
    /// server of yours, drop the `receipts_test_*` schemas when done.
    static func freshSchema() throws -> String {
        let base = try base()
        let schema = "receipts_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try PostgresConnection(conninfo: base).exec("CREATE SCHEMA \(schema)")
        return url(base, schema: schema)
    }
}

extension TempDir {
    /// Where a fresh store on `engine` is: a file `name` in this folder (not created yet), or a
    /// new empty schema on the test server.
    func storeLocation(_ engine: Engine, _ name: String = "s.sqlite") throws -> String {
        switch engine {
        case .sqlite: path(name)
        case .postgres: try TestPostgres.freshSchema()
        }
    }
}

/// Opens the store at a location `storeLocation` gave (as `--store` would).
func openStore(_ location: String, create: Bool = true) throws -> SQLReceiptStore {
    location.contains("://") ? try SQLReceiptStore(postgres: location, create: create) : try SQLReceiptStore(path: location, create: create)
}
