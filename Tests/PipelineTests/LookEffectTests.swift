import Foundation
import Testing
import ReceiptModel
import ReceiptParser
import ReceiptPipeline
@testable import ReceiptEval

/// `receipts eval`'s extra-looks table: what each kind of look changed, judged on the label, by
/// parsing the reading again without it.
@Suite("eval: what each extra look changed, and where the time went")
struct LookEffectTests {
    static let label = LabelledReceipt(id: "r", image: "r.jpg", vendor: "ACME LLC", dates: [CalendarDate(year: 2024, month: 3, day: 14)!],
                                       totals: [Amount("10.80")!])

    func scored(_ reading: OCRReading) -> Scored {
        Scored(Self.label, got: ReceiptParser().parse(reading).receipt)
    }

    @Test("a second look that found the total is counted better, on a total doubt")
    func secondLookThatFoundTheTotal() {
        let first = OCRPage(text: "ACME LLC\nDate 14/03/2024\nTHANK YOU")
        let reading = OCRReading(first: first, secondLook: OCRPage(text: "ACME LLC\nDate 14/03/2024\nTOTAL 10.80"), reason: "no total found")
        let s = scored(reading)
        #expect(s.right[.total] == true)
        let effects = LookEffect.of(reading, parser: ReceiptParser(), scored: s)
        #expect(effects == [LookEffect(kind: .secondLook, doubt: "total", better: 1, worse: 0)])
    }

    @Test("a missed row that held the total: better, on the first read's total doubt")
    func missedRowThatHeldTheTotal() {
        let row = OCRPage(lines: [OCRLine(text: "TOTAL 10.80", box: BoundingBox(x: 10, y: 90, width: 300, height: 20))])
        let first = OCRPage(lines: [OCRLine(text: "ACME LLC", box: BoundingBox(x: 10, y: 10, width: 300, height: 20)),
                                    OCRLine(text: "Date 14/03/2024", box: BoundingBox(x: 10, y: 50, width: 300, height: 20))])
        let reading = OCRReading(pages: OCRReading.Page(first: first, looks: [
            OCRReading.Look(kind: .missedRow, reason: "no line read in this band of ink", page: row,
                            region: BoundingBox(x: 0, y: 85, width: 400, height: 30))]))
        let s = scored(reading)
        #expect(s.right[.total] == true)
        #expect(LookEffect.of(reading, parser: ReceiptParser(), scored: s) == [LookEffect(kind: .missedRow, doubt: "total", better: 1, worse: 0)])
    }

    @Test("a look that changed nothing is counted, neither better nor worse; none taken, no effect")
    func lookThatChangedNothing() {
        let page = OCRPage(text: "ACME LLC\nDate 14/03/2024\nTHANK YOU")
        let reading = OCRReading(first: page, secondLook: page, reason: "no total found")
        let s = scored(reading)
        #expect(LookEffect.of(reading, parser: ReceiptParser(), scored: s) == [LookEffect(kind: .secondLook, doubt: "total", better: 0, worse: 0)])
        #expect(LookEffect.of(OCRReading(first: page), parser: ReceiptParser(), scored: s).isEmpty)
    }

    @Test("the summary adds up the stages per receipt and the looks per kind and doubt")
    func summaryTable() {
        let reading = OCRReading(first: OCRPage(text: "ACME LLC\nDate 14/03/2024\nTHANK YOU"),
                                 secondLook: OCRPage(text: "ACME LLC\nDate 14/03/2024\nTOTAL 10.80"), reason: "no total found")
        var a = scored(reading)
        a.stages = StageSeconds()
        a.stages?.firstRead = 1.0
        a.stages?.secondLook = 0.5
        a.looks = LookEffect.of(reading, parser: ReceiptParser(), scored: a)
        var b = scored(OCRReading(first: OCRPage(text: "ACME LLC\nDate 14/03/2024\nTOTAL 10.80")))
        b.stages = StageSeconds()
        b.stages?.firstRead = 0.6
        let c = Scored(Self.label, got: nil, error: "unreadable")  // never read: no stages, not counted
        let summary = CostSummary([a, b, c])
        #expect(summary.read == 2)
        #expect(summary.meanStages.first { $0.name == "first read" }?.seconds == 0.8)
        #expect(summary.meanStages.first { $0.name == "second look" }?.seconds == 0.25)
        #expect(summary.looks["second look"]?["total"] == CostSummary.Row(receipts: 1, better: 1, worse: 0, fieldsBetter: 1, fieldsWorse: 0))
        #expect(summary.table.contains("second look   total           1       1      0"))
        #expect(CostSummary([c]).table.isEmpty)
    }
}
