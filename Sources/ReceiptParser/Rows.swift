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
        var boxed = 0
        for l in lines where (l.box?.height ?? 0) > 0 { boxed += 1 }
        guard lines.count > 1, boxed * 10 >= lines.count * 9 else {
            return lines.enumerated().map { Row(line: $0.element, source: $0.offset, members: [$0.offset]) }
        }

        // The boxes once (each comparison below asked the line for its box), unwrapped: a line without a box
        // gets a zero box here and never joins a row (only the lines in `order` do).
        let boxes = lines.map(\.box)
        let bx = boxes.map { $0 ?? BoundingBox(x: 0, y: 0, width: 0, height: 0) }
        // Rows under construction, as lists through the lines (no array per row, copied out and released at
        // every comparison): row g's first member is `head[g]`, its last `tail[g]`, the member after line m
        // `next[m]` (-1: none), in the order they joined.
        var head: [Int] = [], tail: [Int] = []
        var next = [Int](repeating: -1, count: lines.count)
        // The bottom (`maxY`) of row g's lowest member: a row that ends above a line's top cannot take it
        // (its nearest member's overlap would be none), so it is passed over without walking its members (a
        // speed trick: lines are taken top to bottom, and most of the rows in the window lie above).
        var bottom: [Int] = []
        let order = lines.indices.filter { boxes[$0] != nil }.sorted {
            let a = bx[$0], b = bx[$1]
            return (a.y * 2 + a.height, a.x, $0) < (b.y * 2 + b.height, b.x, $1)
        }
        // (At most a row a line: made at that size once, not grown again and again.)
        head.reserveCapacity(order.count)
        tail.reserveCapacity(order.count)
        bottom.reserveCapacity(order.count)
        for i in order {
            let b = bx[i]
            var best: (group: Int, overlap: Double)?
            for g in max(0, head.count - rowWindow)..<head.count where bottom[g] > b.y {
                // Compare with the member nearest in x (tolerant of skew along a long row).
                var nearest: BoundingBox?
                var clash = false
                var gap = Int.max
                var m = head[g]
                while m >= 0 {
                    let mb = bx[m]
                    let hOverlap = min(mb.maxX, b.maxX) - max(mb.x, b.x)
                    if hOverlap > min(mb.height, b.height) / 2 { clash = true; break }
                    let d = max(mb.x - b.maxX, b.x - mb.maxX, 0)
                    if d < gap { gap = d; nearest = mb }
                    m = next[m]
                }
                guard !clash, let n = nearest else { continue }
                let v = Double(min(n.maxY, b.maxY) - max(n.y, b.y)) / Double(max(1, min(n.height, b.height)))
                if v >= minOverlap, best == nil || v > best!.overlap { best = (g, v) }
            }
            if let g = best?.group {
                next[tail[g]] = i
                tail[g] = i
                bottom[g] = max(bottom[g], b.maxY)
            } else {
                head.append(i)
                tail.append(i)
                bottom.append(b.maxY)
            }
        }
        // Lines without a box stay where they were, on their own.
        var out: [Row] = []
        out.reserveCapacity(head.count)
        for g in head.indices {
            // A row of one line is that line as it was (an OCRLine is its words and its box, and the box is there).
            guard next[head[g]] >= 0 else {
                out.append(Row(line: lines[head[g]], source: head[g], members: [head[g]]))
                continue
            }
            // (Counted first, the array made at its size once: appends grew it again and again.)
            var size = 0
            var m = head[g]
            while m >= 0 { size += 1; m = next[m] }
            var members: [Int] = []
            members.reserveCapacity(size)
            m = head[g]
            while m >= 0 { members.append(m); m = next[m] }
            let leftToRight = members.sorted { (bx[$0].x, $0) < (bx[$1].x, $1) }
            var words: [OCRWord] = []
            // (Made at its size once: an append of each member's words grew it again and again.)
            var count = 0
            for i in leftToRight { count += lines[i].words.count }
            words.reserveCapacity(count)
            var box: BoundingBox?
            for i in leftToRight {
                words.append(contentsOf: lines[i].words)
                box = box.map { $0.union(bx[i]) } ?? bx[i]
            }
            let sorted = members.sorted()
            out.append(Row(line: OCRLine(words: words, box: box), source: sorted[0], members: sorted))
        }
        for (i, l) in lines.enumerated() where l.box == nil { out.append(Row(line: l, source: i, members: [i])) }
        // Top to bottom (by the row's leftmost member; source order breaks ties). Measured against source
        // order on the true SROIE text: the same but for one receipt each way.
        // (Each row's place worked out once, not at every comparison; the rows' indexes sorted, not the rows:
        // no two rows share a source, so the order is the same.)
        let places = out.map { rowY($0, boxes) }
        out = out.indices.sorted { (places[$0], out[$0].source) < (places[$1], out[$1].source) }.map { out[$0] }
        if debugDump {
            for r in out { FileHandle.standardError.write("[\(r.source)] \(r.members) \(r.line.text)\n".data(using: .utf8)!) }
        }
        return out
    }

    /// The vertical centre (doubled) of a row's leftmost member; rows without a box sort by their neighbours' place.
    private static func rowY(_ r: Row, _ boxes: [BoundingBox?]) -> Int {
        // (The first of the leftmost, as `compactMap` then `min(by:)` gives it, without the array.)
        var leftmost: BoundingBox?
        for m in r.members {
            if let b = boxes[m], leftmost == nil || b.x < leftmost!.x { leftmost = b }
        }
        guard let b = leftmost else { return Int.max }
        return b.y * 2 + b.height
    }
}
