import Foundation
import ReceiptModel

/// How the text on the image is laid out, which tells an engine how to segment it.
public enum PageLayout: String, Sendable, Hashable, Codable, CaseIterable {
    /// Find the columns and blocks (Tesseract psm 3).
    case auto
    /// One column of text of various sizes (psm 4).
    case singleColumn
    /// One uniform block of text (psm 6): reads receipt dates and totals best (see README).
    case singleBlock
    /// Scattered text in no particular order, as much as can be found (psm 11).
    case sparse
    /// One text line (psm 7): a line or a field read again.
    case singleLine
    /// One word (psm 8).
    case singleWord

    /// The conventional page segmentation number (Tesseract's `--psm`), as the CLI takes it
    /// and as reports name each look ("psm6").
    public var psm: Int {
        switch self {
        case .auto: 3
        case .singleColumn: 4
        case .singleBlock: 6
        case .sparse: 11
        case .singleLine: 7
        case .singleWord: 8
        }
    }

    public init?(psm: Int) {
        guard let l = Self.allCases.first(where: { $0.psm == psm }) else { return nil }
        self = l
    }
}

/// What to read: the whole page or one rectangle of it, and how it is laid out.
public struct OCRRequest: Sendable, Hashable, Codable {
    /// Nil: the engine's default layout.
    public var layout: PageLayout?
    /// Read only this part of the page (page pixels). Nil: the whole page.
    /// Boxes in the result are still in page coordinates.
    public var region: BoundingBox?
    /// Keep the reader's other candidates for each digit (`OCRWord.alternatives`), when the engine
    /// can: they cost about a tenth of a read, so the pipeline asks for them only on the looks it
    /// takes because a receipt is in doubt (second look, rows re-read), where a sum may repair a digit.
    public var alternatives: Bool

    public init(layout: PageLayout? = nil, region: BoundingBox? = nil, alternatives: Bool = false) {
        self.layout = layout; self.region = region; self.alternatives = alternatives
    }

    enum CodingKeys: String, CodingKey { case layout, region, alternatives }

    /// Requests written before `alternatives` existed read as without them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        layout = try c.decodeIfPresent(PageLayout.self, forKey: .layout)
        region = try c.decodeIfPresent(BoundingBox.self, forKey: .region)
        alternatives = try c.decodeIfPresent(Bool.self, forKey: .alternatives) ?? false
    }

    /// The whole page in the engine's default layout.
    public static let page = OCRRequest()

    /// What the OCR cache keys a reading by: the name, and whether alternatives were kept.
    public var cacheName: String { name + (alternatives ? " alternatives" : "") }

    /// A short name for reports: "default", "psm11", "psm7 region 10,20 300x40".
    public var name: String {
        (layout.map { "psm\($0.psm)" } ?? "default") + (region.map { " region \($0)" } ?? "")
    }
}

extension BoundingBox {
    /// The part of this box inside a `width` × `height` page; nil when none is.
    public func clamped(toWidth width: Int, height: Int) -> BoundingBox? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, maxX), y1 = min(height, maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

public enum OCRError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `<language>.traineddata` in any of the searched directories.
    case missingLanguageData(language: String, searched: [String])
    case initFailed(language: String, directory: String)
    case recognitionFailed(file: String)
    case timedOut(file: String, seconds: Double)

    /// What went wrong, without the file name (reports put it beside the message).
    public var message: String {
        switch self {
        case .recognitionFailed: "Tesseract failed to recognise the image"
        case .timedOut(_, let s): "OCR gave up after \(String(format: "%.0f", s)) s (time limit; see --time-limit)"
        default: description
        }
    }

    public var description: String {
        switch self {
        case .missingLanguageData(let lang, let searched):
            let langs = lang.split(separator: "+").map(String.init)
            let looked = "looked in \(searched.joined(separator: ", "))"
            if langs.contains(Tessdata.receiptModel) {
                return "the receipt model (\(Tessdata.receiptModel).traineddata) was not found (\(looked)). It comes with receipts: "
                    + "reinstall with `make install`, point --tessdata at the folder holding it (Model/ in the source tree), "
                    + "or read with stock Tesseract: --model eng."
            }
            let pkg = langs.map { "tesseract-ocr-\($0)" }.joined(separator: " ")
            return "Tesseract language data '\(lang)' not found (\(looked)). "
                + "Install it with `sudo apt-get install \(pkg)`, or set TESSDATA_PREFIX to the folder holding \(langs.first ?? "eng").traineddata."
        case .initFailed(let lang, let dir):
            return "Tesseract could not load language '\(lang)' from \(dir) (corrupt or incompatible traineddata?)"
        case .recognitionFailed(let file), .timedOut(let file, _):
            return "\(file): \(message)"
        }
    }
}

/// Something that turns a page image into an `OCRPage`. Tesseract is the real one;
/// tests of the code around OCR use the doubles in Tests/Support.
/// Engines keep state between calls: not thread-safe, one per worker.
public protocol OCREngine: AnyObject {
    /// Reads `request.region` of the image (all of it when nil) laid out as `request.layout`
    /// (the engine's default when nil). Word and line boxes are in page coordinates.
    func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage
    /// Clockwise quarter turns that make the image upright (0 when upright or unsure).
    func uprightQuarterTurns(_ image: PageImage) throws -> Int
    /// Name and version, stored with each result ("tesseract 5.3.0 eng psm6").
    var identity: String { get }
    /// What a cache of this engine's readings is keyed by: everything that changes what it reads.
    var cacheKey: String { get }
}

public extension OCREngine {
    var cacheKey: String { identity }
}

public extension OCREngine {
    /// The whole page in the engine's default layout.
    func recognize(_ image: PageImage) throws -> OCRPage { try recognize(image, request: .page) }
}
