import Foundation

/// How a stored image must be turned and mirrored to stand upright: EXIF's orientation tag
/// (1…8) for JPEG, HEIF's `irot`/`imir` transforms. Applied by the decoders, before anything
/// else looks at the pixels.
public struct ImageOrientation: Sendable, Hashable, CustomStringConvertible {
    /// Quarter turns clockwise, 0…3, applied first …
    public var quarterTurns: Int
    /// … then a mirror left-right (after the turn).
    public var mirrorLeftRight: Bool
    /// … or top-bottom.
    public var mirrorTopBottom: Bool

    public static let upright = ImageOrientation(quarterTurns: 0)

    public init(quarterTurns: Int, mirrorLeftRight: Bool = false, mirrorTopBottom: Bool = false) {
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.mirrorLeftRight = mirrorLeftRight; self.mirrorTopBottom = mirrorTopBottom
    }

    /// The EXIF orientation tag's value as a turn and a mirror (TIFF 6.0 / EXIF 2.3, tag 0x0112):
    /// 1 upright, 2 mirrored, 3 upside down, 4 mirrored top-bottom, 5 transposed
    /// (turn 90° clockwise, then mirror), 6 turn 90° clockwise, 7 transverse (turn 90°
    /// clockwise, then mirror top-bottom), 8 turn 90° anticlockwise. Nil for other values.
    public init?(exif value: Int) {
        switch value {
        case 1: self.init(quarterTurns: 0)
        case 2: self.init(quarterTurns: 0, mirrorLeftRight: true)
        case 3: self.init(quarterTurns: 2)
        case 4: self.init(quarterTurns: 0, mirrorTopBottom: true)
        case 5: self.init(quarterTurns: 1, mirrorLeftRight: true)
        case 6: self.init(quarterTurns: 1)
        case 7: self.init(quarterTurns: 1, mirrorTopBottom: true)
        case 8: self.init(quarterTurns: 3)
        default: return nil
        }
    }

    public var isUpright: Bool { quarterTurns == 0 && !mirrorLeftRight && !mirrorTopBottom }

    public var description: String {
        var parts: [String] = []
        if quarterTurns != 0 { parts.append("rotate \(quarterTurns * 90)°") }
        if mirrorLeftRight { parts.append("mirror") }
        if mirrorTopBottom { parts.append("flip") }
        return parts.isEmpty ? "upright" : parts.joined(separator: " + ")
    }
}

/// Reads the orientation tag of a JPEG's EXIF block (APP1 "Exif\0\0" → TIFF header → IFD0,
/// tag 0x0112). Pure Swift over the bytes; every offset is bounds-checked, so a damaged
/// block gives nil (upright), never a crash.
enum EXIF {
    static func orientation(jpeg data: Data) -> Int? {
        let b = [UInt8](data.prefix(256 * 1024))  // EXIF lives in the first 64 KiB segment(s)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data starts: no EXIF before it
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if marker == 0xE1, length >= 8 {
                let body = Array(b[(i + 4)..<(i + 2 + length)])
                if body.starts(with: Array("Exif".utf8) + [0, 0]), let o = tiffOrientation(Array(body.dropFirst(6))) { return o }
            }
            i += 2 + length
        }
        return nil
    }

    /// The orientation tag in IFD0 of a TIFF structure (the EXIF payload).
    static func tiffOrientation(_ t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let c = u16(o + 2) else { return nil }
            return little ? a | c << 16 : a << 16 | c
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3 else { return nil }  // SHORT
                return u16(entry + 8)
            }
        }
        return nil
    }
}

/// The page structure of a TIFF, read from its directory chain without decoding: how many
/// pages, and the first page whose directory or pixel data lies past the end of the file
/// (libtiff would otherwise stop at a cut chain without a word, dropping the pages after it).
enum TIFFLayout {
    struct Result: Equatable { var pages: Int; var truncatedPage: Int? }

    static func scan(_ data: Data, maxPages: Int) -> Result? {
        let t = [UInt8](data)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let c = u16(o + 2) else { return nil }
            return little ? a | c << 16 : a << 16 | c
        }
        guard u16(2) == 42, var ifd = u32(4) else { return nil }  // BigTIFF (43) is left to libtiff
        var pages = 0
        var seen = Set<Int>()
        while ifd != 0, pages <= maxPages {
            guard seen.insert(ifd).inserted else { break }  // a loop in the chain
            guard let n = u16(ifd), ifd + 2 + 12 * n + 4 <= t.count else { return Result(pages: pages, truncatedPage: pages + 1) }
            pages += 1
            // Where the page's pixels are (strips 273/279 or tiles 324/325): all inside the file?
            var offsets: [Int] = [], counts: [Int] = []
            for k in 0..<n {
                let e = ifd + 2 + 12 * k
                guard let tag = u16(e), let type = u16(e + 2), let count = u32(e + 4) else { continue }
                guard [273, 279, 324, 325].contains(tag), count > 0, count < 1 << 20 else { continue }
                let size = type == 3 ? 2 : 4
                let base = count * size <= 4 ? e + 8 : (u32(e + 8) ?? Int.max)
                var values: [Int] = []
                for v in 0..<count {
                    guard let x = size == 2 ? u16(base + 2 * v) : u32(base + 4 * v) else { return Result(pages: pages, truncatedPage: pages) }
                    values.append(x)
                }
                if tag == 273 || tag == 324 { offsets = values } else { counts = values }
            }
            for (o, c) in zip(offsets, counts) where o + c > t.count { return Result(pages: pages, truncatedPage: pages) }
            guard let next = u32(ifd + 2 + 12 * n) else { return Result(pages: pages, truncatedPage: pages + 1) }
            ifd = next
        }
        return Result(pages: pages, truncatedPage: nil)
    }
}
