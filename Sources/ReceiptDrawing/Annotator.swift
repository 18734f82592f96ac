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
/// values in blue, line items in green, rejected candidates in red, each labelled. Pictures
/// come back as page images (RGBA with boxes, grey without); the caller encodes them
/// (`PNGEncoder` in ingest). Boxes are in the pixels of the image given.
public enum Annotator {
    /// The colour of each kind.
    public static func colour(_ k: Annotation.Kind) -> RGB {
        switch k {
        case .chosen: RGB(0, 90, 230)
        case .rejected: RGB(220, 30, 30)
        case .lineItem: RGB(0, 150, 60)
        }
    }

    /// `image` in colour with every annotation drawn: the boxes on the receipt, the labels in a
    /// white margin on its right (so they never hide the print), each joined to its box by a
    /// line. Nil only for an image too large to draw on.
    public static func picture(_ image: PageImage, _ annotations: [Annotation]) -> PageImage? {
        // Leptonica's font sizes, points at 300 ppi: 8 is about 33 pixels from line to line.
        let font: BitmapFont = image.width >= 900 ? .size8 : .size6
        let widest = annotations.map { font.width(of: $0.label) }.max() ?? 0
        guard var canvas = Canvas(image, marginRight: 48 + widest) else { return nil }
        let ascent = max(8, font.ascent)
        let lineStep = ascent * 3 / 2 + 4
        let thickness = image.width >= 900 ? 3 : 2
        let pad = 3
        // Rejected first, so a chosen box drawn over the same line stays visible.
        let order: [Annotation.Kind] = [.rejected, .lineItem, .chosen]
        for a in annotations.sorted(by: { order.firstIndex(of: $0.kind)! < order.firstIndex(of: $1.kind)! }) {
            canvas.frame(a.box.padded(by: pad), thickness: thickness, colour(a.kind))
        }
        // Labels top to bottom in the margin, each as near its box's middle as the one above allows.
        var lastBaseline = 0
        let x0 = image.width + 32
        for a in annotations.sorted(by: { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }) {
            let middle = a.box.y + a.box.height / 2
            let baseline = max(middle + ascent / 2, lastBaseline + lineStep)
            lastBaseline = baseline
            canvas.line(from: (a.box.maxX + pad + thickness, middle), to: (x0 - 6, baseline - ascent / 2), colour(a.kind))
            canvas.text(a.label, x: x0, baseline: baseline, font: font, colour(a.kind))
        }
        return canvas.image(name: image.name, resolution: image.resolution)
    }

    /// A small picture of one part of the page, for a report (`eval --html`): the pixels of
    /// `image` inside `region` (clipped to the image), `box` (in `image`'s pixels) drawn in
    /// `kind`'s colour when given, shrunk (never enlarged) to fit `maxWidth` × `maxHeight`.
    /// Grey without a box, colour with one; nil when the region holds no pixels.
    public static func crop(_ image: PageImage, region: BoundingBox, box: BoundingBox? = nil, kind: Annotation.Kind = .chosen,
                            maxWidth: Int = 640, maxHeight: Int = 480) -> PageImage? {
        guard maxWidth > 0, maxHeight > 0, var part = image.cropped(to: region) else { return nil }
        let x0 = max(0, region.x), y0 = max(0, region.y)
        let factor = min(1, Double(maxWidth) / Double(part.width), Double(maxHeight) / Double(part.height))
        if let box {
            guard var canvas = Canvas(part) else { return nil }
            // Thick enough to stay visible after shrinking.
            let thickness = max(2, Int((2 / factor).rounded()))
            let moved = BoundingBox(x: box.x - x0, y: box.y - y0, width: box.width, height: box.height)
            canvas.frame(moved.padded(by: thickness + 1), thickness: thickness, colour(kind))
            guard let drawn = canvas.image(name: part.name, resolution: part.resolution) else { return nil }
            part = drawn
        }
        return factor < 1 ? part.shrunk(by: factor) : part
    }

    /// Of the image turned by 0–3 quarter turns, the one the page's word boxes fit: same size,
    /// and darkest inside the boxes (ink where the words were read). The pipeline may have
    /// turned the page upright before reading it; the stored reading does not say how far.
    public static func orient(_ image: PageImage, to page: OCRPage) -> PageImage {
        let boxes = page.lines.flatMap { $0.words.compactMap(\.box) }
        var best: (ink: Double, image: PageImage)?
        for turns in 0..<4 {
            let candidate = turns == 0 ? image : image.rotated(quarterTurns: turns)
            guard candidate.width == page.width, candidate.height == page.height else { continue }
            let ink = darkness(candidate, in: boxes)
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

extension BoundingBox {
    /// The box grown by `pad` pixels on every side.
    func padded(by pad: Int) -> BoundingBox { BoundingBox(x: x - pad, y: y - pad, width: width + 2 * pad, height: height + 2 * pad) }
}
