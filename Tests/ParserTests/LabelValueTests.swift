import Foundation
import Testing
import ReceiptModel
import ReceiptEval

/// The eval's own reading of labels, apart from the parser's scanners: a parser bug must not hide in the score.
@Suite("Label values")
struct LabelValueTests {
    static func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

    // Invented labels in the shapes the labelled sets write dates in (none is copied from them).
    @Test("label dates", arguments: [
        ("27/11/2019", day(2019, 11, 27)), ("14-02-18", day(2018, 2, 14)), ("07 APR 2019", day(2019, 4, 7)),
        ("19-SEP-2019", day(2019, 9, 19)), ("21/JUN/2016", day(2016, 6, 21)), ("20190415", day(2019, 4, 15)),
        ("17082019", day(2019, 8, 17)), ("2019-05-14", day(2019, 5, 14)), ("2019/07/09", day(2019, 7, 9)),
        ("13.05.19", day(2019, 5, 13)), ("(09/11/2017)", day(2017, 11, 9)), ("04/09-2015", day(2015, 9, 4)),
        ("NOV 5, 2017", day(2017, 11, 5)), ("Aug07'13", day(2013, 8, 7)), ("19Oct'13", day(2013, 10, 19)),
        ("23AUG18", day(2018, 8, 23)), ("Mar14.2013", day(2013, 3, 14)), ("JUNE18,2012", day(2012, 6, 18)),
        ("Wednesday,April24th2019", day(2019, 4, 24)), ("09January2016", day(2016, 1, 9)), ("Sep/26/2018", day(2018, 9, 26)),
        // Only one valid reading: month-first.
        ("07/28/2015", day(2015, 7, 28)), ("Wed08/17/16", day(2016, 8, 17)),
        // The first date of several; a time is no date.
        ("03/11/2016 3/11/2016", day(2016, 11, 3)), ("Oct2.20184:16:35pm Oct2.2018", day(2018, 10, 2)),
        ("110EC2015 11/12/15", day(2015, 12, 11)), ("#002FEB.09'08REG0002", day(2008, 2, 9)),
        // Month first, then the day and a two-digit year: not "15 NOV 21".
        ("NOV21'15 NOV21", day(2015, 11, 21)),
    ])
    func dates(_ label: String, _ expected: CalendarDate) {
        #expect(LabelValue.date(label) == expected)
    }

    @Test func ambiguousDatesAreDayFirstUnlessAsked() {
        #expect(LabelValue.date("03/04/2018") == Self.day(2018, 4, 3))
        #expect(LabelValue.date("03/04/2018", monthFirst: true) == Self.day(2018, 3, 4))
        #expect(LabelValue.date("25/12/2018", monthFirst: true) == Self.day(2018, 12, 25))
    }

    @Test("not dates", arguments: ["Aug19", "21:48", "05/12", "Sep142018", "5/6/20138:44AM", "vendredi14mai2017", "31/02/2019", "", "TOTAL"])
    func notDates(_ label: String) {
        #expect(LabelValue.date(label) == nil)
    }

    @Test("label amounts", arguments: [
        ("RM 11.70", "11.70"), ("RM31.50", "31.50"), ("$1,400.00", "1400.00"), ("1,234.50", "1234.50"), ("1.234,50", "1234.50"),
        ("10,79", "10.79"), ("1,050", "1050"), ("224,400", "224400"), ("27,45EUR", "27.45"), ("£53,168.60", "53168.60"),
        ("AED214.", "214"), ("186.374", "186.374"), ("3656", "3656"), ("-3.50", "-3.50"), ("Total3.78", "3.78"),
    ])
    func amounts(_ label: String, _ expected: String) {
        #expect(LabelValue.amount(label) == Amount(expected))
    }

    @Test func textWithoutANumberIsNoAmount() {
        #expect(LabelValue.amount("Total(TasasIncl.)") == nil)
        #expect(LabelValue.amount("TOTAL") == nil)
    }

    @Test func vendorsAreComparedAsTheScorerDoes() {
        #expect(LabelValue.vendor("Bäckerei Sonnenschein GmbH") == "BACKEREI SONNENSCHEIN GMBH")
        #expect(LabelValue.vendor("MR. K.L.Y. (M) SDN BHD") == "MR K L Y M SDN BHD")
        #expect(LabelValue.vendor("  Cedar & Pine ") == "CEDAR & PINE")
    }
}
