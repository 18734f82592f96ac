import Foundation
import ReceiptModel

/// A visual row of the receipt: source lines side by side, left to right.
struct Row {
    /// The merged line (words of every member, left to right; the union box).
    var line: OCRLine
    /// Index in `OCRPage.lines` of the first of the merged lines (in source order).
    var source: Int
    /// The merged lines after the first, in source order: empty for a row of one line (no array made for it:
    /// most rows are one line).
    var others: [Int]

    init(line: OCRLine, source: Int, others: [Int] = []) {
        self.line = line
        self.source = source
        self.others = others
    }

    /// Indexes of every merged line, in source order.
    var members: [Int] { [source] + others }
    /// How many lines the row merged.
    var memberCount: Int { 1 + others.count }
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
        // The boxes once (each comparison below asked the line for its box), unwrapped: a line without a box
        // gets a zero box here and never joins a row (only the lines in `order` do). (Written in place: a map by key
        // path, and `init(repeating:count:)` of boxes, were slow.)
        var boxed = 0
        let hasBox = [Bool](unsafeUninitializedCapacity: lines.count) { out, n in
            for i in lines.indices { out[i] = lines[i].box != nil }
            n = lines.count
        }
        let bx = [BoundingBox](unsafeUninitializedCapacity: lines.count) { out, n in
            for i in lines.indices {
                let b = lines[i].box ?? BoundingBox(x: 0, y: 0, width: 0, height: 0)
                out[i] = b
                if b.height > 0 { boxed += 1 }
            }
            n = lines.count
        }
        guard lines.count > 1, boxed * 10 >= lines.count * 9 else {
            return lines.indices.map { Row(line: lines[$0], source: $0) }
        }

        // Rows under construction, as lists through the lines (no array per row, copied out and released at
        // every comparison): row g's first member is `head[g]`, its last `tail[g]`, the member after line m
        // `next[m]` (-1: none), in the order they joined.
        var head: [Int] = [], tail: [Int] = []
        var next = [Int](repeating: -1, count: lines.count)
        // The bottom (`maxY`) of row g's lowest member: a row that ends above a line's top cannot take it
        // (its nearest member's overlap would be none), so it is passed over without walking its members (a
        // speed trick: lines are taken top to bottom, and most of the rows in the window lie above).
        var bottom: [Int] = []
        // (Each line's key made once and the keys sorted, not the indexes by a closure reading two boxes at every
        // comparison: the same order, the index last breaking every tie.)
        var keys: [(Int, Int, Int)] = []
        keys.reserveCapacity(lines.count)
        for i in lines.indices where hasBox[i] { keys.append((bx[i].y * 2 + bx[i].height, bx[i].x, i)) }
        keys.sort { $0 < $1 }
        let order = keys.map { $0.2 }
        // The highest top of the lines from each place in `order` on: a row whose bottom is at or above it takes no
        // line from there on, and the rows before the first that may (`live`) are not asked again (a speed trick:
        // the window's rows were each asked by every line; those passed over are the ones `bottom[g] > b.y` refused).
        var topFrom = [Int](repeating: Int.max, count: order.count + 1)
        for k in stride(from: order.count - 1, through: 0, by: -1) { topFrom[k] = min(topFrom[k + 1], bx[order[k]].y) }
        var live = 0
        // (At most a row a line: made at that size once, not grown again and again.)
        head.reserveCapacity(order.count)
        tail.reserveCapacity(order.count)
        bottom.reserveCapacity(order.count)
        for (k, i) in order.enumerated() {
            let b = bx[i]
            while live < head.count, bottom[live] <= topFrom[k] { live += 1 }
            var best: (group: Int, overlap: Double)?
            for g in max(live, head.count - rowWindow)..<head.count where bottom[g] > b.y {
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
        // Top to bottom (by the row's leftmost member; source order breaks ties). Measured against source
        // order on the true SROIE text: the same but for one receipt each way. Lines without a box stay where they
        // were, on their own, after the rows that have one.
        // (Each row's place and source found from its members, the keys sorted, and the rows made in that order: no
        // rows made first and copied into their order. No two rows share a source, so the order is the one of
        // sorting the rows by place and source.) A row's key: its place, its source, and `g` for row g, -1 - i for
        // the line i without a box.
        var placed: [(Int, Int, Int)] = []
        placed.reserveCapacity(head.count + lines.count - order.count)
        for g in head.indices {
            // The place of the leftmost member (the first in source order of those as far left), and the first member.
            var m = head[g], source = m, left = m
            while m >= 0 {
                if (bx[m].x, m) < (bx[left].x, left) { left = m }
                source = min(source, m)
                m = next[m]
            }
            placed.append((bx[left].y * 2 + bx[left].height, source, g))
        }
        for i in lines.indices where !hasBox[i] { placed.append((Int.max, i, -1 - i)) }
        placed.sort { $0 < $1 }
        var out: [Row] = []
        out.reserveCapacity(placed.count)
        // A merged row's members, left to right, sorted in place here (one buffer for the page).
        var leftToRight: [Int] = []
        for (_, source, g) in placed {
            guard g >= 0 else {
                out.append(Row(line: lines[source], source: source))
                continue
            }
            // A row of one line is that line as it was (an OCRLine is its words and its box, and the box is there).
            guard next[head[g]] >= 0 else {
                out.append(Row(line: lines[head[g]], source: head[g]))
                continue
            }
            leftToRight.removeAll(keepingCapacity: true)
            var m = head[g]
            while m >= 0 { leftToRight.append(m); m = next[m] }
            var others: [Int] = []
            others.reserveCapacity(leftToRight.count - 1)
            for m in leftToRight where m != source { others.append(m) }
            // (Insertion sorts: a row is a few lines. `sorted` gave the same orders, by (x, index) and by index.)
            Self.insertionSort(&leftToRight) { (bx[$0].x, $0) < (bx[$1].x, $1) }
            Self.insertionSort(&others) { $0 < $1 }
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
            out.append(Row(line: OCRLine(words: words, box: box), source: source, others: others))
        }
        if debugDump {
            for r in out { FileHandle.standardError.write("[\(r.source)] \(r.members) \(r.line.text)\n".data(using: .utf8)!) }
        }
        return out
    }

    /// `a` sorted by `less` in place (stable: equal elements keep their order, as `sorted` keeps them).
    @inline(__always) private static func insertionSort(_ a: inout [Int], _ less: (Int, Int) -> Bool) {
        guard a.count > 1 else { return }
        for i in 1..<a.count {
            let x = a[i]
            var j = i
            while j > 0, less(x, a[j - 1]) { a[j] = a[j - 1]; j -= 1 }
            a[j] = x
        }
    }
}
