internal import CTesseract
import Foundation

/// Owns one Leptonica PIX. The only Swift type that holds a PIX pointer.
///
/// `@unchecked Sendable`: a `PixImage` is never mutated after it is made
/// (every operation returns a new image), and Leptonica reads of a PIX from
/// several threads are safe; the handle is freed once, in `deinit`.
package final class PixImage: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Takes ownership of a PIX returned by a Leptonica call; nil if the call failed.
    init?(owning handle: UnsafeMutableRawPointer?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { rc_pixDestroy(handle) }

    package var width: Int { Int(rc_pixWidth(handle)) }
    package var height: Int { Int(rc_pixHeight(handle)) }
    package var depth: Int { Int(rc_pixDepth(handle)) }

    /// Lends the raw PIX to `body` (Tesseract's `TessBaseAPISetImage2`); the image lives at least as long as the call.
    package func withUnsafeHandle<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(handle) }
    }

    static func decode(_ data: Data) -> PixImage? {
        data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return PixImage(owning: rc_pixReadMem(base, raw.count))
        }
    }

    /// 8-bit grayscale (luminance for colour, colormaps removed).
    func grayscale() -> PixImage? {
        switch depth {
        case 8: return PixImage(owning: rc_pixRemoveColormapToGray(handle)).flatMap { $0.depth == 8 ? $0 : $0.grayscale() }
        case 32: return PixImage(owning: rc_pixLuminance(handle))
        default: return PixImage(owning: rc_pixConvertTo8(handle))
        }
    }

    func scaled(by factor: Double) -> PixImage? {
        PixImage(owning: rc_pixScale(handle, Float(factor), Float(factor)))
    }

    /// Rotated clockwise by `quarterTurns` × 90°.
    func rotated(quarterTurns: Int) -> PixImage? {
        let q = ((quarterTurns % 4) + 4) % 4
        return q == 0 ? self : PixImage(owning: rc_pixRotateOrth(handle, Int32(q)))
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

    /// The paper's box when the image shows it on a darker background (a photo on a table), else nil.
    func paperBox() -> (x: Int, y: Int, width: Int, height: Int)? {
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        guard rc_paperBox(handle, &x, &y, &w, &h) == 1 else { return nil }
        return (Int(x), Int(y), Int(w), Int(h))
    }

    func clipped(x: Int, y: Int, width: Int, height: Int) -> PixImage? {
        PixImage(owning: rc_pixClip(handle, Int32(x), Int32(y), Int32(width), Int32(height)))
    }

    /// A 64-bit hash of size, depth and pixels.
    var pixelHash: UInt64 { UInt64(rc_pixHash(handle)) }

    /// PNG bytes of the image.
    func pngData() -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard rc_pixWritePng(&bytes, &size, handle) == 0, let bytes else { return nil }
        defer { rc_free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// Leptonica prints its own errors to stderr; ours name the file instead.
    static let silenceOnce: Void = { rc_quiet() }()
}

/// What the file's first bytes say it is, and its size from the header.
struct ImageHeader {
    var format: ImageFormat
    var width: Int
    var height: Int

    static func read(_ data: Data) -> ImageHeader? {
        data.withUnsafeBytes { raw -> ImageHeader? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count >= 12 else { return nil }
            var format: Int32 = 0
            guard rc_findFormat(base, &format) == 0, let f = ImageFormat(leptonicaCode: Int(format)) else { return nil }
            var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0
            guard rc_pixReadHeaderMem(base, raw.count, &format, &w, &h, &bps, &spp) == 0 else {
                return ImageHeader(format: f, width: 0, height: 0)
            }
            return ImageHeader(format: f, width: Int(w), height: Int(h))
        }
    }
}

extension ImageFormat {
    init?(leptonicaCode: Int) {
        switch leptonicaCode {
        case 1: self = .bmp
        case 2: self = .jpeg
        case 3: self = .png
        case 4...10, 17: self = .tiff
        case 11: self = .pnm
        case 13: self = .gif
        case 15: self = .webp
        default: return nil
        }
    }
}
