import Foundation
import Testing
import ReceiptModel
import ReceiptEval

/// The eval's own reading of labels, apart from the parser's scanners: a parser bug must not hide in the score.
@Suite("Label values")
struct LabelValueTests {
    static func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

    @Test("label dates", arguments: [
        ("25/12/2018", day(2018, 12, 25)), ("12-01-19", day(2019, 1, 12)), ("05 MAR 2018", day(2018, 3, 5)),
        ("24-MAR-2018", day(2018, 3, 24)), ("14/MAY/2017", day(2017, 5, 14)), ("20180304", day(2018, 3, 4)),
        ("25032018", day(2018, 3, 25)), ("2018-03-23", day(2018, 3, 23)), ("2018/02/22", day(2018, 2, 22)),
        ("11.02.18", day(2018, 2, 11)), ("(06/12/2016)", day(2016, 12, 6)), ("06/08-2013", day(2013, 8, 6)),
        ("OCT 3, 2016", day(2016, 10, 3)), ("Jul03'12", day(2012, 7, 3)), ("22Nov'12", day(2012, 11, 22)),
        ("16JUL17", day(2017, 7, 16)), ("Feb11.2012", day(2012, 2, 11)), ("JULY20,2011", day(2011, 7, 20)),
        ("Tuesday,March27th2018", day(2018, 3, 27)), ("05February2017", day(2017, 2, 5)), ("Jul/15/2017", day(2017, 7, 15)),
        // Only one valid reading: month-first.
        ("06/29/2014", day(2014, 6, 29)), ("Tue09/20/16", day(2016, 9, 20)),
        // The first date of several; a time is no date.
        ("02/10/2015 2/10/2015", day(2015, 10, 2)), ("Sep1.20173:05:24pm Sep1.2017", day(2017, 9, 1)),
        ("120EC2014 12/12/14", day(2014, 12, 12)), ("#001JAN.06'07REG0001", day(2007, 1, 6)),
        // Month first, then the day and a two-digit year: not "14 DEC 23".
        ("DEC23'14 DEC23", day(2014, 12, 23)),
    ])
    func dates(_ label: String, _ expected: CalendarDate) {
        #expect(LabelValue.date(label) == expected)
    }

    @Test func ambiguousDatesAreDayFirstUnlessAsked() {
        #expect(LabelValue.date("03/04/2018") == Self.day(2018, 4, 3))
        #expect(LabelValue.date("03/04/2018", monthFirst: true) == Self.day(2018, 3, 4))
        #expect(LabelValue.date("25/12/2018", monthFirst: true) == Self.day(2018, 12, 25))
    }

    @Test("not dates", arguments: ["Jun15", "20:37", "04/11", "Aug262017", "4/4/20127:33AM", "jeudi23juin2016", "31/02/2018", "", "TOTAL"])
    func notDates(_ label: String) {
        #expect(LabelValue.date(label) == nil)
    }

    @Test("label amounts", arguments: [
        ("RM 10.60", "10.60"), ("RM20.40", "20.40"), ("$1,400.00", "1400.00"), ("1,234.50", "1234.50"), ("1.234,50", "1234.50"),
        ("10,79", "10.79"), ("1,050", "1050"), ("224,400", "224400"), ("34,85EUR", "34.85"), ("£64,279.70", "64279.70"),
        ("AED105.", "105"), ("197.285", "197.285"), ("2545", "2545"), ("-3.50", "-3.50"), ("Total2.67", "2.67"),
    ])
    func amounts(_ label: String, _ expected: String) {
        #expect(LabelValue.amount(label) == Amount(expected))
    }

    @Test func textWithoutANumberIsNoAmount() {
        #expect(LabelValue.amount("Total(ImpuestosIncl.)") == nil)
        #expect(LabelValue.amount("TOTAL") == nil)
    }

    @Test func vendorsAreComparedAsTheScorerDoes() {
        #expect(LabelValue.vendor("Bäckerei Sonnenschein GmbH") == "BACKEREI SONNENSCHEIN GMBH")
        #expect(LabelValue.vendor("MR. K.L.Y. (M) SDN BHD") == "MR K L Y M SDN BHD")
        #expect(LabelValue.vendor("  Cedar & Pine ") == "CEDAR & PINE")
    }
}
