import ReceiptSupport
/// One page as an OCR engine reads it: plain pixel bytes, row by row from the top, no C type.
/// The ingest stage makes it once, at the end of normalisation; engines, the OCR cache and
/// tests need nothing else (no Leptonica, no file).
///
/// A value type over a copy-on-write array: copies share the pixels until one is changed.
public struct PageImage: Sendable {
    /// What to call the image in messages (the file name).
    public let name: String
    public let width: Int
    public let height: Int
    /// 1: 8-bit grey. 4: 8-bit R, G, B, A (alpha ignored by OCR).
    public let bytesPerPixel: Int
    /// Bytes from the start of one row to the next (at least `width * bytesPerPixel`).
    public let bytesPerRow: Int
    /// `height` rows of `bytesPerRow` bytes.
    public let pixels: [UInt8]
    /// Dots per inch the file declared, scaled along with the image; 0 when it declared none.
    /// Engines may use it where their results depend on it (Tesseract's orientation detection does).
    public let resolution: (x: Int, y: Int)

    /// Nil when the sizes do not add up (a depth other than 1 or 4 bytes, rows shorter than
    /// the width, fewer bytes than the rows need), so an engine never reads past the pixels.
    public init?(name: String = "", width: Int, height: Int, bytesPerPixel: Int, bytesPerRow: Int? = nil,
                 pixels: [UInt8], resolution: (x: Int, y: Int) = (0, 0)) {
        let bpl = bytesPerRow ?? width * bytesPerPixel
        guard width > 0, height > 0, bytesPerPixel == 1 || bytesPerPixel == 4,
              bpl >= width * bytesPerPixel, pixels.count >= bpl * height,
              width <= Int(Int32.max), height <= Int(Int32.max), bpl <= Int(Int32.max) else { return nil }
        self.name = name; self.width = width; self.height = height; self.bytesPerPixel = bytesPerPixel
        self.bytesPerRow = bpl; self.pixels = pixels; self.resolution = resolution
    }

    /// The pixels inside `box` (clipped to the image) as an image of their own; nil when none are.
    public func cropped(to box: BoundingBox) -> PageImage? {
        let x0 = max(0, box.x), y0 = max(0, box.y), x1 = min(width, box.maxX), y1 = min(height, box.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        let w = x1 - x0, rowBytes = w * bytesPerPixel
        let bpr = Self.alignedBytesPerRow(width: w, bytesPerPixel: bytesPerPixel)
        var out = [UInt8](repeating: 0, count: bpr * (y1 - y0))
        for y in y0..<y1 {
            let from = y * bytesPerRow + x0 * bytesPerPixel, to = (y - y0) * bpr
            out[to..<to + rowBytes] = pixels[from..<from + rowBytes]
        }
        return PageImage(name: name, width: w, height: y1 - y0, bytesPerPixel: bytesPerPixel, bytesPerRow: bpr,
                         pixels: out, resolution: resolution)
    }

    /// Bytes per row that keep rows 4-byte aligned (what `rotated` and the ingest stage make).
    public static func alignedBytesPerRow(width: Int, bytesPerPixel: Int) -> Int { (width * bytesPerPixel + 3) / 4 * 4 }

    /// The grey value (1 byte per pixel) or the first channel (red) at `x`, `y`.
    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * bytesPerRow + x * bytesPerPixel] }

    /// The same pixels under another name.
    public func named(_ name: String) -> PageImage {
        PageImage(unchecked: name, width, height, bytesPerPixel, bytesPerRow, pixels, resolution)
    }

    private init(unchecked name: String, _ w: Int, _ h: Int, _ bpp: Int, _ bpl: Int, _ pixels: [UInt8], _ res: (x: Int, y: Int)) {
        self.name = name; width = w; height = h; bytesPerPixel = bpp; bytesPerRow = bpl; self.pixels = pixels; resolution = res
    }

    /// Images stacked top to bottom, left-aligned; a narrower one is padded with white (255)
    /// on the right. All must have the same depth; nil otherwise or for none. The first
    /// image's name and resolution.
    public static func stacked(_ images: [PageImage]) -> PageImage? {
        guard let first = images.first, images.allSatisfy({ $0.bytesPerPixel == first.bytesPerPixel }) else { return nil }
        let bpp = first.bytesPerPixel, w = images.map(\.width).max()!, h = images.map(\.height).reduce(0, +)
        let bpr = alignedBytesPerRow(width: w, bytesPerPixel: bpp)
        var out = [UInt8](repeating: 255, count: bpr * h)
        var top = 0
        for image in images {
            let rowBytes = image.width * bpp
            for y in 0..<image.height {
                let from = y * image.bytesPerRow, to = (top + y) * bpr
                out[to..<to + rowBytes] = image.pixels[from..<from + rowBytes]
            }
            top += image.height
        }
        return PageImage(name: first.name, width: w, height: h, bytesPerPixel: bpp, bytesPerRow: bpr, pixels: out,
                         resolution: first.resolution)
    }

    /// The image turned clockwise by `quarterTurns` × 90° (Leptonica's `pixRotateOrth`, in Swift:
    /// the same pixels; the declared resolution is kept as is, as Leptonica keeps it).
    public func rotated(quarterTurns: Int) -> PageImage {
        let q = ((quarterTurns % 4) + 4) % 4
        guard q != 0 else { return self }
        let (w, h, bpp) = (width, height, bytesPerPixel)
        let (dw, dh) = q == 2 ? (w, h) : (h, w)
        let dbpl = Self.alignedBytesPerRow(width: dw, bytesPerPixel: bpp)
        let out = [UInt8](unsafeUninitializedCapacity: dbpl * dh) { dst, count in
            dst.initialize(repeating: 0)
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    // Where pixel (0, y) lands, and how far each next pixel of the row lands from it.
                    var (d, step) = switch q {
                    case 1: ((h - 1 - y) * bpp, dbpl)                       // clockwise: (x, y) → (h-1-y, x)
                    case 2: ((h - 1 - y) * dbpl + (w - 1) * bpp, -bpp)      // (x, y) → (w-1-x, h-1-y)
                    default: ((w - 1) * dbpl + y * bpp, -dbpl)              // counter-clockwise: (x, y) → (y, w-1-x)
                    }
                    var s = y * bytesPerRow
                    for _ in 0..<w {
                        for c in 0..<bpp { dst[d + c] = src[s + c] }
                        d += step
                        s += bpp
                    }
                }
            }
            count = dbpl * dh
        }
        return PageImage(unchecked: name, dw, dh, bpp, dbpl, out, resolution)
    }

    /// A 64-bit FNV-1a hash of the size, the depth and the pixels (not the name, not the padding
    /// at the end of rows, not the resolution): equal pixels, equal hashes. It hashes the same
    /// words as the C hash it replaces (Leptonica's 32-bit words, most significant byte first,
    /// rows padded with zeros), so OCR caches written before stay valid.
    public var pixelHash: UInt64 {
        var h = FNV1a64(basis: FNV1a64.pixelHashBasis)
        for v in [UInt64(width), UInt64(height), UInt64(bytesPerPixel * 8)] { h.add(v) }
        let rowBytes = width * bytesPerPixel, full = rowBytes / 4, tail = rowBytes % 4
        pixels.withUnsafeBytes { raw in
            for y in 0..<height {
                let row = y * bytesPerRow
                for i in 0..<full {
                    h.add(UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: row + 4 * i, as: UInt32.self))))
                }
                if tail > 0 {
                    var word: UInt32 = 0
                    for k in 0..<4 { word = word << 8 | (k < tail ? UInt32(raw[row + 4 * full + k]) : 0) }
                    h.add(UInt64(word))
                }
            }
        }
        return h.value
    }
}
