import Testing
import ReceiptModel
@testable import ReceiptParser

/// Rows read again alone: which rows, how they go into the page, when they are believed.
@Suite("line re-reads")
struct RereadTests {
    /// A page of boxed lines, 30 px apart, 20 px high, on a 600 px wide page.
    static func page(_ lines: [String]) -> OCRPage {
        OCRPage(lines: lines.enumerated().map { i, text in
            let words = text.split(separator: " ").enumerated().map { j, w in
                OCRWord(text: String(w), box: BoundingBox(x: 20 + 90 * j, y: 10 + 30 * i, width: 80, height: 20), confidence: 0.9)
            }
            return OCRLine(words: words)
        }, width: 600, height: 30 * lines.count + 20)
    }

    static func line(_ text: String, y: Int) -> OCRPage {
        OCRPage(lines: [OCRLine(words: text.split(separator: " ").enumerated().map { j, w in
            OCRWord(text: String(w), box: BoundingBox(x: 20 + 90 * j, y: y, width: 80, height: 20), confidence: 0.9)
        })], width: 600, height: 400)
    }

    let receipt = [
        "CORNER BAKERY LTD", "12 HIGH STREET", "Date: 14/03/2024 10:12",
        "BREAD 2.50", "CAKE 3.20", "SUBTOTAL 5.70", "TAX 0.57", "TOTAL 6.21", "THANK YOU",
    ]

    @Test func targetsAreTheRowsWithAFieldAcrossThePage() {
        let page = Self.page(receipt)
        let targets = ReceiptParser().rereadTargets(page)
        #expect(targets.map(\.line) == [2, 5, 6, 7])
        #expect(targets.map(\.why) == ["date", "total", "tax", "total"])
        for t in targets {
            let box = page.lines[t.line].box!
            #expect(t.region.x == 0 && t.region.width == page.width, "the whole row: an amount may have drifted right")
            #expect(t.region.y < box.y && t.region.maxY > box.maxY, "a margin above and below")
        }
        #expect(ReceiptParser().rereadTargets(OCRPage(text: receipt.joined(separator: "\n"))).isEmpty, "no boxes, nothing to re-read")
    }

    /// A row with a time of day and a date the page read could not make out is read again for the date.
    @Test func aTimeRowIsReadAgainForItsDate() {
        let page = Self.page(["LANTERN HOUSE", "Chk 4225 Table 4", "Junl?8'16 08:46PM", "1 SOUP 8.95", "TOTAL 8.95"])
        let targets = ReceiptParser().rereadTargets(page)
        #expect(targets.map(\.line) == [2, 4])
        #expect(targets.first?.why == "date")
        let fixed = ReceiptParser().parse(page, rereads: [Reread(line: 2, region: targets[0].region, page: Self.line("Jun18'16 08:46PM", y: 70))])
        #expect(fixed.receipt.date?.value == CalendarDate(year: 2016, month: 6, day: 18))
    }

    @Test func aRereadTotalThatTheSumsBackReplacesAMisreadOne() {
        var lines = receipt
        lines[7] = "TOTAL 6.2l"  // the page read lost the last digit
        let page = Self.page(lines)
        let parser = ReceiptParser()
        let t = parser.rereadTargets(page).first { $0.line == 7 }!
        let reread = Reread(line: 7, region: t.region, page: Self.line("TOTAL 6.27", y: 10 + 30 * 7))
        let (r, used) = parser.parse(page, rereads: [reread])
        #expect(r.total?.value.description == "6.27")
        #expect(used.lines.map(\.text).contains("TOTAL 6.27"))
        #expect(!used.lines.map(\.text).contains("TOTAL 6.2l"), "the re-read row stands in for the row it read")
    }

    @Test func aRereadThatTheSumsDoNotBackIsNotBelieved() {
        let page = Self.page(receipt.enumerated().map { $0.offset == 7 ? "TOTAL 6.27" : $0.element })
        let parser = ReceiptParser()
        let t = parser.rereadTargets(page).first { $0.line == 7 }!
        // The crop cut a digit: 6.27 read as 0.27. The page's total agrees with subtotal + tax; it stays.
        let reread = Reread(line: 7, region: t.region, page: Self.line("TOTAL 0.27", y: 10 + 30 * 7))
        let (r, used) = parser.parse(page, rereads: [reread])
        #expect(r.total?.value.description == "6.27")
        #expect(r == parser.parse(page))
        #expect(used == page)
    }

    @Test func aStoredReadingWithRereadsReplaysExactly() {
        var lines = receipt
        lines[7] = "TOTAL 6.2l"
        let page = Self.page(lines)
        let parser = ReceiptParser()
        let t = parser.rereadTargets(page).first { $0.line == 7 }!
        let reread = Reread(line: 7, region: t.region, page: Self.line("TOTAL 6.27", y: 10 + 30 * 7))
        let reading = OCRReading(pages: OCRReading.Page(first: page, looks: [
            OCRReading.Look(kind: .lineReread, reason: "row", page: reread.page, line: 7, region: t.region),
        ]))
        let replay = parser.parse(reading)
        let direct = parser.parseWithSecondLook(page, rereads: { _ in [reread] }) { _ in nil }
        #expect(replay.receipt == direct.receipt && replay.page == direct.page)
        #expect(replay.receipt.total?.value.description == "6.27")
    }
}
