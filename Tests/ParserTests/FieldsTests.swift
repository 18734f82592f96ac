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

    /// A bill printed with its date and time twice (opened, paid) was paid at the later; a time with no date
    /// beside it stays the first; a phone number's "120 0:47" is no time.
    @Test("the later of two times beside the date; not a phone number's digits")
    func timesBesideTheDate() {
        #expect(parser.parse(text: "CAFE\n12/08/2020 11:12\nTEA 3.00\nTOTAL 3.00\n---12/08/2020 12:40---").time?.value == time(12, 40))
        #expect(parser.parse(text: "CAFE\nTable 4 08:15 PM\nTEA 3.00\nTOTAL 3.00\nx: 3 : 2:00").time?.value == time(20, 15))
        #expect(parser.parse(text: "DELI\nTEA 3.00\nTOTAL 3.00\nTEL# 555 120 0:47 Store# 9\nThank you 14:06").time?.value == time(14, 6))
    }

    /// "Ann9 : 08/03/2030": a name's last letter read as a 9 before the date is no time at 9:08.
    @Test("a time's minutes are not a date's day")
    func minutesAreNotADate() {
        #expect(parser.parse(text: "CAFE\nServer: Ann9 : 08/03/2030\nTable 4 12:34 PM\nTEA 3.00\nTOTAL 3.00").time?.value == time(12, 34))
    }

    /// A check prints when its table opened and when it was paid: the paid one, wherever it stands.
    @Test("not the time a table opened")
    func notTheOpeningTime() {
        #expect(parser.parse(text: "BISTRO\nDate: Mar 02, 2030 Time: 02:10PM\nTEA 3.00\nTOTAL 3.00\nOpen Time: Mar 02, 2030 01:15PM").time?.value == time(14, 10))
        #expect(parser.parse(text: "BISTRO\nPrinted 12/08/2030 10:58\nTEA 3.00\nTOTAL 3.00\nOpened 12/08/2030 10:02").time?.value == time(10, 58))
    }

    /// A check printed when it was closed puts that time first on its total's line, below the one beside the date
    /// (when the table opened): that is when it was paid. After the word it is a price misread; a time on the
    /// total's line earlier than the date's is not taken over it.
    @Test("the time first on the total's line: the check closed")
    func timeFirstOnTheTotalLine() {
        let closed = parser.parse(text: "GRILL\nChk 4781 Apr01'24 12:11P Gst 2\nTEA 3.00\nSOUP 9.00\n12:28PM Total 12.00")
        #expect(closed.time?.value == time(12, 28))
        #expect(closed.time?.evidence.rule == "time.total-line")
        #expect(parser.parse(text: "GRILL\nOpen: 17:52:13 Table: 31\nTEA 3.00\n18:41:24 Total: 3.00").time?.value == time(18, 41, 24))
        #expect(parser.parse(text: "GRILL\n01/04/2024 12:11\nTEA 3.00\nTotal: 1:08\nTOTAL 3.00").time?.value == time(12, 11))
        #expect(parser.parse(text: "GRILL\n01/04/2024 12:11\nTEA 3.00\n11:58 Total 3.00").time?.value == time(12, 11))
        // Its PM read as "PH" is said, as anywhere else; an unpadded hour there is afternoon too.
        let ph = parser.parse(text: "GRILL\nOpen: 12:40 Table: 25\nTEA 3.00\n04:02PH Total Due 3.00")
        #expect(ph.time?.value == time(16, 2))
        #expect(ph.time?.evidence.notes == [.meridiemRead("PH", pm: true)])
        #expect(parser.parse(text: "GRILL\nOpen: 12:40 Table: 25\nTEA 3.00\n1:05 Total 3.00").time?.value == time(13, 5))
        // What is due to pay is the total's line by another name; the change due is not.
        #expect(parser.parse(text: "GRILL\nO5DEC'18 8:43AM\nTEA 22.85\nTax 1.54\n10:00 Payment Due 24.39").time?.value == time(10, 0))
        #expect(parser.parse(text: "GRILL\nO5DEC'18 8:43AM\nTEA 22.85\nTOTAL 22.85\n10:00 Change Due 1.15").time?.value == time(8, 43))
    }

    /// A till that prints "3:48" (no leading zero) keeps a 12-hour clock; without its AM or PM, an hour from one
    /// to six is afternoon. A padded hour ("03:48") is a 24-hour clock's, and a printed AM stands.
    @Test("an unpadded hour before seven is PM")
    func unpaddedSmallHourIsAfternoon() {
        let r = parser.parse(text: "SUSHI BAR\nDate: 11-Mar-2024 3:48:05\nTEA 3.00\nTOTAL 3.00")
        #expect(r.time?.value == time(15, 48, 5))
        #expect(r.time?.evidence.notes.contains(.afternoonAssumed) == true)
        #expect(parser.parse(text: "SUSHI BAR\nDate: 11-Mar-2024 03:48:05\nTEA 3.00\nTOTAL 3.00").time?.value == time(3, 48, 5))
        #expect(parser.parse(text: "SUSHI BAR\nDate: 11-Mar-2024 3:48 AM\nTEA 3.00\nTOTAL 3.00").time?.value == time(3, 48))
        #expect(parser.parse(text: "SUSHI BAR\nDate: 11-Mar-2024 7:13\nTEA 3.00\nTOTAL 3.00").time?.value == time(7, 13))
    }

    /// OCR reads a time's second colon as a point, as it reads an amount's ("18:42.33"). Beside the date or after
    /// "Time" that is the time, said in its evidence; elsewhere "dd:dd.dd" stays unread as a time.
    @Test("a point read for the seconds' colon, beside the date or after Time")
    func pointBeforeSeconds() throws {
        let dated = parser.parse(text: "NOODLE BAR\n2024-05-09 18:42.33\nTEA 3.00\nTOTAL 3.00")
        let t = try #require(dated.time)
        #expect(t.value == time(18, 42, 33))
        #expect(t.evidence.notes == [.secondsAfterPoint("18:42.33")])
        #expect(parser.parse(text: "NOODLE BAR\nInv 0042 Time 11:20.45\nTEA 3.00\nTOTAL 3.00").time?.value == time(11, 20, 45))
        // Unpadded, it is afternoon as with its colon; a time with its colon on the line keeps no note.
        #expect(parser.parse(text: "NOODLE BAR\nDate: 11-Mar-2024 3:48.05\nTEA 3.00\nTOTAL 3.00").time?.value == time(15, 48, 5))
        #expect(parser.parse(text: "NOODLE BAR\n11/03/2024 09:12:40\nTEA 3.00\nTOTAL 3.00").time?.evidence.notes == [])
        // Not beside the date and not after "Time": no time. Nor where more digits or points follow, or no hour can be.
        #expect(parser.parse(text: "NOODLE BAR\nTEA 3.00\nRef 12:30.50\nTOTAL 3.00").time == nil)
        #expect(parser.parse(text: "NOODLE BAR\n2024-05-09 18:42.335\nTEA 3.00\nTOTAL 3.00").time == nil)
        #expect(parser.parse(text: "NOODLE BAR\n2024-05-09 18:42.33.1\nTEA 3.00\nTOTAL 3.00").time == nil)
        #expect(parser.parse(text: "NOODLE BAR\n2024-05-09 28:42.33\nTEA 3.00\nTOTAL 3.00").time == nil)
        #expect(TimeScanner.pointBeforeSeconds("Time 11:20.45 i")! == ("Time 11:20:45 i", "11:20.45"))
        #expect(TimeScanner.pointBeforeSeconds("Total 1,12:30.50") == nil)
        #expect(TimeScanner.pointBeforeSeconds("Café 9:05.30")! == ("Café 9:05:30", "9:05.30"))
    }

    /// "VISA 2:37" before "16:45": a bare small hour away from the date and no AM or PM is the weaker reading.
    @Test("a bare hour before seven is weaker than a daytime one")
    func earlyHourIsWeaker() {
        #expect(parser.parse(text: "DELI\nTEA 3.00\nTOTAL 3.00\nVISA 2:37\nThank you 16:45").time?.value == time(16, 45))
        #expect(parser.parse(text: "DELI\nTEA 3.00\nTOTAL 3.00\nVISA 2:37 PM\nThank you 16:45").time?.value == time(14, 37))
    }

    @Test("a time right after 'Time:' with no space")
    func afterALabelColon() {
        #expect(parser.parse(text: "SHOP\nDate :8/13/2017 Time:3:46 pm\nTOTAL 1.00").time?.value == time(15, 46))
        #expect(parser.parse(text: "SHOP\n05:10:PM CASHIER 2\nTOTAL 1.00").time?.value == time(17, 10))
    }

    // MARK: subtotal and tax keywords

    @Test("the subtotal's word two OCR slips away, read in two pieces, or cut short", arguments: ["RubTota", "SUBTTL", "Sub. Tot", "Subfetal", "Sub“Tota]", "SubT"])
    func subtotalMisread(_ word: String) {
        let r = parser.parse(text: "DINER\nBurger 9.50\nFries 3.95\n\(word) 13.45\nTax 0.70\nTotal 14.15")
        #expect(r.subtotal?.value == amount("13.45"))
        #expect(r.total?.value == amount("14.15"))
    }

    /// "SubT 48.35": the word cut short, found by its word alone (no sum here names it).
    @Test("a subtotal written 'SubT'")
    func subT() {
        #expect(parser.parse(text: "DINER\nBurger 9.50\nSubT 9.95\nService 1.00\nTotal 10.65").subtotal?.value == amount("9.95"))
    }

    @Test("tax words tills print: 'Total Taxes', 'TAX1', 'V.A.T'", arguments: ["Total Taxes", "TAX1", "V.A.T 14%", "IMPUESTO 10%"])
    func taxWords(_ word: String) {
        let r = parser.parse(text: "DINER\nBurger 9.50\nSubtotal 9.50\n\(word) 1.33\nTotal 10.83")
        #expect(r.tax?.value == amount("1.33"))
    }

    /// "GST(5%): $1.20" is a label with its own amount: not the value of a label above it printed without one.
    @Test func aShortMoneyLabelIsNotAnotherLabelsValue() {
        let r = parser.parse(text: "SUSHI\n1 X Salmon Roll\nSUB-TOTA\nGST(5%): $1.20\nTOTAL $25.20\nCASH: 25.20")
        #expect(r.subtotal?.value != amount("1.20"))
        #expect(r.tax?.value == amount("1.20"))
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

    @Test("two taxes of the same amount (CGST and SGST) are two taxes; one tax printed twice is one")
    func equalRates() {
        let r = parser.parse(text: "SALON\nGents Styling 1 300.00\nSubTotal 300.00\nCGST @9% 27.00\nSGST @9% 27.00\nTotal 354.00\nCash 354.00")
        #expect(r.tax?.value == amount("54.00"))
        let twice = parser.parse(text: "SHOP\nItem 10.00\nSubtotal 10.00\nVAT 20% 2.00\nTotal 12.00\nVAT 20% 2.00")
        #expect(twice.tax?.value == amount("2.00"))
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
        // No subtotal line: the row's net is the subtotal, though its tax word found the tax already.
        #expect(r.subtotal?.value == amount("3.50"))
        #expect(r.subtotal?.evidence.rule == "subtotal.tax-table")
        let noWord = parser.parse(text: "BRASSERIE\nPlat 47.30\nTotal 52.03\n10% 47.30 4.73 52.03\nCB 52.03")
        #expect(noWord.subtotal?.value == amount("47.30"))
        #expect(noWord.tax?.value == amount("4.73"))
    }

    /// A French receipt's "Prix HT" (hors taxes) is the subtotal; its one priced row under a free one ("0,00") is the sale,
    /// not the total printed again, though it prints the total's amount.
    @Test("'Prix HT' a subtotal; the one priced row under free ones an item")
    func prixHTAndOnePricedRow() {
        let r = parser.parse(text: "TRATTORIA\nChoix de sauce Tomate 1*0,00 EUR 0,00 EUR\nPasta Carbonara 1*16,50 EUR 16,50 EUR\nSomme 16,50 EUR\n"
                                 + "Incl. 10 % TVA 1,50 EUR\nPrix HT 15,00 EUR\nCash 20,00")
        #expect(r.total?.value == amount("16.50"))
        #expect(r.subtotal?.value == amount("15.00"))
        #expect(r.tax?.value == amount("1.50"))
        #expect(r.lineItems.map(\.amount) == [amount("0.00"), amount("16.50")])
    }

    /// Two labels and their amounts on one row: each label takes the amount after it, not the row's last ("Total 25.00
    /// Cash 30.00" is a total of 25.00). "Net Sales" is a subtotal word. A row of one label keeps its last amount.
    @Test("two labels on one row: each its own amount")
    func twoLabelsOnOneRow() {
        let paid = parser.parse(text: "DELI\nSandwich 25.00\nTotal 25.00 Cash 30.00\nChange 5.00")
        #expect(paid.total?.value == amount("25.00"))
        let pub = parser.parse(text: "THE OLD BELL\nTRIFLE 10.70\nESPRESSO 4.80\nSERVICE CHARGE 11.40\nNET SALES 98.20 GRAND TOTAL 109.60")
        #expect(pub.total?.value == amount("109.60"))
        #expect(pub.subtotal?.value == amount("98.20"))
        let tax = parser.parse(text: "DELI\nSandwich 7.00\nSubtotal 7.00 Tax 0.49\nTotal 7.49")
        #expect(tax.subtotal?.evidence.rule == "subtotal.keyword")
        #expect(tax.tax?.value == amount("0.49"))
        #expect(parser.parse(text: "CAFE\nLatte 4.50\nTotal 2 x 4.50 9.00").total?.value == amount("9.00"))
    }

    /// A tax summary's row with no tax word read on it: its rate makes it one ("SR @ 6% 80.00 4.80": 6 % of 80.00
    /// is 4.80). Under a total that includes the tax, it is the tax included; with no subtotal line its net and tax
    /// add up to the total. A discount or a service charge printing the same arithmetic is no tax.
    @Test("a tax row found by its rate, no tax word read")
    func taxRateRow() throws {
        let included = parser.parse(text: "TAILOR SHOP\nSAFETY PINS 4 21.20 84.80\nSubtotal : 84.80\nTotal incl. of GST 84.80\n"
                                        + "Payment : 84.80\nGST Summary Amount(RM) Tax(RM)\nSR @ 6% 80.00 4.80")
        let t = try #require(included.tax)
        #expect(t.value == amount("4.80"))
        #expect(t.evidence.notes.contains(.taxAtRate(rate: "6", net: amount("80.00"), tax: amount("4.80"))))
        #expect(included.subtotal?.value == amount("84.80"))
        // A German till's "MwSt" misread, the row's gross lost: the net is the subtotal, the rest the tax.
        let row = parser.parse(text: "IMBISS\n1 Falafel 8,90\nSUMME EUR 8,90\nBar 10,00\nA 19% Must 7,48 1,42")
        #expect(row.total?.value == amount("8.90"))
        #expect(row.subtotal?.value == amount("7.48"))
        #expect(row.tax?.value == amount("1.42"))
        #expect(row.tax?.evidence.rule == "tax.rate-row")
        // A rate of one decimal, a comma for its point.
        #expect(parser.parse(text: "PUB\nAle 10.00\nTotal 11.75\nA 17,5% 10.00 1.75").tax?.value == amount("1.75"))
        // The same arithmetic on a discount's or a service charge's line.
        let discount = parser.parse(text: "SHOP\nJacket 20.00\nMember 10% 20.00 2.00\nTotal 18.00")
        #expect(discount.tax == nil)
        let service = parser.parse(text: "GRILL\nSteak 50.00\nSVC CHG 10% 50.00 5.00\nTotal 55.00")
        #expect(service.tax == nil)
        // The row's amounts on the next line, or one amount beside the rate, which is that rate of the total less it
        // (0.75 is 7 % of 10.75, the total 11.50 less it).
        let split = parser.parse(text: "SUPERMARKT\nMilch 1,69 B\nBrot 9,81 B\nSUMME 11,50\nMwSt NETTO BRUTTO\nB 7,0%\n0,75")
        #expect(split.tax?.value == amount("0.75"))
        #expect(split.tax?.evidence.notes.contains(.taxAtRate(rate: "7", net: amount("10.75"), tax: amount("0.75"))) == true)
        #expect(parser.parse(text: "KEDAI\nPENSEL 18.90\nTOTAL 18.90\nGST (6.000%)\n17.83 1.07").tax?.value == amount("1.07"))
        #expect(parser.parse(text: "SUPERMARKT\nBrot 11,50\nSUMME 11,50\nB 7,0%\n0,95").tax == nil)
        // The rate does not make the tax: 6 % of 80.00 is not 3.80.
        #expect(parser.parse(text: "TAILOR SHOP\nPINS 83.80\nTotal 83.80\nSR @ 6% 80.00 3.80").tax == nil)
    }

    @Test("the rates a line prints, in ten-thousandths of a percent")
    func percentRates() {
        #expect(MoneyFields.percentRates("SR @ 6% 80.00 4.80") == [60_000])
        #expect(MoneyFields.percentRates("BTW 19.00% EUR 7.48") == [190_000])
        #expect(MoneyFields.percentRates("A 17,5 % 10.00 1.75") == [175_000])
        #expect(MoneyFields.percentRates("GST (6.000%)") == [60_000])
        #expect(MoneyFields.percentRates("NYC TAX 8.875% 1.06") == [88_750])
        #expect(MoneyFields.percentRates("TVA 21% 10.74 / 12% 27.86") == [210_000, 120_000])
        // Not a rate a tax is charged at: none, over 30 %, three digits, five decimals, a percent sign alone.
        #expect(MoneyFields.percentRates("0% 10.00 0.00").isEmpty)
        #expect(MoneyFields.percentRates("50% OFF").isEmpty)
        #expect(MoneyFields.percentRates("100% cotton 123%").isEmpty)
        #expect(MoneyFields.percentRates("6.00000%").isEmpty)
        #expect(MoneyFields.percentRates("% 5.00").isEmpty)
        #expect([60_000, 175_000, 190_000, 82_500, 80_500, 88_750].map(MoneyFields.rateText) == ["6", "17.5", "19", "8.25", "8.05", "8.875"])
    }

    /// A VAT table's total row ("HTVA TAXE TVAC": net, tax, gross) whose net OCR misread by one digit: the gross is the
    /// total, printed twice, so the net is total − tax, the digit put right and said so. Not without the total backed.
    @Test("a tax table's total row, its net one digit off")
    func taxTableTotalRowRepaired() {
        let r = parser.parse(text: "BRASSERIE\n4 Limonade 3.25 13.00\n1 Brochette 16.50\n1 Filet 14.50\nTOTAL 44.00\nHTVA TAXE TVAC\n"
                                 + "TVA 21% BOISSONS 10.74 2.26 13.00\nTVA 12% CUISINE 27.86 3.14 31.00\nTOTAL 30.60 5.40 44.00")
        #expect(r.total?.value == amount("44.00"))
        #expect(r.subtotal?.value == amount("38.60"))
        #expect(r.tax?.value == amount("5.40"))
        #expect(r.subtotal?.evidence.notes.contains { if case .digitRepaired = $0 { true } else { false } } == true)
        // The total read once, on that row alone: nothing backs it, nothing repaired.
        let alone = parser.parse(text: "BRASSERIE\n1 Brochette 16.50\nHTVA TAXE TVAC\nTOTAL 30.60 5.40 44.00")
        #expect(alone.subtotal?.value != amount("38.60"))
    }

    @Test("the amount above the tax that is total − tax is the subtotal, whatever its label ('Merchandise')")
    func subtotalByArithmetic() throws {
        let r = parser.parse(text: "DELI\nSandwich 6.80\nMerchandise $6.80\nTax $0.48\nTotal $7.28\nCash $10.00\nChange $2.72")
        let s = try #require(r.subtotal)
        #expect(s.value == amount("6.80"))
        #expect(s.evidence.rule == "subtotal.total-less-tax")
        #expect(r.tax?.value == amount("0.48"))
    }

    @Test("no subtotal line: the amount before the tax on the tax's own line that is total − tax ('Base: 94,55 Cuota: 9,45')")
    func subtotalOnTaxLine() throws {
        let r = parser.parse(text: "CASA PEPE\n1,00 Paella 58,00\n2,00 Vino 46,00\n10,00%: Base: 94,55 Cuota: 9,45\nTotal (Impuestos Incl.) 104,00\nEntregado 110,00")
        let s = try #require(r.subtotal)
        #expect(s.value == amount("94.55"))
        #expect(s.evidence.rule == "subtotal.total-less-tax")
        #expect(r.tax?.value == amount("9.45"))
        // A subtotal line that with the tax does not make the total is not replaced by the tax's base.
        let kept = parser.parse(text: "KEDAI\nNasi Lemak 12.72\nSUBTOTAL 12.72\nGST 6% 12.00 0.72\nTOTAL 12.72\nCASH 20.00")
        #expect(kept.subtotal?.value != amount("12.00"))
    }

    @Test("a subtotal that prints the total: the tax is included in it, no mismatch and no second look")
    func subtotalIsTotal() throws {
        let r = parser.parse(text: "KEDAI RUNCIT SDN BHD\nDate: 12/03/2018\nGula 3.50\nTeh 3.50\nSubtotal 7.00\nGST 6% 0.40\nTotal Incl. of GST 7.00\nCash 10.00\nChange 3.00")
        #expect(r.subtotal?.value == amount("7.00"))
        #expect(r.subtotal?.evidence.notes.contains(.equalsTotal) == true)
        let tax = try #require(r.tax)
        #expect(tax.value == amount("0.40"))
        #expect(tax.evidence.rule == "tax.included")
        #expect(!r.checks.contains(.subtotalTaxMismatch))
        #expect(ReceiptParser.doubt(r) == nil)
        // A tax of 0.00 printed as such stays.
        let zero = parser.parse(text: "DINER\nSoup 4.00\nSubtotal 4.00\nTax 0.00\nTotal 4.00\nCash 4.00")
        #expect(zero.tax?.value == amount("0.00"))
        // A subtotal that with the tax does not make the total is still a mismatch.
        let off = parser.parse(text: "DINER\nSoup 4.00\nSubtotal 4.00\nTax 0.32\nTotal 4.50\nVisa 4.50")
        #expect(off.checks.contains(.subtotalTaxMismatch))
    }

    @Test("a mismatch puts the total in doubt only when nothing else backs it (cash − change does)")
    func mismatchBackedOtherwise() {
        let alone = parser.parse(text: "MAPLE DINER LLC\nDate: 03/14/2024\nSoup 4.00\nPie 3.20\nSubtotal 7.20\nTax 0.58\nTotal 8.10")
        #expect(alone.checks.contains(.subtotalTaxMismatch))
        #expect(ReceiptParser.doubt(alone) == .subtotalTaxMismatch)
        let backed = parser.parse(text: "MAPLE DINER LLC\nDate: 03/14/2024\nSoup 4.00\nPie 3.20\nSubtotal 7.20\nTax 0.58\nTotal 8.10\nCash 10.00\nChange 1.90")
        #expect(backed.total?.value == amount("8.10"))
        #expect(backed.checks.contains(.subtotalTaxMismatch))
        #expect(ReceiptParser.doubt(backed) == nil)
    }

    @Test("the amount between subtotal and total that is their difference is the tax, its word garbled ('TAK')")
    func taxByArithmetic() {
        let r = parser.parse(text: "GRILL\nPlate 38.70\nSoda 9.65\nSubTotal 48.35\nTAK 4.11\nTotal 52.46\nVisa 52.46")
        #expect(r.subtotal?.value == amount("48.35"))
        #expect(r.tax?.value == amount("4.11"))
        #expect(r.tax?.evidence.rule == "tax.total-less-subtotal")
    }

    @Test("a service charge between the subtotal and the total is added to the sum, not taken for a mismatch")
    func serviceCharge() throws {
        let r = parser.parse(text: "KEDAI MAKAN SDN BHD\nDate: 03/04/2018\nNasi Lemak 60.00\nTeh Tarik 40.00\nSubtotal 100.00\n"
                                   + "10% Service Charge 10.00\nGST 6% 6.60\nTotal 116.60")
        #expect(r.subtotal?.value == amount("100.00"))
        #expect(r.tax?.value == amount("6.60"))
        #expect(r.total?.value == amount("116.60"))
        let sum = Sum.subtotalTax(subtotal: amount("100.00"), tax: amount("6.60"), charges: amount("10.00"))
        #expect(r.checks.contains(.sum(sum, equals: amount("116.60"))))
        #expect(!r.checks.contains(.subtotalTaxMismatch))
        #expect(sum.description == "subtotal 100.00 + tax 6.60 + service 10.00")
        // Its tax word garbled: the tax is what the subtotal and the charge leave of the total.
        let garbled = parser.parse(text: "KEDAI MAKAN SDN BHD\nNasi Lemak 60.00\nTeh Tarik 40.00\nSubtotal 100.00\n"
                                         + "10% Service Charge 10.00\nC ast 6.60\nTotal 116.60")
        #expect(garbled.tax?.value == amount("6.60"))
        // A tip suggested below the total is no charge: the sum without it still fails.
        let suggested = parser.parse(text: "DINER\nSoup 4.00\nSubtotal 4.00\nTax 0.32\nTotal 4.50\nTip 18%: 0.72\nVisa 4.50")
        #expect(suggested.checks.contains(.subtotalTaxMismatch))
        // The items' sum printed with no word, a service charge, the total: the subtotal is the items' sum.
        let unnamed = parser.parse(text: "GRILL HOUSE\nLamb Stew 31.00\nGinger Beer 5.00\n: 36.00\nService Charge: 3.60\nTotal 39.60")
        #expect(unnamed.subtotal?.value == amount("36.00"))
        // The charge misread, so that nothing adds up: the items' sum is still the subtotal.
        let misread = parser.parse(text: "GRILL HOUSE\nLamb Stew 31.00\nGinger Beer 5.00\n: 36.00\nService Charge: 3.080\nTotal 39.60")
        #expect(misread.subtotal?.value == amount("36.00"))
        #expect(misread.subtotal?.evidence.rule == "subtotal.line-items-sum")
    }

    @Test("two lone amounts right above the total that add up to it are the subtotal and the tax, their words lost")
    func loneAmountsAddUp() {
        // One item's row lost too, so the items do not add up to the first.
        let r = parser.parse(text: "HARBOUR DINER\nChowder 40.00\nPie 40.00\n' 86.40\n6.05\n92.45\nBalance Due 92.45")
        #expect(r.total?.value == amount("92.45"))
        #expect(r.subtotal?.value == amount("86.40"))
        #expect(r.tax?.value == amount("6.05"))
        #expect(r.subtotal?.evidence.rule == "subtotal.lone-amounts-add-up")
        #expect(r.checks.contains(.sum(.subtotalTax(subtotal: amount("86.40"), tax: amount("6.05")), equals: amount("92.45"))))
        // A lower amount that is no small part of the upper is no tax: two prices of a column.
        let column = parser.parse(text: "HARBOUR DINER\nChowder 40.00\n' 46.40\n46.05\n92.45\nBalance Due 92.45")
        #expect(column.tax == nil)
        #expect(column.subtotal?.evidence.rule != "subtotal.lone-amounts-add-up")
    }

    @Test("'TOTAL (GST INCL)' is the total, not the tax's total ('Total GST')")
    func totalTaxIncluded() {
        let r = parser.parse(text: "PHARMACY SDN BHD\nMINERAL WATER 500ML 4.40\nMINERAL WATER 500ML 1.84-\nSUBTOTAL 2.56\n"
                                   + "TOTAL (GST INCL) 2.56\nCASH 50.55\nROUNDING ADJUSTMENTS 0.01-\nCHANGE DUE 48.00")
        #expect(r.total?.value == amount("2.56"))
        #expect(r.total?.evidence.text == "TOTAL (GST INCL) 2.56")
        #expect(r.tax?.value != amount("2.56"))
        // The tax's own total stays no total.
        let gst = parser.parse(text: "PHARMACY SDN BHD\nSOAP 10.60\nTotal GST 0.60\nTOTAL 10.60")
        #expect(gst.total?.value == amount("10.60"))
    }

    @Test("an amount printed that is subtotal + service + tax outweighs a total line whose amount fails the sum")
    func printedSumOverMisreadTotal() {
        let r = parser.parse(text: "PERANAKAN KITCHEN\n1 Crab Cake $21.00\n1 Nonya Roll $59.00\nSUBTOTAL $80.00\nSV CHG 10% $8.00\n"
                                   + "GST 7% $6.16\nTOTAL 11194.16\n$94.16")
        #expect(r.total?.value == amount("94.16"))
        #expect(r.total?.evidence.notes.contains(.printedSubtotalPlusTax) == true)
        // The total line that makes the sum stays the total.
        let fine = parser.parse(text: "PERANAKAN KITCHEN\n1 Crab Cake $21.00\n1 Nonya Roll $59.00\nSUBTOTAL $80.00\nSV CHG 10% $8.00\n"
                                      + "GST 7% $6.16\nTOTAL $94.16\nVISA $94.16")
        #expect(fine.total?.evidence.text == "TOTAL $94.16")
    }

    @Test("'Due 7.50' alone is the total; 'Change Due' is not")
    func dueAlone() {
        let r = parser.parse(text: "BAKERY SDN BHD\nSCONE 1 7.50 7.50\nRounding Adj 0.00\nDue 7.50\nPay 20.00\nChange Due 12.56")
        #expect(r.total?.value == amount("7.50"))
        #expect(r.total?.evidence.text == "Due 7.50")
    }

    @Test("a pay machine's 'Accepted total' is the money put in, not the total")
    func acceptedTotal() {
        let r = parser.parse(text: "CITY CAR PARK\nParking ticket 5.00 RM\nTotal amount 5.00 RM\nAccepted total 10.00 RM\nChange 5.00 RM")
        #expect(r.total?.value == amount("5.00"))
        #expect(r.checks.contains(.sum(.cashChange(cash: amount("10.00"), change: amount("5.00")), equals: amount("5.00"))))
    }

    @Test("a tax misread one digit off, put right when the total is backed by the payment")
    func taxDigitRepaired() throws {
        let r = parser.parse(text: "SIAM\nCurry 14.85\nSUBTOTAL 148.40\nTAX 11,84\nTOTAL 160.34\nCASH 170.00\nCHANGE 9.66")
        let tax = try #require(r.tax)
        #expect(tax.value == amount("11.94"))
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

    @Test("a tax included in the prices, as the receipt states it")
    func includedTax() throws {
        let r = parser.parse(text: "KEBAB HOUSE\nDoner 6.50\nLassi 2.30\nTOTAL 8.80\nTOTAL INCLUDES 20% VAT OF 1.47\nCARD 8.80")
        #expect(r.tax?.value == amount("1.47"))
        #expect(r.total?.value == amount("8.80"))
        // "incl. tax" keeps a line from being a tax line (it is most often a total's): its small amount still is the tax.
        let incl = parser.parse(text: "KEBAB HOUSE\nDoner 6.50\nLassi 2.30\nTOTAL 8.80\nINCL. TAX 20% 1.47\nCARD 8.80")
        let tax = try #require(incl.tax)
        #expect(tax.value == amount("1.47"))
        #expect(tax.evidence.notes.contains(.taxIncluded))
        #expect(incl.total?.value == amount("8.80"))
    }

    @Test("no tax added: the total printed above its own line is the subtotal")
    func subtotalEqualsTotal() {
        // (An item OCR lost: the items do not add up to it.)
        let r = parser.parse(text: "THALI HOUSE\nThali 1 110.00\nWater 1 25.00\nFood Total 145.00\nGrand Total 145.00")
        #expect(r.subtotal?.value == amount("145.00"))
        #expect(r.subtotal?.evidence.notes.contains(.equalsTotal) == true)
        // The items adding up to it say so instead.
        let added = parser.parse(text: "THALI HOUSE\nThali 1 110.00\nWater 1 25.00\nFood Total 135.00\nGrand Total 135.00")
        #expect(added.subtotal?.value == amount("135.00"))
        #expect(added.subtotal?.evidence.notes.contains(.lineItemsAddUp(amount("135.00"))) == true)
    }

    @Test("a subtotal line whose amount OCR lost, no tax on the receipt: the subtotal is the total")
    func unreadSubtotalIsTotal() throws {
        let r = parser.parse(text: "BISTRO\nPasta 8.00\nBrownie 4.00\nSub Total e: 1.\nGrand Total: $12.00\nCard 12.00")
        let s = try #require(r.subtotal)
        #expect(s.value == amount("12.00"))
        #expect(s.evidence.rule == "subtotal.unread-equals-total")
        #expect(s.evidence.notes.contains(.unreadEqualsTotal))
        // A tax line between them, its amount lost too: the subtotal is not made up.
        let taxed = parser.parse(text: "BISTRO\nPasta 8.00\nBrownie 4.00\nSub Total e: 1.\nSales Tax ~\nGrand Total: $12.96\nCard 12.96")
        #expect(taxed.subtotal?.evidence.rule != "subtotal.unread-equals-total")
    }

    @Test("no tax added: the total taken from the upper of two lines printing it is the subtotal")
    func subtotalIsTotalsUpperLine() throws {
        // "Total Sales" outweighs "TOTAL", so the total is read on the upper line; an item OCR lost.
        let r = parser.parse(text: "PIER CAFE\nFlat White 2 13.00\nScones 24.00\nTotal Sales: 180.00\nService Charge: 0.00\nTOTAL: 180.00\nCash 200.00")
        #expect(r.total?.value == amount("180.00"))
        let s = try #require(r.subtotal)
        #expect(s.value == amount("180.00"))
        #expect(s.evidence.rule == "subtotal.total-printed-below")
        #expect(s.evidence.notes.contains(.totalPrintedAgainBelow))
        // A tax line between them: no subtotal made up from the total.
        let taxed = parser.parse(text: "PIER CAFE\nFlat White 2 13.00\nTotal Sales: 180.00\nVAT 5% 8.57\nTOTAL: 180.00\nCash 200.00")
        #expect(taxed.subtotal?.evidence.rule != "subtotal.total-printed-below")
    }

    // MARK: line items

    @Test("quantity × unit price where printed: '2 x 4.80 9.60', columns 'Jasmine Tea 2 5.00 10.00', a weight on the line under the name")
    func quantityTimesUnitPrice() throws {
        let r = parser.parse(text: """
            CORNER STORE
            Item Qty Price Subtotal
            CABLE TIES 2 x 4.80 9.60
            Jasmine Tea 2 5.00 10.00
            BANANAS
            1.24 lb @ 0.59 /lb 0.73
            1 Black Coffee 2.50
            SUBTOTAL 22.83
            TAX 1.37
            TOTAL 24.20
            """)
        #expect(r.lineItems.map(\.description) == ["CABLE TIES", "Jasmine Tea", "BANANAS", "Black Coffee"])
        #expect(r.lineItems.map(\.amount) == [amount("9.60"), amount("10.00"), amount("0.73"), amount("2.50")])
        #expect(r.lineItems.map(\.quantity) == [2, 2, Decimal(string: "1.24"), 1])
        #expect(r.lineItems.map(\.unitPrice) == [amount("4.80"), amount("5.00"), amount("0.59"), nil])
        #expect(r.lineItems[0].evidence.notes.contains(.quantityTimesUnit(2, amount("4.80"), equals: amount("9.60"))))
        #expect(r.lineItems[2].evidence.notes.contains(.nameFromLineAbove("BANANAS")))
        #expect(r.checks.contains(.lineItemsAddUp(count: 4, to: .subtotal(amount("22.83")))))
    }

    @Test("a weight printed after the name is the quantity")
    func weightAfterName() {
        let r = parser.parse(text: "MERCADO\nFILETE LOMO CERDO 0.742 KILOS 4.30\nCALABACIN 0.214 KILOS 0.64\nTOTAL 4.94")
        #expect(r.lineItems.map(\.description) == ["FILETE LOMO CERDO", "CALABACIN"])
        #expect(r.lineItems.map(\.quantity) == [Decimal(string: "0.742"), Decimal(string: "0.214")])
    }

    /// A summary row of a total word and a tax word is never an item, even with its tax word after "excluding" and
    /// amounts misread so that nothing adds up (the items' check then drops no row).
    @Test("a total-before-tax row is no item", arguments: ["Total (Excluding GST): 17.25", "Total 6% goods (excl. GST) 17.25",
                                                        "Totai Amount (Excluding GST) 17.25", "TOTAL EXCL VAT 17.25"])
    func totalBeforeTaxIsNoItem(_ row: String) {
        let r = parser.parse(text: "KEDAI BUKU SDN BHD\nDescription Qty Total\nPENSIL 2B 1 x 9.50 9.50\nPEMADAM 1 x 8.40 8.40\n"
                             + row + "\nGST 6%: 1.08\nTotal (Inclusive of GST): 19.08\nCASH 20.00\nCHANGE 0.92")
        #expect(r.lineItems.map(\.description) == ["PENSIL 2B", "PEMADAM"])
        #expect(r.total?.value == amount("19.08"))
    }

    /// Rows led by an item code, the name printed under each: under the column heading, the first row's name is
    /// below it, not the heading; the next row's is below it too, not the name the row before took. The GST code
    /// before a name ("SR:", "ZRL:") is no part of it.
    @Test("a row led by its code takes its name from the line below, under a column heading")
    func nameBelowCodeRow() {
        let r = parser.parse(text: """
            KEDAI ALAT TULIS SDN BHD
            ITEM QTY U/P AMOUNT
            9551234500017 2 2.50 5.00
            SR:PENSIL 2B KOTAK
            9551234500024 1 4.00 4.00
            ZRL: PEMADAM BESAR
            SUB-TOTAL 9.00
            GST 0.54
            TOTAL 9.54
            """)
        #expect(r.lineItems.map(\.description) == ["PENSIL 2B KOTAK", "PEMADAM BESAR"])
        #expect(r.lineItems.map(\.amount) == [amount("5.00"), amount("4.00")])
        #expect(r.lineItems[0].evidence.notes.contains(.nameFromLineBelow("SR:PENSIL 2B KOTAK")))
        #expect(r.checks.contains(.lineItemsAddUp(count: 2, to: .subtotal(amount("9.00")))))
        // The first row under the heading with no name above or below it: still an item (its price in the sums),
        // its quantity read, its name not the heading's.
        let unnamed = parser.parse(text: "JUNGLE CAFE\nQTY ITEM AMT\n2 750.00\n1 FISH TIKKA 475.00\nSUBTOTAL 1225.00\nTOTAL 1225.00")
        #expect(unnamed.lineItems.map(\.description) == ["", "FISH TIKKA"])
        #expect(unnamed.lineItems.map(\.quantity) == [2, 1])
        #expect(unnamed.checks.contains(.lineItemsAddUp(count: 2, to: .subtotal(amount("1225.00")))))
    }

    @Test("a price per kilo printed under a weighed item is its unit price, not an item of its own")
    func unitPriceUnderWeighedItem() throws {
        let r = parser.parse(text: "MERCADO\nPAN INTEGRAL 1.10\nFILETE LOMO CERDO 0.742 KILOS 4.30\nPRECIO KILO 5.80\nCALABACIN 0.214 KILOS 0.64\nPRECIO KILO 2.98\nTOTAL 6.04")
        #expect(r.lineItems.map(\.description) == ["PAN INTEGRAL", "FILETE LOMO CERDO", "CALABACIN"])
        #expect(r.lineItems.map(\.unitPrice) == [nil, amount("5.80"), amount("2.98")])
        let weighed = try #require(r.lineItems.dropFirst().first)
        #expect(weighed.evidence.notes.contains(.unitPriceBelow("PRECIO KILO 5.80")))
        // A price under a counted item, or one the weight does not make the amount with, is an item.
        let counted = parser.parse(text: "MERCADO\n2 HUEVOS 4.30\nLECHE 2.07\nCAFE 0.742 KILOS 4.30\nAZUCAR 6.10\nTOTAL 16.77")
        #expect(counted.lineItems.map(\.description) == ["HUEVOS", "LECHE", "CAFE", "AZUCAR"])
    }

    /// "0.26 lb @ 1.17 / lb" with the row's own amount lost: 1.17 is what a pound costs, not an item.
    @Test("a price per pound or kilo is no item's amount")
    func pricePerUnitIsNotAnAmount() {
        let r = parser.parse(text: "GROCER\nRYE FLOUR 2210\n0.26 lb @ 1.17 / lb\nPEARS\n1.95 1b 0 .30 / Ib\nOAT MILK 2.49\nTOTAL 3.10")
        #expect(r.lineItems.map(\.amount) == [amount("2.49")])
    }

    /// A time beside a broken date is no price read with a colon for its point.
    @Test("no colon price beside a date OCR broke")
    func noColonPriceBesideADate() {
        let r = parser.parse(text: "DELI\nAug/ 16/204 B953 11:36\nREG 23-09*2031 20:22\nRYE BREAD 3:49\nTOTAL 3.49")
        #expect(r.lineItems.map(\.amount) == [amount("3.49")])
    }

    /// Rows that say what is owed or moved, a word of theirs misread ("Amt Due" read "Ant Due"): no items.
    @Test("'... Due', a transfer, a service charge's 'Svc', a tax table's 'Netto' are no items")
    func dueAndTransferRowsAreNoItems() {
        let r = parser.parse(text: "BAR\nLAGER 6.00\nNACHOS 9.50\nOpt Svc Ch 1.55\nAnt Due 17.05\nTransfer Anount: 17.05\nNETTO 7% 15.93\nTOTAL 17.05")
        #expect(r.lineItems.map(\.description) == ["LAGER", "NACHOS"])
    }

    /// "Cota" is one slip from the Spanish tax word "cuota" (a weak keyword): a dessert, not the tax, and the items
    /// go on below it.
    @Test("'Creme Cota 6.00' is an item, not a tax")
    func weakKeywordsNeedTheirLetters() {
        let r = parser.parse(text: "TRATTORIA\n1 BEEF RAGU 26.80\n1 Creme Cota 6.00\n1 SALMON 13.00\nSUBTOTAL 45.80\nTOTAL 45.80")
        #expect(r.tax == nil)
        #expect(r.lineItems.map(\.description) == ["BEEF RAGU", "Creme Cota", "SALMON"])
    }

    @Test("a quantity printed as an amount before the name ('1,00 Ensaladilla 19,00')")
    func quantityAsAmount() {
        let r = parser.parse(text: "BAR\n1,00 Ensalada Mixta 19,00 €\n2,00 Agua 5,00 €\nTOTAL 24,00")
        #expect(r.lineItems.map(\.description) == ["Ensalada Mixta", "Agua"])
        #expect(r.lineItems.map(\.quantity) == [1, 2])
        #expect(r.lineItems.map(\.amount) == [amount("19.00"), amount("5.00")])
        // Its comma read as a colon ("1:00"): still a quantity, not part of the name.
        let colon = parser.parse(text: "BAR\n1,00 Ensalada Mixta 19,00 €\n1:00 Lomo Plancha 31,00 €\nTOTAL 50,00")
        #expect(colon.lineItems.map(\.description) == ["Ensalada Mixta", "Lomo Plancha"])
        #expect(colon.lineItems.map(\.quantity) == [1, 1])
    }

    @Test("a quantity and unit price in brackets after the name leave no bracket behind ('Kale Mix (2 @6.50) 13.00')")
    func bracketedQuantity() throws {
        let r = parser.parse(text: "TRATTORIA\nKale Mix (2 @6.50) 13.00\nHouse Red (3 @9.50) 28.50\nTOTAL 41.50")
        #expect(r.lineItems.map(\.description) == ["Kale Mix", "House Red"])
        let first = try #require(r.lineItems.first)
        #expect(first.quantity == 2)
        #expect(first.unitPrice == amount("6.50"))
    }

    @Test("names in one column, then their prices: paired in order")
    func columns() {
        let r = parser.parse(text: "DELI\nLotus Soup\nNoodles\nJasmine Tea\n3.00\n12.50\n5.00\nTOTAL 20.50")
        #expect(r.lineItems.map(\.description) == ["Lotus Soup", "Noodles", "Jasmine Tea"])
        #expect(r.lineItems.map(\.amount) == [amount("3.00"), amount("12.50"), amount("5.00")])
        #expect(r.lineItems[0].evidence.notes.contains(.nameFromColumn("Lotus Soup")))
    }

    @Test("a row that wraps: its name on one line, its price on the next")
    func wrappedRow() {
        let r = parser.parse(text: "HARDWARE\nEXTENSION SOCKET 3 WAY\n24.90\nPADLOCK 40MM 18.50\nTOTAL 43.40")
        #expect(r.lineItems.map(\.description) == ["EXTENSION SOCKET 3 WAY", "PADLOCK 40MM"])
        #expect(r.lineItems.map(\.amount) == [amount("24.90"), amount("18.50")])
        #expect(r.checks.contains(.lineItemsAddUp(count: 2, to: .total(amount("43.40")))))
    }

    @Test("a discount under an item is attached to it, and the sum checks with it taken off")
    func discountAttached() throws {
        let r = parser.parse(text: """
            GREEN GROCER
            MILK 2L 3.49
            MEMBER SAVINGS -0.50
            BREAD 2.20
            COUPON 0.20-
            EGGS 12 4.10
            SUBTOTAL 9.09
            TOTAL 9.09
            """)
        #expect(r.lineItems.map(\.description) == ["MILK 2L", "BREAD", "EGGS 12"])
        #expect(r.lineItems.map(\.discount) == [amount("0.50"), amount("0.20"), nil])
        #expect(r.lineItems[0].net == amount("2.99"))
        #expect(r.lineItems[0].evidence.notes.contains(.discountBelow(amount("0.50"), "MEMBER SAVINGS -0.50")))
        #expect(r.checks.contains(.lineItemsAddUp(count: 3, to: .subtotal(amount("9.09")))))
    }

    /// What a kitchen till prints under a dish without a price is the dish's ("- -Fries", "No Green Pepper"), kept with it
    /// as printed; not a department's heading, nor a name over a row with only its price, nor a bullet before one.
    @Test("choices printed under a dish are its details")
    func itemDetails() {
        let r = parser.parse(text: """
            CAFE SUB
            03/11/21 12:10
            1 Tuna Sub 4.49
            - -Fries
            -- Hot
            No Green Pepper
            1 Iced Tea 2.10
            BAKERY
            1 Bagel 1.50
            -- HONEY OATS
            1 X 3.20 3.20
            Dan Dan Noodles 1 8.00 8.00
            with Prawn &
            - STRAWS
            TOTAL 19.29
            """)
        #expect(r.lineItems.map(\.description) == ["Tuna Sub", "Iced Tea", "Bagel", "HONEY OATS", "Dan Dan Noodles"])
        #expect(r.lineItems.map(\.details) == [["- -Fries", "-- Hot", "No Green Pepper"], nil, nil, nil, ["with Prawn &"]])
        #expect(r.lineItems.map(\.amount) == [amount("4.49"), amount("2.10"), amount("1.50"), amount("3.20"), amount("8.00")])
        #expect(ReceiptParser.itemDetail(": + Relish :") == "+ Relish")
        #expect(ReceiptParser.itemDetail("* Extra 1 Soy Cup") == "* Extra 1 Soy Cup")
        #expect(ReceiptParser.itemDetail("*RUNCIT") == nil)
        #expect(ReceiptParser.itemDetail("Medium") == nil)
        #expect(ReceiptParser.itemDetail("No") == nil)
    }

    /// The serial numbers printed under an item are its own (one a unit), without their label; a row that only starts
    /// like a label ("SN 2PK COOKIES", a name waiting for its price) is no serial, and neither is one under no item.
    @Test("serial numbers printed under an item are its serials")
    func itemSerials() {
        let r = parser.parse(text: """
            BRIGHTWAVE ELECTRONICS
            11/23/2024 6:07 PM
            S/N: X0-000000
            SONY WH-1000XM5 HEADPHONES 349.99
              S/N: S01-2231847
            SMARTWATCH 5 2 @ 199.00 398.00
            IMEI: 356938035643809
            IMEI 356938035643817
            SN 2PK COOKIES 4.99
            HDMI CABLE 6FT 19.99
            Serial Adapter
            SUBTOTAL 772.97
            TOTAL 772.97
            """)
        #expect(r.lineItems.map(\.description) == ["SONY WH-1000XM5 HEADPHONES", "SMARTWATCH 5", "SN 2PK COOKIES", "HDMI CABLE 6FT"])
        #expect(r.lineItems.map(\.serials) == [["S01-2231847"], ["356938035643809", "356938035643817"], nil, nil])
        #expect(r.lineItems.allSatisfy { $0.details == nil })
        #expect(ReceiptParser.itemSerial("Serial No. VT55-0098123") == "VT55-0098123")
        #expect(ReceiptParser.itemSerial("- Ser#A1-77.") == "A1-77")
        #expect(ReceiptParser.itemSerial("serial number: C02X K1AB") == "C02X K1AB")
        #expect(ReceiptParser.itemSerial("SN 2PK COOKIES") == nil)
        #expect(ReceiptParser.itemSerial("Serial Adapter") == nil)
        #expect(ReceiptParser.itemSerial("SNACKS 1234") == nil)
        #expect(ReceiptParser.itemSerial("S/N: ABCDEFG") == nil)
    }

    /// "Phone" is no reason to drop a priced row: phones are what a household insures first ("NIMBUS PHONE 128GB",
    /// "CELL PHONE CASE"). The shop's phone line has no price, and is no item either way.
    @Test("a phone sold is an item; the shop's phone line is not")
    func phoneIsAnItem() {
        let r = parser.parse(text: """
            QUILLFIELD COMPUTERS
            Phone: (608) 555-0142
            NIMBUS PHONE 128GB 699.00
            CELL PHONE CASE 19.99
            TOTAL 718.99
            """)
        #expect(r.lineItems.map(\.description) == ["NIMBUS PHONE 128GB", "CELL PHONE CASE"])
        #expect(r.checks.contains(.lineItemsAddUp(count: 2, to: .total(amount("718.99")))))
    }

    /// Nor "server" or "pin": a home server and a rolling pin are things a household owns. The waiter's and the card
    /// reader's lines have no price.
    @Test("a server or a pin sold is an item; the waiter's and the card reader's lines are not")
    func serverAndPinAreItems() {
        let r = parser.parse(text: """
            HOMEWARE HUB
            Server: Anna
            HOME SERVER 4TB 249.00
            ROLLING PIN 12.99
            TOTAL 261.99
            PIN VERIFIED
            """)
        #expect(r.lineItems.map(\.description) == ["HOME SERVER 4TB", "ROLLING PIN"])
    }

    /// A table sold is an item ("STUDY TABLE 120CM OAK", "GF-TABLE LAMP"); a restaurant's table number first on a row is
    /// not, whatever its time reads as ("Table 342 8:46 PX", its colon read as a price's point).
    @Test("a table sold is an item; a table's number is not")
    func tableIsAnItem() {
        let r = parser.parse(text: """
            OAKWOOD FURNITURE
            Table 342 8:46 PX
            STUDY TABLE 120CM OAK 399.00
            GF-TABLE LAMP 55.90
            TOTAL 500.00
            """)
        #expect(r.lineItems.map(\.description) == ["STUDY TABLE 120CM OAK", "GF-TABLE LAMP"])
        #expect(ReceiptParser.startsWithTableNumber("TBL# 12 2.00"))
        #expect(ReceiptParser.startsWithTableNumber(": Table No. 4"))
        #expect(!ReceiptParser.startsWithTableNumber("TABLES 2 @ 5.00"))
        #expect(!ReceiptParser.startsWithTableNumber("COFFEE TABLE 199.00"))
    }

    /// A service plan or a repair's workmanship is a thing bought ("3YR SERVICE PLAN", "labour & service"): only
    /// "service" or "cover" alone on a priced row is a charge ("Service 10% 1.05", "COVER 2.00"), while "PHONE COVER" is sold;
    /// so with "guest" and "terminal" (the card reader's "TERMINAL 0012", a "GUEST TOWEL SET").
    @Test("a service plan, a phone cover, a guest towel is an item; a lone service, cover or terminal row is not")
    func serviceAloneIsACharge() {
        let r = parser.parse(text: """
            QUILLFIELD COMPUTERS
            ORBITAL LAPTOP 14 1149.00
            3YR SERVICE PLAN 129.99
            labour & service 60.00
            PHONE COVER 12.00
            GUEST TOWEL SET 12.99
            TERMINAL BLOCK 12P 4.99
            Service 10% 1.05
            COVER 2.00
            TERMINAL 0012 4.99
            TOTAL 1372.02
            """)
        #expect(r.lineItems.map(\.description) == ["ORBITAL LAPTOP 14", "3YR SERVICE PLAN", "labour & service", "PHONE COVER",
                                                   "GUEST TOWEL SET", "TERMINAL BLOCK 12P"])
    }

    @Test("a void cancels the item it names: attached to it, its whole amount taken off")
    func voidAttached() throws {
        let r = parser.parse(text: "CAFE\nLATTE 4.50\nMUFFIN 3.20\nVOID LATTE -4.50\nTEA 2.80\nTOTAL 6.00\nCASH 10.00\nCHANGE 4.00")
        #expect(r.lineItems.map(\.description) == ["LATTE", "MUFFIN", "TEA"])
        #expect(r.lineItems[0].discount == amount("4.50") && r.lineItems[0].net == Amount(0))
        #expect(r.lineItems[0].evidence.notes.contains(.voidedBy("VOID LATTE -4.50")))
        #expect(r.checks.contains(.lineItemsAddUp(count: 3, to: .total(amount("6.00")))))
    }

    @Test("totals, tax, tender, change and loyalty rows are never items")
    func notItems() {
        let r = parser.parse(text: """
            BOOKS & CO
            NOVEL 12.99
            MAP 5.00
            SUBTOTAL 17.99
            SALES TAX 1.44
            TOTAL 19.43
            VISA 19.43
            POINTS EARNED 19.00
            BALANCE 0.00
            CHANGE 0.00
            """)
        #expect(r.lineItems.map(\.description) == ["NOVEL", "MAP"])
        #expect(r.checks.contains(.lineItemsAddUp(count: 2, to: .subtotal(amount("17.99")))))
    }

    @Test("a GST code and its rate with one amount, and a service charge's 'Serv. Chg.', are no items")
    func rateRowAndServChgAreNoItems() {
        let r = parser.parse(text: "KEDAI KOPI\nNASI AYAM 8.00\nTEH TARIK 2.00\nSERV. CHG. 10% 1.00\nSR @ 6% 0.66\nTOTAL 11.66")
        #expect(r.lineItems.map(\.description) == ["NASI AYAM", "TEH TARIK"])
        // A code in the row's tax column, its quantity misread as a rate: still an item.
        let column = parser.parse(text: "KEDAI KOPI\nDescription Qty U.price Total TAX\nKopi O\n2% 1.50 3.00 SR\nRoti Bakar\n1 x 2.20 2.20 SR\nTOTAL 5.20")
        #expect(column.lineItems.map(\.amount) == [amount("3.00"), amount("2.20")])
        #expect(ReceiptParser.startsWithTaxCodeAndRate("ZR (@ 0%) 12.00 0.00"))
        #expect(!ReceiptParser.startsWithTaxCodeAndRate("SRIRACHA 6% 2.00"))
    }

    @Test("an included tax's row and a card payment end the items")
    func includedTaxAndCardEndItems() {
        let r = parser.parse(text: "PLASTICS\n1 HIPS PLATE 60PCS 63.80\nInclusive GST @6.00%: 3.61\nMaster Card 63.80\nSR 6.00% 60.19 3.61")
        #expect(r.lineItems.map(\.amount) == [amount("63.80")])
        let greeting = parser.parse(text: "GIFTS\nGREETING CARD 2.99\nWRAPPING 1.50\nTOTAL 4.49")
        #expect(greeting.lineItems.map(\.description) == ["GREETING CARD", "WRAPPING"])
    }

    @Test("a row printing the sum of the items above it is their subtotal, its word misread")
    func subtotalBySum() {
        let r = parser.parse(text: "GRILL\n1 PLATE 38.70\n2 SODA 9.65\nSubTor » 48.35\nTAK 4.11\nTotal 52.46")
        #expect(r.lineItems.map(\.amount) == [amount("38.70"), amount("9.65")])
        #expect(r.lineItems.map(\.quantity) == [1, 2])
        #expect(r.subtotal?.value == amount("48.35"))
        #expect(r.subtotal?.evidence.rule == "subtotal.line-items-sum")
        #expect(r.tax?.value == amount("4.11"))
    }

    @Test("items that do not add up say so")
    func itemsDoNotAddUp() {
        let r = parser.parse(text: "SHOP\nSOAP 2.00\nBRUSH 3.00\nSUBTOTAL 6.00\nTOTAL 6.00")
        #expect(r.checks.contains(.lineItemsDoNotAddUp(count: 2, sum: amount("5.00"), target: .subtotal(amount("6.00")))))
    }

    @Test("item names lose what OCR and the till put around them")
    func itemNames() {
        #expect(parser.itemName("| PIZ DIAVLA $") == "PIZ DIAVLA")
        #expect(parser.itemName("KS TISSUE A") == "KS TISSUE")
        #expect(parser.itemName("HELP LASAGNA TF") == "HELP LASAGNA")
        #expect(parser.itemName("— Ice COFFEE 12oz £") == "Ice COFFEE 12oz")
        #expect(parser.itemName("AIR HOSE <A>") == "AIR HOSE")
        #expect(parser.itemName("BLUE BURGER XL") == "BLUE BURGER XL")
    }

    /// A barcode beside the name (eight digits or more) is not the name; a shorter code, a year and a name
    /// that is all code stay.
    /// "set" is September in Italian and Portuguese: "Lunch set 18.70" is an item and its price, not 18 September '70.
    @Test("a word that is also a month, before an amount, is no date")
    func setMenuIsNoDate() {
        let r = parser.parse(text: "NOODLE BAR\n05/04/2019 19:15\n1 Ramen set 24.40\n1 Lunch set 18.70\nSUBTOTAL 43.10\nTOTAL 43.10")
        #expect(r.lineItems.map(\.description) == ["Ramen set", "Lunch set"])
        #expect(r.date?.value == CalendarDate(year: 2019, month: 4, day: 5))
        #expect(parser.parse(text: "CAFE\nNov.11'16\nTOTAL 1.00").date?.value == CalendarDate(year: 2016, month: 11, day: 11))
    }

    /// Rupiah, dong, won, yen: no cents, prices grouped in thousands. A receipt with no amount with cents and three
    /// or more grouped ones is read in whole units, each amount saying so; one with cents is not ("1,250" points).
    @Test("a receipt priced in whole units: 36,000 is an amount")
    func wholeUnits() throws {
        let r = parser.parse(text: """
            WARUNG KOPI SENJA
            Jl. Melati No. 12
            12/03/2024 19:42
            2 Kopi Susu 36,000
            1 Roti Bakar 22,500
            Subtotal 58,500
            Tax 10% 5,850
            Total Rp 64,350
            Tunai 100,000
            Kembali 35,650
            """)
        #expect(r.lineItems.map(\.description) == ["Kopi Susu", "Roti Bakar"])
        #expect(r.lineItems.map(\.amount) == [amount("36000"), amount("22500")])
        let total = try #require(r.total)
        #expect(total.value == amount("64350"))
        #expect(total.evidence.notes.contains(.wholeUnits))
        #expect(r.subtotal?.value == amount("58500"))
        #expect(r.tax?.value == amount("5850"))
        // Dots for the thousands, a currency word glued on, a discount.
        let dots = parser.parse(text: "TOKO ROTI\n1 Roti Tawar 18.000\n1 Keju Rp25.500\nDiskon -3.500\nTOTAL 40.000")
        #expect(dots.total?.value == amount("40000"))
        #expect(dots.lineItems.map(\.amount).prefix(2) == [amount("18000"), amount("25500")])
        // With cents on the receipt, grouped numbers are no amounts.
        let cents = parser.parse(text: "GROCER\nMILK 2.49\nPoints earned 1,250\nBalance 12,000\nYear to date 3,400\nTOTAL 2.49")
        #expect(cents.total?.value == amount("2.49"))
        #expect(cents.lineItems.map(\.amount) == [amount("2.49")])
        // Two grouped numbers and no amount are too few to say.
        #expect(parser.parse(text: "DEPOT\nOrder 1,234\nRef 5,678\nThank you").total == nil)
        // A time, a date with points and an amount with cents are no whole amounts.
        #expect(AmountScanner.wholeAmounts("21:30 01.09.2017 1,250.00 x1,000 NPWP 01.234.567.8-901.000", currencyWords: ["rp"]).isEmpty)
        #expect(AmountScanner.wholeAmounts("Rp1.250.000 -5,000 10,000%", currencyWords: ["rp"]).map(\.amount)
                == [amount("1250000"), amount("5000"), amount("10000")])
    }

    /// "tunai" is cash in Malay and slips one letter to "tuna": a dish is no payment line, and the real word still is.
    @Test("a dish one slip from a cash word is an item")
    func falseFriend() {
        // A photo cut off above the total: the dish's price is no amount paid, and the items go on under it.
        let cut = parser.parse(text: "SANDWICH BAR\n02/03/2021 12:10\n1 Egg Bagel 3.10\n1 Tuna Mayo Wrap 6.59\n1 Iced Tea 2.10")
        #expect(cut.lineItems.map(\.description) == ["Egg Bagel", "Tuna Mayo Wrap", "Iced Tea"])
        #expect(cut.total?.evidence.rule != "total.amount-paid")
        let r = parser.parse(text: "SANDWICH BAR\n02/03/2021 12:10\n1 Tuna Mayo Wrap 6.59\n1 Iced Tea 2.10\nTOTAL 8.69\nTUNAI 10.00\nBAKI 1.31")
        #expect(r.lineItems.map(\.description) == ["Tuna Mayo Wrap", "Iced Tea"])
        #expect(r.total?.value == amount("8.69"))
        #expect(r.total?.evidence.notes.contains(.sum(.cashChange(cash: amount("10.00"), change: amount("1.31")), equals: amount("8.69"))) == true)
    }

    /// Photos lose the point of a price to a colon ("TURKEY 240 2:98 TF"): on an item row, last, it is the price,
    /// with the repair noted; a time on a row that says so is not.
    @Test("an item's price with its point read as a colon")
    func colonForPoint() {
        let r = parser.parse(text: "CORNER MARKET\n03/11/21 09:40\nRYE BREAD 3.99 TF\nSMKD TURKEY 240 2:98 TF\nGLAZED CARROTS 2:75\n8 TIME 5:11 PM\nTOTAL 9.72")
        #expect(r.lineItems.map(\.description) == ["RYE BREAD", "SMKD TURKEY 240", "GLAZED CARROTS"])
        #expect(r.lineItems.map(\.amount) == [amount("3.99"), amount("2.98"), amount("2.75")])
        #expect(r.lineItems[1].evidence.notes.contains(.colonForDecimalPoint))
        #expect(r.time?.value == time(9, 40))
        #expect(parser.parse(text: "CORNER MARKET\nTIME: 1:12\nRYE BREAD 3.99\nTOTAL 3.99").lineItems.map(\.description) == ["RYE BREAD"])
        // A tax flag read as a sign after it, as a price with its point keeps one ("HAND LOTION 3.28 &").
        let signed = parser.parse(text: "CORNER MARKET\nRYE BREAD 3.99 &\nHAND LOTION 3:28 &\nTOTAL 7.27")
        #expect(signed.lineItems.map(\.description) == ["RYE BREAD", "HAND LOTION"])
        #expect(signed.lineItems.map(\.amount) == [amount("3.99"), amount("3.28")])
    }

    @Test("item names lose the barcode printed beside them")
    func itemBarcodes() {
        #expect(parser.itemName("072145390016 HOSE CLAMP <A>") == "HOSE CLAMP")
        #expect(parser.itemName("OAT MILK 4471209953") == "OAT MILK")
        #expect(parser.itemName("40112 KALE") == "40112 KALE")
        #expect(parser.itemName("2024 CALENDAR") == "2024 CALENDAR")
        #expect(parser.itemName("00123456789 4B") == "00123456789 4B")
        let r = parser.parse(text: "GRILL\nCaesar 1 $9.00\n003318274 DOG-LG CHEW TOY 5.99\nTOTAL 14.99")
        #expect(r.lineItems.map(\.description) == ["Caesar", "DOG-LG CHEW TOY"])
        #expect(r.lineItems.first?.quantity == 1)
    }

    @Test("a price read with a colon on a total line is not the time")
    func notOnAMoneyLine() {
        let r = parser.parse(text: "CAFE\nSTORE 12 REG 3 12:25\nLatte 4.50\nTotal: 1:08\nPaid 5.00")
        #expect(r.time?.value == time(12, 25))
    }
}
