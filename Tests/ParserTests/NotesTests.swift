import Foundation
import Testing
import ReceiptModel
import ReceiptParser

/// Notes and checks are typed values: their text is made for output only, and they are stored as
/// codes with their arguments (a store's old sentences are migrated once: MigrationTests).
@Suite("Typed notes and checks")
struct NotesTests {
    static func amount(_ s: String) -> Amount { Amount(s)! }
    static let d = CalendarDate(year: 2018, month: 3, day: 12)!

    /// One of every case, with values as the parser writes them.
    static let everyNote: [Note] = [
        .keyword("total (rm)"), .afterKeyword("invoice no"), .quoted("25/12/2018"), .quoted("Mar 5 '18"), .alsoSays("cash"),
        .amountOnNextLine, .amountInColumn(position: 2, of: 3, afterLabels: 4), .lettersReadAsDigits("1O.5O"),
        .spaceAroundDecimalPoint, .seen(3), .dollarHint("hst"), .knownVendor(alias: "Best Buy", percent: 92),
        .dateOrder(.dayFirst, .given), .dateOrder(.monthFirst, .given), .dateOrder(.dayFirst, .noEvidence),
        .dateOrder(.monthFirst, .onlyReading("04/25/2019")), .dateOrder(.dayFirst, .documentNumber("12/03/18", d)),
        .dateOrder(.dayFirst, .currency("MYR")), .dateOrder(.monthFirst, .evidence), .onlyValidReading(.monthFirst),
        .inFuture(d), .gluedToWord, .dateKeyword, .expiryWording, .dateRepaired("May01'19"), .mixedSeparators, .roundingLineHoldsTotal, .printedSubtotalPlusTax,
        .printedCashMinusChange, .roundedBy(total: amount("33.92"), rounding: amount("-0.02")),
        .everyTotalBelowSubtotal(amount("25.00")), .paidNoChangeGiven(amount("12.35")), .largestAmount,
        .computedSubtotalPlusTax, .spaceForDecimalPoint, .colonForDecimalPoint, .wholeUnits, .oneDecimalRead("163.8"),
        .leadingDigitsLost(read: amount("7.30"), sum: .paidNoChange(amount("27.30")), equals: amount("27.30")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32")), equals: amount("58.17")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32"), rounding: amount("-0.02")), equals: amount("58.15")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32"), discount: amount("5.00")), equals: amount("53.17")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32"), rounding: amount("0.03"), discount: amount("5.00")), equals: amount("53.20")),
        .sum(.subtotalTax(subtotal: amount("100.00"), tax: amount("6.60"), charges: amount("10.00")), equals: amount("116.60")),
        .sum(.lineItemsTax(items: amount("26.00"), tax: amount("1.56")), equals: amount("27.56")),
        .sum(.subtotalRounding(subtotal: amount("10.03"), rounding: amount("0.02")), equals: amount("10.05")),
        .sum(.cashChange(cash: amount("50.00"), change: amount("4.57")), equals: amount("45.43")),
        .sum(.paidNoChange(amount("12.35")), equals: amount("12.35")),
        .equalsSubtotal(taxIncluded: true), .equalsSubtotal(taxIncluded: false), .belowSubtotal(amount("25.00")),
        .equalsAmountPaid, .moreThanPaid(amount("20.00")), .beforeRounding(amount("-0.02")), .afterRounding(amount("-0.02")),
        .beforeTax(amount("21.20")), .belowRoundingLine, .inTaxTable(belowLine: 31), .lineItemsAddUp(amount("482.90")),
        .printed(times: 2), .engineWeighedDigit("4"), .meridiemRead("PH", pm: true), .meridiemRead("AH", pm: false), .afternoonAssumed, .secondsAfterPoint("18:42.33"),
        .taxTableRow(net: amount("73.43"), tax: amount("12.85"), gross: amount("86.28")), .taxAtRate(rate: "6", net: amount("80.00"), tax: amount("4.80")), .taxesAdded([amount("1.28"), amount("0.12")]),
        .workedOut(.totalLessSubtotal(total: amount("14.15"), subtotal: amount("13.45")), equals: amount("0.70")),
        .sum(.totalLessTax(total: amount("14.15"), tax: amount("0.70")), equals: amount("13.45")), .equalsTotal, .totalPrintedAgainBelow, .unreadEqualsTotal, .taxIncluded,
        .quantityTimesUnit(2, amount("4.80"), equals: amount("9.60")), .nameFromLineAbove("BANANAS"), .unitPriceBelow("PRECIO KILO 5.80"), .nameFromLineBelow("PENSIL 2B KOTAK"), .nameFromColumn("Lotus Soup"), .letterSpaced("S U P E R M A R K E T"),
        .discountBelow(amount("0.50"), "MEMBER SAVINGS -0.50"), .voidedBy("VOID LATTE -4.50"),
        .digitRepaired(read: amount("189.00"), sum: .cashChange(cash: amount("200.00"), change: amount("41.00")),
                       equals: amount("159.00"), swap: DigitSwap(from: "8", to: "5")),
    ]

    static let everyCheck: [Check] = [
        .sum(.subtotalTax(subtotal: amount("40.00"), tax: amount("3.20")), equals: amount("43.20")),
        .sumAfterDigitRepair(.cashChange(cash: amount("200.00"), change: amount("41.00")), equals: amount("159.00")),
        .digitRepaired(read: amount("189.00"), sum: .lineItemsTax(items: amount("180.00"), tax: amount("10.80")),
                       equals: amount("190.80"), swap: DigitSwap(from: "9", to: "0")),
        .subtotalTaxMismatch, .noTotalCandidate,
        .lineItemsAddUp(count: 3, to: .subtotal(amount("26.00"))), .lineItemsAddUp(count: 1, to: .total(amount("4.50"))),
        .lineItemsAddUp(count: 2, to: .totalLessTax(total: amount("10.70"), tax: amount("0.70"))),
        .lineItemsDoNotAddUp(count: 2, sum: amount("5.00"), target: .subtotal(amount("6.00"))),
    ]

    /// Stored as codes with their arguments: every case comes back as itself, never through its text.
    @Test func everyNoteAndCheckRoundTripsAsACode() throws {
        for n in Self.everyNote {
            #expect(try JSONDecoder().decode(Note.self, from: JSONEncoder().encode(n)) == n, "\(n.description)")
        }
        for c in Self.everyCheck {
            #expect(try JSONDecoder().decode(Check.self, from: JSONEncoder().encode(c)) == c, "\(c.description)")
        }
        #expect(Set(Self.everyNote.map(\.description)).count == Self.everyNote.count, "two notes render alike")
        // The shape a stored note has: its case and its arguments.
        #expect(String(decoding: try JSONEncoder().encode(Note.keyword("total")), as: UTF8.self) == #"{"keyword":{"_0":"total"}}"#)
    }

    /// The text is the one the parser printed before notes were typed: the CLI, golden files and stored receipts show it.
    @Test func textIsAsBefore() {
        #expect(Self.everyNote[0].description == "keyword 'total (rm)'")
        #expect(Note.amountInColumn(position: 2, of: 3, afterLabels: 4).description == "amount 2 of 3 in the column after 4 labels")
        #expect(Note.dateOrder(.dayFirst, .noEvidence).description == "order day-first: no evidence either way")
        #expect(Note.dateOrder(.dayFirst, .documentNumber("12/03/18", Self.d)).description == "order day-first: a document number holds '12/03/18' as 2018-03-12")
        #expect(Note.sum(.subtotalTax(subtotal: Self.amount("53.85"), tax: Self.amount("4.32"), rounding: Self.amount("0.03"), discount: Self.amount("5.00")),
                         equals: Self.amount("53.20")).description == "subtotal 53.85 + tax 4.32 + rounding 0.03 − discount 5.00 = 53.20")
        #expect(Self.everyNote.last?.description == "read 189.00, taken as 159.00: cash 200.00 − change 41.00 = 159.00, one digit apart (OCR often reads 8→5)")
        #expect(Check.subtotalTaxMismatch.description == "subtotal + tax ≠ total")
        #expect(Self.everyCheck[1].description == "cash 200.00 − change 41.00 = 159.00 (digit repaired)")
    }

    /// Every note and check the parser writes on the sample receipts' frozen OCR reads back as itself, not as `.text`.
    @Test func parsedReceiptsRoundTrip() throws {
        let dir = FrozenOCRTests.ocrDir
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
        #expect(!files.isEmpty)
        for f in files {
            let rec = try JSONDecoder().decode(OCRRecording.self, from: try #require(FileManager.default.contents(atPath: dir + "/" + f)))
            for page in [rec.first] + (rec.second.map { [$0] } ?? []) {
                let r = ReceiptParser().parse(page)
                let back = try JSONDecoder().decode(ParsedReceipt.self, from: JSONEncoder().encode(r))
                #expect(back == r, "\(f)")
                let fields: [Evidence?] = [r.vendor?.evidence, r.date?.evidence, r.time?.evidence, r.total?.evidence, r.subtotal?.evidence,
                                           r.tax?.evidence, r.currency?.evidence, r.receiptNumber?.evidence, r.paymentMethod?.evidence]
                let notes = fields.compactMap { $0 }.flatMap(\.notes) + (r.total?.rejected.flatMap(\.evidence.notes) ?? [])
                #expect(!notes.contains { if case .text = $0 { true } else { false } }, "\(f)")
                #expect(!r.checks.contains { if case .text = $0 { true } else { false } }, "\(f)")
            }
        }
    }
}
