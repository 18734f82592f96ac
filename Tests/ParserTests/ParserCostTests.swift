import Foundation
import Testing
import ReceiptModel
@testable import ReceiptParser

/// Enormous inputs (a PDF text layer, a runaway OCR page) end in a result, and a cap says what it left out.
/// The cost curve itself is measured by `make bench` (receipts-bench parser), not here: these only
/// catch the runaway cases, with bounds far above what the linear parser needs (each took minutes before).
@Suite("Parser cost")
struct ParserCostTests {
    let parser = ReceiptParser()

    static func seconds(_ body: () -> Void) -> Double {
        let t0 = Date(); body(); return Date().timeIntervalSince(t0)
    }

    @Test func thousandsOfTotalLinesAreCappedAndTheResultSaysSo() {
        let text = (1...150).map { "TOTAL \($0).00" }.joined(separator: "\n")
        let r = parser.parse(text: text)
        #expect(r.warnings == ["150 lines read as totals; only the last 100 were weighed"])
        // The winner is one of those weighed.
        #expect((r.total?.evidence.line ?? 0) >= 50)
        // A receipt stays without warnings.
        #expect(parser.parse(text: "SHOP\nMILK 1.20\nTOTAL 1.20").warnings == nil)
    }

    @Test func aLineOfThousandsOfDatesEndsInSeconds() {
        let dates = (0..<3000).map { (k: Int) -> String in
            let day: Int = 1 + k % 28, month: Int = 1 + k % 12, year: Int = 10 + k % 15
            return String(format: "%02d/%02d/20%02d", day, month, year)
        }.joined(separator: " ")
        var r: ParsedReceipt?
        let s = Self.seconds { r = parser.parse(text: "SHOP\n" + dates + " 12:30 14:45\nTOTAL 9.99") }
        #expect(s < 60, "\(s) s")
        #expect(r?.date != nil && r?.total?.value == Amount("9.99"))
    }

    @Test func aLongSingleLineEndsInSeconds() {
        let words = ["MILK", "2.50", "TOTAL", "03/04/2024", "14:22", "Store", "x", "12.00", "RM", "Qty"]
        var line = ""
        var i = 0
        while line.utf8.count < 200_000 { line += words[(i * 7 + i / 3) % words.count] + " "; i += 1 }
        let s = Self.seconds { _ = parser.parse(text: line) }
        #expect(s < 60, "\(s) s")
    }

    @Test func aLongBoxedPageEndsInSeconds() {
        let lines = (0..<20_000).map { i in
            OCRLine(text: i % 7 == 0 ? "TOTAL \(i % 300).\(i % 90 + 10)" : "ITEM \(i) \(i % 50).99", box: BoundingBox(x: 10, y: 30 * i, width: 400, height: 24))
        }
        let s = Self.seconds { _ = parser.parse(OCRPage(lines: lines)) }
        #expect(s < 60, "\(s) s")
    }
}
