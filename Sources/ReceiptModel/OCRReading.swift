/// What OCR read of one receipt file, as the parser used it: every look it took, with
/// lines, words, boxes and confidences. Parsing it again (`ReceiptParser.parse(_:)` on a
/// reading) gives what the pipeline gave, without running OCR: the store keeps it so
/// `batch --reparse` loses nothing, and a better parser can only do better.
///
/// Layout, so it can grow without a new format: one `Page` per page of the file, each with
/// the page the parser read first (after any orientation fix, in that page's own pixels).
/// The parser reads a file of several pages as one: its pages joined top to bottom
/// (`first`, `pageStarts`). The further looks, in the order they were taken, are looks at
/// what the parser read — the one page, or the joined pages — and are kept with the first
/// page. A look's `kind` is an open string: a later look kind decodes in an older build and
/// is skipped by it.
public struct OCRReading: Sendable, Hashable, Codable {
    /// One page of the file and every look taken at it.
    public struct Page: Sendable, Hashable, Codable {
        /// The page as the parser read it first (after any orientation fix).
        public var first: OCRPage
        /// Further looks, in the order they were taken.
        public var looks: [Look]
        /// True when `first` is the page's own text (a PDF's text layer), not OCR.
        public var textLayer: Bool?
        /// What of the page's image could not be decoded ("rows 1–728 of 970 read, the rest left blank": a damaged
        /// JPEG); nil when all of it was. Kept with the reading, so that a re-parse still knows it.
        public var lostRows: String?

        public init(first: OCRPage, looks: [Look] = [], textLayer: Bool = false, lostRows: String? = nil) {
            self.first = first; self.looks = looks; self.textLayer = textLayer ? true : nil; self.lostRows = lostRows
        }

        enum CodingKeys: String, CodingKey { case first, looks, textLayer = "text_layer", lostRows = "lost_rows" }

        /// The page as the parser reads it: `first` with each missed row's line where it stands
        /// (before the first line below its middle).
        public var read: OCRPage { first.inserting(looks.filter { $0.kind == .missedRow }.flatMap(\.page.lines)) }
    }

    /// Another OCR look at a page, and why it was taken.
    public struct Look: Sendable, Hashable, Codable {
        /// What kind of look: how it relates to the page's first read.
        public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The whole page read again another way, when the first parse doubted its result.
            public static let secondLook = Kind(rawValue: "second-look")
            /// One row of the first read, read again alone (single-line mode) in `region`.
            public static let lineReread = Kind(rawValue: "line-reread")
            /// A band of ink the first read returned no line for, read alone in `region`: its line
            /// joins the page where it stands (`Page.read`).
            public static let missedRow = Kind(rawValue: "missed-row")
            public var description: String { rawValue }
            public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
            public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(rawValue) }
        }
        public var kind: Kind
        /// Why it was taken, e.g. "no date found".
        public var reason: String
        public var page: OCRPage
        /// For a re-read: the line of the first read it stands for, and the rectangle read (page pixels).
        public var line: Int?
        public var region: BoundingBox?

        public init(kind: Kind, reason: String, page: OCRPage, line: Int? = nil, region: BoundingBox? = nil) {
            self.kind = kind; self.reason = reason; self.page = page; self.line = line; self.region = region
        }
    }

    /// The pages of the file, in order; never empty.
    public private(set) var pages: [Page]

    public init(pages first: Page, _ more: [Page] = []) {
        pages = [first] + more
    }

    /// A one-page reading: the first read and, when one was taken, the second look and why.
    public init(first: OCRPage, secondLook: OCRPage? = nil, reason: String? = nil) {
        self.init(pages: Page(first: first, looks: secondLook.map { [Look(kind: .secondLook, reason: reason ?? "", page: $0)] } ?? []))
    }

    /// What the parser reads first: the one page, or every page joined top to bottom, each with
    /// the rows its first read missed in place (`Page.read`).
    public var first: OCRPage { pages.count == 1 ? pages[0].read : OCRPage.joined(pages.map(\.read)).page }

    /// Where each page starts in `first` (y, in its pixels); [0] for one page.
    public var pageStarts: [Int] { pages.count == 1 ? [0] : OCRPage.joined(pages.map(\.read)).starts }

    /// True when every page was read from its own text (a PDF's text layer): no OCR at all.
    public var isTextLayer: Bool { pages.allSatisfy { $0.textLayer == true } }

    /// The line re-reads of `first`, in the order they were taken.
    public var lineRereads: [Look] { pages[0].looks.filter { $0.kind == .lineReread } }

    /// The same reading without the looks of `kind`: what the parser would have had had they not
    /// been taken (eval weighs what each kind of look changed).
    public func withoutLooks(_ kind: Look.Kind) -> OCRReading {
        var out = self
        out.pages = pages.map { p in var p = p; p.looks.removeAll { $0.kind == kind }; return p }
        return out
    }

    /// The second look at `first`, if one was taken.
    public var secondLook: Look? { pages[0].looks.first { $0.kind == .secondLook } }

    enum CodingKeys: String, CodingKey { case pages }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let pages = try c.decode([Page].self, forKey: .pages)
        guard let head = pages.first else {
            throw DecodingError.dataCorruptedError(forKey: .pages, in: c, debugDescription: "a reading has at least one page")
        }
        self.init(pages: head, Array(pages.dropFirst()))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pages, forKey: .pages)
    }
}

extension OCRPage {
    /// The page with `extra` lines put in reading order: each before the first line whose box's
    /// middle lies below its own (at the end when none does, or when it has no box).
    public func inserting(_ extra: [OCRLine]) -> OCRPage {
        guard !extra.isEmpty else { return self }
        var out = lines
        for line in extra {
            guard let b = line.box else { out.append(line); continue }
            let mid = b.y + b.height / 2
            let at = out.firstIndex { l in l.box.map { $0.y + $0.height / 2 > mid } ?? false } ?? out.count
            out.insert(line, at: at)
        }
        return OCRPage(lines: out, width: width, height: height)
    }
}

extension OCRRecording {
    /// The frozen OCR fixture as a reading. A fixture records the second look for every
    /// sample, so a replay uses it exactly when the parser doubts the first.
    public var reading: OCRReading { OCRReading(first: first, secondLook: second, reason: secondReason) }
}
