/// A rectangle in image pixels, origin top-left.
public struct BoundingBox: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// The smallest box holding both.
    public func union(_ other: BoundingBox) -> BoundingBox {
        let minX = min(x, other.x), minY = min(y, other.y)
        return BoundingBox(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }

    /// The same box `dx` right and `dy` down.
    public func moved(dx: Int = 0, dy: Int = 0) -> BoundingBox {
        BoundingBox(x: x + dx, y: y + dy, width: width, height: height)
    }

    public var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// One word as the OCR engine read it.
public struct OCRWord: Sendable, Hashable, Codable {
    public var text: String
    public var box: BoundingBox?
    /// 0...1
    public var confidence: Double
    /// The other readings the engine weighed for the word's digits (Tesseract's per-character
    /// choices): the receipt's arithmetic may settle a digit with them. Empty: the engine weighed
    /// nothing else for any digit. Nil: not recorded (no digits, or an engine or reading without them).
    public var alternatives: [OCRAlternative]?

    public init(text: String, box: BoundingBox? = nil, confidence: Double = 1, alternatives: [OCRAlternative]? = nil) {
        self.text = text; self.box = box; self.confidence = confidence; self.alternatives = alternatives
    }
}

/// What else the engine read one character of a word as: at character `at` of the word's text
/// (a digit as read), `characters` in the order the engine preferred them, the first with
/// `confidence` (0...1).
public struct OCRAlternative: Sendable, Hashable, Codable {
    public var at: Int
    public var characters: String
    public var confidence: Double

    public init(at: Int, characters: String, confidence: Double) {
        self.at = at; self.characters = characters; self.confidence = confidence
    }
}

/// One text line: its words in reading order.
public struct OCRLine: Sendable, Hashable, Codable {
    public var words: [OCRWord]
    public var box: BoundingBox?

    public init(words: [OCRWord], box: BoundingBox? = nil) {
        self.words = words
        self.box = box ?? words.compactMap(\.box).reduce(nil) { acc, b in acc.map { $0.union(b) } ?? b }
    }

    /// A line from plain text (fixtures, ground-truth text): words split on spaces, no boxes.
    public init(text: String, box: BoundingBox? = nil, confidence: Double = 1) {
        self.words = text.split(separator: " ", omittingEmptySubsequences: true).map { OCRWord(text: String($0), confidence: confidence) }
        self.box = box
    }

    /// The words joined by single spaces (`words.map(\.text).joined(separator: " ")`), their UTF-8 copied
    /// once into a string of the right size (the parser asks it of every line and row).
    public var text: String {
        switch words.count {
        case 0: return ""
        case 1: return words[0].text
        default:
            var n = words.count - 1
            for w in words { n += w.text.utf8.count }
            return String(unsafeUninitializedCapacity: n) { buf in
                var at = 0
                for (i, w) in words.enumerated() {
                    if i > 0 { buf[at] = 0x20; at += 1 }
                    var t = w.text
                    t.withUTF8 { u in
                        _ = UnsafeMutableBufferPointer(rebasing: buf[at..<(at + u.count)]).initialize(from: u)
                        at += u.count
                    }
                }
                return at
            }
        }
    }

    /// The line and its words' boxes `dx` right and `dy` down (a region's read put back on its page).
    public func moved(dx: Int = 0, dy: Int = 0) -> OCRLine {
        var line = self
        line.box = box?.moved(dx: dx, dy: dy)
        line.words = words.map { w in
            var moved = w
            moved.box = w.box?.moved(dx: dx, dy: dy)
            return moved
        }
        return line
    }

    /// Mean word confidence, 0...1 (1 for an empty line).
    public var confidence: Double {
        // (Summed in the same order as `map(\.confidence).reduce(0, +)`, without the array.)
        guard !words.isEmpty else { return 1 }
        var sum = 0.0
        for w in words { sum += w.confidence }
        return sum / Double(words.count)
    }
}

/// What the OCR stage hands to the parser; engine-independent.
public struct OCRPage: Sendable, Hashable, Codable {
    public var lines: [OCRLine]
    public var width: Int
    public var height: Int

    public init(lines: [OCRLine], width: Int = 0, height: Int = 0) {
        self.lines = lines; self.width = width; self.height = height
    }

    /// A page from plain text, one line per text line (no boxes).
    public init(text: String) {
        self.init(lines: text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { OCRLine(text: String($0)) }
            .filter { !$0.words.isEmpty })
    }

    public var text: String { lines.map(\.text).joined(separator: "\n") }

    /// Mean word confidence over the page, 0...1.
    public var meanConfidence: Double {
        let words = lines.flatMap(\.words)
        return words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }
}

extension OCRPage {
    /// Pages stacked top to bottom as one page, as a receipt printed over several pages is
    /// read: lines in page order, boxes moved down by the heights of the pages above, the
    /// width of the widest page. `starts` is the y at which each page begins.
    public static func joined(_ pages: [OCRPage]) -> (page: OCRPage, starts: [Int]) {
        guard pages.count > 1 else { return (pages.first ?? OCRPage(lines: []), [0]) }
        var lines: [OCRLine] = [], starts: [Int] = [], top = 0
        for p in pages {
            starts.append(top)
            lines += p.lines.map { $0.moved(dy: top) }
            top += p.height
        }
        return (OCRPage(lines: lines, width: pages.map(\.width).max() ?? 0, height: top), starts)
    }
}
