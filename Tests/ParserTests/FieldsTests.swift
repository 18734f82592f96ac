import Foundation
import Testing
import ReceiptModel
@testable import ReceiptParser

/// Text in, fields out: time, subtotal, tax and line items on small invented receipts.
@Suite("Parser: time, subtotal, tax, line items")
struct FieldsTests {
    let parser = ReceiptParser()
    func amount(_ s: String) -> Amount { Amount(s)! }
    func time(_ h: Int, _ m: Int, _ s: Int? = nil) -> TimeOfDay { TimeOfDay(hour: h, minute: m, second: s)! }

    // MARK: time

    /// A photo's "PM" comes out of OCR as "PH", "Pw", "pa", "P|" or "em"; its "AM" as "AH".
    @Test("a misread PM or AM after a time", arguments: [
        ("9/14/2017 2:21 PH", 14, 21), ("Guests 2 3:02\" PW", 15, 2), ("TABLE 4 7:51 pa", 19, 51), ("10/28/2014 3:21:56 Py", 15, 21),
        ("SERVER 8 4:53 em", 16, 53), ("12:11P CHK 31", 12, 11), ("11/02/2016 9:05 AH", 9, 5), ("12:40 AN", 0, 40),
    ])
    func misreadMeridiem(_ line: String, _ h: Int, _ m: Int) throws {
        let r = parser.parse(text: "DINER\n\(line)\nTOTAL 12.00")
        let t = try #require(r.time)
        #expect(t.value.hour == h && t.value.minute == m)
        #expect(t.evidence.notes.contains { if case .meridiemRead = $0 { true } else { false } })
    }

    @Test("no meridiem read into a 24-hour time or a longer word")
    func notAMeridiem() {
        #expect(parser.parse(text: "SHOP\n18/03/2018 14:35 PH\nTOTAL 1.00").time?.value == time(14, 35))
        #expect(parser.parse(text: "SHOP\n18/03/2018 10:35 POS 3\nTOTAL 1.00").time?.value == time(10, 35))
        #expect(parser.parse(text: "SHOP\n18/03/2018 10:35 Pos3\nTOTAL 1.00").time?.value == time(10, 35))
    }

    @Test("a time right after 'Time:' with no space")
    func afterALabelColon() {
        #expect(parser.parse(text: "SHOP\nDate :9/24/2016 Time:2:35 pm\nTOTAL 1.00").time?.value == time(14, 35))
        #expect(parser.parse(text: "SHOP\n05:10:PM CASHIER 2\nTOTAL 1.00").time?.value == time(17, 10))
    }

    // MARK: subtotal and tax keywords

    @Test("the subtotal's word two OCR slips away, or read in two pieces", arguments: ["RubTota", "SUBTTL", "Sub. Tot", "Subfetal", "Sub“Tota]"])
    func subtotalMisread(_ word: String) {
        let r = parser.parse(text: "DINER\nBurger 9.50\nFries 3.95\n\(word) 13.45\nTax 0.70\nTotal 14.15")
        #expect(r.subtotal?.value == amount("13.45"))
        #expect(r.total?.value == amount("14.15"))
    }

    @Test("tax words tills print: 'Total Taxes', 'TAX1', 'V.A.T'", arguments: ["Total Taxes", "TAX1", "V.A.T 14%", "IMPUESTO 10%"])
    func taxWords(_ word: String) {
        let r = parser.parse(text: "DINER\nBurger 9.50\nSubtotal 9.50\n\(word) 1.33\nTotal 10.83")
        #expect(r.tax?.value == amount("1.33"))
    }

    /// "GST(5%): $1.30" is a label with its own amount: not the value of a label above it printed without one.
    @Test func aShortMoneyLabelIsNotAnotherLabelsValue() {
        let r = parser.parse(text: "SUSHI\n1 X Tuna Roll\nSUB-TOTA\nGST(5%): $1.30\nTOTAL $27.30\nCASH: 27.30")
        #expect(r.subtotal?.value != amount("1.30"))
        #expect(r.tax?.value == amount("1.30"))
    }

    @Test("a price read with a colon on a total line is not the time")
    func notOnAMoneyLine() {
        let r = parser.parse(text: "CAFE\nSTORE 12 REG 3 12:25\nLatte 4.50\nTotal: 1:08\nPaid 5.00")
        #expect(r.time?.value == time(12, 25))
    }
}
