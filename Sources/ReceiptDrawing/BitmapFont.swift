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
        /// Where its ink starts in `data` (a bit index).
        var firstBit: Int
    }

    /// Pixels between one character's cell and the next.
    let kern: Int
    /// From the top of a character's cell to the baseline, in pixels (a pixel or two above the
    /// capitals, which end on the baseline row).
    public let ascent: Int
    let glyphs: [Glyph]
    /// The metrics, then every glyph's ink, row by row, most significant bit first.
    let data: [UInt8]

    /// `data`: base64 of five bytes per character from ' ' to '~' (cell width, ink x, ink top
    /// from the baseline as a signed byte, ink width, ink height), then the ink boxes' bits, one
    /// box after the other (what `tools/make_label_font.c` writes).
    init(kern: Int, ascent: Int, data: String) {
        self.kern = kern; self.ascent = ascent
        self.data = [UInt8](Data(base64Encoded: data.filter { !$0.isWhitespace && $0 != "\\" }) ?? Data())
        var glyphs: [Glyph] = []
        var next = 8 * 5 * 95
        let d = self.data
        for m in stride(from: 0, to: min(d.count, 5 * 95), by: 5) {
            let g = Glyph(advance: Int(d[m]), inkX: Int(d[m + 1]), inkTop: Int(Int8(bitPattern: d[m + 2])),
                          inkWidth: Int(d[m + 3]), inkHeight: Int(d[m + 4]), firstBit: next)
            glyphs.append(g)
            next += g.inkWidth * g.inkHeight
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
        return data[b >> 3] & (0x80 >> UInt8(b & 7)) != 0
    }

    /// The width of `text` drawn in this font, in pixels.
    public func width(of text: String) -> Int {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty else { return 0 }
        return scalars.reduce(0) { $0 + glyph($1).advance + kern } - kern
    }
}
