import Foundation
import ReceiptModel

/// A visual row of the receipt: source lines side by side, left to right.
struct Row {
    /// The merged line (words of every member, left to right; the union box).
    var line: OCRLine
    /// Index in `OCRPage.lines` of the first of the merged lines (in source order).
    var source: Int
    /// Indexes of every merged line, in source order.
    var members: [Int]
}

/// Rebuilds visual rows from boxes: a label and its amount that came out as separate lines
/// (SROIE's per-box ground truth, Tesseract's sparse-text mode) become one row again.
///
/// Lines are merged only when they sit side by side: their vertical extents overlap by at least
/// `minOverlap` of the smaller height and they do not overlap horizontally. Real rows (psm 6)
/// above and below one another overlap horizontally, so they are never glued together.
/// Without boxes, every line is its own row, in source order.
enum RowBuilder {
    static let minOverlap = 0.5
    /// A line joins one of the rows started last (lines are taken top to bottom): a row begun this many
    /// rows earlier lies wholly above. Without this window every line was compared with every row,
    /// the square of the page's length.
    static let rowWindow = 64
    /// RECEIPTS_DUMP_ROWS=1 prints the rows to stderr (to see how a page was regrouped).
    static let debugDump = ProcessInfo.processInfo.environment["RECEIPTS_DUMP_ROWS"] != nil

    static func rows(_ page: OCRPage) -> [Row] {
        let lines = page.lines
        let boxed = lines.filter { ($0.box?.height ?? 0) > 0 }.count
        guard lines.count > 1, boxed * 10 >= lines.count * 9 else {
            return lines.enumerated().map { Row(line: $0.element, source: $0.offset, members: [$0.offset]) }
        }

        // The boxes once (each comparison below asked the line for its box).
        let boxes = lines.map(\.box)
        // Rows under construction: member indexes, left to right by x.
        var groups: [[Int]] = []
        let order = lines.indices.filter { boxes[$0] != nil }.sorted {
            let a = boxes[$0]!, b = boxes[$1]!
            return (a.y * 2 + a.height, a.x, $0) < (b.y * 2 + b.height, b.x, $1)
        }
        for i in order {
            let b = boxes[i]!
            var best: (group: Int, overlap: Double)?
            for g in max(0, groups.count - rowWindow)..<groups.count {
                let members = groups[g]
                // Compare with the member nearest in x (tolerant of skew along a long row).
                var nearest: BoundingBox?
                var clash = false
                var gap = Int.max
                for m in members {
                    let mb = boxes[m]!
                    let hOverlap = min(mb.maxX, b.maxX) - max(mb.x, b.x)
                    if hOverlap > min(mb.height, b.height) / 2 { clash = true; break }
                    let d = max(mb.x - b.maxX, b.x - mb.maxX, 0)
                    if d < gap { gap = d; nearest = mb }
                }
                guard !clash, let n = nearest else { continue }
                let v = Double(min(n.maxY, b.maxY) - max(n.y, b.y)) / Double(max(1, min(n.height, b.height)))
                if v >= minOverlap, best == nil || v > best!.overlap { best = (g, v) }
            }
            if let g = best?.group {
                groups[g].append(i)
            } else {
                groups.append([i])
            }
        }
        // Lines without a box stay where they were, on their own.
        var out: [Row] = []
        for members in groups {
            let leftToRight = members.sorted { (boxes[$0]!.x, $0) < (boxes[$1]!.x, $1) }
            let words = leftToRight.flatMap { lines[$0].words }
            let box = leftToRight.compactMap { boxes[$0] }.reduce(nil as BoundingBox?) { acc, b in acc.map { $0.union(b) } ?? b }
            let sorted = members.sorted()
            out.append(Row(line: OCRLine(words: words, box: box), source: sorted[0], members: sorted))
        }
        for (i, l) in lines.enumerated() where l.box == nil { out.append(Row(line: l, source: i, members: [i])) }
        // Top to bottom by the row's first (leftmost) member; source order breaks ties.
        // Top to bottom (by the row's leftmost member; source order breaks ties). Measured against source
        // order on the true SROIE text: the same but for one receipt each way.
        // (Each row's place worked out once, not at every comparison.)
        out = out.map { ($0, rowY($0, boxes)) }.sorted { ($0.1, $0.0.source) < ($1.1, $1.0.source) }.map(\.0)
        if debugDump {
            for r in out { FileHandle.standardError.write("[\(r.source)] \(r.members) \(r.line.text)\n".data(using: .utf8)!) }
        }
        return out
    }

    /// The vertical centre (doubled) of a row's leftmost member; rows without a box sort by their neighbours' place.
    private static func rowY(_ r: Row, _ boxes: [BoundingBox?]) -> Int {
        guard let b = r.members.compactMap({ boxes[$0] }).min(by: { $0.x < $1.x }) else { return Int.max }
        return b.y * 2 + b.height
    }
}
