import Foundation
import ReceiptDrawing
import ReceiptIngest
import ReceiptModel

/// One picture of a miss in the `eval --html` page: a part of the receipt, as PNG bytes.
public struct EvalPicture: Sendable {
    /// What it shows ("found", "the label's value was read here", "top of the page").
    public var caption: String
    public var png: Data
}

/// A line of text on the page with the box it was read in (page pixels).
struct PlacedLine: Sendable {
    var text: String
    var box: BoundingBox
}

/// The pictures of one receipt's misses, made while its image is at hand (`eval --html`):
/// the image itself is dropped as soon as they are encoded, so a run over hundreds of
/// receipts keeps only these small PNGs.
enum EvalPictures {
    /// Crops are at most this wide and tall (pixels); thumbnails of a whole page, this wide and tall.
    static let cropSize = (width: 640, height: 200)
    static let thumbnailSize = (width: 280, height: 640)

    /// Miss → pictures, for each of `s`'s misses: where the chosen value was read (its
    /// evidence box, blue); where the labelled value was read when the parser chose otherwise
    /// (green); and, when neither has a box, a thumbnail of the part of the page the field is
    /// usually on (the top third for the vendor, the whole page otherwise). A missed item price
    /// gets only the green crop, the first one of a receipt; a missed item name none (its best
    /// line item's text is in the row): a report over the photo set would otherwise carry
    /// a thousand crops (67 MB).
    /// `image` and `lines` share one pixel space (the evidence boxes').
    static func make(for s: Scored, image: PageImage, lines: [PlacedLine]) -> [Miss.Key: [EvalPicture]] {
        var out: [Miss.Key: [EvalPicture]] = [:]
        var itemMisses: [EvalField: Int] = [:]
        for miss in Miss.of(s) {
            guard let field = miss.field, let key = miss.key, out[key] == nil else { continue }
            var pictures: [EvalPicture] = []
            if field.isItemMeasure {
                itemMisses[field, default: 0] += 1
                guard field == .itemPrices, itemMisses[field]! <= itemPictures else { continue }
                if let line = whereRead(miss, expected: s.expected, lines: lines), let png = crop(image, line.box, kind: .lineItem) {
                    out[key] = [EvalPicture(caption: "the label's value was read here", png: png)]
                }
                continue
            }
            if let box = miss.evidence?.box, let png = crop(image, box, kind: .chosen) {
                pictures.append(EvalPicture(caption: "found here", png: png))
            }
            if let line = whereRead(miss, expected: s.expected, lines: lines),
               line.box != miss.evidence?.box, let png = crop(image, line.box, kind: .lineItem) {
                pictures.append(EvalPicture(caption: "the label's value was read here", png: png))
            }
            if pictures.isEmpty {
                let top = field == .vendor
                let region = BoundingBox(x: 0, y: 0, width: image.width, height: top ? max(1, image.height / 3) : image.height)
                if let png = Annotator.crop(image, region: region, maxWidth: thumbnailSize.width, maxHeight: thumbnailSize.height)
                    .flatMap(PNGEncoder.encode) {
                    pictures.append(EvalPicture(caption: top ? "nothing found: the top of the page" : "nothing found: the page", png: png))
                }
            }
            out[key] = pictures
        }
        return out
    }

    /// Item prices missed on one receipt that get a picture.
    static let itemPictures = 1

    /// The box's row of the page, the full width, with some room above and below.
    static func crop(_ image: PageImage, _ box: BoundingBox, kind: Annotation.Kind) -> Data? {
        let room = max(24, box.height * 2)
        let region = BoundingBox(x: 0, y: box.y - room, width: image.width, height: box.height + 2 * room)
        return Annotator.crop(image, region: region, box: box, kind: kind, maxWidth: cropSize.width, maxHeight: cropSize.height)
            .flatMap(PNGEncoder.encode)
    }

    /// The first line holding the labelled value, as `MissCause` tells "read, not chosen".
    static func whereRead(_ miss: Miss, expected: LabelledReceipt, lines: [PlacedLine]) -> PlacedLine? {
        guard let field = miss.field else { return nil }
        switch field {
        case .vendor:
            guard let v = expected.vendor else { return nil }
            let want = LabelValue.vendor(v).replacingOccurrences(of: " ", with: "")
            guard !want.isEmpty else { return nil }
            // The whole name on one line, else the first line that is a good part of it.
            return lines.first { LabelValue.vendor($0.text).replacingOccurrences(of: " ", with: "").contains(want) }
                ?? lines.first { l in
                    let have = LabelValue.vendor(l.text).replacingOccurrences(of: " ", with: "")
                    return have.count >= max(4, want.count / 3) && want.contains(have)
                }
        case .itemNames:
            return lines.first { MissCause.holdsName(miss.expected, $0.text) }
        case .date, .total, .subtotal, .tax, .time, .itemPrices:
            let holding = lines.filter { MissCause.holds(field, expected: expected, line: $0.text, money: miss.scored) }
            // An amount is often on an item's line too: the line that names the field first.
            let word = field == .total ? "total" : field == .subtotal ? "sub" : field == .tax ? "tax" : nil
            if let word, let line = holding.first(where: { $0.text.lowercased().contains(word) }) { return line }
            return holding.first
        }
    }

    /// The lines the OCR pipeline read with their boxes, in the page's pixels: the parser's
    /// page, the whole-page second looks, and each re-read row (its region as its box).
    static func lines(page: OCRPage, reading: OCRReading) -> [PlacedLine] {
        func placed(_ p: OCRPage) -> [PlacedLine] { p.lines.compactMap { l in l.box.map { PlacedLine(text: l.text, box: $0) } } }
        var out = placed(page)
        for look in reading.pages.flatMap(\.looks) {
            if let region = look.region {
                out.append(PlacedLine(text: look.page.lines.map(\.text).joined(separator: " "), box: region))
            } else {
                out += placed(look.page)
            }
        }
        return out
    }
}

/// `eval --html FILE`: one self-contained page (CSS inline, pictures as data URIs).
public enum EvalHTML {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    public static func render(results: [Scored], summary: Summary, baseline: Baseline?,
                              folder: String, source: String, seconds: Double) -> String {
        let e = escape
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <title>receipts eval: \(e(folder))</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
        table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
        th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }
        th { background: #f2f2f2; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        .up { color: #080; } .down { color: #c00; font-weight: bold; }
        .value { font-family: ui-monospace, monospace; }
        .cause { white-space: nowrap; }
        figure { margin: 0 0 0.6em; } figcaption { font-size: 12px; color: #555; }
        img { border: 1px solid #ddd; max-width: 640px; }
        </style></head><body>
        <h1>receipts eval</h1>
        <p>\(results.count) receipts from <code>\(e(folder))</code>, read from \(e(source)), \(String(format: "%.1f", seconds)) s.</p>

        """
        h += "<h2>Accuracy</h2>\n"
        if let baseline {
            h += "<p>Against the baseline <code>\(e(baseline.path))</code>.</p>\n"
        } else {
            h += "<p>No baseline given (<code>--baseline FILE</code> adds one).</p>\n"
        }
        h += "<table id=\"accuracy\"><tr><th>field</th><th>right</th><th>of</th><th>accuracy</th>"
        if baseline != nil { h += "<th>baseline</th><th>change</th>" }
        h += MissCause.allCases.map { "<th>\(e($0.rawValue))</th>" }.joined() + "</tr>\n"
        for row in ScoreRow.allCases {
            guard let n = summary.labelled[row] else { continue }
            let acc = summary.accuracy(row) ?? 0
            h += "<tr data-field=\"\(row.key)\"><td>\(row.label)</td><td class=\"num\">\(summary.right[row, default: 0])</td>"
            h += "<td class=\"num\">\(n)</td><td class=\"num accuracy\">\(fmt(acc)) %</td>"
            if let baseline {
                if let want = baseline.values[row.key] {
                    let delta = acc - want
                    let cls = delta < -1e-9 ? "down" : delta > 1e-9 ? "up" : ""
                    h += "<td class=\"num\">\(fmt(want)) %</td><td class=\"num delta \(cls)\">\(delta >= 0 ? "+" : "−")\(fmt(abs(delta)))</td>"
                } else {
                    h += "<td class=\"num\">—</td><td></td>"
                }
            }
            h += MissCause.allCases.map { c in
                guard case let .field(f) = row else { return "<td class=\"num\"></td>" }
                return "<td class=\"num\">\(summary.causes[f]?[c] ?? 0)</td>"
            }.joined()
            h += "</tr>\n"
        }
        h += "</table>\n"
        if let extra = summary.extraPricesLine { h += "<p id=\"extra-prices\">\(e(extra)).</p>\n" }
        if summary.errors > 0 { h += "<p>\(summary.errors) receipts could not be read.</p>\n" }

        let misses = results.flatMap { s in Miss.of(s).map { (s, $0) } }
        h += "<h2>Misses</h2>\n"
        if misses.isEmpty { h += "<p>None.</p>\n" }
        for field in ["error"] + EvalField.allCases.map(\.rawValue) {
            let rows = misses.filter { $0.1.fieldName == field }
            guard !rows.isEmpty else { continue }
            let title = field == "error" ? "unreadable receipts" : EvalField(rawValue: field)?.label ?? field
            h += "<h3 id=\"misses-\(field)\">\(title) (\(rows.count))</h3>\n"
            h += "<table class=\"misses\"><tr><th>receipt</th>"
            h += field == "error" ? "<th>error</th></tr>\n" : "<th>expected</th><th>found</th><th>why</th><th>evidence</th><th>picture</th></tr>\n"
            for (s, m) in rows {
                h += "<tr class=\"miss\" data-field=\"\(field)\"><td>\(e(s.id))<br><small>\(e((s.expected.image as NSString).lastPathComponent))</small></td>"
                if field == "error" {
                    h += "<td>\(e(m.got ?? ""))</td></tr>\n"
                    continue
                }
                h += "<td class=\"value expected\">\(e(m.expected))</td>"
                h += "<td class=\"value got\">\(m.got.map(e) ?? "<i>nothing</i>")</td>"
                h += "<td class=\"cause\">\(m.cause.map { e($0.rawValue) } ?? "")</td><td>"
                if let ev = m.evidence {
                    if let t = ev.text { h += "<span class=\"value\">“\(e(t))”</span><br>" }
                    var at: [String] = []
                    if let l = ev.line { at.append("line \(l + 1)") }
                    if let p = ev.page { at.append("page \(p)") }
                    if let b = ev.box { at.append("box \(b.x),\(b.y) \(b.width)×\(b.height)") }
                    h += "<small>\(e(([ev.rule] + at).joined(separator: " · ")))</small>"
                    for n in ev.notes { h += "<br><small>\(e(n.description))</small>" }
                }
                h += "</td><td>"
                for p in m.key.flatMap({ s.pictures[$0] }) ?? [] {
                    h += "<figure><img alt=\"\(e(p.caption))\" src=\"data:image/png;base64,\(p.png.base64EncodedString())\">"
                    h += "<figcaption>\(e(p.caption))</figcaption></figure>"
                }
                h += "</td></tr>\n"
            }
            h += "</table>\n"
        }
        h += "</body></html>\n"
        return h
    }
}
