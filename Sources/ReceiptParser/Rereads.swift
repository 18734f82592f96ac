import Foundation
import ReceiptModel

/// A line of the first page read to be read again alone (single-line mode), and why: the
/// rows that carry or may carry a field. The pipeline reads `region`; the parser puts what
/// it read in place of the row (`parse(_:rereads:)`). Pure: a stored reading replays it.
public struct RereadTarget: Sendable, Hashable {
    /// Index in `OCRPage.lines` of the line that asked for it.
    public var line: Int
    /// What to read, in page pixels: the row across the whole page width (on photos the amount
    /// column drifts away from its label), with a margin of a quarter of its height.
    public var region: BoundingBox
    public var why: String
}

/// What a single-line re-read of `region` gave.
public struct Reread: Sendable, Hashable {
    public var line: Int
    public var region: BoundingBox
    public var page: OCRPage

    public init(line: Int, region: BoundingBox, page: OCRPage) {
        self.line = line; self.region = region; self.page = page
    }

    /// The line re-reads a stored reading holds.
    public static func all(in reading: OCRReading) -> [Reread] {
        reading.lineRereads.compactMap { look in
            look.line.flatMap { line in look.region.map { Reread(line: line, region: $0, page: look.page) } }
        }
    }
}

extension ReceiptParser {
    /// The rows worth reading again alone: totals, subtotals, tax, cash and change lines, and
    /// lines with a date or a time of day. Needs boxes (none without them); at most `limit`, top to bottom.
    public func rereadTargets(_ page: OCRPage, limit: Int = 12) -> [RereadTarget] {
        guard page.width > 0, page.height > 0 else { return [] }
        var out: [RereadTarget] = []
        var covered: [BoundingBox] = []
        for (i, line) in page.lines.enumerated() {
            guard let box = line.box, box.height > 2 else { continue }
            let w = WordLine(line.text)
            let why: String?
            if compiled.best(compiled.total, in: w) != nil || compiled.best(compiled.subtotal, in: w) != nil { why = "total" }
            else if compiled.best(compiled.tax, in: w) != nil { why = "tax" }
            else if compiled.best(compiled.cash, in: w) != nil || compiled.best(compiled.change, in: w) != nil { why = "payment" }
            else if !DateScanner.scan(line.text.uppercased(), months: compiled.months).isEmpty || compiled.dateKeyword(w) > 0 { why = "date" }
            // A time of day: tills print the date beside it, and a date misread there ("Junl?8'16 09:35PM") may read alone.
            else if Self.timeOfDay.matches(in: line.text).first != nil { why = "date" }
            else { why = nil }
            guard let why else { continue }
            let margin = max(2, box.height / 4)
            let y = max(0, box.y - margin)
            let region = BoundingBox(x: 0, y: y, width: page.width, height: min(page.height, box.maxY + margin) - y)
            // A row already inside another target's band is read with it.
            if covered.contains(where: { Self.verticalOverlap($0, box) >= 0.5 }) { continue }
            covered.append(region)
            out.append(RereadTarget(line: i, region: region, why: why))
            if out.count == limit { break }
        }
        return out
    }

    /// The page with each re-read row in place of what the page read there: the lines that sat
    /// in the re-read band (the label and the amounts beside it) give way to the re-read line.
    /// A re-read that found nothing leaves the page alone.
    public func applying(_ rereads: [Reread], to page: OCRPage) -> OCRPage {
        let lines = page.lines
        var replaced = Set<Int>()
        var added: [(at: Int, line: OCRLine)] = []
        for r in rereads {
            let words = r.page.lines.flatMap(\.words).filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
            guard !words.isEmpty, r.line < lines.count else { continue }
            let inBand = lines.indices.filter { i in
                guard let b = lines[i].box else { return i == r.line }
                return Self.verticalOverlap(r.region, b) >= 0.6 && b.height <= r.region.height
            }
            replaced.formUnion(inBand)
            added.append((r.line, OCRLine(words: words)))
        }
        guard !added.isEmpty else { return page }
        var out: [OCRLine] = []
        for (i, l) in lines.enumerated() {
            for a in added where a.at == i { out.append(a.line) }
            if !replaced.contains(i) { out.append(l) }
        }
        return OCRPage(lines: out, width: page.width, height: page.height)
    }

    static let timeOfDay = Pattern(#"(?<!\d)(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?!\d)"#)

    /// How much of `b`'s height lies within `a`'s vertical extent, 0...1.
    static func verticalOverlap(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let top = max(a.y, b.y), bottom = min(a.maxY, b.maxY)
        return b.height > 0 ? Double(max(0, bottom - top)) / Double(b.height) : 0
    }
}
