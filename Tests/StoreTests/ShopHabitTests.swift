import Foundation
import ReceiptLearning
import ReceiptModel
import ReceiptParser
import ReceiptStore
import Testing

/// Learned habits on text, no OCR and no store: which kind of line a corrected or confirmed total
/// teaches, and how a later receipt of the shop takes its total from that kind of line. The
/// receipts are invented; the parser's reading of the later one is changed by hand where the test
/// needs a parser that chose wrongly (the code under test is the learning around it).
@Suite("learned habits")
struct ShopHabitTests {
    static func page(total: String, cash: String, change: String) -> OCRPage {
        OCRPage(text: """
            KEDAI RUNCIT SERI CEMPAKA
            CO. REG: 0042817-K
            TEL: 04-733 2190
            TAX INVOICE
            Date : 14/02/2019
            BERAS WANGI 5KG 21.90
            MINYAK MASAK 2KG 12.40
            JUMLAH SEMUA RM \(total)
            CASH RM \(cash)
            CHANGE RM \(change)
            TERIMA KASIH
            """)
    }

    static let first = page(total: "34.30", cash: "50.00", change: "15.70")
    static let parser = ReceiptParser()

    static func correction(_ id: Int64, _ field: CorrectableField, _ value: String?, was previous: String?) -> Correction {
        Correction(id: id, receiptID: ReceiptID(1), field: field, value: value, previous: previous, by: "kim", at: "2026-11-27T12:00:00Z")
    }

    /// What the first receipt teaches when the user left it with these corrections in force.
    static func lesson(_ corrections: [Correction]) throws -> ShopLesson {
        var effective = parser.parse(first)
        effective.vendor = Field("Seri Cempaka Runcit", confidence: 1, evidence: Evidence(rule: "user"))
        let input = TeachingInput(receiptID: ReceiptID(1), parsed: parser.parse(first), learned: nil, effective: effective,
                                  corrections: corrections, changed: Set(corrections.map(\.field)),
                                  reading: OCRReading(first: first), ocrText: first.text, taught: nil)
        return try #require(ShopLearning.teacher(parser: parser).lesson(input))
    }

    @Test("a total the user confirmed teaches the kind of line it stood on, as one the user changed does; a cleared one teaches nothing")
    func confirmedTotalTeachesItsLine() throws {
        #expect(Self.parser.parse(Self.first).total?.value == Amount("34.30"))
        let confirmed = try Self.lesson([Self.correction(1, .vendor, "Seri Cempaka Runcit", was: "KEDAI RUNCIT SERI CEMPAKA"),
                                         Self.correction(2, .total, "34.30", was: "34.30")])
        let habit = try #require(confirmed.habits.first { $0.field == .total })
        #expect(habit.line.label.hasPrefix("jumlah semua"), "\(habit.line)")
        #expect(habit.correctionID == 2)
        let changed = try Self.lesson([Self.correction(3, .total, "34.30", was: "50.00")])
        #expect(changed.habits.map(\.line) == [habit.line])
        // A value printed on no line of the receipt, or a field cleared, names no kind of line.
        #expect(try Self.lesson([Self.correction(4, .total, "99.99", was: "34.30")]).habits.isEmpty)
        #expect(try Self.lesson([Self.correction(5, .total, nil, was: "34.30")]).habits.isEmpty)
    }

    /// The directory after the first receipt taught: its keys and its habit for the total.
    static func directory() throws -> ShopDirectory {
        let l = try lesson([correction(2, .total, "34.30", was: "34.30")])
        let habit = try #require(l.habits.first)
        return ShopDirectory([StoredShop(id: ShopID(1), name: "Seri Cempaka Runcit",
                                         keys: l.keys.map { TaughtKey(key: $0, receiptID: ReceiptID(1)) },
                                         habits: [TaughtHabit(field: .total, line: habit.line, receiptID: ReceiptID(1), correctionID: 2)],
                                         receipts: [ReceiptID(1)])])
    }

    @Test("a later receipt whose total the parser took from another line, unbacked, takes the habit's line, and says which receipt taught it")
    func habitSetsAnUnbackedTotal() throws {
        let later = Self.page(total: "18.60", cash: "20.00", change: "1.40")
        var parsed = Self.parser.parse(later)
        // The parser chose the cash line, with nothing backing it.
        parsed.total = Field(Amount("20.00")!, confidence: 0.55, evidence: Evidence(line: 9, text: "CASH RM 20.00", rule: "total.amount-paid"))
        let learning = ShopLearning(directory: try Self.directory(), parser: Self.parser)
        let out = try #require(learning.read(parsed, reading: OCRReading(first: later), page: later))
        let total = try #require(out.total)
        #expect(total.value == Amount("18.60"))
        #expect(total.evidence.rule == "total.learned")
        #expect(total.evidence.text?.hasPrefix("JUMLAH SEMUA") == true)
        let said = total.evidence.notes.map { $0.description }.joined(separator: " ")
        #expect(said.contains("holds it: your correction of #1"), "\(said)")
        // The parser's own value is kept first among those that lost.
        #expect(total.rejected.first?.value == "20.00")
    }

    @Test("a total the receipt's own arithmetic backs is not overruled by a habit")
    func habitLeavesABackedTotal() throws {
        let later = Self.page(total: "18.60", cash: "20.00", change: "1.40")
        var parsed = Self.parser.parse(later)
        // A total another line gives, backed by the rounding printed under it: the receipt's own word against the habit's.
        parsed.total = Field(Amount("18.65")!, confidence: 0.9,
                             evidence: Evidence(line: 8, text: "ROUNDED 18.65", rule: "total.rounded-total", notes: [.afterRounding(Amount("0.05")!)]))
        let learning = ShopLearning(directory: try Self.directory(), parser: Self.parser)
        let out = try #require(learning.read(parsed, reading: OCRReading(first: later), page: later))
        #expect(out.vendor?.value == "Seri Cempaka Runcit")
        #expect(out.total == nil)
        // Unbacked, the same value gives way to the habit's line.
        parsed.total?.evidence.notes = []
        #expect(learning.read(parsed, reading: OCRReading(first: later), page: later)?.total?.value == Amount("18.60"))
    }
}
