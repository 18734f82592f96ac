import Foundation
import ReceiptModel

// The shop directory (schema version 7): shops, the keys of the receipts that taught each one
// and the habits its corrections taught, learned only from receipts the user corrected or confirmed.
// What a receipt teaches is worked out by a `ShopTeacher` (module ReceiptLearning) inside the
// transaction that records the correction, so a correction and what it taught are stored together.

public enum ShopRow: RowKind { public static let prefix = "" }
public typealias ShopID = RowID<ShopRow>

/// A key of a shop's fingerprint, with the receipt that taught it.
public struct TaughtKey: Sendable, Hashable {
    public var key: ShopKey
    public var receiptID: ReceiptID
    public var learnedAt: String
    public init(key: ShopKey, receiptID: ReceiptID, learnedAt: String = "") { self.key = key; self.receiptID = receiptID; self.learnedAt = learnedAt }
}

/// A habit of a shop: the kind of line a correction found a field's value on.
public struct TaughtHabit: Sendable, Hashable {
    public var field: CorrectableField
    public var line: LineKind
    public var receiptID: ReceiptID
    /// The correction that taught it.
    public var correctionID: Int64
    public var learnedAt: String
    public init(field: CorrectableField, line: LineKind, receiptID: ReceiptID, correctionID: Int64, learnedAt: String = "") {
        self.field = field; self.line = line; self.receiptID = receiptID; self.correctionID = correctionID; self.learnedAt = learnedAt
    }
}

/// A date the user corrected or confirmed on a receipt that taught a shop.
public struct TaughtDate: Sendable, Hashable {
    public var date: CalendarDate
    public var receiptID: ReceiptID
    public init(date: CalendarDate, receiptID: ReceiptID) { self.date = date; self.receiptID = receiptID }
}

/// A shop of the directory, with everything it learned.
public struct StoredShop: Sendable, Hashable {
    public var id: ShopID
    /// The name the user gave or confirmed.
    public var name: String
    public var createdAt: String
    public var updatedAt: String
    /// The keys of every receipt that taught it, oldest first.
    public var keys: [TaughtKey]
    public var habits: [TaughtHabit]
    /// The receipts the directory puts at this shop: those that taught it and those taken for it when read.
    public var receipts: [ReceiptID]
    /// The dates the user corrected or confirmed on the receipts that taught it.
    public var dates: [TaughtDate]

    public init(id: ShopID, name: String, createdAt: String = "", updatedAt: String = "", keys: [TaughtKey] = [], habits: [TaughtHabit] = [],
                receipts: [ReceiptID] = [], dates: [TaughtDate] = []) {
        self.id = id; self.name = name; self.createdAt = createdAt; self.updatedAt = updatedAt; self.keys = keys; self.habits = habits
        self.receipts = receipts; self.dates = dates
    }

    /// The receipts that taught it (corrected or confirmed), in id order.
    public var teachers: [ReceiptID] { Array(Set(keys.map(\.receiptID) + habits.map(\.receiptID))).sorted() }
}

/// What a teacher is shown of one receipt, inside the transaction that changed its corrections.
public struct TeachingInput: Sendable {
    public var receiptID: ReceiptID
    /// The parser's reading.
    public var parsed: ParsedReceipt
    /// What a shop set on it when it was read, if one did.
    public var learned: LearnedFields?
    /// As the user sees it now: learned fields and the corrections in place.
    public var effective: ParsedReceipt
    /// The corrections in force, oldest first.
    public var corrections: [Correction]
    /// The fields this request set, cleared or undid.
    public var changed: Set<CorrectableField>
    public var reading: OCRReading?
    public var ocrText: String?
    /// The shop the receipt taught before this change, if any.
    public var taught: ShopID?

    public init(receiptID: ReceiptID, parsed: ParsedReceipt, learned: LearnedFields?, effective: ParsedReceipt, corrections: [Correction],
                changed: Set<CorrectableField>, reading: OCRReading?, ocrText: String?, taught: ShopID?) {
        self.receiptID = receiptID; self.parsed = parsed; self.learned = learned; self.effective = effective; self.corrections = corrections
        self.changed = changed; self.reading = reading; self.ocrText = ocrText; self.taught = taught
    }
}

/// What one receipt teaches the directory.
public struct ShopLesson: Sendable, Hashable {
    /// Which shop learns: one that exists, or the shop of this name (made when there is none).
    public enum Target: Sendable, Hashable {
        case shop(ShopID)
        case named(String)
    }
    public struct Habit: Sendable, Hashable {
        public var field: CorrectableField
        public var line: LineKind
        public var correctionID: Int64
        public init(field: CorrectableField, line: LineKind, correctionID: Int64) { self.field = field; self.line = line; self.correctionID = correctionID }
    }
    public var target: Target
    public var keys: [ShopKey]
    public var habits: [Habit]
    public init(target: Target, keys: [ShopKey], habits: [Habit]) { self.target = target; self.keys = keys; self.habits = habits }
}

/// Works out what a corrected or confirmed receipt teaches. The store asks it inside the
/// transaction that records a correction (or its undoing), and replaces what the receipt taught
/// before with its answer; nil teaches nothing.
public protocol ShopTeacher: Sendable {
    func lesson(_ input: TeachingInput) -> ShopLesson?
}
