import Foundation
import ReceiptModel

/// What kind of row a `RowID` names; `prefix` is how the CLI prints it ("#12" for receipts and items, "12" for links).
public protocol RowKind: Sendable { static var prefix: String { get } }
public enum ReceiptRow: RowKind { public static let prefix = "#" }
public enum ItemRow: RowKind { public static let prefix = "#" }
public enum LinkRow: RowKind { public static let prefix = "" }

/// A row id, typed by its table so a receipt id cannot be passed where an item id is meant.
public struct RowID<Kind: RowKind>: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ v: Int64) { rawValue = v }
    public var description: String { Kind.prefix + "\(rawValue)" }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int64.self) }
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(rawValue) }
}

public typealias ReceiptID = RowID<ReceiptRow>
public typealias ItemID = RowID<ItemRow>
public typealias LinkID = RowID<LinkRow>

// MARK: - Items

/// One thing a household owns, as an inventory app knows it.
public struct InventoryItem: Sendable, Hashable, Codable {
    /// The id the item has in the app it came from; re-imports match on it.
    public var externalID: String?
    /// Where it came from: `csv`, `homebox`, `nestory`, `api`.
    public var source: String
    public var name: String
    public var brand: String?
    public var model: String?
    public var serial: String?
    public var category: String?
    public var room: String?
    public var quantity: Int
    /// Purchase price (for all `quantity`), exact.
    public var price: Amount?
    public var currency: String?
    public var purchaseDate: CalendarDate?
    /// The shop it was bought from.
    public var vendor: String?
    public var notes: String?

    public init(name: String, externalID: String? = nil, source: String = "api", brand: String? = nil, model: String? = nil,
                serial: String? = nil, category: String? = nil, room: String? = nil, quantity: Int = 1,
                price: Amount? = nil, currency: String? = nil, purchaseDate: CalendarDate? = nil,
                vendor: String? = nil, notes: String? = nil) {
        self.name = name; self.externalID = externalID; self.source = source; self.brand = brand; self.model = model
        self.serial = serial; self.category = category; self.room = room; self.quantity = quantity
        self.price = price; self.currency = currency; self.purchaseDate = purchaseDate; self.vendor = vendor; self.notes = notes
    }
}

public struct StoredItem: Sendable, Hashable, Codable {
    public var id: ItemID
    public var item: InventoryItem
    public var createdAt: String
    public var updatedAt: String
    public init(id: ItemID, item: InventoryItem, createdAt: String = "", updatedAt: String = "") {
        self.id = id; self.item = item; self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}

/// What an import did.
public struct ItemUpsertSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public init() {}
}

// MARK: - Receipts

public enum ReceiptStatus: String, Sendable, Codable, CaseIterable {
    /// Vendor, date and total were found with enough confidence.
    case parsed
    /// A headline field is missing or unsure, or part of the input was not read: a person should look.
    case needsReview = "needs_review"
}

/// What the batch command hands the store for one image it read.
public struct StoredReceiptInput: Sendable {
    /// SHA-256 of the image bytes (`ContentHash.sha256`), lower-case hex. Unique in the store.
    public var contentHash: String
    public var sourcePath: String
    /// The text of the page the total came from.
    public var ocrText: String?
    /// Everything OCR read, as the parser used it: `batch --reparse` replays it.
    public var reading: OCRReading?
    /// The parser's reading.
    public var parsed: ParsedReceipt
    /// What a shop of the directory set on it (module ReceiptLearning), laid over `parsed`; nil when
    /// no shop matched or the receipt was read as a stranger would (`--no-learn`).
    public var learned: LearnedFields?
    /// OCR engine identity, e.g. "tesseract 5.3.0 eng psm6".
    public var engineVersion: String
    public var parserVersion: String
    /// The review status of the receipt as read (learned fields in place).
    public var status: ReceiptStatus
    public var processedAt: Date

    public init(contentHash: String, sourcePath: String, ocrText: String?, reading: OCRReading? = nil, parsed: ParsedReceipt,
                learned: LearnedFields? = nil, engineVersion: String, parserVersion: String? = nil, status: ReceiptStatus, processedAt: Date = Date()) {
        self.contentHash = contentHash; self.sourcePath = sourcePath; self.ocrText = ocrText; self.reading = reading; self.parsed = parsed
        self.learned = learned
        self.engineVersion = engineVersion; self.parserVersion = parserVersion ?? parsed.parserVersion
        self.status = status; self.processedAt = processedAt
    }
}

/// A receipt as stored, with everything the parser said about it.
public struct StoredReceipt: Sendable {
    public var id: ReceiptID
    public var contentHash: String
    public var sourcePaths: [String]
    public var status: ReceiptStatus
    public var parsed: ParsedReceipt
    public var ocrText: String?
    public var engineVersion: String
    public var parserVersion: String
    public var processedAt: String
    /// Set by the reconciler when this is another photo of a receipt already stored.
    public var duplicateOf: ReceiptID?
    public var duplicateReason: String?

    public init(id: ReceiptID, contentHash: String, sourcePaths: [String], status: ReceiptStatus, parsed: ParsedReceipt, ocrText: String?,
                engineVersion: String, parserVersion: String, processedAt: String, duplicateOf: ReceiptID? = nil, duplicateReason: String? = nil) {
        self.id = id; self.contentHash = contentHash; self.sourcePaths = sourcePaths; self.status = status; self.parsed = parsed
        self.ocrText = ocrText; self.engineVersion = engineVersion; self.parserVersion = parserVersion; self.processedAt = processedAt
        self.duplicateOf = duplicateOf; self.duplicateReason = duplicateReason
    }
}

/// The columns the reconciler needs, loaded without decoding the evidence JSON.
public struct ReceiptSummary: Sendable, Hashable {
    public struct Line: Sendable, Hashable {
        public var position: Int
        public var description: String
        public var quantity: Decimal?
        public var unitPrice: Amount?
        public var amount: Amount
        /// The serial numbers printed under the line (`LineItem.serials`); empty when none.
        public var serials: [String]
        public init(position: Int, description: String, quantity: Decimal? = nil, unitPrice: Amount? = nil, amount: Amount, serials: [String] = []) {
            self.position = position; self.description = description; self.quantity = quantity; self.unitPrice = unitPrice; self.amount = amount
            self.serials = serials
        }
    }
    public var id: ReceiptID
    public var vendor: String?
    public var date: CalendarDate?
    public var time: String?
    public var total: Amount?
    public var subtotal: Amount?
    public var tax: Amount?
    public var currency: String?
    public var receiptNumber: String?
    public var lines: [Line]
    public var sourcePath: String?
    public var duplicateOf: ReceiptID?

    public init(id: ReceiptID, vendor: String? = nil, date: CalendarDate? = nil, time: String? = nil, total: Amount? = nil,
                subtotal: Amount? = nil, tax: Amount? = nil, currency: String? = nil, receiptNumber: String? = nil,
                lines: [Line] = [], sourcePath: String? = nil, duplicateOf: ReceiptID? = nil) {
        self.id = id; self.vendor = vendor; self.date = date; self.time = time; self.total = total; self.subtotal = subtotal
        self.tax = tax; self.currency = currency; self.receiptNumber = receiptNumber; self.lines = lines
        self.sourcePath = sourcePath; self.duplicateOf = duplicateOf
    }
}

/// What OCR read of a stored receipt, for re-parsing without running OCR again (`batch --reparse`):
/// the whole reading for receipts stored since schema version 3, only the text for older ones.
public struct StoredReading: Sendable {
    public var id: ReceiptID
    public var contentHash: String
    public var sourcePaths: [String]
    public var reading: OCRReading?
    /// The text of the page the total came from.
    public var ocrText: String?
    public var engineVersion: String
    public var parserVersion: String

    public init(id: ReceiptID, contentHash: String, sourcePaths: [String], reading: OCRReading?, ocrText: String?,
                engineVersion: String, parserVersion: String) {
        self.id = id; self.contentHash = contentHash; self.sourcePaths = sourcePaths; self.reading = reading; self.ocrText = ocrText
        self.engineVersion = engineVersion; self.parserVersion = parserVersion
    }
}

/// A file the batch could not turn into a receipt.
public struct StoredFailure: Sendable, Hashable, Codable {
    public var path: String
    public var contentHash: String?
    public var code: String
    public var message: String
    public var failedAt: String

    public init(path: String, contentHash: String?, code: String, message: String, failedAt: String) {
        self.path = path; self.contentHash = contentHash; self.code = code; self.message = message; self.failedAt = failedAt
    }
}

// MARK: - Links

public enum LinkStatus: String, Sendable, Codable, CaseIterable {
    case proposed, confirmed, rejected
}

/// A receipt ↔ item link and why it was made.
public struct Link: Sendable, Hashable, Codable {
    public var id: LinkID
    public var receiptID: ReceiptID
    public var itemID: ItemID
    /// The receipt line that matched the item (0-based), when one did.
    public var linePosition: Int?
    public var score: Double
    public var reasons: [String]
    public var status: LinkStatus
    /// Another candidate scored nearly as well.
    public var ambiguous: Bool
    /// `auto` for automatic confirmation, else the user's name.
    public var decidedBy: String?
    public var decidedAt: String?
    public var createdAt: String
    public var updatedAt: String

    public init(id: LinkID, receiptID: ReceiptID, itemID: ItemID, linePosition: Int? = nil, score: Double, reasons: [String],
                status: LinkStatus, ambiguous: Bool = false, decidedBy: String? = nil, decidedAt: String? = nil,
                createdAt: String = "", updatedAt: String = "") {
        self.id = id; self.receiptID = receiptID; self.itemID = itemID; self.linePosition = linePosition; self.score = score
        self.reasons = reasons; self.status = status; self.ambiguous = ambiguous; self.decidedBy = decidedBy; self.decidedAt = decidedAt
        self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}

/// Everything the reconciler reads, from one snapshot of the store.
public struct ReconcileInput: Sendable {
    public var receipts: [ReceiptSummary]
    public var items: [StoredItem]
    public var links: [Link]
    public init(receipts: [ReceiptSummary], items: [StoredItem], links: [Link]) {
        self.receipts = receipts; self.items = items; self.links = links
    }
}

/// What the reconciler wants written.
public struct LinkProposal: Sendable, Hashable {
    public var receiptID: ReceiptID
    public var itemID: ItemID
    public var linePosition: Int?
    public var score: Double
    public var reasons: [String]
    public var ambiguous: Bool
    /// Confirm now (only honoured when the link is new or still proposed).
    public var autoConfirm: Bool

    public init(receiptID: ReceiptID, itemID: ItemID, linePosition: Int? = nil, score: Double, reasons: [String],
                ambiguous: Bool = false, autoConfirm: Bool = false) {
        self.receiptID = receiptID; self.itemID = itemID; self.linePosition = linePosition; self.score = score
        self.reasons = reasons; self.ambiguous = ambiguous; self.autoConfirm = autoConfirm
    }
}

/// "receipt `id` is another copy of `original`".
public struct DuplicateMark: Sendable, Hashable {
    public var id: ReceiptID
    public var original: ReceiptID
    public var reason: String
    public init(id: ReceiptID, original: ReceiptID, reason: String) { self.id = id; self.original = original; self.reason = reason }
}

public struct ReconcileWriteSummary: Sendable, Equatable {
    /// New proposals.
    public var proposed = 0
    /// Proposals that were already there (score and reasons refreshed).
    public var refreshed = 0
    public var autoConfirmed = 0
    /// Proposals for pairs the user already confirmed or rejected: left as the user said.
    public var keptDecisions = 0
    /// Proposals skipped because the item got a confirmed receipt meanwhile.
    public var skippedConfirmedItems = 0
    /// Earlier proposals no longer supported by the data, removed.
    public var withdrawn = 0
    public var duplicatesMarked = 0
    /// Proposed links on receipts now known to be duplicates, removed.
    public var duplicateLinksRemoved = 0
    public init() {}
}

/// Counts for `receipts store info`.
public struct StoreStats: Sendable, Codable, Equatable {
    /// The store's location (`path` in `store info --json`).
    public var path: String
    public var schemaVersion: Int
    public var items: Int
    public var receipts: Int
    /// Receipts in the review queue: the parser was unsure, nobody corrected them, not duplicates.
    public var needsReview: Int
    /// Receipts with a correction in force.
    public var corrected: Int
    public var duplicates: Int
    public var lineItems: Int
    public var failures: Int
    public var links: [String: Int]
    /// Shops in the directory (schema version 7), and receipts read with a shop's values.
    public var shops: Int
    public var learnedReceipts: Int

    public init(path: String, schemaVersion: Int, items: Int, receipts: Int, needsReview: Int, corrected: Int = 0, duplicates: Int, lineItems: Int,
                failures: Int, links: [String: Int], shops: Int = 0, learnedReceipts: Int = 0) {
        self.path = path; self.schemaVersion = schemaVersion; self.items = items; self.receipts = receipts; self.needsReview = needsReview
        self.corrected = corrected
        self.duplicates = duplicates; self.lineItems = lineItems; self.failures = failures; self.links = links
        self.shops = shops; self.learnedReceipts = learnedReceipts
    }
}

/// What `ReceiptStore.claim` found.
public enum ClaimResult: Sendable, Equatable {
    /// The caller holds the image now. `takenFrom`: the worker whose lease ran out before it
    /// was done (it died, or lost the store), nil for a fresh claim or a renewal.
    case claimed(takenFrom: String?)
    /// The store has this image already (the caller did not ask to read it again).
    case stored
    /// Another worker holds it for `secondsLeft` more unless it renews its lease.
    case heldElsewhere(worker: String, secondsLeft: Double)
}

/// A batch worker's claim on one image (`receipts batch` with several workers on one store).
public struct StoredClaim: Sendable, Equatable {
    public var contentHash: String
    public var worker: String
    public var path: String
    public var claimedAt: String
    /// Seconds until the lease runs out (negative: ran out; the next worker that asks takes it).
    public var secondsLeft: Double
}
