internal import CLeptonica
internal import CDecoderMessages
import Foundation
import ReceiptModel

/// Owns one Leptonica PIX. The only Swift type that holds a PIX pointer.
///
/// `@unchecked Sendable`: a `PixImage` is never mutated after it is made
/// (every operation returns a new image), and Leptonica reads of a PIX from
/// several threads are safe; the handle is freed once, in `deinit`.
final class PixImage: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Takes ownership of a PIX returned by a Leptonica call; nil if the call failed.
    init?(owning handle: UnsafeMutableRawPointer?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { rc_pixDestroy(handle) }

    var width: Int { Int(rc_pixWidth(handle)) }
    var height: Int { Int(rc_pixHeight(handle)) }
    var depth: Int { Int(rc_pixDepth(handle)) }
    var resolution: (x: Int, y: Int) { (Int(rc_pixXRes(handle)), Int(rc_pixYRes(handle))) }

    static func decode(_ data: Data) -> PixImage? {
        data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return PixImage(owning: rc_pixReadMem(base, raw.count))
        }
    }

    /// A JPEG decoded at 1/`reduction` of its size (1, 2, 4, 8), to its grey (Y) channel only
    /// when `luminance`: the page is never held in full colour, or at full size when it is read smaller.
    static func decodeJPEG(_ data: Data, reduction: Int, luminance: Bool) -> PixImage? {
        data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return PixImage(owning: rc_pixReadMemJpegScaled(base, raw.count, Int32(reduction), luminance ? 1 : 0))
        }
    }

    /// A JPEG Leptonica could not read, decoded by libjpeg from memory to grey at 1/`reduction`:
    /// the page, and how many of its rows were read before an error ended the decode (the rest blank paper).
    static func decodeJPEGPastDamage(_ data: Data, reduction: Int) -> (PixImage, read: Int, rows: Int)? {
        data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var read: Int32 = 0, rows: Int32 = 0
            guard let pix = PixImage(owning: rc_jpeg_read_memory_gray(base, raw.count, Int32(reduction), &read, &rows)) else { return nil }
            return (pix, Int(read), Int(rows))
        }
    }

    /// A PIX holding a copy of `image` (8 bpp grey or 32 bpp RGBA), with its resolution.
    convenience init?(_ image: PageImage) {
        self.init(owning: rc_pixCreate(Int32(image.width), Int32(image.height), Int32(image.bytesPerPixel * 8)))
        rc_pixSetResolution(handle, Int32(image.resolution.x), Int32(image.resolution.y))
        let wpl = Int(rc_pixWpl(handle)), rowBytes = image.width * image.bytesPerPixel
        let words = rc_pixData(handle)!
        image.pixels.withUnsafeBytes { src in
            for y in 0..<image.height {
                let row = words + y * wpl, s = y * image.bytesPerRow
                // Leptonica keeps pixels from the most significant byte of each word.
                for i in 0..<(rowBytes / 4) {
                    row[i] = UInt32(bigEndian: src.loadUnaligned(fromByteOffset: s + 4 * i, as: UInt32.self))
                }
                for i in (rowBytes / 4)..<wpl {
                    var word: UInt32 = 0
                    for k in 0..<4 {
                        let b = 4 * i + k
                        word = word << 8 | (b < rowBytes ? UInt32(src[s + b]) : 0)
                    }
                    row[i] = word
                }
            }
        }
    }

    /// The pixels as plain bytes for OCR: 8 bpp grey stays grey, 32 bpp stays RGBA; other depths
    /// and colormaps (only when grayscale conversion is off) are converted first.
    func pageImage(name: String) -> PageImage? {
        if (depth == 8 && !hasColormap) || depth == 32 { return copyPixels(name: name) }
        if hasColormap {
            return PixImage(owning: rc_pixRemoveColormapBySource(handle)).flatMap { $0.hasColormap ? nil : $0.pageImage(name: name) }
        }
        return PixImage(owning: rc_pixConvertTo8(handle)).flatMap { $0.depth == 8 && !$0.hasColormap ? $0.copyPixels(name: name) : nil }
    }

    private var hasColormap: Bool { rc_pixHasColormap(handle) != 0 }

    /// Leptonica's words, most significant byte first, as bytes in pixel order (rows keep their 4-byte padding).
    private func copyPixels(name: String) -> PageImage? {
        guard depth == 8 || depth == 32, let words = rc_pixData(handle) else { return nil }
        let wpl = Int(rc_pixWpl(handle)), h = height
        let bytes = [UInt8](unsafeUninitializedCapacity: 4 * wpl * h) { buf, count in
            let out = UnsafeMutableRawPointer(buf.baseAddress!)
            for i in 0..<(wpl * h) { out.storeBytes(of: words[i].bigEndian, toByteOffset: 4 * i, as: UInt32.self) }
            count = 4 * wpl * h
        }
        return PageImage(name: name, width: width, height: h, bytesPerPixel: depth / 8, bytesPerRow: 4 * wpl,
                         pixels: bytes, resolution: resolution)
    }

    /// 8-bit grayscale (luminance for colour, colormaps removed).
    func grayscale() -> PixImage? {
        switch depth {
        case 8: return PixImage(owning: rc_pixRemoveColormapToGray(handle)).flatMap { $0.depth == 8 ? $0 : $0.grayscale() }
        case 32: return PixImage(owning: rc_pixLuminance(handle))
        default: return PixImage(owning: rc_pixConvertTo8(handle))
        }
    }

    /// Turned and mirrored as `orientation` says (EXIF, HEIF): a new image; nil if Leptonica fails.
    func oriented(_ orientation: ImageOrientation) -> PixImage? {
        var out: PixImage? = self
        if orientation.quarterTurns != 0 { out = out.flatMap { PixImage(owning: rc_pixRotateOrth($0.handle, Int32(orientation.quarterTurns))) } }
        if orientation.mirrorLeftRight { out = out.flatMap { PixImage(owning: rc_pixFlipLR($0.handle)) } }
        if orientation.mirrorTopBottom { out = out.flatMap { PixImage(owning: rc_pixFlipTB($0.handle)) } }
        return out
    }

    func scaled(by factor: Double) -> PixImage? {
        PixImage(owning: rc_pixScale(handle, Float(factor), Float(factor)))
    }

    /// Deskewed copy and the angle found (degrees), searched at reduction 2.
    func deskewed() -> (PixImage, Double)? {
        var angle: Float = 0, conf: Float = 0
        guard let out = PixImage(owning: rc_pixFindSkewAndDeskew(handle, 2, &angle, &conf)) else { return nil }
        return (out, Double(angle))
    }

    /// Leptonica's local contrast normalisation (8 bpp only).
    func contrastNormalized(tile: Int, minDiff: Int, smooth: Int) -> PixImage? {
        guard depth == 8 else { return nil }
        return PixImage(owning: rc_pixContrastNorm(handle, Int32(tile), Int32(tile), Int32(minDiff), Int32(smooth)))
    }

    func clipped(to b: BoundingBox) -> PixImage? {
        PixImage(owning: rc_pixClip(handle, Int32(b.x), Int32(b.y), Int32(b.width), Int32(b.height)))
    }

    /// Shrunk by `factor` averaging the pixels each new one covers (`pixScaleAreaMap`).
    /// Half the size each way, each pixel the mean of the four it replaces (Leptonica's 2× area map).
    func halved() -> PixImage? { PixImage(owning: rc_pixScaleAreaMap2(handle)) }
    func areaScaled(by factor: Float) -> PixImage? { PixImage(owning: rc_pixScaleAreaMap(handle, factor, factor)) }

    /// Leptonica's split of the grey levels into foreground and background (`pixSplitDistributionFgBg`).
    func foregroundThreshold() -> Int? {
        var t: Int32 = 0
        return rc_pixSplitDistributionFgBg(handle, 0.0, 1, &t) == 0 ? Int(t) : nil
    }

    /// 1 bpp: 1 where the grey value is below `threshold` (dark), or at or above it when `inverted`.
    func binarized(below threshold: Int, inverted: Bool) -> PixImage? {
        guard let bin = PixImage(owning: rc_pixThresholdToBinary(handle, Int32(threshold))) else { return nil }
        if inverted { rc_pixInvertInPlace(bin.handle) }  // not yet shared: still ours to change
        return bin
    }

    /// Morphological closing with a `width` × `height` brick.
    func closed(width: Int, height: Int) -> PixImage? { PixImage(owning: rc_pixCloseBrick(handle, Int32(width), Int32(height))) }

    /// The bounding boxes of the connected components (8-connected unless `connectivity` is 4).
    func componentBoxes(connectivity: Int = 8) -> [BoundingBox]? {
        guard let boxa = rc_pixConnCompBoxes(handle, Int32(connectivity)) else { return nil }
        defer { rc_boxaDestroy(boxa) }
        return (0..<Int(rc_boxaCount(boxa))).compactMap { i in
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard rc_boxaGeometry(boxa, Int32(i), &x, &y, &w, &h) == 0 else { return nil }
            return BoundingBox(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
        }
    }

    /// PNG bytes of the image.
    func pngData() -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard rc_pixWritePng(&bytes, &size, handle) == 0, let bytes else { return nil }
        defer { rc_free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// Leptonica, libpng and libjpeg would print their own lines on stderr; their words are
    /// kept per thread instead (`LibraryMessages`) and ours name the file.
    static let silenceOnce: Void = { rc_messages_install() }()
}

/// Leptonica's decoders: JPEG (turned upright as its EXIF orientation says), PNG, TIFF (every
/// page of a multi-page file), BMP, GIF, WebP, PNM.
public struct LeptonicaDecoder: ImageDecoder {
    public init() {}

    public var formats: [ImageFormat] { [.jpeg, .png, .tiff, .bmp, .gif, .webp, .pnm] }

    public func sniff(_ data: Data) -> SniffedImage? {
        _ = PixImage.silenceOnce
        return data.withUnsafeBytes { raw -> SniffedImage? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count >= 12 else { return nil }
            var format: Int32 = 0
            guard rc_findFormat(base, &format) == 0, let f = Self.format(leptonicaCode: Int(format)) else { return nil }
            var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0
            guard rc_pixReadHeaderMem(base, raw.count, &format, &w, &h, &bps, &spp) == 0 else {
                // libjpeg refuses to read a header it cannot decode (a side over 65,500): the frame header still says the size.
                if f == .jpeg, let (w, h) = Self.jpegFrameSize(UnsafeRawBufferPointer(raw)) { return SniffedImage(format: f, width: w, height: h) }
                return SniffedImage(format: f)
            }
            return SniffedImage(format: f, width: Int(w), height: Int(h))
        }
    }

    public func decode(_ data: Data, sniffed: SniffedImage, name: String, limits: DecodeLimits) throws(IngestError) -> [DecodedPage] {
        _ = PixImage.silenceOnce
        if Self.isTruncated(data, format: sniffed.format) { throw IngestError(file: name, reason: .truncated(sniffed.format)) }
        if sniffed.format == .jpeg, max(sniffed.width, sniffed.height) > Self.jpegMaxSide {
            throw IngestError(file: name, reason: .sideTooLong(width: sniffed.width, height: sniffed.height, limit: Self.jpegMaxSide, format: .jpeg))
        }
        rc_messages_clear()
        if sniffed.format == .tiff { return try decodeTIFF(data, sniffed: sniffed, name: name, limits: limits) }
        // A JPEG is decoded by libjpeg itself as small as the read needs, and in grey when only grey
        // is wanted; one it cannot read as grey (a CMYK JPEG has no luminance) in colour, at the same
        // size: a big page is never held whole, not even on the way to failing.
        let reduction = sniffed.format == .jpeg ? limits.reduction(width: sniffed.width, height: sniffed.height) : 1
        var direct: PixImage?
        if sniffed.format == .jpeg {
            direct = PixImage.decodeJPEG(data, reduction: reduction, luminance: limits.grayscale)
            if direct == nil, limits.grayscale {
                rc_messages_clear()
                direct = PixImage.decodeJPEG(data, reduction: reduction, luminance: false)
            }
        }
        var steps: [String] = []
        var leptonicaWords: String?
        if sniffed.format == .jpeg, direct == nil {
            // Leptonica stops at a damaged scan (a bad Huffman code); libjpeg reading from memory goes
            // on past it, as viewers do, and the page says so.
            leptonicaWords = Self.libraryWords()
            rc_messages_clear()
            if let (pix, read, rows) = PixImage.decodeJPEGPastDamage(data, reduction: reduction) {
                direct = pix
                let said = leptonicaWords.map { " (\($0))" } ?? ""
                steps.append(read < rows ? "damaged JPEG\(said): rows 1–\(read) of \(rows) read\(IngestedImage.restLeftBlank)"
                                         : "damaged JPEG\(said) read past the damage")
            }
        }
        guard var pix = sniffed.format == .jpeg ? direct : PixImage.decode(data) else {
            // No size from the header: cut short only when the bytes stop before a whole header (a PNG
            // whose IHDR says width 0 is corrupt, not truncated).
            let headerWhole = sniffed.format == .png ? data.count >= 33 : data.count >= 64
            throw IngestError(file: name, reason: sniffed.width == 0 && !headerWhole ? .truncated(sniffed.format) : .decodeFailed(sniffed.format),
                              detail: leptonicaWords ?? Self.libraryWords())
        }
        var fileSize: (width: Int, height: Int)?
        if reduction > 1 {
            // Leptonica keeps the file's declared resolution; the page now has 1/reduction of it.
            let (xres, yres) = pix.resolution
            rc_pixSetResolution(pix.handle, Int32(xres / reduction), Int32(yres / reduction))
            fileSize = (sniffed.width, sniffed.height)
            steps.append("decode 1/\(reduction)")
        }
        // A phone stores a portrait photo sideways and says so in EXIF: turn it before anything looks at it.
        if sniffed.format == .jpeg, let tag = EXIF.orientation(jpeg: data), let o = ImageOrientation(exif: tag), !o.isUpright {
            guard let turned = pix.oriented(o) else { throw IngestError(file: name, reason: .decodeFailed(.jpeg)) }
            pix = turned
            if o.quarterTurns % 2 == 1, let (w, h) = fileSize { fileSize = (h, w) }
            steps.append("EXIF orientation \(tag): \(o)")
        }
        return [DecodedPage(pixels: pix, steps: steps, originalSize: fileSize)]
    }

    /// Every page of a TIFF, each checked against the limits from its own header before it is decoded.
    private func decodeTIFF(_ data: Data, sniffed: SniffedImage, name: String, limits: DecodeLimits) throws(IngestError) -> [DecodedPage] {
        let result: Result<[DecodedPage], IngestError> = data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return .failure(IngestError(file: name, reason: .empty)) }
            var sizes: [(Int, Int)] = []
            var w: Int32 = 0, h: Int32 = 0
            while sizes.count <= limits.maxPages, rc_readHeaderMemTiff(base, raw.count, Int32(sizes.count), &w, &h) == 0 {
                sizes.append((Int(w), Int(h)))
            }
            if sizes.count > limits.maxPages {
                return .failure(IngestError(file: name, reason: .tooManyPages(count: sizes.count, limit: limits.maxPages)))
            }
            let multi = sizes.count > 1
            for (i, (w, h)) in sizes.enumerated() {
                do { try limits.check(width: w, height: h, name: name, page: multi ? i + 1 : nil) } catch let e as IngestError { return .failure(e) } catch { return .failure(IngestError(file: name, reason: .decodeFailed(.tiff))) }
            }
            // libtiff stops at a cut directory chain without a word: the pages after it would be lost.
            if let layout = TIFFLayout.scan(data, maxPages: limits.maxPages) {
                if layout.pages > limits.maxPages {
                    return .failure(IngestError(file: name, reason: .tooManyPages(count: layout.pages, limit: limits.maxPages)))
                }
                if let cut = layout.truncatedPage {
                    return .failure(IngestError(file: name, reason: .truncated(.tiff), page: layout.pages > 1 || cut > 1 ? cut : nil))
                }
            }
            var pages: [DecodedPage] = []
            var offset = 0
            for i in sizes.indices {
                guard let pix = PixImage(owning: rc_pixReadMemFromMultipageTiff(base, raw.count, &offset)) else {
                    return .failure(IngestError(file: name, reason: .decodeFailed(.tiff), page: multi ? i + 1 : nil))
                }
                pages.append(DecodedPage(pixels: pix))
                if offset == 0 { break }
            }
            if pages.isEmpty { return .failure(IngestError(file: name, reason: sniffed.width == 0 ? .truncated(.tiff) : .decodeFailed(.tiff))) }
            if pages.count < sizes.count {
                return .failure(IngestError(file: name, reason: .truncated(.tiff), page: pages.count + 1))
            }
            return .success(pages)
        }
        return try result.get()
    }

    /// What the libraries said during the last decode on this thread, on one line: the image
    /// library's own words (libpng, libjpeg) when it gave any, else Leptonica's first complaint;
    /// nil when nothing was said.
    static func libraryWords() -> String? {
        var lines: [String] = []
        for line in String(cString: rc_messages_text()).split(separator: "\n").map(String.init) where !lines.contains(line) {
            lines.append(line)
        }
        let own = lines.filter { $0.hasPrefix("libpng: ") || $0.hasPrefix("libjpeg: ") }
        if !own.isEmpty { return own.prefix(2).joined(separator: "; ") }
        guard let first = lines.first else { return nil }
        // "Error in pixReadMemBmp: invalid imagebytes = …" -> "Leptonica: invalid imagebytes = …"
        if first.hasPrefix("Error in "), let colon = first.firstIndex(of: ":") {
            return "Leptonica:" + first[first.index(after: colon)...]
        }
        return "Leptonica: " + first
    }

    /// libjpeg's JPEG_MAX_DIMENSION.
    static let jpegMaxSide = 65500

    /// Width and height from a JPEG's frame header (SOF0–SOF15 but DHT, JPG, DAC), walking the
    /// marker segments; nil when there is none before the scan.
    static func jpegFrameSize(_ b: UnsafeRawBufferPointer) -> (Int, Int)? {
        var i = 2
        while i + 9 <= b.count, b[i] == 0xFF {
            let m = b[i + 1]
            if m == 0xFF { i += 1; continue }  // fill byte
            if (0xC0...0xCF).contains(m), ![0xC4, 0xC8, 0xCC].contains(m) {
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            if m == 0xDA || m == 0xD9 { return nil }
            i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
        }
        return nil
    }

    static func format(leptonicaCode: Int) -> ImageFormat? {
        switch leptonicaCode {
        case 1: .bmp
        case 2: .jpeg
        case 3: .png
        case 4...10, 17: .tiff
        case 11: .pnm
        case 13: .gif
        case 15: .webp
        default: nil
        }
    }

    /// A file that ends before its image does: JPEG without its end marker, PNG without IEND, GIF without its trailer.
    static func isTruncated(_ data: Data, format: ImageFormat) -> Bool {
        // Ignore trailing padding some writers add.
        var end = data.endIndex
        while end > data.startIndex, data[end - 1] == 0 || data[end - 1] == 0x0A || data[end - 1] == 0x0D { end -= 1 }
        let body = data[data.startIndex..<end]
        switch format {
        case .jpeg:
            guard body.count >= 4 else { return true }
            // The end-of-image marker, possibly followed by a few bytes of trailing junk.
            let tail = body.suffix(64)
            return !zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        case .png:
            return body.suffix(16).range(of: Data("IEND".utf8)) == nil
        case .gif:
            return body.last != 0x3B
        default:
            return false
        }
    }
}
