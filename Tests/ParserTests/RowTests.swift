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

    /// `RowBuilder.rows` as it was before its speed tricks: every row of the window asked by every line (no rows passed
    /// over for good once every line still to come starts below them), and each merged row's members put in order by
    /// `sorted`. The rows it gives, their sources, members, text and boxes, must be the same.
    static func unprunedRows(_ page: OCRPage) -> [(source: Int, members: [Int], text: String, box: BoundingBox?)] {
        let lines = page.lines
        let boxes = lines.map(\.box)
        guard lines.count > 1, boxes.filter({ ($0?.height ?? 0) > 0 }).count * 10 >= lines.count * 9 else {
            return lines.enumerated().map { ($0.offset, [$0.offset], $0.element.text, $0.element.box) }
        }
        let bx = boxes.map { $0 ?? BoundingBox(x: 0, y: 0, width: 0, height: 0) }
        var rows: [[Int]] = []
        let order = lines.indices.filter { boxes[$0] != nil }.sorted {
            (bx[$0].y * 2 + bx[$0].height, bx[$0].x, $0) < (bx[$1].y * 2 + bx[$1].height, bx[$1].x, $1)
        }
        for i in order {
            let b = bx[i]
            var best: (group: Int, overlap: Double)?
            for g in max(0, rows.count - RowBuilder.rowWindow)..<rows.count {
                var nearest: BoundingBox?, clash = false, gap = Int.max
                for m in rows[g] {
                    let mb = bx[m]
                    if min(mb.maxX, b.maxX) - max(mb.x, b.x) > min(mb.height, b.height) / 2 { clash = true; break }
                    let d = max(mb.x - b.maxX, b.x - mb.maxX, 0)
                    if d < gap { gap = d; nearest = mb }
                }
                guard !clash, let n = nearest else { continue }
                let v = Double(min(n.maxY, b.maxY) - max(n.y, b.y)) / Double(max(1, min(n.height, b.height)))
                if v >= RowBuilder.minOverlap, best == nil || v > best!.overlap { best = (g, v) }
            }
            if let g = best?.group { rows[g].append(i) } else { rows.append([i]) }
        }
        var out: [(source: Int, members: [Int], text: String, box: BoundingBox?, place: Int)] = []
        func place(_ members: [Int]) -> Int {
            let b = members.compactMap { boxes[$0] }.min { $0.x < $1.x }
            return b.map { $0.y * 2 + $0.height } ?? Int.max
        }
        for r in rows {
            let leftToRight = r.sorted { (bx[$0].x, $0) < (bx[$1].x, $1) }
            let line = r.count == 1 ? lines[r[0]]
                : OCRLine(words: leftToRight.flatMap { lines[$0].words }, box: leftToRight.dropFirst().reduce(bx[leftToRight[0]]) { $0.union(bx[$1]) })
            let members = r.sorted()
            out.append((members[0], members, line.text, line.box, place(members)))
        }
        for (i, l) in lines.enumerated() where l.box == nil { out.append((i, [i], l.text, nil, Int.max)) }
        return out.sorted { ($0.place, $0.source) < ($1.place, $1.source) }.map { ($0.source, $0.members, $0.text, $0.box) }
    }

    @Test func rowsAsEveryRowOfTheWindowAskedByEveryLine() {
        var g = HandScannerTests.Lines(state: 0x526F_7773)
        var merged = 0
        for k in 0..<400 {
            // A page of labels and values in two or three columns, rows drifting and of uneven heights, some lines tall
            // (skew), some without a box, listed in an order shuffled by columns (as SROIE's boxes come).
            var lines: [OCRLine] = []
            let rows = Int.random(in: 1...40, using: &g)
            var y = 0
            for r in 0..<rows {
                y += Int.random(in: 8...40, using: &g)
                let h = Int.random(in: 0...9, using: &g) == 0 ? Int.random(in: 40...90, using: &g) : Int.random(in: 12...26, using: &g)
                for c in 0..<Int.random(in: 1...3, using: &g) {
                    let x = c * 200 + Int.random(in: -30...30, using: &g)
                    let box = Int.random(in: 0...30, using: &g) == 0 ? nil
                        : BoundingBox(x: x, y: y + Int.random(in: -12...12, using: &g), width: Int.random(in: 20...260, using: &g), height: h)
                    lines.append(OCRLine(text: "L\(r)C\(c)", box: box))
                }
            }
            if k % 2 == 1 { lines.shuffle(using: &g) }
            let page = OCRPage(lines: lines)
            let fast = RowBuilder.rows(page), slow = Self.unprunedRows(page)
            merged += fast.filter { $0.memberCount > 1 }.count
            #expect(fast.map(\.source) == slow.map(\.source), "page \(k)")
            #expect(fast.map(\.members) == slow.map(\.members), "page \(k)")
            #expect(fast.map(\.line.text) == slow.map(\.text), "page \(k)")
            #expect(fast.map(\.line.box) == slow.map(\.box), "page \(k)")
            #expect(fast.map(\.memberCount) == slow.map(\.members.count), "page \(k)")
        }
        // (The pages merge rows: the test is about them.)
        #expect(merged > 1000)
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
