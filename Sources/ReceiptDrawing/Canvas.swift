import ReceiptModel

/// A colour, 8 bits a channel.
public struct RGB: Sendable, Hashable {
    public var red, green, blue: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) { self.red = red; self.green = green; self.blue = blue }
    public static let white = RGB(255, 255, 255)
}

/// A colour picture to draw on: boxes, lines and text, clipped to its edges. Its pixels are
/// laid out as an RGBA `PageImage` (R, G, B, A = 255; rows of `4 × width` bytes from the top),
/// which `image` hands over without a copy: one full-size buffer from the page to the PNG
/// encoder. Coordinates are pixels from the top-left corner.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    private var pixels: [UInt8]

    /// `image` in colour (a grey page as grey RGB), with `marginRight` white columns added on
    /// its right; nil for a negative margin or a size a `PageImage` cannot hold.
    public init?(_ image: PageImage, marginRight: Int = 0) {
        let (w, h) = (image.width + marginRight, image.height)
        guard marginRight >= 0, 4 * w <= Int(Int32.max), !(4 * w).multipliedReportingOverflow(by: h).overflow else { return nil }
        width = w; height = h
        let bpp = image.bytesPerPixel, srcRow = image.bytesPerRow
        pixels = [UInt8](unsafeUninitializedCapacity: 4 * w * h) { out, count in
            out.initialize(repeating: 255)
            image.pixels.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    var s = y * srcRow, d = 4 * w * y
                    for _ in 0..<image.width {
                        let (r, g, b) = bpp == 1 ? (src[s], src[s], src[s]) : (src[s], src[s + 1], src[s + 2])
                        out[d] = r; out[d + 1] = g; out[d + 2] = b
                        s += bpp
                        d += 4
                    }
                }
            }
            count = 4 * w * h
        }
    }

    /// The colour at (`x`, `y`), which must be inside.
    public subscript(x: Int, y: Int) -> RGB {
        let i = 4 * (y * width + x)
        return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// The picture as an RGBA page image (the pixels moved, not copied).
    public consuming func image(name: String = "", resolution: (x: Int, y: Int) = (0, 0)) -> PageImage? {
        PageImage(name: name, width: width, height: height, bytesPerPixel: 4, bytesPerRow: 4 * width, pixels: pixels,
                  resolution: resolution)
    }

    /// Sets the pixels of a rectangle, the part of it inside the picture.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ c: RGB) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return }
        let stride = 4 * width
        pixels.withUnsafeMutableBufferPointer { p in
            for row in y0..<y1 {
                var i = row * stride + 4 * x0
                for _ in x0..<x1 {
                    p[i] = c.red; p[i + 1] = c.green; p[i + 2] = c.blue
                    i += 4
                }
            }
        }
    }

    /// The outline of `box` (its edges are the box's first and last rows and columns), `thickness`
    /// pixels wide, centred on those edges (an even thickness has its extra pixel above and to the
    /// left of them, as Leptonica draws it).
    public mutating func frame(_ box: BoundingBox, thickness t: Int, _ c: RGB) {
        guard box.width > 0, box.height > 0, t > 0 else { return }
        let outside = t / 2
        let (left, top) = (box.x - outside, box.y - outside)
        let (right, bottom) = (box.maxX - 1 - outside, box.maxY - 1 - outside)  // where the last column's and row's band start
        let (across, down) = (right + t - left, bottom + t - top)
        fill(x: left, y: top, width: across, height: t, c)
        fill(x: left, y: bottom, width: across, height: t, c)
        fill(x: left, y: top, width: t, height: down, c)
        fill(x: right, y: top, width: t, height: down, c)
    }

    /// A one-pixel line from `a` to `b`, both ends included: one pixel per step along the longer
    /// axis, the other coordinate rounded (the points Leptonica's line drawing chose).
    public mutating func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), _ c: RGB) {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let steps = max(abs(dx), abs(dy))
        guard steps > 0 else { return set(a.x, a.y, c) }
        if abs(dx) >= abs(dy) {
            let slope = Float(dy) / Float(abs(dx))
            for i in 0...steps { set(a.x + i * dx.signum(), Int(Double(Float(a.y) + Float(i) * slope) + 0.5), c) }
        } else {
            let slope = Float(dx) / Float(abs(dy))
            for i in 0...steps { set(Int(Double(Float(a.x) + Float(i) * slope) + 0.5), a.y + i * dy.signum(), c) }
        }
    }

    /// `text` in `font`, starting at `x` with its baseline on row `baseline`; characters the font
    /// does not have are drawn as '?'.
    public mutating func text(_ text: String, x: Int, baseline: Int, font: BitmapFont, _ c: RGB) {
        var pen = x
        for scalar in text.unicodeScalars {
            let g = font.glyph(scalar)
            for gy in 0..<g.inkHeight {
                for gx in 0..<g.inkWidth where font.ink(g, gx, gy) {
                    set(pen + g.inkX + gx, baseline + g.inkTop + gy, c)
                }
            }
            pen += g.advance + font.kern
        }
    }

    private mutating func set(_ x: Int, _ y: Int, _ c: RGB) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = 4 * (y * width + x)
        pixels[i] = c.red; pixels[i + 1] = c.green; pixels[i + 2] = c.blue
    }
}
