internal import CPoppler
import Foundation
import ReceiptModel
import ReceiptSupport

/// PDF through Poppler's GLib API. A page with a text layer (an e-receipt, a shop's emailed
/// receipt) gives its text with a box per word, taken as it is: no OCR, exact characters;
/// its pixels are a light rendering at `textLayerDPI` (what the boxes are in, for
/// `--save-image`). A page without text (a scan) is rendered at `DecodeLimits.renderDPI` and
/// read like an image. Each page's size is checked against the pixel limit before it is
/// rendered; the page count against the page limit before any page is read.
public struct PDFDecoder: ImageDecoder {
    /// The resolution of a text page's light rendering (and of its word boxes).
    public static let textLayerDPI = 144.0

    public init() {}

    public var formats: [ImageFormat] { [.pdf] }

    /// `%PDF-` within the first kilobyte (some writers put junk before it; readers allow that).
    public func sniff(_ data: Data) -> SniffedImage? {
        data.prefix(1024).range(of: Data("%PDF-".utf8)) != nil ? SniffedImage(format: .pdf) : nil
    }

    public func decode(_ data: Data, sniffed: SniffedImage, name: String, limits: DecodeLimits) throws(IngestError) -> [DecodedPage] {
        // Poppler repairs a cut file without a word and gives the pages it still finds: a receipt
        // missing its last page would be read as whole. A PDF ends with %%EOF.
        guard data.suffix(2048).range(of: Data("%%EOF".utf8)) != nil else { throw IngestError(file: name, reason: .truncated(.pdf)) }
        // Poppler's global state is set up on first use and its font caches are shared: one
        // document at a time. A PDF page costs milliseconds beside OCR's hundreds.
        // Poppler's Cairo backend prints some failures with a bare fprintf to stderr (a font cairo
        // cannot load: "some font thing failed"), no hook to route them: when the caller asks for it
        // (`capturesLibraryStderr`, the tool does), descriptor 2 points at a temporary file while Poppler
        // runs (the tool's own lines go to StandardError.fd, the real stderr), and what Poppler said
        // becomes the error's detail, or a step of the first page.
        let (result, said) = Self.lock.withLock {
            let decode = { data.withUnsafeBytes { raw in Self.decode(raw, name: name, limits: limits) } }
            return limits.capturesLibraryStderr ? StandardError.capturing(decode) : (decode(), "")
        }
        let words = Self.popplerWords(said)
        switch result {
        case .success(var pages):
            if let words, !pages.isEmpty { pages[0].steps.append("Poppler said: \(words)") }
            return pages
        case .failure(var error):
            if let words { error.detail = error.detail.map { $0 + "; Poppler: " + words } ?? "Poppler: " + words }
            throw error
        }
    }

    private static let lock = NSLock()

    /// What Poppler printed, as one line: its distinct lines joined with "; " (nil when it said nothing).
    static func popplerWords(_ said: String) -> String? {
        var lines: [String] = []
        for line in said.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) })
        where !line.isEmpty && !lines.contains(line) { lines.append(line) }
        guard !lines.isEmpty else { return nil }
        let joined = lines.prefix(5).joined(separator: "; ") + (lines.count > 5 ? "; …" : "")
        return String(String.UnicodeScalarView(joined.unicodeScalars.filter { !$0.properties.isNoncharacterCodePoint && $0.value >= 0x20 }))
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, name: String, limits: DecodeLimits) -> Result<[DecodedPage], IngestError> {
        func fail(_ r: IngestError.Reason, page: Int? = nil) -> Result<[DecodedPage], IngestError> {
            .failure(IngestError(file: name, reason: r, page: page))
        }
        guard let bytes = g_bytes_new_static(raw.baseAddress, gsize(raw.count)) else { return fail(.decodeFailed(.pdf)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(bytes, nil, &error) else {
            defer { if error != nil { g_error_free(error) } }
            guard let e = error?.pointee else { return fail(.decodeFailed(.pdf)) }
            if e.domain == rc_poppler_error_quark(), e.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) { return fail(.encrypted(.pdf)) }
            return fail(.damaged(.pdf, e.message.map { String(cString: $0) } ?? "Poppler could not open it"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }
        let count = Int(poppler_document_get_n_pages(document))
        guard count > 0 else { return fail(.damaged(.pdf, "no pages")) }
        guard count <= limits.maxPages else { return fail(.tooManyPages(count: count, limit: limits.maxPages)) }
        var pages: [DecodedPage] = []
        for i in 0..<count {
            let number = count > 1 ? i + 1 : nil
            guard let page = poppler_document_get_page(document, Int32(i)) else { return fail(.decodeFailed(.pdf), page: number) }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            var (w, h) = (0.0, 0.0)
            poppler_page_get_size(page, &w, &h)
            guard w > 0, h > 0, w.isFinite, h.isFinite else { return fail(.damaged(.pdf, "a page without a size"), page: number) }
            let text = textLayer(page)
            let dpi = text == nil ? Double(limits.renderDPI) : textLayerDPI
            let scale = dpi / 72
            // A MediaBox may claim anything: stay in range before making integers of it (far above
            // any limit, so the refusal still gives the size the page claims).
            let (fw, fh) = (min((w * scale).rounded(), 1e15), min((h * scale).rounded(), 1e15))
            let (pw, ph) = (max(1, Int(fw)), max(1, Int(fh)))
            do { try limits.check(width: pw, height: ph, name: name, page: number) } catch { return .failure(error) }
            guard let image = render(page, width: pw, height: ph, scale: scale, name: name) else {
                return fail(.damaged(.pdf, "page could not be rendered (\(pw)×\(ph) pixels)"), page: number)
            }
            if let text {
                let lines = text.map { line in
                    OCRLine(words: line.map { OCRWord(text: $0.text, box: $0.box.scaled(scale), confidence: 1) })
                }
                pages.append(DecodedPage(image, steps: ["PDF text layer"], textLayer: OCRPage(lines: lines, width: pw, height: ph)))
            } else {
                pages.append(DecodedPage(image, steps: ["PDF page rendered at \(Int(dpi)) dpi"]))
            }
        }
        return .success(pages)
    }

    /// A word of the text layer and its box in PDF points (origin top-left).
    struct Word { var text: String; var box: PointBox }

    struct PointBox {
        var x0, y0, x1, y1: Double
        func scaled(_ s: Double) -> BoundingBox {
            let x = Int((x0 * s).rounded(.down)), y = Int((y0 * s).rounded(.down))
            return BoundingBox(x: x, y: y, width: max(1, Int((x1 * s).rounded(.up)) - x), height: max(1, Int((y1 * s).rounded(.up)) - y))
        }
        func union(_ o: PointBox) -> PointBox { PointBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1)) }
    }

    /// The page's text as lines of words with boxes; nil when it has no text (a scan).
    /// Poppler gives the text in reading order, a line per `\n`, and one rectangle per character of it.
    static func textLayer(_ page: OpaquePointer) -> [[Word]]? {
        guard let c = poppler_page_get_text(page) else { return nil }
        defer { g_free(c) }
        let text = String(cString: c)
        guard text.contains(where: { !$0.isWhitespace }) else { return nil }
        var rects: UnsafeMutablePointer<PopplerRectangle>?
        var n: guint = 0
        guard poppler_page_get_text_layout(page, &rects, &n) != 0, let rects else { return nil }
        defer { g_free(rects) }
        return rows(words(text: text, rects: UnsafeBufferPointer(start: rects, count: Int(n)).map {
            PointBox(x0: min($0.x1, $0.x2), y0: min($0.y1, $0.y2), x1: max($0.x1, $0.x2), y1: max($0.y1, $0.y2))
        }).flatMap { $0 })
    }

    /// Words regrouped into printed rows, top to bottom, each left to right: Poppler's reading
    /// order puts a column of amounts after the column of labels, but a receipt's line is its
    /// row ("TOTAL … 32.49"). A word joins a row when its middle lies within the row's height.
    static func rows(_ words: [Word]) -> [[Word]] {
        var rows: [(box: PointBox, words: [Word])] = []
        for w in words.sorted(by: { ($0.box.y0 + $0.box.y1) < ($1.box.y0 + $1.box.y1) }) {
            let mid = (w.box.y0 + w.box.y1) / 2
            if let last = rows.indices.last, mid >= rows[last].box.y0, mid <= rows[last].box.y1 {
                rows[last].words.append(w)
                rows[last].box = rows[last].box.union(w.box)
            } else {
                rows.append((w.box, [w]))
            }
        }
        return rows.map { $0.words.sorted { $0.box.x0 < $1.box.x0 } }
    }

    /// Characters and their boxes grouped into words (split on white space) and lines (on `\n`).
    static func words(text: String, rects: [PointBox]) -> [[Word]] {
        var lines: [[Word]] = [], line: [Word] = []
        var word = "", box: PointBox?
        func endWord() {
            if !word.isEmpty, let box { line.append(Word(text: word, box: box)) }
            word = ""; box = nil
        }
        for (k, ch) in text.unicodeScalars.enumerated() {
            if ch == "\n" {
                endWord()
                if !line.isEmpty { lines.append(line) }
                line = []
            } else if ch.properties.isWhitespace {
                endWord()
            } else {
                word.unicodeScalars.append(ch)
                if k < rects.count { box = box.map { $0.union(rects[k]) } ?? rects[k] }
            }
        }
        endWord()
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The page drawn on white at `scale` (pixels per point), as grey pixels.
    static func render(_ page: OpaquePointer, width: Int, height: Int, scale: Double, name: String) -> PageImage? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        poppler_page_render(page, cr)
        let ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard ok, let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let src = UnsafeRawPointer(data)
        // RGB24: one native-endian 32-bit word per pixel, x R G B from the most significant byte.
        return PageImage.grey(name: name, width: width, height: height, resolution: (Int(scale * 72), Int(scale * 72))) { x, y in
            let v = Int(src.loadUnaligned(fromByteOffset: y * stride + 4 * x, as: UInt32.self))
            return ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)
        }
    }
}
