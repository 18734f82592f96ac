import Foundation
import Testing
import ReceiptModel
import ReceiptParser

/// Notes and checks are typed values; their text is made for output and is also what is stored.
/// Reading the text back must give the same value, and text no case renders (from an older parser) must load.
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
        .inFuture(d), .gluedToWord, .dateKeyword, .expiryWording, .dateRepaired("Apr01'18"), .roundingLineHoldsTotal, .printedSubtotalPlusTax,
        .printedCashMinusChange, .roundedBy(total: amount("33.92"), rounding: amount("-0.02")),
        .everyTotalBelowSubtotal(amount("25.00")), .paidNoChangeGiven(amount("12.35")), .largestAmount,
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32")), equals: amount("58.17")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32"), rounding: amount("-0.02")), equals: amount("58.15")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32"), discount: amount("5.00")), equals: amount("53.17")),
        .sum(.subtotalTax(subtotal: amount("53.85"), tax: amount("4.32"), rounding: amount("0.03"), discount: amount("5.00")), equals: amount("53.20")),
        .sum(.lineItemsTax(items: amount("26.00"), tax: amount("1.56")), equals: amount("27.56")),
        .sum(.subtotalRounding(subtotal: amount("10.03"), rounding: amount("0.02")), equals: amount("10.05")),
        .sum(.cashChange(cash: amount("50.00"), change: amount("4.57")), equals: amount("45.43")),
        .sum(.paidNoChange(amount("12.35")), equals: amount("12.35")),
        .equalsSubtotal(taxIncluded: true), .equalsSubtotal(taxIncluded: false), .belowSubtotal(amount("25.00")),
        .equalsAmountPaid, .moreThanPaid(amount("20.00")), .beforeRounding(amount("-0.02")), .afterRounding(amount("-0.02")),
        .beforeTax(amount("21.20")), .belowRoundingLine, .inTaxTable(belowLine: 31), .lineItemsAddUp(amount("593.10")),
        .printed(times: 2),
        .digitRepaired(read: amount("189.00"), sum: .cashChange(cash: amount("200.00"), change: amount("41.00")),
                       equals: amount("159.00"), swap: DigitSwap(from: "8", to: "5")),
    ]

    static let everyCheck: [Check] = [
        .sum(.subtotalTax(subtotal: amount("40.00"), tax: amount("3.20")), equals: amount("43.20")),
        .sumAfterDigitRepair(.cashChange(cash: amount("200.00"), change: amount("41.00")), equals: amount("159.00")),
        .digitRepaired(read: amount("189.00"), sum: .lineItemsTax(items: amount("180.00"), tax: amount("10.80")),
                       equals: amount("190.80"), swap: DigitSwap(from: "9", to: "0")),
        .subtotalTaxMismatch, .noTotalCandidate,
    ]

    @Test func everyNoteReadsBackFromItsText() {
        for n in Self.everyNote {
            #expect(Note(text: n.description) == n, "\(n.description)")
        }
        #expect(Set(Self.everyNote.map(\.description)).count == Self.everyNote.count, "two notes render alike")
    }

    @Test func everyCheckReadsBackFromItsText() {
        for c in Self.everyCheck {
            #expect(Check(text: c.description) == c, "\(c.description)")
        }
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

    /// Text no case renders: kept as written, so stores written by an older (or newer) parser load.
    @Test func unknownTextIsKept() {
        #expect(Note(text: "a reason from another version") == .text("a reason from another version"))
        #expect(Note(text: "keyword 'total") == .text("keyword 'total"))
        #expect(Note(text: "amount x of 3 in the column after 4 labels") == .text("amount x of 3 in the column after 4 labels"))
        #expect(Check(text: "subtotal + tax = total: ok") == .text("subtotal + tax = total: ok"))
        #expect(Check(text: "keyword 'total'") == .text("keyword 'total'"))
    }

    /// A receipt as older versions stored it (`parsed_json`): notes and checks as plain strings.
    @Test func anOldStoredReceiptLoads() throws {
        let json = #"""
        {"vendor":{"value":"SHOP","confidence":0.9,"evidence":{"rule":"vendor.legal-form","notes":[]},"rejected":[]},
         "date":{"value":"2018-03-12","confidence":0.9,"evidence":{"rule":"date.numeric","notes":["'12/03/18'","order day-first: currency MYR"]},"rejected":[]},
         "total":{"value":"43.20","confidence":0.9,"evidence":{"line":4,"text":"TOTAL 43.20","rule":"total.keyword",
           "notes":["keyword 'total'","subtotal 40.00 + tax 3.20 = 43.20","a note an older parser wrote"]},"rejected":[]},
         "lineItems":[],"checks":["subtotal 40.00 + tax 3.20 = 43.20","subtotal + tax ≠ total","subtotal + tax = total: ok"],
         "parserVersion":"0.0.9"}
        """#
        let r = try JSONDecoder().decode(ParsedReceipt.self, from: Data(json.utf8))
        #expect(r.total?.evidence.notes == [.keyword("total"), .sum(.subtotalTax(subtotal: Self.amount("40.00"), tax: Self.amount("3.20")), equals: Self.amount("43.20")),
                                           .text("a note an older parser wrote")])
        #expect(r.date?.evidence.notes == [.quoted("12/03/18"), .dateOrder(.dayFirst, .currency("MYR"))])
        #expect(r.checks.contains(.subtotalTaxMismatch))
        #expect(r.checks.last == .text("subtotal + tax = total: ok"))
        #expect(ReceiptParser.doubt(r) == .subtotalTaxMismatch)
        #expect(ReceiptParser.doubt(r)?.description == "subtotal + tax ≠ total")
        // Written back, the strings are the ones read.
        let back = try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as? [String: Any]
        #expect(back?["checks"] as? [String] == ["subtotal 40.00 + tax 3.20 = 43.20", "subtotal + tax ≠ total", "subtotal + tax = total: ok"])
        let total = back?["total"] as? [String: Any], evidence = total?["evidence"] as? [String: Any]
        #expect(evidence?["notes"] as? [String] == ["keyword 'total'", "subtotal 40.00 + tax 3.20 = 43.20", "a note an older parser wrote"])
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
