import Foundation
import ReceiptModel

/// Claims with leases: how several `receipts batch` processes, on one machine or many, share
/// the work on one store with no coordinator (see `ReceiptStore.claim`).
extension SQLReceiptStore {
    /// The store's clock in seconds since 1970: the database server's for PostgreSQL, so that
    /// workers on machines whose clocks disagree still agree on when a lease runs out.
    static func clock(_ db: any SQLConnection) throws -> Double {
        let sql = switch db.dialect {
        case .sqlite: "SELECT (julianday('now') - 2440587.5) * 86400.0"
        case .postgres: "SELECT extract(epoch FROM clock_timestamp())::float8"
        }
        return try db.query(sql) { $0.double(0) }.first ?? Date().timeIntervalSince1970
    }

    func requireClaims() throws {
        guard schema >= 5 else { throw StoreError(.unsupported, "claims need schema version 5", location: path) }
    }

    public func claim(contentHash: String, path: String, worker: String, lease: Double, evenIfStored: Bool) throws -> ClaimResult {
        try requireClaims()
        let claimedAt = Self.now()
        return try write { db in
            if !evenIfStored, try db.scalarInt("SELECT 1 FROM receipts WHERE content_hash = ?", [.text(contentHash)]) != nil {
                return .stored
            }
            let now = try Self.clock(db)
            let held = try db.query("SELECT worker, expires_at FROM claims WHERE content_hash = ?", [.text(contentHash)]) { ($0.text(0), $0.double(1)) }.first
            if let (other, expires) = held, other != worker, expires > now {
                return .heldElsewhere(worker: other, secondsLeft: expires - now)
            }
            try db.run("""
                INSERT INTO claims (content_hash, worker, path, claimed_at, expires_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (content_hash) DO UPDATE SET worker = excluded.worker, path = excluded.path,
                  claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
                """, [.text(contentHash), .text(worker), .text(path), .text(claimedAt), .real(now + lease)])
            return .claimed(takenFrom: held.flatMap { $0.0 != worker ? $0.0 : nil })
        }
    }

    @discardableResult
    public func renewClaims(worker: String, lease: Double) throws -> Int {
        try requireClaims()
        return try write { db in
            let now = try Self.clock(db)
            try db.run("UPDATE claims SET expires_at = ? WHERE worker = ?", [.real(now + lease), .text(worker)])
            return Int(try db.scalarInt("SELECT COUNT(*) FROM claims WHERE worker = ?", [.text(worker)]) ?? 0)
        }
    }

    public func releaseClaim(contentHash: String, worker: String) throws {
        try requireClaims()
        try write { db in try db.run("DELETE FROM claims WHERE content_hash = ? AND worker = ?", [.text(contentHash), .text(worker)]) }
    }

    public func claims() throws -> [StoredClaim] {
        guard schema >= 5 else { return [] }
        return try read { db in
            let now = try Self.clock(db)
            return try db.query("SELECT content_hash, worker, path, claimed_at, expires_at FROM claims ORDER BY claimed_at, content_hash") {
                StoredClaim(contentHash: $0.text(0), worker: $0.text(1), path: $0.text(2), claimedAt: $0.text(3), secondsLeft: $0.double(4) - now)
            }
        }
    }
}
