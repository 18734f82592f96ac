import Foundation

/// Structured damage to real image files: the header fields, chunk lengths, segment
/// boundaries and offsets a decoder trusts, set to what a hostile or broken writer puts there.
/// Used by the hostile-file tests and by `receipts-fuzz` (the image target's mutations).
public enum HostileImages {
    // MARK: PNG: 8-byte signature, then chunks (length, type, data, CRC over type + data)

    public struct PNGChunk {
        public var type: String
        public var data: Data
        public init(type: String, data: Data) { self.type = type; self.data = data }
    }

    public static func pngChunks(_ png: Data) -> [PNGChunk]? {
        let b = [UInt8](png)
        guard b.count > 8, b[0] == 0x89, b[1] == 0x50 else { return nil }
        var i = 8, out: [PNGChunk] = []
        while i + 12 <= b.count {
            let n = Int(be32(b, i))
            guard n <= b.count - i - 12 else { return nil }
            out.append(PNGChunk(type: String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self), data: Data(b[(i + 8)..<(i + 8 + n)])))
            i += 12 + n
        }
        return out
    }

    /// A PNG made of `chunks`, each with a correct CRC (so only what was changed is wrong).
    public static func png(_ chunks: [PNGChunk]) -> Data {
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for c in chunks {
            out.append(contentsOf: u32be(UInt32(c.data.count)))
            let body = Data(c.type.utf8) + c.data
            out.append(body)
            out.append(contentsOf: u32be(crc32(body)))
        }
        return out
    }

    /// The PNG with its IHDR width and height replaced (CRC recomputed).
    public static func pngSize(_ png: Data, width: UInt32, height: UInt32) -> Data? {
        guard var cs = pngChunks(png), cs.first?.type == "IHDR", cs[0].data.count >= 13 else { return nil }
        var d = [UInt8](cs[0].data)
        d.replaceSubrange(0..<4, with: u32be(width)); d.replaceSubrange(4..<8, with: u32be(height))
        cs[0].data = Data(d)
        return Self.png(cs)
    }

    /// The PNG with its IHDR bit depth set to `depth` (CRC recomputed).
    public static func pngBitDepth(_ png: Data, _ depth: UInt8) -> Data? {
        guard var cs = pngChunks(png), cs.first?.type == "IHDR", cs[0].data.count >= 13 else { return nil }
        var d = [UInt8](cs[0].data); d[8] = depth; cs[0].data = Data(d)
        return Self.png(cs)
    }

    /// The first chunk of `type` with its length field set to `length` (the bytes after it unchanged).
    public static func pngChunkLength(_ png: Data, type: String, length: UInt32) -> Data? {
        var b = [UInt8](png)
        guard let at = find(b, Array(type.utf8)), at >= 4 else { return nil }
        b.replaceSubrange((at - 4)..<at, with: u32be(length))
        return Data(b)
    }

    /// The first chunk of `type` with a wrong CRC.
    public static func pngBadCRC(_ png: Data, type: String) -> Data? {
        var b = [UInt8](png)
        guard let at = find(b, Array(type.utf8)), at >= 4 else { return nil }
        let n = Int(be32(b, at - 4)), crcAt = at + 4 + n
        guard crcAt + 4 <= b.count else { return nil }
        b[crcAt] ^= 0xFF
        return Data(b)
    }

    // MARK: JPEG: markers FF xx, each segment (but SOI/EOI/RSTn) with a 2-byte length

    /// Offsets of each marker before the scan data (SOI, APPn, DQT, SOFn, DHT, SOS).
    public static func jpegSegments(_ jpg: Data) -> [(offset: Int, marker: UInt8)] {
        let b = [UInt8](jpg)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return [] }
        var i = 2, out: [(Int, UInt8)] = [(0, 0xD8)]
        while i + 4 <= b.count, b[i] == 0xFF {
            let m = b[i + 1]
            out.append((i, m))
            if m == 0xDA { break }
            i += 2 + Int(b[i + 2]) << 8 + Int(b[i + 3])
        }
        return out
    }

    /// The JPEG with its frame header (SOFn) saying `width` × `height`.
    public static func jpegSize(_ jpg: Data, width: UInt16, height: UInt16) -> Data? {
        var b = [UInt8](jpg)
        guard let sof = jpegSegments(jpg).first(where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
              sof.offset + 9 <= b.count else { return nil }
        b[sof.offset + 5] = UInt8(height >> 8); b[sof.offset + 6] = UInt8(height & 0xFF)
        b[sof.offset + 7] = UInt8(width >> 8); b[sof.offset + 8] = UInt8(width & 0xFF)
        return Data(b)
    }

    // MARK: BMP, PNM, TIFF, GIF, WebP

    /// The BMP with its info header's width and height (signed, little-endian) replaced.
    public static func bmpSize(_ bmp: Data, width: Int32, height: Int32) -> Data? {
        var b = [UInt8](bmp)
        guard b.count >= 26, b[0] == 0x42, b[1] == 0x4D else { return nil }
        b.replaceSubrange(18..<22, with: withUnsafeBytes(of: width.littleEndian, Array.init))
        b.replaceSubrange(22..<26, with: withUnsafeBytes(of: height.littleEndian, Array.init))
        return Data(b)
    }

    /// A binary PNM header with the given numbers, then `pixels` bytes of the original's data.
    public static func pnm(kind: String = "P5", width: String, height: String, maxValue: String = "255", body: Data) -> Data {
        Data("\(kind)\n\(width) \(height)\n\(maxValue)\n".utf8) + body
    }

    /// The GIF with its logical screen (and first image descriptor, when found) set to `width` × `height`.
    public static func gifScreen(_ gif: Data, width: UInt16, height: UInt16) -> Data? {
        var b = [UInt8](gif)
        guard b.count >= 13, b[0] == 0x47 else { return nil }
        b[6] = UInt8(width & 0xFF); b[7] = UInt8(width >> 8); b[8] = UInt8(height & 0xFF); b[9] = UInt8(height >> 8)
        return Data(b)
    }

    /// The WebP with its RIFF size field set to `size`.
    public static func webpRIFFSize(_ webp: Data, _ size: UInt32) -> Data? {
        var b = [UInt8](webp)
        guard b.count >= 12, b[0] == 0x52 else { return nil }
        b.replaceSubrange(4..<8, with: withUnsafeBytes(of: size.littleEndian, Array.init))
        return Data(b)
    }

    /// TIFF: the first IFD's entries as (offset of the entry, tag, type, count, value/offset).
    static func tiffEntries(_ b: [UInt8]) -> (little: Bool, ifd: Int, entries: [(at: Int, tag: Int, count: Int, value: Int)])? {
        guard b.count >= 8, b[0] == b[1], b[0] == 0x49 || b[0] == 0x4D else { return nil }
        let little = b[0] == 0x49
        let r16 = { (i: Int) in little ? Int(b[i]) | Int(b[i + 1]) << 8 : Int(b[i]) << 8 | Int(b[i + 1]) }
        let r32 = { (i: Int) in little ? r16(i) | r16(i + 2) << 16 : r16(i) << 16 | r16(i + 2) }
        let ifd = r32(4)
        guard ifd + 2 <= b.count else { return nil }
        let n = r16(ifd)
        guard ifd + 2 + 12 * n + 4 <= b.count else { return nil }
        return (little, ifd, (0..<n).map { k in
            let at = ifd + 2 + 12 * k
            return (at, r16(at), r32(at + 4), r32(at + 8))
        })
    }

    static func put32(_ b: inout [UInt8], _ at: Int, _ v: UInt32, little: Bool) {
        b.replaceSubrange(at..<(at + 4), with: little ? withUnsafeBytes(of: v.littleEndian, Array.init) : u32be(v))
    }

    /// The TIFF with every strip offset pointing far past the end of the file.
    public static func tiffStripOffsets(_ tif: Data, _ offset: UInt32 = 0x7FFF_FFF0) -> Data? {
        var b = [UInt8](tif)
        guard let t = tiffEntries(b), let e = t.entries.first(where: { $0.tag == 273 }) else { return nil }
        if e.count == 1 { put32(&b, e.at + 8, offset, little: t.little); return Data(b) }
        for k in 0..<e.count where e.value + 4 * k + 4 <= b.count { put32(&b, e.value + 4 * k, offset, little: t.little) }
        return Data(b)
    }

    /// The TIFF whose first IFD names itself as the next one (an endless page chain).
    public static func tiffIFDLoop(_ tif: Data) -> Data? {
        var b = [UInt8](tif)
        guard let t = tiffEntries(b) else { return nil }
        put32(&b, t.ifd + 2 + 12 * t.entries.count, UInt32(t.ifd), little: t.little)
        return Data(b)
    }

    /// The TIFF with its image width and length tags set (SHORT or LONG values in place).
    public static func tiffSize(_ tif: Data, width: UInt32, height: UInt32) -> Data? {
        var b = [UInt8](tif)
        guard let t = tiffEntries(b) else { return nil }
        for e in t.entries where e.tag == 256 || e.tag == 257 {
            // Make the entry a LONG so the full value fits.
            let type: [UInt8] = t.little ? [4, 0] : [0, 4]
            b.replaceSubrange((e.at + 2)..<(e.at + 4), with: type)
            put32(&b, e.at + 8, e.tag == 256 ? width : height, little: t.little)
        }
        return Data(b)
    }

    // MARK: Every structured mutation of one file

    /// Named hostile variants of a real image (the format is judged from its bytes):
    /// header sizes huge and zero, truncation at every segment boundary, and the
    /// format's own traps. A name is "what was done", for a failure message.
    public static func variants(of data: Data) -> [(name: String, data: Data)] {
        var out: [(String, Data?)] = []
        let b = [UInt8](data)
        if let cs = pngChunks(data) {
            out += [("png width 0", pngSize(data, width: 0, height: 140)), ("png height 0", pngSize(data, width: 520, height: 0)),
                    ("png 100000x100000", pngSize(data, width: 100_000, height: 100_000)),
                    ("png 2^31-1 wide", pngSize(data, width: 0x7FFF_FFFF, height: 1)),
                    ("png bit depth 3", pngBitDepth(data, 3)), ("png bit depth 255", pngBitDepth(data, 255)),
                    ("png IDAT length 2^31-16", pngChunkLength(data, type: "IDAT", length: 0x7FFF_FFF0)),
                    ("png IDAT length 2^32-1", pngChunkLength(data, type: "IDAT", length: 0xFFFF_FFFF)),
                    ("png IHDR bad CRC", pngBadCRC(data, type: "IHDR")), ("png IDAT bad CRC", pngBadCRC(data, type: "IDAT"))]
            var at = 8
            for c in cs { at += 12 + c.data.count; out.append(("png cut after \(c.type)", data.prefix(at))) }
            out.append(("png without IEND", png(cs.filter { $0.type != "IEND" })))
        } else if b.count > 3, b[0] == 0xFF, b[1] == 0xD8 {
            out += [("jpeg 65535x65535", jpegSize(data, width: 65535, height: 65535)), ("jpeg 65535 wide", jpegSize(data, width: 65535, height: 100)),
                    ("jpeg width 0", jpegSize(data, width: 0, height: 140)), ("jpeg height 0", jpegSize(data, width: 520, height: 0)),
                    ("jpeg cut in the scan", data.prefix(data.count / 2) + Data([0xFF, 0xD9]))]
            for s in jpegSegments(data) where s.offset > 0 {
                out.append(("jpeg cut before \(String(s.marker, radix: 16))", data.prefix(s.offset)))
                out.append(("jpeg cut inside \(String(s.marker, radix: 16)) + EOI", data.prefix(s.offset + 3) + Data([0xFF, 0xD9])))
            }
        } else if b.count > 26, b[0] == 0x42, b[1] == 0x4D {
            out += [("bmp negative height", bmpSize(data, width: 520, height: -140)), ("bmp 0x0", bmpSize(data, width: 0, height: 0)),
                    ("bmp 100000x100000", bmpSize(data, width: 100_000, height: 100_000)),
                    ("bmp negative width", bmpSize(data, width: -520, height: 140)),
                    ("bmp int32 min height", bmpSize(data, width: 520, height: Int32.min)),
                    ("bmp cut in header", data.prefix(30)), ("bmp cut in pixels", data.prefix(data.count / 2))]
        } else if b.count > 2, b[0] == 0x50, (0x31...0x36).contains(b[1]) {
            let body = data.dropFirst(min(20, data.count))
            out += [("pnm 99999999 square", pnm(width: "99999999", height: "99999999", body: body)),
                    ("pnm 0x0", pnm(width: "0", height: "0", body: body)), ("pnm negative", pnm(width: "-5", height: "140", body: body)),
                    ("pnm maxval 0", pnm(width: "520", height: "140", maxValue: "0", body: body)),
                    ("pnm maxval 65536", pnm(width: "520", height: "140", maxValue: "65536", body: body)),
                    ("pnm 2^40 wide", pnm(width: "1099511627776", height: "1", body: body)),
                    ("pnm cut in pixels", data.prefix(data.count / 2))]
        } else if tiffEntries(b) != nil {
            out += [("tiff strip offsets past the end", tiffStripOffsets(data)), ("tiff IFD loop", tiffIFDLoop(data)),
                    ("tiff 0x0", tiffSize(data, width: 0, height: 0)), ("tiff 100000x100000", tiffSize(data, width: 100_000, height: 100_000)),
                    ("tiff 2^32-1 square", tiffSize(data, width: .max, height: .max)),
                    ("tiff cut in the IFD", data.prefix(12)), ("tiff cut in pixels", data.prefix(data.count / 2))]
        } else if b.count > 6, b[0] == 0x47, b[1] == 0x49 {
            out += [("gif 65535x65535 screen", gifScreen(data, width: 65535, height: 65535)), ("gif 0x0 screen", gifScreen(data, width: 0, height: 0)),
                    ("gif cut in the header", data.prefix(13)), ("gif cut in the image", data.prefix(data.count / 2) + Data([0x3B]))]
        } else if b.count > 12, b[0] == 0x52, b[8] == 0x57 {
            out += [("webp RIFF size 2^32-1", webpRIFFSize(data, .max)), ("webp RIFF size 4", webpRIFFSize(data, 4)),
                    ("webp RIFF size + 1000", webpRIFFSize(data, UInt32(data.count - 8 + 1000))),
                    ("webp cut in the header", data.prefix(20)), ("webp cut in the image", data.prefix(data.count / 2))]
        }
        return out.compactMap { n, d in d.map { (n, $0) } }
    }

    // MARK: Bytes

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func u32be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func find(_ b: [UInt8], _ needle: [UInt8]) -> Int? {
        guard b.count >= needle.count else { return nil }
        for i in 0...(b.count - needle.count) where b[i] == needle[0] && Array(b[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
