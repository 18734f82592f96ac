import Foundation
import Testing
import ReceiptModel
import ReceiptEval

/// `receipts eval` scores subtotal, tax, time and line items as `../shared/tools/extras.py` does.
/// The expected values below are what Python 3.11's `re` and `difflib` give for the same inputs.
@Suite("eval: the extra fields scored as extras.py scores them")
struct ExtrasScorerTests {
    @Test("money: the last two-decimal number, spaces dropped, comma as a dot",
          arguments: [("$37,160.00", "0.00"), ("24,000", "24.00"), ("$1.999", "1.99"), ("0.00 | 0.00", "0.00"),
                      ("$0.74 | $1.48 | 1.48$ | 0.74$", "0.74"), ("1 234,5 6", "1234.56"), ("-3.00", "3.00")])
    func money(_ text: String, _ want: String) {
        #expect(ExtrasScorer.money(text) == want)
    }

    @Test func moneyWithoutTwoDecimals() {
        #expect(ExtrasScorer.money(".50") == nil)
        #expect(ExtrasScorer.money("12") == nil)
        #expect(ExtrasScorer.money(nil) == nil)
    }

    @Test("time: the first h:mm, pm anywhere adds 12, am at 12 is 0",
          arguments: [("03:47PM | 05:13PM", "15:47"), ("12:05am", "00:05"), ("12:30 P.M.", "12:30"), ("8:39FM", "08:39"),
                      ("123:45", "23:45"), ("Time 7:05 Sam", "07:05"), ("14:58:21", "14:58")])
    func time(_ text: String, _ want: String) {
        #expect(ExtrasScorer.time(text) == want)
    }

    @Test func timeNeedsAColon() {
        #expect(ExtrasScorer.time("10.42AM") == nil)
    }

    @Test("likeness: difflib's SequenceMatcher ratio, lower case, spaces dropped",
          arguments: [("WOOLSCARF40CHARCNVYPA", "woolscarf 40 charc", 0.8648648648648649), ("PlumSorbe", "PLUM SORBETS", 0.9),
                      ("abcd", "bcda", 0.75), ("tide pods", "tidepods 42ct", 0.8), ("abxcd", "abcdxab", 0.6666666666666666),
                      ("qabxcd", "abycdf", 0.6666666666666666), ("private", "primate", 0.8571428571428571),
                      ("coke", "2coke3.50", 0.6153846153846154)])
    func likeness(_ a: String, _ b: String, _ want: Double) {
        #expect(abs(ExtrasScorer.likeness(a, b) - want) < 1e-12)
    }

    @Test("likeness: from 200 characters on, a character more frequent than 1 % starts no match (difflib's autojunk)")
    func autojunk() {
        let a = String(repeating: "a", count: 250) + "b", b = String(repeating: "a", count: 300) + "xb"
        #expect(abs(ExtrasScorer.likeness(a, b) - 0.9077757685352622) < 1e-12)
    }

    @Test("prices: each labelled price takes one amount; what is left is extra")
    func prices() {
        let r = ExtrasScorer.matchPrices(labelled: ["6.00", "7.50", "7.50", "3.00"], amounts: ["7.50", "6.00", "-1.00", "7.50", "12.00"])
        #expect(r.found == [true, true, true, false])
        #expect(r.extra == 2)
    }

    static func evidence(_ text: String) -> Evidence { Evidence(line: 0, text: text, rule: "test") }

    /// A receipt whose line items, subtotal, tax and time are scored against a label like wild-dev's.
    @Test("a labelled receipt: counts per item, misses by cause, the label that the receipt's arithmetic contradicts")
    func scoredReceipt() throws {
        let key: [String: Any] = ["company": "CORNER CAFE", "total": "$11.70", "subtotal": "$10.80", "tax": "$0.80", "time": "2:05PM",
                                  "item_names": ["LATTE", "Blueberry Muffin", "Napkins"], "item_prices": ["$4.50", "$6.30", "24,000"]]
        var label = LabelledReceipt(id: "r", image: "r.jpg", vendor: "CORNER CAFE", totals: [Amount("11.70")!])
        label.extras = ExtraLabels(key)
        #expect(label.extras.itemPrices?.map(\.scored) == ["4.50", "6.30", "24.00"])
        var got = ParsedReceipt()
        got.vendor = Field("Corner Cafe", confidence: 0.9, evidence: Self.evidence("CORNER CAFE"))
        got.total = Field(Amount("11.70")!, confidence: 0.9, evidence: Self.evidence("TOTAL 11.70"))
        // The receipt prints subtotal 10.80 and tax 0.90: 10.80 + 0.90 = 11.70, not 0.80.
        got.subtotal = Field(Amount("10.80")!, confidence: 0.9, evidence: Self.evidence("SUBTOTAL 10.80"))
        got.tax = Field(Amount("0.90")!, confidence: 0.9, evidence: Self.evidence("TAX 0.90"))
        got.checks = [.sum(.subtotalTax(subtotal: Amount("10.80")!, tax: Amount("0.90")!), equals: Amount("11.70")!)]
        got.time = Field(TimeOfDay(hour: 14, minute: 5)!, confidence: 0.8, evidence: Self.evidence("2:05 PM"))
        got.lineItems = [LineItem(description: "Latte", amount: Amount("4.50")!, evidence: Self.evidence("Latte 4.50")),
                         LineItem(description: "Bluebery Mufin", amount: Amount("6.30")!, evidence: Self.evidence("Bluebery Mufin 6.30")),
                         LineItem(description: "Tip", amount: Amount("1.00")!, evidence: Self.evidence("Tip 1.00"))]
        var s = Scored(label, got: got)
        s.texts = ["CORNER CAFE", "Latte 4.50", "Bluebery Mufin 6.30", "Napkins", "SUBTOTAL 10.80", "TAX 0.90", "0.80", "TOTAL 11.70", "2:05 PM"]
        #expect(s.right[.subtotal] == true && s.right[.tax] == false && s.right[.time] == true)
        #expect(s.count(.itemPrices)! == (2, 3))
        #expect(s.count(.itemNames)! == (2, 3))
        #expect(s.items?.extraPrices == 1)
        #expect(s.allOK)  // vendor, date (not labelled) and total

        let misses = Miss.of(s)
        let cause = Dictionary(misses.map { ($0.expected, $0.cause) }, uniquingKeysWith: { a, _ in a })
        #expect(cause["$0.80"] == .labelDisagrees)   // read, but subtotal + tax = total holds for 0.90
        #expect(cause["24,000"] == .labelDisagrees)  // the scorer reads 24,000 as 24.00
        #expect(cause["Napkins"] == .notChosen)      // on a line, no item made of it
        #expect(misses.count == 3)

        let summary = Summary([s])
        #expect(summary.accuracy(.field(.itemPrices)) == 66.7)
        #expect(summary.extraPrices == 1)
        #expect(summary.accuracy(.all) == 100)
        #expect(summary.accuracies["item_names"] == 66.7)
        #expect(summary.table(n: 1, seconds: 1, jobs: 0, source: "test").contains("extra prices 1 (50.0 % of those found)"))
    }

    @Test("a label without the extra fields scores none of them, and counts no extra prices")
    func sroieLabel() {
        let label = LabelledReceipt(id: "x", image: "x.jpg", vendor: "A SDN BHD", totals: [Amount("1.00")!])
        var got = ParsedReceipt()
        got.lineItems = [LineItem(description: "Tea", amount: Amount("1.00")!, evidence: Self.evidence("Tea 1.00"))]
        let s = Scored(label, got: got)
        #expect(s.items == nil)
        #expect(s.count(.itemPrices) == nil && s.count(.subtotal) == nil)
        let summary = Summary([s])
        #expect(summary.labelled[.field(.itemPrices)] == nil && summary.extraPrices == 0 && summary.extraPricesLine == nil)
    }
}
