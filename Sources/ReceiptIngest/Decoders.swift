import Foundation
import ReceiptModel

/// An image file format: what decoders say they read, what errors name, and which file
/// extensions a folder walk picks up. Every format and its extensions are declared here once:
/// those a decoder reads (each decoder lists them in `formats`) and those none reads
/// (`withoutDecoder`).
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// Short lower-case identifier ("jpeg", "webp").
    public let rawValue: String
    /// As people write it ("JPEG", "WebP"), for the "supported: …" list.
    public let name: String
    /// File extensions (lower-case, no dot) that name this format.
    public let fileExtensions: [String]

    public init(_ rawValue: String, name: String, fileExtensions: [String]) {
        self.rawValue = rawValue; self.name = name; self.fileExtensions = fileExtensions
    }

    public var description: String { name }

    public static let jpeg = ImageFormat("jpeg", name: "JPEG", fileExtensions: ["jpg", "jpeg", "jpe"])
    public static let png = ImageFormat("png", name: "PNG", fileExtensions: ["png"])
    public static let tiff = ImageFormat("tiff", name: "TIFF", fileExtensions: ["tif", "tiff"])
    public static let bmp = ImageFormat("bmp", name: "BMP", fileExtensions: ["bmp"])
    public static let gif = ImageFormat("gif", name: "GIF", fileExtensions: ["gif"])
    public static let webp = ImageFormat("webp", name: "WebP", fileExtensions: ["webp"])
    public static let pnm = ImageFormat("pnm", name: "PNM", fileExtensions: ["pnm", "pbm", "pgm", "ppm"])
    public static let heif = ImageFormat("heif", name: "HEIC/HEIF", fileExtensions: ["heic", "heif", "hif"])
    public static let avif = ImageFormat("avif", name: "AVIF", fileExtensions: ["avif"])
    public static let pdf = ImageFormat("pdf", name: "PDF", fileExtensions: ["pdf"])

    // Formats people keep receipts (or photos and scans of them) in that no decoder here reads.
    public static let jpegXL = ImageFormat("jxl", name: "JPEG XL", fileExtensions: ["jxl"])
    public static let jpeg2000 = ImageFormat("jp2", name: "JPEG 2000", fileExtensions: ["jp2", "j2k", "jpf"])
    public static let cameraRaw = ImageFormat("raw", name: "camera raw",
                                              fileExtensions: ["dng", "cr2", "cr3", "nef", "arw", "orf", "rw2", "raf"])
    public static let photoshop = ImageFormat("psd", name: "Photoshop", fileExtensions: ["psd"])
    public static let svg = ImageFormat("svg", name: "SVG", fileExtensions: ["svg"])
    public static let eps = ImageFormat("eps", name: "EPS", fileExtensions: ["eps"])
    public static let xps = ImageFormat("xps", name: "XPS", fileExtensions: ["xps", "oxps"])
    public static let djvu = ImageFormat("djvu", name: "DjVu", fileExtensions: ["djvu", "djv"])
    public static let ofd = ImageFormat("ofd", name: "OFD", fileExtensions: ["ofd"])

    /// The formats above that nothing here decodes. A folder walk still takes their files, so
    /// that each fails saying why ("not an image (supported: …)") instead of vanishing among
    /// the "other files".
    public static let withoutDecoder: [ImageFormat] = [.jpegXL, .jpeg2000, .cameraRaw, .photoshop, .svg, .eps, .xps, .djvu, .ofd]
}

/// The limits a decoder checks before it spends memory on a page (decompression bombs,
/// documents of thousands of pages). From `IngestOptions`.
public struct DecodeLimits: Sendable, Hashable {
    /// Refuse a page with more pixels than this, judged from its header before it is decoded.
    public var maxPixels: Int
    /// Refuse a file with more pages than this (multi-page TIFF, PDF).
    public var maxPages: Int
    /// The resolution a page without its own pixels (a PDF page) is rendered at for OCR.
    public var renderDPI: Int
    /// Only grey is wanted (OCR): a decoder that can decode grey directly does, and never holds
    /// the colour page (a 600-dpi A4 JPEG: 35 MB instead of 139 MB).
    public var grayscale: Bool
    /// A page with more pixels than this is read at half its size (again while it is still over):
    /// a decoder that can decode smaller does (libjpeg), normalisation halves the others. 0: never.
    public var reduceAbove: Int
    /// A decoder whose library prints to stderr with no hook to route it (Poppler's Cairo font engine) points
    /// descriptor 2 elsewhere while the library runs and keeps what it said (`IngestOptions.capturesLibraryStderr`).
    public var capturesLibraryStderr: Bool

    public init(maxPixels: Int, maxPages: Int, renderDPI: Int, grayscale: Bool = false, reduceAbove: Int = 0, capturesLibraryStderr: Bool = false) {
        self.maxPixels = maxPixels; self.maxPages = maxPages; self.renderDPI = renderDPI; self.grayscale = grayscale
        self.reduceAbove = reduceAbove; self.capturesLibraryStderr = capturesLibraryStderr
    }

    /// How many times smaller (1, 2, 4 or 8) a `width` × `height` page is read: halved while over `reduceAbove`.
    public func reduction(width: Int, height: Int) -> Int {
        guard reduceAbove > 0, width > 0, height > 0 else { return 1 }
        var r = 1
        while r < 8, (width / r) * (height / r) > reduceAbove { r *= 2 }
        return r
    }

    /// Throws `.tooLarge` when a `width` × `height` page is over the limit.
    public func check(width: Int, height: Int, name: String, page: Int? = nil) throws(IngestError) {
        if width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow || width * height > maxPixels {
            throw IngestError(file: name, reason: .tooLarge(width: width, height: height, limit: maxPixels), page: page)
        }
    }
}

/// What a decoder found at the start of the bytes.
public struct SniffedImage: Sendable, Hashable {
    public var format: ImageFormat
    /// The (first) page's size from the header; 0 when the header does not give it.
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int = 0, height: Int = 0) {
        self.format = format; self.width = width; self.height = height
    }
}

/// One decoded page, before normalisation.
public struct DecodedPage: Sendable {
    /// The pixels, in the form the decoder made them (a decoder outside this module gives a
    /// `PageImage`); normalisation takes them over from here (see `DecodedPixels`).
    let pixels: any DecodedPixels
    /// What the decoder did to the pixels before handing them on ("EXIF orientation 6: rotate 90°").
    public var steps: [String] = []
    /// The page's own text with word boxes in the page's pixels (a PDF's text layer):
    /// when present, the page is parsed from it and never OCR'd.
    public var textLayer: OCRPage?
    /// The page's size in the file (upright) when the decoder made it smaller (libjpeg's scaled
    /// decoding); nil when the pixels are the file's size.
    public var originalSize: (width: Int, height: Int)?

    /// A page another decoder made (grey or RGBA bytes).
    public init(_ image: PageImage, steps: [String] = [], textLayer: OCRPage? = nil) {
        self.init(pixels: image, steps: steps, textLayer: textLayer)
    }

    init(pixels: any DecodedPixels, steps: [String] = [], textLayer: OCRPage? = nil, originalSize: (width: Int, height: Int)? = nil) {
        self.pixels = pixels; self.steps = steps; self.textLayer = textLayer; self.originalSize = originalSize
    }

    public var width: Int { pixels.width }
    public var height: Int { pixels.height }
}

extension PageImage {
    /// A grey page made from colour pixels (a decoder's own RGB output: libheif's, Cairo's), rows
    /// 4-byte aligned: `rgb(x, y)` gives a pixel's red, green and blue, and its grey is
    /// (77 R + 150 G + 29 B) / 256. Nil when the sizes do not make a page.
    static func grey(name: String, width: Int, height: Int, resolution: (x: Int, y: Int) = (0, 0),
                     rgb: (_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int)) -> PageImage? {
        guard width > 0, height > 0 else { return nil }
        let bpr = alignedBytesPerRow(width: width, bytesPerPixel: 1)
        let grey = [UInt8](unsafeUninitializedCapacity: bpr * height) { out, count in
            out.initialize(repeating: 255)
            for y in 0..<height {
                for x in 0..<width {
                    let (r, g, b) = rgb(x, y)
                    out[y * bpr + x] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                }
            }
            count = bpr * height
        }
        return PageImage(name: name, width: width, height: height, bytesPerPixel: 1, bytesPerRow: bpr, pixels: grey, resolution: resolution)
    }
}

/// Turns the bytes of an image file into pages. A file is a list of pages: one for most
/// formats, several for a multi-page TIFF or PDF. A new format is a new decoder added to
/// `ImageDecoders`; nothing else in the ingest stage names formats.
public protocol ImageDecoder: Sendable {
    /// The formats this decoder reads, in the order error messages list them.
    var formats: [ImageFormat] { get }
    /// What the bytes are, judged from their content (never from the file name), when this
    /// decoder reads them; nil otherwise. Cheap: called for every file before any decoding.
    func sniff(_ data: Data) -> SniffedImage?
    /// The file's pages in order (at least one), or an error naming `name`
    /// (`.truncated`, `.decodeFailed`, `.tooLarge` for a page over `limits` found before decoding it).
    func decode(_ data: Data, sniffed: SniffedImage, name: String, limits: DecodeLimits) throws(IngestError) -> [DecodedPage]
}

/// The decoders the ingest stage tries, in order: the first whose `sniff` recognises the bytes decodes them.
public struct ImageDecoders: Sendable, Hashable {
    public var decoders: [any ImageDecoder]

    public init(_ decoders: [any ImageDecoder]) { self.decoders = decoders }

    /// Leptonica: JPEG, PNG, TIFF, BMP, GIF, WebP, PNM; libheif: HEIC/HEIF, AVIF; Poppler: PDF.
    public static let standard = ImageDecoders([LeptonicaDecoder(), HEIFDecoder(), PDFDecoder()])

    /// Every format the decoders read, in their order, each once.
    public var formats: [ImageFormat] {
        var seen = Set<ImageFormat>()
        return decoders.flatMap(\.formats).filter { seen.insert($0).inserted }
    }

    /// The extensions of the formats the decoders read.
    public var fileExtensions: Set<String> { Set(formats.flatMap(\.fileExtensions)) }

    /// The extensions of every file worth trying as a receipt: the formats the decoders read
    /// and those nothing here decodes (`ImageFormat.withoutDecoder`), so such a file is tried
    /// and fails with its reason.
    public var receiptExtensions: Set<String> { fileExtensions.union(ImageFormat.withoutDecoder.flatMap(\.fileExtensions)) }

    /// The first decoder that recognises the bytes, with what it found.
    public func sniff(_ data: Data) -> (decoder: any ImageDecoder, image: SniffedImage)? {
        for d in decoders { if let s = d.sniff(data) { return (d, s) } }
        return nil
    }

    /// Two registries are equal when they list decoders of the same types reading the same formats.
    public static func == (a: ImageDecoders, b: ImageDecoders) -> Bool { a.signature == b.signature }
    public func hash(into h: inout Hasher) { h.combine(signature) }
    private var signature: [String] {
        decoders.map { "\(String(reflecting: type(of: $0))):\($0.formats.map(\.rawValue).joined(separator: ","))" }
    }
}
