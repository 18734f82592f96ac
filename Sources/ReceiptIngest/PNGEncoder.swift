import Foundation
import ReceiptModel

/// PNG bytes of a page image: grey as grey, RGBA as RGB (alpha dropped), with its declared
/// resolution. What `--save-image`, `--annotate` and `eval --html` write; the one way out of
/// this module for pixels, so that Leptonica's writer stays inside it. The image is copied into
/// Leptonica once for the encoding.
public enum PNGEncoder {
    /// Nil only if the encoder fails.
    public static func encode(_ image: PageImage) -> Data? {
        _ = PixImage.silenceOnce
        return PixImage(image)?.pngData()
    }
}
