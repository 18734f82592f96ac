import Foundation
import ReceiptModel

/// Why an image was refused. Always names the file.
public struct IngestError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case missing
        case isDirectory
        /// A FIFO, socket or device: never read (it could block or never end).
        case notRegularFile
        case unreadable(String)
        case empty
        /// No decoder recognised the bytes; `supported` lists what the decoders read.
        case notAnImage(supported: [ImageFormat])
        case truncated(ImageFormat)
        case tooLarge(width: Int, height: Int, limit: Int)
        /// A side longer than the format's decoder can read (libjpeg: 65,500 pixels).
        case sideTooLong(width: Int, height: Int, limit: Int, format: ImageFormat)
        case fileTooLarge(bytes: Int, limit: Int)
        case decodeFailed(ImageFormat)
        /// A multi-page file (TIFF, PDF) with more pages than the limit.
        case tooManyPages(count: Int, limit: Int)
        /// A PDF that needs a password.
        case encrypted(ImageFormat)
        /// The decoding library's own words, for what the cases above do not cover.
        case damaged(ImageFormat, String)
    }

    public var file: String
    public var reason: Reason
    /// The page (1-based) the problem is on, in a multi-page file.
    public var page: Int?
    /// What the image library said while decoding (libpng, libjpeg, Leptonica), when it said anything:
    /// shown after the message instead of on stderr.
    public var detail: String?

    public init(file: String, reason: Reason, page: Int? = nil, detail: String? = nil) {
        self.file = file; self.reason = reason; self.page = page; self.detail = detail
    }

    /// A short code for the reason: stored with failed receipts and printed in summaries.
    public var code: String {
        switch reason {
        case .missing: "missing"
        case .isDirectory: "directory"
        case .notRegularFile: "not-a-file"
        case .unreadable: "unreadable"
        case .empty: "empty"
        case .notAnImage: "not-an-image"
        case .truncated: "truncated"
        case .tooLarge, .sideTooLong, .fileTooLarge: "too-large"
        case .decodeFailed, .damaged: "decode-failed"
        case .tooManyPages: "too-many-pages"
        case .encrypted: "encrypted"
        }
    }

    public var message: String { page.map { "page \($0): " + reasonMessage } ?? reasonMessage }

    private var reasonMessage: String {
        switch reason {
        case .missing: "no such file"
        case .isDirectory: "is a directory, not an image"
        case .notRegularFile: "not a regular file (a FIFO, socket or device), not read"
        case .unreadable(let why): "cannot read the file: \(why)"
        case .empty: "the file is empty"
        case .notAnImage(let formats): "not an image (supported: \(formats.map(\.name).joined(separator: ", ")))"
        case .truncated(let f): "truncated \(f.rawValue.uppercased()) \(f == .pdf ? "document" : "image") (the file ends before the \(f == .pdf ? "document" : "image") does)"
        case .tooLarge(let w, let h, let limit): "image is \(w)×\(h) pixels, over the limit of \(limit / 1_000_000) megapixels"
        case .sideTooLong(let w, let h, let limit, let f):
            "image is \(w)×\(h) pixels, over the \(f.name) decoder's maximum of \(limit) pixels a side"
        case .fileTooLarge(let bytes, let limit): "file is \(bytes / 1_048_576) MiB, over the limit of \(limit / 1_048_576) MiB"
        case .decodeFailed(let f): "the \(f.rawValue.uppercased()) data could not be decoded (corrupt \(f == .pdf ? "document" : "image"))"
        case .tooManyPages(let n, let limit): "\(n) pages, over the limit of \(limit)"
        case .encrypted(let f): "the \(f.rawValue.uppercased()) is encrypted (needs a password)"
        case .damaged(let f, let why): "damaged \(f.rawValue.uppercased()): \(why)"
        }
    }

    /// The message and, in brackets, what the library said (one line).
    public var fullMessage: String { message + (detail.map { " [\($0)]" } ?? "") }

    public var description: String { "\(file): \(fullMessage)" }
}

public struct IngestOptions: Sendable, Hashable {
    /// Refuse images with more pixels than this (decompression bombs), checked from the header before decoding.
    public var maxPixels: Int = 60_000_000
    /// Refuse files larger than this.
    public var maxFileBytes: Int = 100 * 1_048_576
    /// Convert to 8-bit grayscale.
    public var grayscale: Bool = true
    /// Read pages with more pixels than this at half their size (again while still over): a
    /// 600-dpi A4 scan (4961 × 7016, 35 Mpx) at 300 dpi. On the 240 dev scans, the 35 of that size
    /// print their text lines 72 px high (median; 28 px on the others), so halved they still read
    /// larger than the rest, in a quarter of the memory and time. libjpeg decodes a JPEG smaller
    /// directly; other formats are halved after decoding. 0 turns it off.
    public var reduceAbove: Int = 24_000_000
    /// Upscale images whose longer side is below this (pixels); 0 turns it off.
    public var minLongSide: Int = 1000
    /// Straighten a skewed scan (Leptonica's skew search, ±7°) …
    public var deskew: Bool = true
    /// … when it is skewed by at least this many degrees.
    /// (1° rather than 0.1°: on the 240 dev receipts, with contrast normalisation, all-three-right 36.7 → 37.9 %.)
    public var minDeskewDegrees: Double = 1.0
    /// Local contrast normalisation (Leptonica `pixContrastNorm`, 20×20 tiles, min difference 130, smoothing 2):
    /// evens out faded thermal print. Dev set, end to end: vendor +3.4, date +3.4, total +3.4 points.
    /// (Binarising in Leptonica — Sauvola, Otsu — made every field worse: Tesseract binarises gray better.)
    public var contrastNormalize: Bool = true
    /// Crop to the paper when it lies on a clearly darker background (photos); scans are left whole.
    public var cropToPaper: Bool = true
    /// Refuse multi-page files (TIFF, PDF) with more pages than this: one receipt is a few pages.
    public var maxPages: Int = 20
    /// PDF pages without a text layer are rendered at this resolution for OCR.
    public var renderDPI: Int = 300
    /// The decoders tried, in order; the first that recognises the bytes reads them.
    public var decoders: ImageDecoders = .standard
    /// Keep what a library prints to stderr with no hook to route it (Poppler's Cairo font engine: "some font thing
    /// failed") off stderr: descriptor 2 points at a temporary file while that library runs, and what it said becomes
    /// a step of the page (or the error's detail). Off by default, because descriptor 2 is the whole process's: a
    /// line another thread writes there meanwhile (a server's log) would land in the capture, not on stderr. The
    /// `receipts` tool turns it on (its own lines go to `StandardError.fd`, never to descriptor 2).
    public var capturesLibraryStderr: Bool = false

    public init() {}

    public var limits: DecodeLimits { DecodeLimits(maxPixels: maxPixels, maxPages: maxPages, renderDPI: renderDPI, grayscale: grayscale,
                                               reduceAbove: reduceAbove, capturesLibraryStderr: capturesLibraryStderr) }
}

/// One decoded, normalised page, ready for OCR: plain pixels (`pageImage`), no C type.
public struct IngestedImage: Sendable {
    /// What of the page could not be decoded ("rows 1–728 of 970 read, the rest left blank": a JPEG damaged so that
    /// libjpeg stops before its last row, `LeptonicaDecoder`), from its steps; nil when every row was read.
    public var lostRows: String? {
        for s in steps where s.hasPrefix("damaged JPEG") && s.hasSuffix(Self.restLeftBlank) {
            if let r = s.range(of: "rows 1–", options: .backwards) { return String(s[r.lowerBound...]) }
        }
        return nil
    }
    /// How a step that lost rows ends.
    static let restLeftBlank = ", the rest left blank"

    /// The file name (or the name given with the bytes).
    public let name: String
    public let format: ImageFormat
    public let originalWidth: Int
    public let originalHeight: Int
    /// What normalisation did, in order ("grayscale", "scale 1.50", "deskew -2.1°", "rotate 90°").
    public let steps: [String]
    /// The pixels OCR reads.
    public let pageImage: PageImage
    /// The same page before contrast normalisation (nil when none was applied): a second OCR
    /// look at it makes errors independent of the first look's.
    let beforeContrast: PageImage?
    /// The page's own text with word boxes in `pageImage`'s pixels (a PDF's text layer): the
    /// page is parsed from it, without OCR.
    public let textLayer: OCRPage?

    init(name: String, format: ImageFormat, originalWidth: Int, originalHeight: Int, steps: [String], pageImage: PageImage,
         beforeContrast: PageImage? = nil, textLayer: OCRPage? = nil) {
        self.name = name; self.format = format; self.originalWidth = originalWidth; self.originalHeight = originalHeight
        self.steps = steps; self.pageImage = pageImage; self.beforeContrast = beforeContrast; self.textLayer = textLayer
    }

    /// The image without contrast normalisation (itself when none was applied).
    public var withoutContrastNormalization: IngestedImage {
        guard let b = beforeContrast else { return self }
        return IngestedImage(name: name, format: format, originalWidth: originalWidth, originalHeight: originalHeight,
                             steps: steps.filter { $0 != "contrast-norm" }, pageImage: b, textLayer: textLayer)
    }

    /// Pages stacked top to bottom into one image (left-aligned, white to the right of a
    /// narrower page), so that a multi-page receipt is one tall page for the looks taken at
    /// the whole receipt. Nil for no pages; the page itself for one.
    public static func stacked(_ pages: [IngestedImage]) -> IngestedImage? {
        guard let first = pages.first else { return nil }
        guard pages.count > 1, let image = PageImage.stacked(pages.map(\.pageImage)) else { return first }
        let before = pages.allSatisfy { $0.beforeContrast != nil }
            ? PageImage.stacked(pages.map { $0.beforeContrast ?? $0.pageImage }) : nil
        return IngestedImage(name: first.name, format: first.format, originalWidth: pages.map(\.originalWidth).max() ?? 0,
                             originalHeight: pages.map(\.originalHeight).reduce(0, +),
                             steps: ["\(pages.count) pages stacked"], pageImage: image, beforeContrast: before)
    }

    public var width: Int { pageImage.width }
    public var height: Int { pageImage.height }

    /// The same image turned clockwise by `quarterTurns` × 90°.
    public func rotated(quarterTurns: Int) -> IngestedImage {
        let q = ((quarterTurns % 4) + 4) % 4
        guard q != 0 else { return self }
        return IngestedImage(name: name, format: format, originalWidth: originalWidth, originalHeight: originalHeight,
                             steps: steps + ["rotate \(q * 90)°"], pageImage: pageImage.rotated(quarterTurns: q),
                             beforeContrast: beforeContrast?.rotated(quarterTurns: q), textLayer: nil)
    }

    /// The page with faint print brought up: its grey levels stretched so that the darkest ink
    /// (the 1st percentile of the page's pixels, black ones left out) becomes black and the paper
    /// (their median) white. Print faded to light grey on a page with a black edge (a torn thermal
    /// roll, a scanner's border) reads as nothing at all: Tesseract's one threshold falls between
    /// the black and the paper, above the print. Nil for a page that is not grey, or whose ink is
    /// already dark or no darker than its paper. The step reads "faint-print stretch".
    public func faintPrintStretched() -> IngestedImage? {
        guard pageImage.bytesPerPixel == 1, let (ink, paper) = Self.inkAndPaper(pageImage), ink >= Self.darkInk, paper - ink >= 16 else { return nil }
        var map = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { map[v] = UInt8(max(0, min(255, (v - ink) * 255 / (paper - ink)))) }
        let w = pageImage.width, bpr = pageImage.bytesPerRow
        var pixels = [UInt8](repeating: 0, count: w * pageImage.height)
        pageImage.pixels.withUnsafeBufferPointer { src in
            for y in 0..<pageImage.height {
                for x in 0..<w { pixels[y * w + x] = map[Int(src[y * bpr + x])] }
            }
        }
        guard let stretched = PageImage(name: name, width: w, height: pageImage.height, bytesPerPixel: 1, pixels: pixels,
                                        resolution: pageImage.resolution) else { return nil }
        return IngestedImage(name: name, format: format, originalWidth: originalWidth, originalHeight: originalHeight,
                             steps: steps + ["faint-print stretch"], pageImage: stretched, beforeContrast: beforeContrast, textLayer: nil)
    }

    /// Ink this dark or darker is not faint: nothing to stretch.
    static let darkInk = 96
    /// Below this a pixel is an edge, a border or a bar, not print: left out of the levels.
    static let black = 40

    /// The grey level of the darkest ink (1st percentile) and of the paper (median), black pixels left out.
    static func inkAndPaper(_ image: PageImage) -> (ink: Int, paper: Int)? {
        var histogram = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                let row = y * image.bytesPerRow
                for x in 0..<image.width { histogram[Int(p[row + x])] += 1 }
            }
        }
        let counted = histogram[black...].reduce(0, +)
        guard counted > 0 else { return nil }
        func level(_ fraction: Double) -> Int {
            var seen = 0
            for v in black..<256 {
                seen += histogram[v]
                if Double(seen) >= fraction * Double(counted) { return v }
            }
            return 255
        }
        return (level(0.01), level(0.5))
    }

    /// A hash of the pixels OCR sees (not of the file): equal images, equal hashes.
    public var pixelHash: UInt64 { pageImage.pixelHash }

    /// PNG bytes of the normalised image (what OCR sees), for `--save-image`.
    public func pngData() -> Data? { PNGEncoder.encode(pageImage) }
}

/// An image file, decoded and normalised: its pages in order (at least one).
public struct IngestedFile: Sendable {
    /// The file name (or the name given with the bytes).
    public let name: String
    public let format: ImageFormat
    public let pages: [IngestedImage]
    /// How long decoding the file took, and normalising its pages (seconds): for `eval`'s and `make bench`'s stage figures.
    public var decodeSeconds = 0.0
    public var normaliseSeconds = 0.0

    init(name: String, format: ImageFormat, pages: [IngestedImage], decodeSeconds: Double = 0, normaliseSeconds: Double = 0) {
        self.name = name; self.format = format; self.pages = pages
        self.decodeSeconds = decodeSeconds; self.normaliseSeconds = normaliseSeconds
    }
}

/// The ingest stage: bytes or a path in, normalised pages out, or a typed error naming the file.
public enum Ingest {
    public static func load(path: String, options: IngestOptions = IngestOptions()) throws(IngestError) -> IngestedFile {
        let data = try ImageFile.read(path: path, maxBytes: options.maxFileBytes)
        return try load(data: data, name: path, options: options)
    }

    public static func load(data: Data, name: String, options: IngestOptions = IngestOptions()) throws(IngestError) -> IngestedFile {
        _ = PixImage.silenceOnce
        guard !data.isEmpty else { throw IngestError(file: name, reason: .empty) }
        guard data.count <= options.maxFileBytes else {
            throw IngestError(file: name, reason: .fileTooLarge(bytes: data.count, limit: options.maxFileBytes))
        }
        guard let (decoder, header) = options.decoders.sniff(data) else {
            throw IngestError(file: name, reason: .notAnImage(supported: options.decoders.formats))
        }
        let limits = options.limits
        try limits.check(width: header.width, height: header.height, name: name)
        let decodeStart = Date()
        var decoded: [DecodedPage?] = try decoder.decode(data, sniffed: header, name: name, limits: limits)
        let normaliseStart = Date()
        guard !decoded.isEmpty else { throw IngestError(file: name, reason: .decodeFailed(header.format)) }
        if decoded.count > options.maxPages {
            throw IngestError(file: name, reason: .tooManyPages(count: decoded.count, limit: options.maxPages))
        }
        // Some formats (PNM, older TIFFs) give no size in the header: check after decoding.
        for (i, page) in decoded.enumerated() {
            guard let page else { continue }
            try limits.check(width: page.width, height: page.height, name: name, page: decoded.count > 1 ? i + 1 : nil)
        }
        var pages: [IngestedImage] = []
        for i in decoded.indices {
            // Taken out of the list, so the decoded page (a colour scan: 4 bytes a pixel) is freed
            // as soon as normalisation has made its grey copy.
            guard let page = decoded[i].take(),
                  let image = normalise(consume page, name: name, format: header.format, options: options) else {
                throw IngestError(file: name, reason: .decodeFailed(header.format), page: decoded.count > 1 ? i + 1 : nil)
            }
            pages.append(image)
        }
        return IngestedFile(name: name, format: header.format, pages: pages, decodeSeconds: normaliseStart.timeIntervalSince(decodeStart),
                            normaliseSeconds: Date().timeIntervalSince(normaliseStart))
    }
}
