import Foundation
import Testing
import ReceiptModel
@testable import ReceiptPipeline

/// Which bands of ink the missed-rows look reads again alone: the ones no line of the page read covers, as tall as
/// printed text; not a rule or a row of dots.
@Suite("missed rows")
struct MissedRowsTests {
    /// A white page 600 × 400 with black bands at the given rows (y, height), across the given columns.
    func page(_ bands: [(y: Int, height: Int, x0: Int, x1: Int)]) -> PageImage {
        let w = 600, h = 400
        var px = [UInt8](repeating: 255, count: w * h)
        for b in bands {
            for y in b.y..<(b.y + b.height) {
                // Text-like ink: every third pixel dark, with grey edges beside it (as print scans), so a row is
                // inked but not solid and the page has more than two grey levels to threshold.
                for x in stride(from: b.x0, to: b.x1, by: 3) { px[y * w + x] = 0; px[y * w + x + 1] = 90 }
            }
        }
        return PageImage(width: w, height: h, bytesPerPixel: 1, pixels: px)!
    }

    @Test func aRuleUnderTheLinesIsNotReadAgainButAMissedLineIs() {
        // Three lines the page read (22 px tall), a line it missed (20 px) and a rule 6 px thick across the page
        // (10 px with its margins, under half the lines' 22).
        let image = page([(20, 22, 40, 560), (60, 22, 40, 560), (100, 22, 40, 560), (150, 20, 40, 400), (200, 6, 10, 590)])
        let read = OCRPage(lines: [20, 60, 100].map { y in
            OCRLine(words: [OCRWord(text: "TOTAL 12.50", box: BoundingBox(x: 40, y: y, width: 520, height: 22), confidence: 0.9)])
        }, width: 600, height: 400)
        let regions = MissedRows.regions(image, read: read)
        // The missed line, with its margins; not the rule.
        #expect(regions.count == 1, "\(regions)")
        #expect(regions.first.map { $0.y <= 150 && $0.maxY >= 170 } == true, "\(regions)")
        // Without lines read to measure against, the rule is a band like any other (6 px and up: not a speck).
        let thick = page([(200, 8, 10, 590)])
        #expect(MissedRows.regions(thick, read: OCRPage(lines: [], width: 600, height: 400)).count == 1)
    }
}
