import Foundation
import Testing
import ReceiptModel
@testable import ReceiptParser

/// Rebuilding visual rows from boxes: labels and their values read as separate lines.
@Suite("Rows from boxes")
struct RowTests {
    let parser = ReceiptParser()

    func line(_ text: String, _ x: Int, _ y: Int, _ w: Int, _ h: Int = 20) -> OCRLine {
        OCRLine(text: text, box: BoundingBox(x: x, y: y, width: w, height: h))
    }

    /// SROIE-style boxes: every label and value a line of its own, values listed after all labels.
    var boxedPage: OCRPage {
        OCRPage(lines: [
            line("CORNER SHOP SDN BHD", 50, 10, 300),
            line("DATE: 12/03/2018", 50, 40, 200),
            line("TEA", 20, 100, 60), line("3.00", 400, 101, 50),
            line("SUB TOTAL", 20, 130, 100),
            line("GST 6%", 20, 160, 80),
            line("TOTAL", 20, 190, 70),
            line("CASH", 20, 220, 60),
            line("CHANGE", 20, 250, 80),
            line("8.49", 400, 131, 50),
            line("0.51", 400, 161, 50),
            line("9.00", 400, 192, 50),
            line("10.00", 400, 221, 60),
            line("1.00", 400, 249, 50),
        ])
    }

    @Test func labelsMeetTheirValuesOnTheirRow() {
        let r = parser.parse(boxedPage)
        #expect(r.total?.value == Amount("9.00")!)
        #expect(r.subtotal?.value == Amount("8.49")!)
        #expect(r.tax?.value == Amount("0.51")!)
        // Evidence points at the first source line of the row, with the row's box.
        #expect(r.total?.evidence.line == 6)
        #expect(r.total?.evidence.text == "TOTAL 9.00")
        #expect(r.total?.evidence.box == BoundingBox(x: 20, y: 190, width: 430, height: 22))
    }

    @Test func slightSkewStillOneRow() {
        // A long row drifting down 8 px from left to right, read in three pieces.
        let page = OCRPage(lines: [
            line("SHOP", 20, 0, 100),
            line("GRAND", 20, 100, 70), line("TOTAL", 100, 104, 70), line("12.50", 400, 110, 60),
        ])
        let rows = RowBuilder.rows(page)
        #expect(rows.map(\.line.text) == ["SHOP", "GRAND TOTAL 12.50"])
        #expect(rows[1].source == 1 && rows[1].members == [1, 2, 3])
    }

    @Test func fullRowsAreNeverGlued() {
        // psm 6 rows: each spans the width; tall boxes (skew) overlap vertically but sit one above the other.
        let page = OCRPage(lines: [
            line("SUBTOTAL 20.00", 20, 100, 400, 30),
            line("TOTAL 21.60", 20, 118, 400, 30),
        ])
        #expect(RowBuilder.rows(page).map(\.line.text) == ["SUBTOTAL 20.00", "TOTAL 21.60"])
        #expect(parser.parse(page).total?.value == Amount("21.60")!)
    }

    @Test func rowsOnTopOfEachOtherStaySeparate() {
        // Two short lines in the same column, touching: less than half the height overlaps.
        let page = OCRPage(lines: [line("TOTAL", 20, 100, 70), line("9.00", 100, 112, 50)])
        #expect(RowBuilder.rows(page).count == 2)
    }

    @Test func plainTextIsReadAsBefore() {
        let page = OCRPage(text: "SHOP\nTOTAL\n9.00\nCASH 10.00")
        let rows = RowBuilder.rows(page)
        #expect(rows.map(\.source) == [0, 1, 2, 3])
        #expect(rows.map(\.line.text) == page.lines.map(\.text))
    }
}

@Suite("Totals after row rebuilding")
struct RowTotalTests {
    let parser = ReceiptParser()

    @Test func changeWithATrailingSignStillConfirmsTheTotal() {
        let text = "NOODLE HOUSE\nTOTAL SALES AMOUNT 33.00\nGST 6% 1.98\nROUNDING ADJUSTMENT 0.02\nTOTAL 35.00\nCASH 55.00\nCHANGE RETURNED 20.00-"
        #expect(parser.parse(text: text).total?.value == Amount("35.00")!)
    }

    @Test func totalGSTIsNotTheTotal() {
        let text = "SHOP\nTOTAL SALES (EXCLUDING GST) 168.00\nTOTAL GST 10.08\nTOTAL 178.08"
        #expect(parser.parse(text: text).total?.value == Amount("178.08")!)
    }
}
