import Foundation
import ReceiptModel

/// A decoded page's pixels, in the form its decoder made them, as normalisation takes them
/// over. Normalisation works on Leptonica's images: Leptonica's own decoder hands its image on
/// as it is (no copy of a page that may be 4961 × 7016); any other decoder's `PageImage` is
/// copied into one once, and freed as soon as the copy is made (`Ingest.normalise` consumes
/// the page). Internal: the decoder protocol speaks `PageImage` only.
protocol DecodedPixels: Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The pixels as a Leptonica image for normalisation: itself, or a copy; nil if Leptonica fails.
    func leptonicaImage() -> PixImage?
    /// The pixels as plain bytes without normalisation (grey when `grayscale`): a page read from
    /// its text layer, whose boxes are in these pixels.
    func unnormalised(name: String, grayscale: Bool) -> PageImage?
}

extension PixImage: DecodedPixels {
    func leptonicaImage() -> PixImage? { self }

    func unnormalised(name: String, grayscale: Bool) -> PageImage? {
        (grayscale ? self.grayscale() : self)?.pageImage(name: name)
    }
}

extension PageImage: DecodedPixels {
    func leptonicaImage() -> PixImage? { PixImage(self) }

    func unnormalised(name: String, grayscale: Bool) -> PageImage? {
        grayscale ? PixImage(self)?.grayscale()?.pageImage(name: name) : self
    }
}

extension Ingest {
    /// Grayscale, crop to the paper, upscale, deskew, contrast; then the pixels are copied out
    /// of Leptonica once (the Leptonica images are freed on return). Nil only if a copy fails.
    static func normalise(_ page: consuming DecodedPage, name: String, format: ImageFormat, options: IngestOptions) -> IngestedImage? {
        let (originalWidth, originalHeight) = page.originalSize ?? (page.width, page.height)
        var steps = page.steps
        // A text layer's boxes are in the decoded page's pixels: the page is kept as it is
        // (grey only), since nothing reads its pixels but `--save-image`.
        if let text = page.textLayer {
            guard let image = page.pixels.unnormalised(name: name, grayscale: options.grayscale) else { return nil }
            return IngestedImage(name: name, format: format, originalWidth: originalWidth, originalHeight: originalHeight,
                                 steps: steps, pageImage: image, textLayer: text)
        }
        guard var pix = page.pixels.leptonicaImage() else { return nil }
        _ = consume page  // from here `pix` holds the only reference to the decoded image
        if options.grayscale, let g = pix.grayscale() {
            pix = g
            steps.append("grayscale")
        }
        // A page its decoder could not read smaller (PNG, TIFF, HEIF) halved here, once it is grey.
        while options.reduceAbove > 0, pix.width * pix.height > options.reduceAbove, let h = pix.halved() {
            pix = h
            steps.append("halve")
        }
        // A photo of the receipt on a table: keep the paper, drop the background (its texture reads as noise).
        if options.cropToPaper, let b = PaperFinder.paperBox(pix), let c = pix.clipped(to: b) {
            pix = c
            steps.append("crop to paper \(b.width)×\(b.height)")
        }
        var scale = 1.0
        let longSide = max(pix.width, pix.height)
        if options.minLongSide > 0, longSide > 0, longSide < options.minLongSide {
            scale = Double(options.minLongSide) / Double(longSide)
        }
        if scale != 1, let s = pix.scaled(by: scale) {
            pix = s
            steps.append(String(format: "scale %.2f", scale))
        }
        if options.deskew, let (d, angle) = pix.deskewed(), abs(angle) >= options.minDeskewDegrees {
            pix = d
            steps.append(String(format: "deskew %.1f°", angle))
        }
        // One copy out of Leptonica at a time, so a large scan is never held three times over.
        var beforeContrast: PageImage?
        if options.contrastNormalize, let c = pix.contrastNormalized(tile: 20, minDiff: 130, smooth: 2) {
            beforeContrast = pix.pageImage(name: name)
            pix = c
            steps.append("contrast-norm")
        }
        guard let pageImage = pix.pageImage(name: name) else { return nil }
        return IngestedImage(name: name, format: format, originalWidth: originalWidth, originalHeight: originalHeight,
                             steps: steps, pageImage: pageImage, beforeContrast: beforeContrast)
    }
}
