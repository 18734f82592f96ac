import ReceiptModel

extension PageImage {
    /// The image shrunk by `factor` (0 < `factor` ≤ 1; the size rounded to whole pixels, at
    /// least 1): each new pixel is the mean of the pixels it covers, channel by channel, so
    /// thin lines fade instead of vanishing. Nil for a factor outside that range.
    func shrunk(by factor: Double) -> PageImage? {
        guard factor > 0, factor <= 1 else { return nil }
        let w = max(1, Int(factor * Double(width) + 0.5)), h = max(1, Int(factor * Double(height) + 0.5))
        let bpp = bytesPerPixel, bpr = PageImage.alignedBytesPerRow(width: w, bytesPerPixel: bpp)
        // The columns and rows of the original each new pixel covers: [edge[i], edge[i + 1]).
        let columns = (0...w).map { $0 * width / w }, rows = (0...h).map { $0 * height / h }
        let out = [UInt8](unsafeUninitializedCapacity: bpr * h) { dst, count in
            dst.initialize(repeating: 0)
            pixels.withUnsafeBufferPointer { src in
                var sums = [Int](repeating: 0, count: bpp)
                for ny in 0..<h {
                    for nx in 0..<w {
                        for c in 0..<bpp { sums[c] = 0 }
                        for y in rows[ny]..<rows[ny + 1] {
                            var i = y * bytesPerRow + columns[nx] * bpp
                            for _ in columns[nx]..<columns[nx + 1] {
                                for c in 0..<bpp { sums[c] += Int(src[i + c]) }
                                i += bpp
                            }
                        }
                        let n = (rows[ny + 1] - rows[ny]) * (columns[nx + 1] - columns[nx])
                        for c in 0..<bpp { dst[ny * bpr + nx * bpp + c] = UInt8((sums[c] + n / 2) / n) }
                    }
                }
            }
            count = bpr * h
        }
        // The declared resolution shrinks with the pixels (as Leptonica's scaling keeps it).
        let dpi = (x: Int(factor * Double(resolution.x) + 0.5), y: Int(factor * Double(resolution.y) + 0.5))
        return PageImage(name: name, width: w, height: h, bytesPerPixel: bpp, bytesPerRow: bpr, pixels: out, resolution: dpi)
    }
}
