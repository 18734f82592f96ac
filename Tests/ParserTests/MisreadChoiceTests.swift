import Foundation
import Testing
import ReceiptModel
@testable import ReceiptParser

/// The right value was read, and something else was chosen: the rules that choose between what OCR
/// made of a receipt, each on an invented Malaysian-style scan and a US/UK-style photo.
@Suite("Choosing among misread candidates")
struct MisreadChoiceTests {
    let parser = ReceiptParser()
    func amount(_ s: String) -> Amount { Amount(s)! }

    // MARK: totals

    /// A total a few cents under the subtotal is the subtotal rounded for cash, not a misread total.
    @Test(arguments: [
        "KEDAI RUNCIT SRI MAJU\nNO 5, JALAN BESI 3\n1 SUSU SEGAR 12.52\n1 ROTI 12.50\nSUB TOTAL RM 25.02\nNETT TOTAL RM 25.00",
        "Harbour Bakery\n4 Quay Rd, Nelson\nPie 6.54\nFlat white 4.50\nSUBTOTAL 11.04\nBAL DUE 11.00",
    ])
    func totalRoundedForCashUnderTheSubtotal(_ text: String) {
        let r = parser.parse(text: text)
        #expect(r.total?.value == amount(text.contains("25.02") ? "25.00" : "11.00"))
        #expect(r.total?.evidence.notes.contains { if case .belowSubtotal = $0 { return true } else { return false } } == false)
    }

    /// Further under the subtotal than cash rounding, with no discount, a total is still misread.
    @Test func farUnderTheSubtotalIsStillMisread() {
        let r = parser.parse(text: "Harbour Bakery\nSUBTOTAL 37.04\nTOTAL 27.00")
        #expect(r.total?.value == amount("37.04"))
    }

    /// The total read without its first digits ("7.30" for 27.30, "1.20" for 21.20): what was paid says it.
    @Test(arguments: [
        ("KEDAI BUKU CAHAYA SDN BHD\nTotal Sales (Inclusive of GST) 1.20\nCASH 100.00\nCHANGE 78.80", "21.20",
         Sum.cashChange(cash: Amount("100.00")!, change: Amount("78.80")!)),
        ("Maple Leaf Diner\nTable 4 Guests 2\nGST(5%): $1.30\nTOTAL D s 7.30\nCASH: 27.30", "27.30", Sum.paidNoChange(Amount("27.30")!)),
    ])
    func totalThatLostItsLeadingDigits(_ text: String, _ expected: String, _ sum: Sum) {
        let r = parser.parse(text: text)
        #expect(r.total?.value == amount(expected))
        let read = amount(expected == "21.20" ? "1.20" : "7.30")
        #expect(r.total?.evidence.notes.contains(.leadingDigitsLost(read: read, sum: sum, equals: amount(expected))) == true)
        #expect(r.checks.contains(.sumAfterDigitRepair(sum, equals: amount(expected))))
    }

    /// No total line read (its word misread past two slips): what a card paid is the total, not the largest amount
    /// (a misread "$4.32" as 64.32), and not when no card line has an amount.
    @Test(arguments: [
        ("Stall & Stock\nPEARS 0.70\nKALE 2.80\niLbatotal 64.32\nCredit $4.32\nChange $0.00", "4.32"),
        ("KEDAI BUKU\nBUKU LATIHAN 12.90\nPENSEL 2.40\n: 152.30\nVISA 15.30", "15.30"),
    ])
    func cardPaymentWithNoTotalLine(_ text: String, _ expected: String) {
        let r = parser.parse(text: text)
        #expect(r.total?.value == amount(expected))
        #expect(r.total?.evidence.notes.contains(.paidNoChangeGiven(amount(expected))) == true)
        #expect(r.total?.evidence.notes.contains(.largestAmount) == false)
        #expect(parser.parse(text: "Stall & Stock\nPEARS 0.70\niLbatotal 64.32\nCredit card").total?.evidence.notes.contains(.largestAmount) == true)
    }

    /// A round sum handed over ("20.00") with no change read says nothing about a "5.00" total; nor does
    /// a sum that merely ends in the total's cents.
    @Test func roundPaymentsAndCentsAloneRepairNothing() {
        #expect(parser.parse(text: "Corner Deli\nTOTAL 5.00\nCASH 15.00").total?.value == amount("5.00"))
        #expect(parser.parse(text: "KEDAI MAJU\nTOTAL 0.30\nCASH 50.00\nCHANGE 39.70").total?.value == amount("0.30"))
        #expect(MoneyFields.lostLeadingDigits(amount("7.30"), amount("27.30")))
        #expect(!MoneyFields.lostLeadingDigits(amount("0.30"), amount("10.30")))
        #expect(!MoneyFields.lostLeadingDigits(amount("7.30"), amount("7.30")))
        #expect(!MoneyFields.lostLeadingDigits(amount("7.30"), amount("27.31")))
    }

    /// A rounding line whose adjustment OCR could not read still parts the total before rounding from
    /// the one paid below it.
    @Test(arguments: [
        ("RESTORAN SELERA KAMPUNG\nTotal (Inclusive of GST): 33.41\nRounding Adj: ~0.0)\nTOTAL: 33.40", "33.40"),
        ("Lakeshore Grill\nTotal incl. HST $21.44\nCash Rounding ~ -0.0\nTOTAL $21.45", "21.45"),
    ])
    func unreadRoundingLineStillPartsTheTotals(_ text: String, _ expected: String) {
        let r = parser.parse(text: text)
        #expect(r.total?.value == amount(expected))
        #expect(r.total?.evidence.notes.contains(.belowRoundingLine) == true)
        // Without the rounding line, the stronger keyword above wins.
        let without = text.split(separator: "\n").filter { !$0.contains("Rounding") }.joined(separator: "\n")
        #expect(parser.parse(text: without).total?.value != amount(expected))
    }

    /// "NET TOTAL 163.8": a total line whose amount lost its last digit is read with a 0 for it, weaker
    /// than a total read whole; a ")" after the digit is a misread digit, and a weight is no total.
    @Test(arguments: [
        ("KEDAI MAKAN SRI PETALING\nSUB TOTAL 148.00\nSVC CHARGE 10% 15.80\nNET TOTAL 163.8", "163.80"),
        ("Bayside Tacos\n2 Burrito 9.50\nTotal $10.7 '\nVisa", "10.70"),
    ])
    func totalWithOneDecimalRead(_ text: String, _ expected: String) {
        let r = parser.parse(text: text)
        #expect(r.total?.value == amount(expected))
        #expect(r.total?.evidence.notes.contains(.oneDecimalRead(String(expected.dropLast()))) == true)
    }

    @Test func oneDecimalReadIsNoTotalElsewhere() throws {
        #expect(parser.parse(text: "Bayside Tacos\nTotal 3.2)\nCASH 5.00").total?.value != amount("3.20"))
        #expect(parser.parse(text: "FARM STALL\nTotal weight 2.5\nTOTAL 7.80").total?.value == amount("7.80"))
        // A total read whole beats one read with a decimal short.
        #expect(parser.parse(text: "FARM STALL\nTOTAL 7.80\nTOTAL DUE 7.8").total?.value == amount("7.80"))
        #expect(try JSONDecoder().decode(Note.self, from: JSONEncoder().encode(Note.oneDecimalRead("163.8"))) == .oneDecimalRead("163.8"))
    }

    // MARK: vendors

    static func word(_ t: String, _ conf: Double, _ x: Int, y: Int = 40) -> OCRWord {
        OCRWord(text: t, box: BoundingBox(x: x, y: y, width: 20 * t.count, height: 30), confidence: conf)
    }

    func vendor(_ words: [OCRWord]) -> String? {
        let page = OCRPage(lines: [OCRLine(words: words),
                                   OCRLine(words: [Self.word("TOTAL", 0.95, 0, y: 100), Self.word("9.99", 0.95, 300, y: 100)])], width: 800, height: 400)
        return parser.parse(page).vendor?.value
    }

    /// A short word at an end of the name line, read with under half the confidence of the name's words and
    /// not written in capitals, is a scrap from a logo or the paper's edge.
    @Test func unsureScrapsAtTheEndsOfANameGo() {
        func w(_ t: String, _ conf: Double, _ x: Int) -> OCRWord { Self.word(t, conf, x) }
        // Malaysian scan: a label-like scrap before the name.
        #expect(vendor([w("Bee:", 0.41, 0), w("SELERA", 0.95, 100), w("DESA", 0.96, 260), w("REST", 0.95, 380), w("AREA", 0.94, 500)]) == "SELERA DESA REST AREA")
        // US photos: after the name, before it.
        #expect(vendor([w("Lakeview", 0.97, 0), w("Car", 0.97, 180), w("Wash", 0.9, 260), w("Fes", 0.33, 360)]) == "Lakeview Car Wash")
        #expect(vendor([w("To)", 0.43, 0), w("The", 0.97, 80), w("Arcade", 0.96, 160), w("at", 0.97, 300), w("Pier", 0.96, 350), w("Nine", 0.95, 450)]) == "The Arcade at Pier Nine")
    }

    /// Initials read unsurely ("'SH POWER", "-BP STATION") and words read about as surely as the rest stay.
    @Test func initialsAndSureWordsStay() {
        func w(_ t: String, _ conf: Double, _ x: Int) -> OCRWord { Self.word(t, conf, x) }
        #expect(vendor([w("'KB", 0.09, 0), w("VOLT", 0.96, 80), w("HARDWARE", 0.96, 220)]) == "KB VOLT HARDWARE")
        #expect(vendor([w("Otter", 0.9, 0), w("Pub", 0.62, 120)]) == "Otter Pub")
        // A legal form's letters first on the line, read unsurely, are no initials: forms end names.
        #expect(vendor([w("AS", 0.17, 0), w("LAKESIDE", 0.95, 80), w("GASOLINE", 0.95, 260)]) == "LAKESIDE GASOLINE")
        #expect(vendor([w("SDN", 0.2, 0), w("MAJU", 0.95, 80), w("JAYA", 0.95, 200), w("TRADING", 0.95, 320)]) == "MAJU JAYA TRADING")
        #expect(vendor([w("CW", 0.2, 0), w("MAJU", 0.95, 80), w("JAYA", 0.95, 200), w("TRADING", 0.95, 320)]) == "CW MAJU JAYA TRADING")
        #expect(vendor([w("Otter", 0.9, 0), w("Bar", 0.45, 120), w("Grill", 0.5, 200)]) == "Otter Bar Grill")
    }

    /// A skip-list word misread in letters OCR confuses is still no name: "TAX LHVOICE" (I→L, N→H), "RFCEIPI" (E→F, T→I).
    @Test(arguments: [
        ("| TAX LHVOICE |\nSRI HARAPAN MAJU\nNO 12, JALAN MAWAR\nTOTAL 9.90", "SRI HARAPAN MAJU"),
        ("RFCEIPI\nBlue Heron Diner\n12 Pike St\nTOTAL 9.90", "Blue Heron Diner"),
        ("ELDER OAK TAVERN\n12 Pike St\nTOTAL 9.90", "ELDER OAK TAVERN"),
    ])
    func misreadSkipWordsAreNoNames(_ text: String, _ expected: String) {
        #expect(parser.parse(text: text).vendor?.value == expected)
    }

    /// A legal form alone on its line takes the name above it, even when a country or street word in that
    /// name made it look like an address; a real address line above it does not join.
    @Test(arguments: [
        ("Lotus Leaf Kitchens Malaysia\nSdn Bhd\nLot 5, Jalan Ampang\nTOTAL 9.90", "Lotus Leaf Kitchens Malaysia Sdn Bhd"),
        ("Kings Road Bakery Group\nLtd\n14 Kings Road, Chelsea\nTOTAL 9.90", "Kings Road Bakery Group Ltd"),
    ])
    func nameWithAPlaceWordAboveItsLegalForm(_ text: String, _ expected: String) {
        #expect(parser.parse(text: text).vendor?.value == expected)
        #expect(parser.parse(text: "Lot 5, Jalan Ampang Hilir Baru\nSdn Bhd\nTOTAL 9.90").vendor?.value.hasPrefix("Lot") == false)
    }

    /// A line read with under 30 % confidence is a logo's noise even when it holds a legal form's letters;
    /// the name below it is the vendor. Read surely, the same legal-form line is the name.
    @Test(arguments: [
        (["MAJU ms BHD", "KEDAI RUNCIT SRI MAJU"], "KEDAI RUNCIT SRI MAJU"),
        (["SS ee bs Balas & AS", "Blue Heron Diner"], "Blue Heron Diner"),
    ])
    func legalFormInALogosNoiseIsNoName(_ lines: [String], _ expected: String) {
        func page(_ logoConfidence: Double) -> OCRPage {
            var ocr = lines.enumerated().map { i, text in
                OCRLine(words: text.split(separator: " ").enumerated().map { j, t in
                    OCRWord(text: String(t), box: BoundingBox(x: 20 + 120 * j, y: 20 + 50 * i, width: 100, height: 30), confidence: i == 0 ? logoConfidence : 0.93)
                })
            }
            ocr.append(OCRLine(words: [Self.word("TOTAL", 0.95, 20, y: 200), Self.word("9.90", 0.95, 400, y: 200)]))
            return OCRPage(lines: ocr, width: 800, height: 400)
        }
        #expect(parser.parse(page(0.2)).vendor?.value == expected)
        #expect(parser.parse(page(0.9)).vendor?.value != expected)
    }

    // MARK: dates

    /// Lines 30 px apart, every word of line `i` read with `conf[i]` (0.93 past the list's end).
    static func boxed(_ lines: [String], conf: [Double] = []) -> OCRPage {
        OCRPage(lines: lines.enumerated().map { i, text in
            OCRLine(words: text.split(separator: " ").enumerated().map { j, t in
                OCRWord(text: String(t), box: BoundingBox(x: 20 + 110 * j, y: 10 + 30 * i, width: 100, height: 20), confidence: i < conf.count ? conf[i] : 0.93)
            })
        }, width: 700, height: 30 * lines.count + 20)
    }

    /// A till's stamp with the date's digits run together, then the time: read as a date, in the order
    /// the receipt's other evidence gives; eight digits without a time after them are a number.
    @Test(arguments: [
        ("KEDAI RUNCIT SRI MAJU\n00551020147 26042019 13:11:05 0004\nTOTAL RM 9.90", "2019-04-26"),
        ("Blue Heron Diner\nTRANS 0012 03252018 13:11\nTOTAL $9.90", "2018-03-25"),
    ])
    func compactDateBeforeATime(_ text: String, _ expected: String) {
        let r = parser.parse(text: text)
        #expect(r.date?.value == CalendarDate(iso: expected))
        #expect(r.date?.evidence.rule == "date.compact-before-time")
        #expect(parser.parse(text: text.replacingOccurrences(of: " 13:11", with: "")).date == nil)
    }

    /// The page read and its re-read row give two dates a digit apart: the row read more surely wins,
    /// by a clear margin; otherwise the page's stays.
    @Test(arguments: [
        (["KEDAI RUNCIT SRI MAJU", "08/01/2018 Cashier: A1", "1 ROTI 2.50", "TOTAL RM 2.5l"], "05/01/2018 Cashier: A1", "2018-01-05"),
        (["Blue Heron Diner", "07/04/2012 4:12 PM", "1 Soup $4.50", "TOTAL $4.5l"], "07/24/2012 4:12 PM", "2012-07-24"),
    ])
    func theSurerReadingOfADateRowWins(_ lines: [String], _ reread: String, _ expected: String) {
        let parser = ReceiptParser()
        let unsure = Self.boxed(lines, conf: [0.93, 0.55])
        let target = parser.rereadTargets(unsure).first { $0.line == 1 }!
        let row = Self.boxed(["", reread], conf: [0.9, 0.88])
        let rowPage = OCRPage(lines: [row.lines[1]], width: 700, height: 400)
        #expect(parser.parse(unsure, rereads: [Reread(line: 1, region: target.region, page: rowPage)]).receipt.date?.value == CalendarDate(iso: expected))
        // The page read as surely as the row: its date stays.
        let sure = Self.boxed(lines, conf: [0.93, 0.86])
        #expect(parser.parse(sure, rereads: [Reread(line: 1, region: target.region, page: rowPage)]).receipt.date?.value != CalendarDate(iso: expected))
    }

    /// The same for a total row, unless a sum on the receipt backs the page's total.
    @Test(arguments: [
        (["KEDAI RUNCIT SRI MAJU", "2 ROTI 45.00", "NET TOTAL : 45.06"], "NET TOTAL : 45.00", "45.00"),
        (["Blue Heron Diner", "1 Soup $10.70", "TOTAL $10.10"], "TOTAL $10.70", "10.70"),
    ])
    func theSurerReadingOfATotalRowWins(_ lines: [String], _ reread: String, _ expected: String) {
        let parser = ReceiptParser()
        let unsure = Self.boxed(lines, conf: [0.93, 0.93, 0.5])
        let target = parser.rereadTargets(unsure).first { $0.line == 2 }!
        let rowPage = OCRPage(lines: [Self.boxed(["", "", reread], conf: [0, 0, 0.9]).lines[2]], width: 700, height: 400)
        #expect(parser.parse(unsure, rereads: [Reread(line: 2, region: target.region, page: rowPage)]).receipt.total?.value == amount(expected))
        // Cash − change backs the page's total: it stays.
        let backed = Self.boxed(lines + ["CASH 50.00", "CHANGE \(amount("50.00") - parser.parse(unsure).total!.value)"], conf: [0.93, 0.93, 0.5])
        #expect(parser.parse(backed, rereads: [Reread(line: 2, region: target.region, page: rowPage)]).receipt.total?.value != amount(expected))
    }

    /// A page of one name line (each word read with `conf`) and a total line, with boxes; no date, so the
    /// first reading is in doubt and a second look is asked for.
    static func namePage(_ name: String, _ conf: Double) -> OCRPage {
        let words = name.split(separator: " ").enumerated().map { j, t in
            OCRWord(text: String(t), box: BoundingBox(x: 20 + 130 * j, y: 40, width: 110, height: 30), confidence: conf)
        }
        return OCRPage(lines: [OCRLine(words: words),
                               OCRLine(words: [word("TOTAL", 0.95, 20, y: 120), word("9.99", 0.95, 400, y: 120)])], width: 800, height: 400)
    }

    func twoLooks(_ first: OCRPage, _ second: OCRPage) -> String? {
        parser.parseWithSecondLook(first) { _ in second }.receipt.vendor?.value
    }

    /// Two looks read the name a letter or two apart: the spelling OCR read more surely wins, whichever look.
    @Test func theSurerSpellingOfOneNameWins() {
        // A US photo's name read unsurely first, surely on the second look.
        #expect(twoLooks(Self.namePage("PENNY LANTFRN GRILL", 0.62), Self.namePage("PENNY LANTERN GRILL", 0.93)) == "PENNY LANTERN GRILL")
        // A Malaysian scan read surely first, worse on the second look.
        #expect(twoLooks(Self.namePage("KEDAI KOPI SRI HARAPAN", 0.92), Self.namePage("KEDAI KOPI SRI HARAPAM", 0.71)) == "KEDAI KOPI SRI HARAPAN")
        // Read about as surely: the first look's stays.
        #expect(twoLooks(Self.namePage("KEDAI KOPI SRI HARAPAN", 0.80), Self.namePage("KEDAI KOPI SRI HARAPAM", 0.83)) == "KEDAI KOPI SRI HARAPAN")
        // Different names are not two spellings of one: the merge's rule decides, not OCR's confidence.
        #expect(Self.surer("PENNY LANTFRN GRILL", "PENNY LANTERN GRILL") == "PENNY LANTERN GRILL")
        #expect(Self.surer("PENNY LANTERN GRILL", "BLUE HERON DINER") == nil)
    }

    static func surer(_ a: String, _ b: String) -> String? {
        let pa = namePage(a, 0.5), pb = namePage(b, 0.95)
        let fa = Field(a, confidence: 0.6, evidence: Evidence(line: 0, text: a, box: pa.lines[0].box, rule: "vendor.first-name-line"))
        let fb = Field(b, confidence: 0.6, evidence: Evidence(line: 0, text: b, box: pb.lines[0].box, rule: "vendor.first-name-line"))
        return ReceiptParser.surerSpelling(fa, on: pa, fb, on: pb)?.value
    }

    /// The note says what happened, and is stored as itself.
    @Test func leadingDigitsNoteRoundTrips() throws {
        let n = Note.leadingDigitsLost(read: amount("7.30"), sum: .paidNoChange(amount("27.30")), equals: amount("27.30"))
        #expect(n.description == "read 7.30, taken as 27.30: paid 27.30, no change = 27.30, its leading digits lost")
        #expect(try JSONDecoder().decode(Note.self, from: JSONEncoder().encode(n)) == n)
    }
}
