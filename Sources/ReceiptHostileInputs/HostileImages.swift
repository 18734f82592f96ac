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

    // MARK: HEIC: ISO boxes (32-bit size, type; size 1 = 64-bit size follows; size 0 = to the end)

    /// The boxes between `from` and `to` as (offset, type, size); nil when a size does not fit.
    static func isoBoxes(_ b: [UInt8], from: Int, to: Int) -> [(at: Int, type: String, size: Int)]? {
        var i = from, out: [(Int, String, Int)] = []
        while i + 8 <= to {
            let n = Int(be32(b, i))
            guard n >= 8, n <= to - i else { return nil }
            out.append((i, String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self), n))
            i += n
        }
        return out
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32be(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(u32be(flags).suffix(3)) + payload)
    }
    static func u16be(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// The HEIC's (first) `ispe` property set to `width` × `height`.
    public static func heicSize(_ heic: Data, width: UInt32, height: UInt32) -> Data? {
        var b = [UInt8](heic)
        guard let at = find(b, Array("ispe".utf8)), at + 16 <= b.count else { return nil }
        b.replaceSubrange((at + 8)..<(at + 12), with: u32be(width)); b.replaceSubrange((at + 12)..<(at + 16), with: u32be(height))
        return Data(b)
    }

    /// The first box of `type` (searched by its type bytes) with its 32-bit size set to `size`.
    public static func heicBoxSize(_ heic: Data, type: String, size: UInt32) -> Data? {
        var b = [UInt8](heic)
        guard let at = find(b, Array(type.utf8)), at >= 4 else { return nil }
        b.replaceSubrange((at - 4)..<at, with: u32be(size))
        return Data(b)
    }

    /// The HEIC's top-level and `meta` box boundaries (offsets a cut can fall on).
    public static func heicBoundaries(_ heic: Data) -> [(type: String, end: Int)] {
        let b = [UInt8](heic)
        guard let top = isoBoxes(b, from: 0, to: b.count) else { return [] }
        var out: [(String, Int)] = []
        for t in top {
            if t.type == "meta", let inner = isoBoxes(b, from: t.at + 12, to: t.at + t.size) {
                for c in inner { out.append(("meta/" + c.type, c.at + c.size)) }
            }
            out.append((t.type, t.at + t.size))
        }
        return out
    }

    /// A HEIC whose primary item is a grid (`rows` × `columns` tiles, each the original's single
    /// coded image, output `width` × `height`), built from the original's `hvcC`, `ispe` and coded
    /// data. `tiles` references (default rows × columns, at most 65,535) name the tile item.
    /// A 1 × 1 grid of the original's size is a valid file: the builder is checked with it.
    public static func heicGrid(_ heic: Data, rows: Int, columns: Int, width: UInt32, height: UInt32, tiles: Int? = nil) -> Data? {
        let b = [UInt8](heic)
        guard (1...256).contains(rows), (1...256).contains(columns),
              let top = isoBoxes(b, from: 0, to: b.count), let ftyp = top.first(where: { $0.type == "ftyp" }),
              let meta = top.first(where: { $0.type == "meta" }), let mdat = top.first(where: { $0.type == "mdat" }),
              let inner = isoBoxes(b, from: meta.at + 12, to: meta.at + meta.size),
              let hdlr = inner.first(where: { $0.type == "hdlr" }), let iprp = inner.first(where: { $0.type == "iprp" }),
              let props = isoBoxes(b, from: iprp.at + 8, to: iprp.at + iprp.size), let ipcoBox = props.first(where: { $0.type == "ipco" }),
              let ipco = isoBoxes(b, from: ipcoBox.at + 8, to: ipcoBox.at + ipcoBox.size),
              let hvcC = ipco.first(where: { $0.type == "hvcC" }), let ispe = ipco.first(where: { $0.type == "ispe" })
        else { return nil }
        let slice = { (x: (at: Int, type: String, size: Int)) in Array(b[x.at..<(x.at + x.size)]) }
        let coded = Array(b[(mdat.at + 8)..<(mdat.at + mdat.size)])
        let refs = min(tiles ?? rows * columns, 65535)
        func metaBox(codedAt: Int) -> [UInt8] {
            // iloc v1: offset and length 4 bytes, no base offset; item 1 in the file, item 2 (the grid) in idat.
            let iloc = fullBox("iloc", version: 1, [0x44, 0x00] + u16be(2)
                + u16be(1) + [0, 0] + u16be(0) + u16be(1) + u32be(UInt32(codedAt)) + u32be(UInt32(coded.count))
                + u16be(2) + [0, 1] + u16be(0) + u16be(1) + u32be(0) + u32be(12))
            let infe1 = fullBox("infe", version: 2, u16be(1) + u16be(0) + Array("hvc1".utf8) + [0])
            let infe2 = fullBox("infe", version: 2, u16be(2) + u16be(0) + Array("grid".utf8) + [0])
            let iinf = fullBox("iinf", u16be(2) + infe1 + infe2)
            let iref = fullBox("iref", box("dimg", u16be(2) + u16be(refs) + Array(repeating: u16be(1), count: refs).flatMap { $0 }))
            let gridIspe = fullBox("ispe", u32be(width) + u32be(height))
            // The coded image's pixel information (pixi), when it has one, goes with both items.
            let pixi = ipco.first(where: { $0.type == "pixi" }).map(slice) ?? []
            let ipcoOut = box("ipco", slice(hvcC) + slice(ispe) + gridIspe + pixi)
            let ipma = fullBox("ipma", u32be(2) + u16be(1) + (pixi.isEmpty ? [2, 0x81, 0x02] : [3, 0x81, 0x02, 0x84])
                + u16be(2) + (pixi.isEmpty ? [1, 0x03] : [2, 0x03, 0x84]))
            let idat = box("idat", [0, 1, UInt8(rows - 1), UInt8(columns - 1)] + u32be(width) + u32be(height))
            return fullBox("meta", slice(hdlr) + fullBox("pitm", u16be(2)) + iloc + iinf + iref + box("iprp", ipcoOut + ipma) + idat)
        }
        let head = slice(ftyp)
        let size = metaBox(codedAt: 0).count
        return Data(head + metaBox(codedAt: head.count + size + 8) + box("mdat", coded))
    }

    // MARK: PDF: objects, an xref table of 20-byte lines, a trailer, %%EOF

    /// A PDF of the given objects (object n is `objects[n - 1]`, the text between `n 0 obj` and
    /// `endobj`), with a correct xref table unless `xref` is given, and `trailer` as its trailer dictionary.
    public static func pdf(_ objects: [String], trailer: String = "<< /Size SIZE /Root 1 0 R >>", xref: ((Int, [Int]) -> String)? = nil) -> Data {
        var out = "%PDF-1.4\n", offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let start = out.utf8.count
        out += xref?(start, offsets) ?? ("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
            + offsets.map { String(repeating: "0", count: 10 - String($0).count) + "\($0) 00000 n \n" }.joined())
        out += "trailer\n" + trailer.replacingOccurrences(of: "SIZE", with: "\(objects.count + 1)") + "\nstartxref\n\(start)\n%%EOF\n"
        return Data(out.utf8)
    }

    /// A one-page PDF with `text` drawn in Helvetica on a page of `mediaBox`.
    public static func pdfPage(mediaBox: String = "[0 0 300 200]", text: String = "TOTAL 12.50", pages: String? = nil) -> Data {
        let content = "BT /F1 14 Tf 20 100 Td (\(text)) Tj ET"
        return pdf(["<< /Type /Catalog /Pages 2 0 R >>",
                    pages ?? "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    "<< /Type /Page /Parent 2 0 R /MediaBox \(mediaBox) /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
                    "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
                    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])
    }

    /// Hostile PDFs (built, not mutated: a PDF's structure is text and offsets): page counts,
    /// page sizes and object loops meant to exhaust memory or time, and cut or wrong xref tables.
    public static func pdfVariants() -> [(name: String, data: Data)] { hostilePDFs }

    /// Built once: the fuzzer's mutator asks for them with every PDF it mutates.
    static let hostilePDFs: [(name: String, data: Data)] = {
        let good = pdfPage()
        let s = String(decoding: good, as: UTF8.self)
        let xrefAt = s.range(of: "xref\n")!.lowerBound.utf16Offset(in: s)
        // A page tree whose Kids name one page 40,000 times (Count says so too; 240 KB, within
        // the fuzzer's largest input).
        let kids = "[" + String(repeating: "3 0 R ", count: 40_000) + "]"
        // Nested page-tree nodes that name each other: 2 → 6 → 2 …
        let loopTree = pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [6 0 R] /Count 1 >>",
                            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>", "<< /Length 0 >>\nstream\n\nendstream",
                            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"])
        // A trailer whose /Prev is its own xref table (an endless chain of updates).
        let plain = String(decoding: pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                          "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>"],
                                         trailer: "<< /Size SIZE /Root 1 0 R /Prev XREF >>"), as: UTF8.self)
        let start = plain.components(separatedBy: "startxref\n").last!.prefix { $0.isNumber }
        let prevLoop = Data(plain.replacingOccurrences(of: "/Prev XREF", with: "/Prev \(start)").utf8)
        return [
            ("pdf (valid)", good),
            ("pdf page count 2^31-1", pdfPage(pages: "<< /Type /Pages /Kids [3 0 R] /Count 2147483647 >>")),
            ("pdf 40000 kids", pdfPage(pages: "<< /Type /Pages /Kids \(kids) /Count 40000 >>")),
            ("pdf MediaBox 14400 pt square", pdfPage(mediaBox: "[0 0 14400 14400]")),
            ("pdf MediaBox 1e30", pdfPage(mediaBox: "[0 0 1e30 1e30]")),
            ("pdf MediaBox 2^31", pdfPage(mediaBox: "[0 0 2147483648 2147483648]")),
            ("pdf MediaBox negative", pdfPage(mediaBox: "[0 0 -300 -200]")),
            ("pdf MediaBox empty", pdfPage(mediaBox: "[0 0 0 0]")),
            ("pdf MediaBox not numbers", pdfPage(mediaBox: "[/a /b /c /d]")),
            ("pdf MediaBox references itself", pdfPage(mediaBox: "3 0 R")),
            ("pdf Pages is its own kid", pdfPage(pages: "<< /Type /Pages /Kids [2 0 R] /Count 1 >>")),
            ("pdf page tree loop", loopTree),
            ("pdf Length references itself", pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                                  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R >>",
                                                  "<< /Length 4 0 R >>\nstream\nBT ET\nendstream"])),
            ("pdf Root references itself", pdf(["1 0 R"], trailer: "<< /Size SIZE /Root 1 0 R >>")),
            ("pdf xref Prev names itself", prevLoop),
            ("pdf xref offsets past the end", pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                                   "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>"],
                                                  xref: { _, offs in "xref\n0 \(offs.count + 1)\n0000000000 65535 f \n" + offs.map { _ in "2147483647 00000 n \n" }.joined() })),
            ("pdf xref count 2^31", pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                         "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>"],
                                        xref: { _, offs in "xref\n0 2147483648\n0000000000 65535 f \n" + offs.map { String(repeating: "0", count: 10 - String($0).count) + "\($0) 00000 n \n" }.joined() })),
            ("pdf cut in the xref", Data(good.prefix(xrefAt + 30)) + Data("\n%%EOF\n".utf8)),
            ("pdf cut before the xref", Data(good.prefix(xrefAt)) + Data("%%EOF\n".utf8)),
            ("pdf startxref past the end", Data(s.replacingOccurrences(of: "startxref\n\(xrefAt)", with: "startxref\n999999999").utf8)),
            ("pdf cut in the middle", good.prefix(good.count / 2)),
        ]
    }()

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
        } else if b.count > 12, b[4...7].elementsEqual("ftyp".utf8) {
            let at = find(b, Array("ispe".utf8)).flatMap { $0 + 16 <= b.count ? $0 : nil }
            let (w, h) = at.map { (be32(b, $0 + 8), be32(b, $0 + 12)) } ?? (520, 140)
            out += [("heic ispe 0x0", heicSize(data, width: 0, height: 0)), ("heic ispe 65535x65535", heicSize(data, width: 65535, height: 65535)),
                    ("heic ispe 2^31-1 square", heicSize(data, width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)),
                    ("heic ispe 2^32-1 square", heicSize(data, width: .max, height: .max)),
                    ("heic meta size 2^32-1", heicBoxSize(data, type: "meta", size: .max)), ("heic mdat size 2^32-1", heicBoxSize(data, type: "mdat", size: .max)),
                    ("heic iloc size 4", heicBoxSize(data, type: "iloc", size: 4)), ("heic ipco size 0", heicBoxSize(data, type: "ipco", size: 0)),
                    ("heic 1x1 grid", heicGrid(data, rows: 1, columns: 1, width: w, height: h)),
                    ("heic 256x256 grid 65535x65535", heicGrid(data, rows: 256, columns: 256, width: 65535, height: 65535)),
                    ("heic 255x255 grid of whole tiles", heicGrid(data, rows: 255, columns: 255, width: times(255, w), height: times(255, h))),
                    ("heic 100x100 grid into 1x1", heicGrid(data, rows: 100, columns: 100, width: 1, height: 1)),
                    ("heic 2x2 grid of 1 tile", heicGrid(data, rows: 2, columns: 2, width: times(2, w), height: times(2, h), tiles: 1)),
                    ("heic grid of 0 tiles", heicGrid(data, rows: 1, columns: 1, width: w, height: h, tiles: 0)),
                    ("heic cut in the coded data", data.prefix(max(0, data.count - 100)))]
            for c in heicBoundaries(data) where c.end < data.count { out.append(("heic cut after \(c.type)", data.prefix(c.end))) }
        } else if b.count > 5, b[0...4].elementsEqual("%PDF-".utf8) {
            out += pdfVariants().map { ($0.name, $0.data) }
            out += [("pdf cut in half + %%EOF", data.prefix(data.count / 2) + Data("\n%%EOF\n".utf8)),
                    ("pdf without its last 100 bytes", data.prefix(max(0, data.count - 100)))]
        } else if b.count > 12, b[0] == 0x52, b[8] == 0x57 {
            out += [("webp RIFF size 2^32-1", webpRIFFSize(data, .max)), ("webp RIFF size 4", webpRIFFSize(data, 4)),
                    ("webp RIFF size + 1000", webpRIFFSize(data, UInt32(data.count - 8 + 1000))),
                    ("webp cut in the header", data.prefix(20)), ("webp cut in the image", data.prefix(data.count / 2))]
        }
        return out.compactMap { n, d in d.map { (n, $0) } }
    }

    // MARK: Bytes

    /// `k` × `v`, at most UInt32.max (a tile's size from a hostile `ispe` may be anything).
    static func times(_ k: UInt32, _ v: UInt32) -> UInt32 {
        let (p, overflow) = k.multipliedReportingOverflow(by: v)
        return overflow ? .max : p
    }

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
