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

    // MARK: subtotal and tax settled by the total

    @Test("several tax rates, each on its line: the tax is their sum when subtotal + sum = total")
    func severalRates() throws {
        let r = parser.parse(text: "BISTRO\nSteak 24.00\nWine 9.00\nSubtotal 33.00\nGST 5% 1.65\nQST 9.975% 3.29\nTotal 37.94\nVisa 37.94")
        #expect(r.subtotal?.value == amount("33.00"))
        let tax = try #require(r.tax)
        #expect(tax.value == amount("4.94"))
        #expect(tax.evidence.notes.contains(.taxesAdded([amount("1.65"), amount("3.29")])))
        #expect(r.checks.contains(.sum(.subtotalTax(subtotal: amount("33.00"), tax: amount("4.94")), equals: amount("37.94"))))
        #expect(!r.checks.contains(.subtotalTaxMismatch))
    }

    @Test("one of several tax lines when it alone makes the sum (the other is a rate's base)")
    func oneOfSeveral() {
        let r = parser.parse(text: "MARKET\nBread 2.50\nMilk 1.50\nSubtotal 4.00\nTaxable 2.50\nTax 0.20\nTotal 4.20")
        #expect(r.tax?.value == amount("0.20"))
    }

    @Test("a tax table's row: net + tax = gross, the gross the total")
    func taxTableRow() {
        let r = parser.parse(text: "CAFE\nCroissant 1.80\nCoffee 2.40\nTOTAL EUR 4.20\nVAT 20% 3.50 0.70 4.20\nCARD 4.20")
        #expect(r.total?.value == amount("4.20"))
        #expect(r.tax?.value == amount("0.70"))
        #expect(r.tax?.evidence.notes.contains(.taxTableRow(net: amount("3.50"), tax: amount("0.70"), gross: amount("4.20"))) == true)
        let noWord = parser.parse(text: "BRASSERIE\nPlat 50.98\nTotal 56.08\n10% 50.98 5.10 56.08\nCB 56.08")
        #expect(noWord.subtotal?.value == amount("50.98"))
        #expect(noWord.tax?.value == amount("5.10"))
    }

    @Test("the amount above the tax that is total − tax is the subtotal, whatever its label ('Net Sales')")
    func subtotalByArithmetic() throws {
        let r = parser.parse(text: "DELI\nSandwich 7.50\nNet Sales $7.50\nTax $0.53\nTotal $8.03\nCash $10.00\nChange $1.97")
        let s = try #require(r.subtotal)
        #expect(s.value == amount("7.50"))
        #expect(s.evidence.rule == "subtotal.total-less-tax")
        #expect(r.tax?.value == amount("0.53"))
    }

    @Test("the amount between subtotal and total that is their difference is the tax, its word garbled ('TAK')")
    func taxByArithmetic() {
        let r = parser.parse(text: "GRILL\nPlate 40.89\nSoda 9.56\nSubTotal 50.45\nTAK 4.28\nTotal 54.73\nVisa 54.73")
        #expect(r.subtotal?.value == amount("50.45"))
        #expect(r.tax?.value == amount("4.28"))
        #expect(r.tax?.evidence.rule == "tax.total-less-subtotal")
    }

    @Test("a tax misread one digit off, put right when the total is backed by the payment")
    func taxDigitRepaired() throws {
        let r = parser.parse(text: "SIAM\nCurry 12.95\nSUBTOTAL 159.55\nTAX 12,82\nTOTAL 172.47\nCASH 180.00\nCHANGE 7.53")
        let tax = try #require(r.tax)
        #expect(tax.value == amount("12.92"))
        #expect(tax.evidence.notes.contains { if case .digitRepaired = $0 { true } else { false } })
    }

    @Test("a tax line OCR could not read the amount of: worked out as total − subtotal")
    func taxWorkedOut() throws {
        let r = parser.parse(text: "DINER\nBurger 9.50\nSubtotal 9.50\nSales Tax —— ~~\nTotal 10.26\nCash 20.00\nChange 9.74")
        let tax = try #require(r.tax)
        #expect(tax.value == amount("0.76"))
        #expect(tax.evidence.notes.contains(.workedOut(.totalLessSubtotal(total: amount("10.26"), subtotal: amount("9.50")), equals: amount("0.76"))))
        // Not when a tip stands between them.
        let tip = parser.parse(text: "DINER\nBurger 9.50\nSubtotal 9.50\nSales Tax —— ~~\nTip 2.00\nTotal 12.26\nCash 20.00\nChange 7.74")
        #expect(tip.tax == nil)
    }

    @Test("no tax added: the total printed above its own line is the subtotal")
    func subtotalEqualsTotal() {
        let r = parser.parse(text: "THALI HOUSE\nThali 1 110.00\nWater 1 25.00\nFood Total 135.00\nGrand Total 135.00")
        #expect(r.subtotal?.value == amount("135.00"))
        #expect(r.subtotal?.evidence.notes.contains(.equalsTotal) == true)
    }

    @Test("a price read with a colon on a total line is not the time")
    func notOnAMoneyLine() {
        let r = parser.parse(text: "CAFE\nSTORE 12 REG 3 12:25\nLatte 4.50\nTotal: 1:08\nPaid 5.00")
        #expect(r.time?.value == time(12, 25))
    }
}
