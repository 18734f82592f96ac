import Foundation
import ReceiptIngest
import ReceiptModel
import ReceiptOCR
import ReceiptPipeline
import ReceiptSupport

/// `receipts eval --lines DIR`: the reader alone, judged line by line before it is judged end to end.
/// Each ground-truth box of a labelled folder (`box/`) is read alone, as one text line (psm 7), from the
/// image as decoded (no crop, deskew, upscaling or contrast normalisation, so the boxes stay where the
/// labels put them), with a margin of 15 % of the box's height on every side.
public struct LineEval {
    /// What was read of one box.
    public struct Line: Sendable {
        public var truth: String
        public var read: String
        /// Whether the true line holds (part of) the receipt's labelled vendor: `LineEval.holdsVendor`.
        public var vendor = false
        /// The receipt's id (its image's name).
        public var receipt = ""

        public init(truth: String, read: String, vendor: Bool = false, receipt: String = "") {
            self.truth = truth; self.read = read; self.vendor = vendor; self.receipt = receipt
        }
    }

    /// A line a field rests on (the vendor's, or one with a date or a time) that was not read exactly: what
    /// `eval --lines` lists as its misses, to see what the reader gets wrong where it matters.
    public struct Miss: Sendable, Equatable {
        public var receipt: String
        /// "vendor", "date" or "time".
        public var field: String
        public var truth: String
        public var read: String
    }

    /// For each kind of line a field rests on, whether line `l` is one (non-nil) and was read right (true): its amounts,
    /// dates and times each found in the reading, on the normalised texts `t` and `r`; the vendor's line as scored.
    struct Judged {
        var amounts, dates, times, vendor: Bool?
    }

    static func judge(_ l: Line, truth t: String, read r: String, spaceless: Bool) -> Judged {
        func read(_ re: NSRegularExpression) -> Bool? {
            let found = tokens(re, in: t)
            return found.isEmpty ? nil : found.allSatisfy { r.contains($0) }
        }
        return Judged(amounts: read(amount), dates: read(date), times: read(time), vendor: l.vendor ? readsVendor(l, spaceless: spaceless) : nil)
    }

    /// Totals over every line, and the figures they give.
    public struct Figures: Sendable {
        public private(set) var lines = 0
        /// Characters of the true lines (normalised), and the edits that make the readings of them.
        public private(set) var chars = 0
        public private(set) var errors = 0
        public private(set) var errorsCaseSensitive = 0
        public private(set) var exact = 0
        public private(set) var amountLines = 0, amountsExact = 0
        public private(set) var dateLines = 0, datesExact = 0
        public private(set) var timeLines = 0, timesExact = 0
        public private(set) var vendorLines = 0, vendorsExact = 0

        public init() {}

        /// Counts line `l`, and returns it as a miss when it holds a vendor, a date or a time read wrong: a line is a
        /// miss once, for the first of those it did not read exactly (the vendor's line whole; a date's or a time's
        /// tokens). `eval --lines` lists them in the lines' order.
        @discardableResult
        public mutating func add(_ l: Line, spaceless: Bool) -> Miss? {
            let t = LineEval.normalise(l.truth, spaceless: spaceless), r = LineEval.normalise(l.read, spaceless: spaceless)
            let tc = LineEval.normalise(l.truth, spaceless: spaceless, keepCase: true), rc = LineEval.normalise(l.read, spaceless: spaceless, keepCase: true)
            lines += 1
            chars += t.count
            errors += EditDistance.levenshtein(Array(t), Array(r))
            errorsCaseSensitive += EditDistance.levenshtein(Array(tc), Array(rc))
            if t == r { exact += 1 }
            // (The vendor's line is judged whole: one letter wrong on it loses the field.)
            let j = LineEval.judge(l, truth: t, read: r, spaceless: spaceless)
            func count(_ right: Bool?, _ of: inout Int, _ exact: inout Int) {
                guard let right else { return }
                of += 1
                if right { exact += 1 }
            }
            count(j.amounts, &amountLines, &amountsExact)
            count(j.dates, &dateLines, &datesExact)
            count(j.times, &timeLines, &timesExact)
            count(j.vendor, &vendorLines, &vendorsExact)
            let field: String? = if j.vendor == false { "vendor" } else if j.dates == false { "date" } else if j.times == false { "time" } else { nil }
            return field.map { Miss(receipt: l.receipt, field: $0, truth: l.truth, read: l.read) }
        }

        static func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "—" : String(format: "%.2f %%", 100 * Double(a) / Double(b)) }

        public func table(source: String, seconds: Double) -> String {
            """
            receipts eval --lines: \(lines) lines of \(source), \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", Double(lines) / max(seconds, 0.001))) lines/s)

            character error (case-insensitive)  \(Self.percent(errors, chars))
            character error (case-sensitive)    \(Self.percent(errorsCaseSensitive, chars))
            lines exact                         \(Self.percent(exact, lines))  (\(exact) of \(lines))
            amounts exact                       \(Self.percent(amountsExact, amountLines))  (\(amountsExact) of \(amountLines) lines with an amount)
            dates exact                         \(Self.percent(datesExact, dateLines))  (\(datesExact) of \(dateLines) lines with a date)
            times exact                         \(Self.percent(timesExact, timeLines))  (\(timesExact) of \(timeLines) lines with a time)
            vendor lines exact                  \(Self.percent(vendorsExact, vendorLines))  (\(vendorsExact) of \(vendorLines) lines holding the labelled vendor)

            """
        }
    }

    /// Lowercased (unless `keepCase`), runs of spaces as one, trimmed; no spaces at all with `spaceless`.
    static func normalise(_ s: String, spaceless: Bool, keepCase: Bool = false) -> String {
        let t = keepCase ? s : s.lowercased()
        let words = t.split(whereSeparator: \.isWhitespace)
        return words.joined(separator: spaceless ? "" : " ")
    }

    /// Money: digits, a decimal point or comma, two digits.
    static let amount = try! NSRegularExpression(pattern: #"\d+[.,]\d{2}(?!\d)"#)
    /// Dates as receipts print them: 25/12/2018, 12-01-19, 2018-03-04, 05 mar 2018, 19-sep-2019.
    static let date = try! NSRegularExpression(pattern: #"(?<!\d)(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.-]\d{1,2}[/.-]\d{1,2}|\d{1,2}[ -]?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -]?\d{2,4})(?!\d)"#)

    /// Times of day: 14:05, 2:21, 13:14:37.
    static let time = try! NSRegularExpression(pattern: #"(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])"#)

    /// Whether a vendor line was read as the vendor is scored: its letters, digits and "&" (`LabelValue.vendor`: case,
    /// accents and punctuation aside, so "MARGO’S" is "MARGO'S"), and its spaces unless `spaceless`.
    static func readsVendor(_ l: Line, spaceless: Bool) -> Bool {
        let t = LabelValue.vendor(l.truth), r = LabelValue.vendor(l.read)
        return spaceless ? t.replacingOccurrences(of: " ", with: "") == r.replacingOccurrences(of: " ", with: "") : t == r
    }

    /// Whether a true line holds the labelled vendor, or a part of it printed on a line of its own (a name over
    /// two lines, "SAKURA GARDEN" over "SDN BHD"): compared as the vendor is scored (`LabelValue.vendor`), without
    /// spaces. A part or a whole of four characters at least, so a stray "THE" is no vendor line and a short
    /// vendor ("ZAP") inside a longer word is not found; a line that is the whole label always counts. A line that
    /// holds the label and as much again is another line that names the shop ("Thank you for visiting FUN
    /// PIER PARK!", an e-mail address), not its name.
    static func holdsVendor(_ line: String, label: String?) -> Bool {
        guard let label else { return false }
        let l = LabelValue.vendor(line).replacingOccurrences(of: " ", with: "")
        let v = LabelValue.vendor(label).replacingOccurrences(of: " ", with: "")
        guard !l.isEmpty, !v.isEmpty else { return false }
        return l == v || (l.count >= 4 && v.contains(l)) || (v.count >= 4 && l.count <= 2 * v.count && l.contains(v))
    }

    static func tokens(_ re: NSRegularExpression, in s: String) -> [String] {
        let ns = s as NSString
        return re.matches(in: s, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) }
    }

    /// The image as the labels saw it: decoded, grey, nothing moved or scaled.
    static var ingestOptions: IngestOptions {
        var o = IngestOptions()
        o.capturesLibraryStderr = true  // (the tool's: its own lines never go to descriptor 2)
        o.deskew = false
        o.cropToPaper = false
        o.minLongSide = 0
        o.contrastNormalize = false
        o.reduceAbove = 0  // the true boxes are in the file's pixels: a big page stays whole
        return o
    }

    /// Reads every true line of every receipt with its own engine per worker (made by `makeEngine`).
    public static func run(_ receipts: [LabelledReceipt], makeEngine: @escaping @Sendable () throws -> any OCREngine,
                           jobs: Int) -> (lines: [Line], failures: [String]) {
        let out = Locked<[(Int, [Line])]>([])
        let failures = Locked<[String]>([])
        WorkerPool.run(jobs: jobs, isCancelled: { false }, produce: { put in
            for (i, r) in receipts.enumerated() where !put((i, r)) { break }
        }, work: { (item: (Int, LabelledReceipt), engine: inout (any OCREngine)?) in
            let (i, r) = item
            do {
                if engine == nil { engine = try makeEngine() }
                guard let engine, let truth = r.truthPage else { return }
                let page = try Ingest.load(path: r.image, options: ingestOptions).pages[0].pageImage
                var lines: [Line] = []
                for l in truth.lines {
                    guard let box = l.box, box.width > 0, box.height > 0 else { continue }
                    let m = Int((Double(box.height) * 0.15).rounded())
                    let region = BoundingBox(x: box.x - m, y: box.y - m, width: box.width + 2 * m, height: box.height + 2 * m)
                        .clamped(toWidth: page.width, height: page.height)
                    guard let region else { continue }
                    let read = try engine.recognize(page, request: OCRRequest(layout: .singleLine, region: region))
                    lines.append(Line(truth: l.text, read: read.text.replacingOccurrences(of: "\n", with: " "),
                                      vendor: holdsVendor(l.text, label: r.vendor), receipt: r.id))
                }
                out.withLock { $0.append((i, lines)) }
            } catch {
                failures.withLock { $0.append("\(r.image): \(error)") }
            }
        })
        return (out.value.sorted { $0.0 < $1.0 }.flatMap(\.1), failures.value.sorted())
    }
}
