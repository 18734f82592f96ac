internal import CLeptonica
import Foundation
import ReceiptModel

/// One box to draw on a receipt image, with its label.
public struct Annotation: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The value a field took.
        case chosen
        /// A candidate the parser rejected.
        case rejected
        /// A line item.
        case lineItem
    }
    public var box: BoundingBox
    public var label: String
    public var kind: Kind
    public init(box: BoundingBox, label: String, kind: Kind) { self.box = box; self.label = label; self.kind = kind }
}

/// Draws field boxes on the image the parser read (`receipts show --annotate`): the chosen
/// values in blue, line items in green, rejected candidates in red, each labelled.
public enum Annotator {
    /// RGB of each kind.
    static func colour(_ k: Annotation.Kind) -> (Int32, Int32, Int32) {
        switch k {
        case .chosen: (0, 90, 230)
        case .rejected: (220, 30, 30)
        case .lineItem: (0, 150, 60)
        }
    }

    /// A PNG of `image` in colour with every annotation drawn: the boxes on the receipt, the
    /// labels in a white margin on its right (so they never hide the print), each joined to
    /// its box by a line; nil if Leptonica fails.
    public static func png(_ image: PageImage, _ annotations: [Annotation]) -> Data? {
        _ = PixImage.silenceOnce
        // Leptonica's font sizes are points at 300 ppi: 8 is about 33 pixels from line to line.
        let size: Int32 = image.width >= 900 ? 8 : 6
        guard let font = rc_bmfCreate(size) else { return nil }
        defer { rc_bmfDestroy(font) }
        // ASCII only: the font's characters.
        let labels = annotations.map { String($0.label.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? Character($0) : "?" }) }
        let widest = labels.map { l in l.withCString { Int(rc_bmfWidth(font, $0)) } }.max() ?? 0
        let margin = 48 + widest
        guard let grey = PixImage(image), let colour32 = PixImage(owning: rc_pixConvertTo32(grey.handle)),
              let pix = PixImage(owning: rc_pixAddWhiteRight(colour32.handle, Int32(margin))) else { return nil }
        let ascent = max(8, rc_bmfAscent(font))
        let lineStep = ascent * 3 / 2 + 4
        let thickness: Int32 = image.width >= 900 ? 3 : 2
        let pad: Int32 = 3
        // Rejected first, so a chosen box drawn over the same line stays visible.
        let order: [Annotation.Kind] = [.rejected, .lineItem, .chosen]
        for a in annotations.sorted(by: { order.firstIndex(of: $0.kind)! < order.firstIndex(of: $1.kind)! }) {
            let (r, g, b) = colour(a.kind)
            _ = rc_pixRenderBox(pix.handle, Int32(a.box.x) - pad, Int32(a.box.y) - pad, Int32(a.box.width) + 2 * pad,
                                Int32(a.box.height) + 2 * pad, thickness, r, g, b)
        }
        // Labels top to bottom in the margin, each as near its box's middle as the one above allows.
        var lastBaseline: Int32 = 0
        let x0 = Int32(image.width) + 32
        for (a, text) in zip(annotations, labels).sorted(by: { ($0.0.box.y, $0.0.box.x) < ($1.0.box.y, $1.0.box.x) }) {
            let (r, g, b) = colour(a.kind)
            let middle = Int32(a.box.y + a.box.height / 2)
            let baseline = max(middle + ascent / 2, lastBaseline + lineStep)
            lastBaseline = baseline
            _ = rc_pixRenderLine(pix.handle, Int32(a.box.maxX) + pad + thickness, middle, x0 - 6, baseline - ascent / 2, 1, r, g, b)
            _ = text.withCString { rc_pixSetTextline(pix.handle, font, $0, r, g, b, x0, baseline) }
        }
        return pix.pngData()
    }

    /// Of the image turned by 0–3 quarter turns, the one the page's word boxes fit: same size,
    /// and darkest inside the boxes (ink where the words were read). The pipeline may have
    /// turned the page upright before reading it; the stored reading does not say how far.
    public static func orient(_ image: IngestedImage, to page: OCRPage) -> IngestedImage {
        let boxes = page.lines.flatMap { $0.words.compactMap(\.box) }
        var best: (ink: Double, image: IngestedImage)?
        for turns in 0..<4 {
            let candidate = turns == 0 ? image : image.rotated(quarterTurns: turns)
            guard candidate.width == page.width, candidate.height == page.height else { continue }
            let ink = darkness(candidate.pageImage, in: boxes)
            if best == nil || ink > best!.ink { best = (ink, candidate) }
        }
        return best?.image ?? image
    }

    /// Mean darkness (255 − grey) of the pixels inside `boxes`, sampled on a grid.
    public static func darkness(_ p: PageImage, in boxes: [BoundingBox]) -> Double {
        var sum = 0.0, n = 0.0
        for b in boxes {
            for y in stride(from: max(0, b.y), to: min(p.height, b.maxY), by: 2) {
                for x in stride(from: max(0, b.x), to: min(p.width, b.maxX), by: 2) {
                    let i = y * p.bytesPerRow + x * p.bytesPerPixel
                    let grey = p.bytesPerPixel == 1 ? Double(p.pixels[i])
                        : (Double(p.pixels[i]) + Double(p.pixels[i + 1]) + Double(p.pixels[i + 2])) / 3
                    sum += 255 - grey
                    n += 1
                }
            }
        }
        return n == 0 ? 0 : sum / n
    }
}
