import ReceiptModel

/// The paper in a photo of a receipt lying on a darker table: on an 8 bpp image shrunk to
/// about 400 px, split bright from dark (Leptonica's Otsu variant), close the text into the
/// paper, and take the largest bright component. Found when it covers 15–90 % of the image and
/// is clearly brighter than the rest; scans, white to their edges, and plain images give nil.
enum PaperFinder {
    /// Longer side of the shrunk copy the search runs on.
    static let searchSize: Float = 400
    /// Closing brick (small-image pixels): text and ruled lines inside the paper join it.
    static let closing = 9
    /// Share of the image the paper must cover.
    static let coverage = 0.15...0.90
    /// How much brighter (grey levels) the paper must be than the rest, on average.
    static let minContrast = 40.0
    /// Margin kept around the paper, in small-image pixels.
    static let margin = 4

    /// The paper's box in `gray`'s pixels, or nil.
    static func paperBox(_ gray: PixImage) -> BoundingBox? {
        let (w, h) = (gray.width, gray.height)
        guard gray.depth == 8, w >= 50, h >= 50 else { return nil }
        let s = min(1, searchSize / Float(max(w, h)))
        guard let small = gray.areaScaled(by: s),
              let threshold = small.foregroundThreshold(),
              let paper = small.binarized(below: threshold, inverted: true),  // paper (bright) = 1
              let joined = paper.closed(width: closing, height: closing),
              let components = joined.componentBoxes(connectivity: 8),
              let pixels = small.pageImage(name: "") else { return nil }
        return choose(components: components, in: pixels, scale: s, fullWidth: w, fullHeight: h)
    }

    /// The decision, given the bright components of the shrunk image `small` (shrunk by `scale`
    /// from `fullWidth` × `fullHeight`): the largest, if it passes the coverage and contrast
    /// checks, with a margin, in full-size pixels.
    static func choose(components: [BoundingBox], in small: PageImage, scale s: Float, fullWidth w: Int, fullHeight h: Int) -> BoundingBox? {
        var best: BoundingBox?, area = 0
        for c in components where c.width * c.height > area { area = c.width * c.height; best = c }
        guard let b = best else { return nil }
        let (sw, sh) = (small.width, small.height)
        let fraction = Double(area) / (Double(sw) * Double(sh))
        // Mean grey inside the box and outside it, on every other pixel.
        var inside = 0.0, outside = 0.0, nIn = 0, nOut = 0
        for y in stride(from: 0, to: sh, by: 2) {
            for x in stride(from: 0, to: sw, by: 2) {
                let v = Double(small[x, y])
                if x >= b.x, x < b.maxX, y >= b.y, y < b.maxY { inside += v; nIn += 1 } else { outside += v; nOut += 1 }
            }
        }
        guard coverage.contains(fraction), nIn > 0, nOut > 0,
              inside / Double(nIn) - outside / Double(nOut) >= minContrast else { return nil }
        let x = max(0, b.x - margin), y = max(0, b.y - margin)
        // Back to full size the way the C version did it: Float division, truncated.
        let bx = Int(Float(x) / s), by = Int(Float(y) / s)
        let bw = min(Int(Float(b.width + 2 * margin) / s), w - bx), bh = min(Int(Float(b.height + 2 * margin) / s), h - by)
        return BoundingBox(x: bx, y: by, width: bw, height: bh)
    }
}
