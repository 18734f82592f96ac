import Foundation
import ReceiptModel

/// The shared store of inventory items, receipts, their line items and the links between
/// them, as the commands, the reconciler and export use it. Engine-neutral: it speaks the
/// records of `Records.swift`, never SQL. `SQLReceiptStore` implements it on SQLite and PostgreSQL;
/// `StoreLocation.open` turns a `--store` location into one.
///
/// Every method is one transaction (writes: all or nothing; reads: one snapshot), and an
/// implementation is safe to use from several threads and several processes at once.
/// The rules for writing links are engine-neutral too (`LinkWritePlan`): an engine reads
/// the current links, lets the plan decide, and applies it in the same transaction.
public protocol ReceiptStore: AnyObject, Sendable {
    /// Where the store is, as it was named (a file path for SQLite).
    var location: String { get }
    /// True when the store can only be read (e.g. the file has no write permission for this
    /// user): the writing commands refuse it up front instead of failing at their first write.
    var isReadOnly: Bool { get }

    // MARK: receipts (batch, reparse)

    /// Whether an image with this SHA-256 (`ContentHash.sha256`) is stored.
    func containsReceipt(contentHash: String) throws -> Bool
    /// Stores parsed receipts in one transaction, all or none: each is inserted, or (same image
    /// hash) its fields, line items, text and reading are replaced and `sourcePath` added if new.
    /// Clears a failure recorded for the file.
    @discardableResult
    func saveReceipts(_ receipts: [StoredReceiptInput]) throws -> [ReceiptID]
    /// Notes that the image with `contentHash` also sits at `path` (a batch that skips an image
    /// it already has still records the new copy). False when no receipt has that hash.
    @discardableResult
    func addSourcePath(contentHash: String, path: String) throws -> Bool
    /// Records that `path` could not be read or parsed (replacing an earlier failure of the file).
    func recordFailure(contentHash: String?, path: String, code: String, message: String) throws
    /// The files recorded as failed, by path.
    func failures() throws -> [StoredFailure]
    /// Full receipts (fields with evidence), oldest first; optionally only one status.
    func receipts(status: ReceiptStatus?) throws -> [StoredReceipt]
    /// What OCR read of each receipt that has it (reading, or only text for older receipts),
    /// oldest first; optionally only receipts parsed by another parser version.
    func readings(parserVersionOtherThan version: String?) throws -> [StoredReading]
    /// What the reconciler and the listings need of every receipt, without the evidence (fast).
    func receiptSummaries() throws -> [ReceiptSummary]

    // MARK: claims (several batch workers on one store)

    /// Claims the image `contentHash` (at `path`) for `worker` until `lease` seconds from now on
    /// the store's clock (the database server's, for PostgreSQL), in one transaction: unless the
    /// store has the receipt already (and not `evenIfStored`), or another worker's lease on it
    /// still runs. A claim whose lease ran out is taken over. Saving the receipt or recording
    /// its failure ends the claim.
    func claim(contentHash: String, path: String, worker: String, lease: Double, evenIfStored: Bool) throws -> ClaimResult
    /// Extends every claim `worker` holds to `lease` seconds from now; returns how many it holds.
    @discardableResult
    func renewClaims(worker: String, lease: Double) throws -> Int
    /// Ends `worker`'s claim on `contentHash`, if it holds it (a file it gave up on).
    func releaseClaim(contentHash: String, worker: String) throws
    /// Every claim, oldest first.
    func claims() throws -> [StoredClaim]

    // MARK: finding, showing, correcting (list, show, edit)

    /// Receipts as the user sees them (corrections applied) that pass `filter`, by date
    /// (undated last), then id.
    func listReceipts(_ filter: ReceiptFilter) throws -> [ReceiptListing]
    /// Everything about one receipt; nil when there is no such receipt.
    func receiptDetail(_ id: ReceiptID) throws -> ReceiptDetail?
    /// The receipt of an image: by content hash when given, else by a stored source path
    /// equal to `path`, else ending in `/` + its last component (when only one does).
    func findReceipt(path: String, contentHash: String?) throws -> ReceiptID?
    /// Records the user's corrections of one receipt in one transaction: each field takes the
    /// user's value (confidence 1, rule `user`) until undone, also across `batch --force` and
    /// `--reparse`. A `StoreError` coded `.notFound` for no such receipt. Returns the corrections recorded.
    /// With a `teacher`, what the receipt teaches the shop directory is replaced by its lesson in the
    /// same transaction; without one, the directory is left as it is.
    @discardableResult
    func correct(_ id: ReceiptID, _ changes: [FieldChange], by who: String, teacher: (any ShopTeacher)?) throws -> [Correction]
    /// Undoes the latest active correction of `field` (the one before it, if any, holds again;
    /// else the parser's value). A `StoreError` coded `.notFound` when the field has none.
    /// What the receipt taught is replaced by the `teacher`'s lesson; a receipt left with no
    /// correction in force teaches nothing, with or without a teacher.
    @discardableResult
    func undoCorrection(_ id: ReceiptID, field: CorrectableField, by who: String, teacher: (any ShopTeacher)?) throws -> Correction

    // MARK: shops (the directory learned from corrections)

    /// Every shop with its keys, habits and receipts, by id.
    func shops() throws -> [StoredShop]
    /// Gives a shop another name; the receipts taken for it show the new name. A `StoreError`
    /// coded `.invalid` when another shop has that name (merge them instead), `.notFound` for no such shop.
    @discardableResult
    func renameShop(_ id: ShopID, to name: String) throws -> StoredShop
    /// Makes two shops one (two branches of a chain, say): `other`'s keys, habits and receipts
    /// go to `id`, which keeps its name; `other` is no more.
    @discardableResult
    func mergeShop(_ other: ShopID, into id: ShopID) throws -> StoredShop
    /// Forgets a shop and everything it learned: the receipts taken for it go back to the
    /// parser's values (corrections stay). Returns the shop as it was.
    @discardableResult
    func forgetShop(_ id: ShopID) throws -> StoredShop

    // MARK: items (import)

    /// Inserts or updates items in one transaction. An item matches a stored one by external
    /// id, else (when it has none) by name (any case) + purchase date + price.
    @discardableResult
    func upsertItems(_ items: [InventoryItem]) throws -> ItemUpsertSummary
    func items() throws -> [StoredItem]

    // MARK: links (reconcile, links)

    /// Links by id; optionally only one status.
    func links(status: LinkStatus?) throws -> [Link]
    /// Confirms or rejects a link (or puts it back to proposed), recording who and when.
    /// Other links of the item stay for the user to decide. A `StoreError` coded `.notFound` for no such link.
    @discardableResult
    func decideLink(_ id: LinkID, status: LinkStatus, by who: String) throws -> Link
    /// Everything the reconciler reads, from one snapshot.
    func reconcileInput() throws -> ReconcileInput
    /// Writes one reconciliation in one transaction, by the rules of `LinkWritePlan` applied
    /// to the links as they are inside that transaction.
    func applyReconciliation(_ proposals: [LinkProposal], duplicates: [DuplicateMark]) throws -> ReconcileWriteSummary

    // MARK: export, info

    /// The receipts passing `filter` (as `listReceipts` gives them), every link and item, and
    /// with `details` each receipt's `ReceiptDetail` (evidence, line items), from one snapshot.
    func export(_ filter: ReceiptFilter, details: Bool) throws -> StoreExport
    /// Counts for `receipts store info`.
    func stats() throws -> StoreStats

    // MARK: safety

    /// Makes everything committed so far part of the store proper, so that a copy of it alone
    /// is complete (SQLite: the write-ahead log is checkpointed into the .sqlite file).
    /// Writing commands call it when they finish. False when it could not all be done now
    /// (another process was reading); nothing is lost either way.
    @discardableResult
    func checkpoint() throws -> Bool
    /// Writes a consistent copy of the store to `path` (a new file), while others may be
    /// writing. A `StoreError` coded `.invalid` when `path` exists.
    func backup(to path: String) throws
}

extension ReceiptStore {
    /// Stores one parsed receipt (see `saveReceipts`).
    @discardableResult
    public func saveReceipt(_ r: StoredReceiptInput) throws -> ReceiptID {
        try saveReceipts([r])[0]
    }

    public func receipts() throws -> [StoredReceipt] { try receipts(status: nil) }

    public func receipt(_ id: ReceiptID) throws -> StoredReceipt? {
        try receipts().first { $0.id == id }
    }

    public func readings() throws -> [StoredReading] { try readings(parserVersionOtherThan: nil) }

    public func links() throws -> [Link] { try links(status: nil) }

    /// `correct` without a teacher: the shop directory learns nothing from it.
    @discardableResult
    public func correct(_ id: ReceiptID, _ changes: [FieldChange], by who: String) throws -> [Correction] {
        try correct(id, changes, by: who, teacher: nil)
    }

    /// `undoCorrection` without a teacher.
    @discardableResult
    public func undoCorrection(_ id: ReceiptID, field: CorrectableField, by who: String) throws -> Correction {
        try undoCorrection(id, field: field, by: who, teacher: nil)
    }

}

/// Where a store is, and the one place that turns a `--store` location into a store:
///
///     let store = try StoreLocation.open("receipts.sqlite")                           // SQLite, made when missing
///     let shared = try StoreLocation.open("postgres://scan@db.local/receipts", create: false)
public enum StoreLocation {
    /// `--store LOCATION`, else `RECEIPTS_STORE`, else `$XDG_DATA_HOME/receipts/receipts.sqlite`
    /// (`~/.local/share/receipts/receipts.sqlite` when XDG_DATA_HOME is unset).
    public static func resolve(explicit: String? = nil, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let p = environment["RECEIPTS_STORE"], !p.isEmpty { return p }
        let base: String
        if let x = environment["XDG_DATA_HOME"], x.hasPrefix("/") {
            base = x
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = (home as NSString).appendingPathComponent(".local/share")
        }
        return ((base as NSString).appendingPathComponent("receipts") as NSString).appendingPathComponent("receipts.sqlite")
    }

    /// Opens (upgrading as needed) the store at `location`: a `postgres://` or `postgresql://`
    /// URL is a PostgreSQL database (libpq's PG* environment variables fill in what it leaves
    /// out); a file path, or a `file://` URL, is a SQLite file. With `create`
    /// (batch, items import) a missing store is made; without it a missing store is
    /// a `StoreError` coded `.missing` and nothing is created.
    public static func open(_ location: String, create: Bool = true) throws -> any ReceiptStore {
        guard let range = location.range(of: "://"), let head = location[..<range.lowerBound].first, head.isASCII, head.isLetter,
              location[..<range.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return try SQLReceiptStore(path: location, create: create)
        }
        switch location[..<range.lowerBound].lowercased() {
        case "file": return try SQLReceiptStore(path: String(location[range.upperBound...]), create: create)
        case "postgres", "postgresql":
            return try SQLReceiptStore(postgres: location, create: create)
        case let scheme:
            throw StoreError(.invalid, "unknown kind of store '\(scheme)://'; give a file path or a postgres:// URL", location: location)
        }
    }
}
