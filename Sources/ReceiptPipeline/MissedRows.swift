import Foundation
import ReceiptModel

/// Rows of print the page read skipped: where the image holds a band of ink and the page read
/// returned no line there (or one of a character or two), that band is read again alone. A
/// faded header, a name in a larger font, or a line Tesseract's layout analysis took for a
/// picture comes back this way.
enum MissedRows {
    /// A horizontal band of the page holding ink, in page pixels.
    struct Band: Equatable {
        var y0: Int, y1: Int, x0: Int, x1: Int
        var height: Int { y1 - y0 }
        var box: BoundingBox { BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
    }

    /// At most this many bands are read again on one page (top to bottom: names are printed first).
    static let limit = 6

    /// The bands of ink the page read has no line for, as regions to read alone (with a margin of a
    /// fifth of their height). Bands shorter than 6 px (specks), under half the height of the page's lines
    /// with their margins (rules, rows of dots) or taller than an eighth of the page (pictures, a photo's
    /// background) are left alone, and so is a page too small to measure.
    static func regions(_ image: PageImage, read page: OCRPage) -> [BoundingBox] {
        guard image.width >= 100, image.height >= 100 else { return [] }
        // Lines without boxes (an engine that gives none) cannot say where they were read.
        guard page.lines.isEmpty || page.lines.contains(where: { $0.box != nil }) else { return [] }
        let lineBoxes = page.lines.compactMap { l -> BoundingBox? in
            l.text.filter { $0.isLetter || $0.isNumber }.count >= 3 ? l.box : nil
        }
        // A band half as tall as the page's lines, its margins counted, is a rule or a row of dots ("851x10" under
        // lines of 22 px): no field is printed that small, and Tesseract takes long over a thin strip that wide.
        let heights = lineBoxes.map(\.height).sorted()
        let lowest = heights.isEmpty ? 0 : heights[heights.count / 2] / 2
        var out: [BoundingBox] = []
        for band in bands(image) where band.height >= 6 && band.height <= image.height / 8 {
            // Read already: a line of the page lies in the band (half the band's height or more).
            let read = lineBoxes.contains { b in
                let top = max(b.y, band.y0), bottom = min(b.maxY, band.y1)
                return Double(max(0, bottom - top)) >= 0.5 * Double(min(band.height, b.height))
            }
            if read { continue }
            let m = max(2, band.height / 5)
            let region = BoundingBox(x: band.x0 - m, y: band.y0 - m, width: band.x1 - band.x0 + 2 * m, height: band.height + 2 * m)
            if let r = region.clamped(toWidth: image.width, height: image.height), r.height >= lowest { out.append(r) }
            if out.count == limit { break }
        }
        return out
    }

    /// Bands of rows with ink, top to bottom: a row holds ink when at least one pixel in 300 across it
    /// is darker than the page's Otsu threshold; rows of ink one blank row apart make one band.
    static func bands(_ image: PageImage) -> [Band] {
        let t = threshold(image)
        let w = image.width, h = image.height, bpp = image.bytesPerPixel, bpr = image.bytesPerRow
        let minInk = max(2, w / 300)
        var rowInk = [Int](repeating: 0, count: h)
        var left = [Int](repeating: w, count: h), right = [Int](repeating: -1, count: h)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                var n = 0, l = w, r = -1
                let row = y * bpr
                for x in 0..<w where Int(p[row + x * bpp]) < t {
                    n += 1
                    if x < l { l = x }
                    r = x
                }
                rowInk[y] = n; left[y] = l; right[y] = r
            }
        }
        var out: [Band] = []
        var y = 0
        while y < h {
            guard rowInk[y] >= minInk else { y += 1; continue }
            var band = Band(y0: y, y1: y + 1, x0: left[y], x1: right[y] + 1)
            var gap = 0
            y += 1
            while y < h, gap <= 1 {
                if rowInk[y] >= minInk {
                    band.y1 = y + 1; band.x0 = min(band.x0, left[y]); band.x1 = max(band.x1, right[y] + 1); gap = 0
                } else {
                    gap += 1
                }
                y += 1
            }
            out.append(band)
        }
        return out
    }

    /// Otsu's threshold over the page's grey levels (every other pixel of every other row).
    static func threshold(_ image: PageImage) -> Int {
        var hist = [Int](repeating: 0, count: 256)
        let bpp = image.bytesPerPixel, bpr = image.bytesPerRow
        image.pixels.withUnsafeBufferPointer { p in
            for y in stride(from: 0, to: image.height, by: 2) {
                let row = y * bpr
                for x in stride(from: 0, to: image.width, by: 2) { hist[Int(p[row + x * bpp])] += 1 }
            }
        }
        let total = hist.reduce(0, +)
        guard total > 0 else { return 128 }
        let sumAll = hist.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var sumB = 0.0, wB = 0, best = 0.0, t = 128
        for i in 0..<256 {
            wB += hist[i]
            guard wB > 0 else { continue }
            let wF = total - wB
            guard wF > 0 else { break }
            sumB += Double(i * hist[i])
            let mB = sumB / Double(wB), mF = (sumAll - sumB) / Double(wF)
            let between = Double(wB) * Double(wF) * (mB - mF) * (mB - mF)
            if between > best { best = between; t = i }
        }
        return t
    }
}
