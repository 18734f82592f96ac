import Foundation

/// A bitmap font for labels: one 1-bit picture per printable ASCII character (32–126), placed
/// on a baseline. The fonts themselves are data (`LabelFonts.swift`, generated from the ones
/// Leptonica compiles in), so drawing text needs no C library and no font file.
public struct BitmapFont: Sendable {
    struct Glyph: Sendable {
        /// The character's cell width: the pen moves this far, plus `kern`.
        var advance: Int
        /// The box of its ink: from the pen's x, and from the baseline (negative: above it).
        var inkX, inkTop, inkWidth, inkHeight: Int
        /// Where its bits start in `bits` (bit index).
        var firstBit: Int
    }

    /// Pixels between one character's cell and the next.
    let kern: Int
    /// From the top of a character's cell to the baseline, in pixels (a pixel or two above the
    /// capitals, which end on the baseline row).
    public let ascent: Int
    let glyphs: [Glyph]
    /// Every glyph's ink, row by row, most significant bit first.
    let bits: [UInt8]

    /// `metrics`: five numbers per character from ' ' to '~' (cell width, ink x, ink top from the
    /// baseline, ink width, ink height); `bits`: base64 of the ink boxes' bits, one after the other.
    init(kern: Int, ascent: Int, metrics: [Int], bits: String) {
        self.kern = kern; self.ascent = ascent
        self.bits = [UInt8](Data(base64Encoded: bits.filter { !$0.isWhitespace }) ?? Data())
        var glyphs: [Glyph] = []
        var next = 0
        for m in stride(from: 0, to: metrics.count - 4, by: 5) {
            glyphs.append(Glyph(advance: metrics[m], inkX: metrics[m + 1], inkTop: metrics[m + 2], inkWidth: metrics[m + 3],
                                inkHeight: metrics[m + 4], firstBit: next))
            next += metrics[m + 3] * metrics[m + 4]
        }
        self.glyphs = glyphs
    }

    /// The glyph drawn for `c`: printable ASCII as itself, anything else as '?'.
    func glyph(_ c: Unicode.Scalar) -> Glyph {
        let i = (32...126).contains(c.value) ? Int(c.value) - 32 : Int(("?" as Unicode.Scalar).value) - 32
        return glyphs[i]
    }

    /// Whether the ink of `g` is set at (`x`, `y`) of its ink box.
    func ink(_ g: Glyph, _ x: Int, _ y: Int) -> Bool {
        let b = g.firstBit + y * g.inkWidth + x
        return bits[b >> 3] & (0x80 >> UInt8(b & 7)) != 0
    }

    /// The width of `text` drawn in this font, in pixels.
    public func width(of text: String) -> Int {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty else { return 0 }
        return scalars.reduce(0) { $0 + glyph($1).advance + kern } - kern
    }
}
