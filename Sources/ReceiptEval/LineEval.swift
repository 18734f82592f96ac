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
    }

    /// Totals over every line, and the figures they give.
    public struct Figures: Sendable {
        var lines = 0
        var chars = 0
        var errors = 0
        var errorsCaseSensitive = 0
        var exact = 0
        var amountLines = 0, amountsExact = 0
        var dateLines = 0, datesExact = 0

        public init() {}

        public mutating func add(_ l: Line, spaceless: Bool) {
            let t = LineEval.normalise(l.truth, spaceless: spaceless), r = LineEval.normalise(l.read, spaceless: spaceless)
            let tc = LineEval.normalise(l.truth, spaceless: spaceless, keepCase: true), rc = LineEval.normalise(l.read, spaceless: spaceless, keepCase: true)
            lines += 1
            chars += t.count
            errors += EditDistance.levenshtein(Array(t), Array(r))
            errorsCaseSensitive += EditDistance.levenshtein(Array(tc), Array(rc))
            if t == r { exact += 1 }
            let amounts = LineEval.tokens(LineEval.amount, in: t)
            if !amounts.isEmpty {
                amountLines += 1
                if amounts.allSatisfy({ r.contains($0) }) { amountsExact += 1 }
            }
            let dates = LineEval.tokens(LineEval.date, in: t)
            if !dates.isEmpty {
                dateLines += 1
                if dates.allSatisfy({ r.contains($0) }) { datesExact += 1 }
            }
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
    /// Dates as receipts print them: 25/12/2018, 12-01-19, 2018-03-04, 05 mar 2018, 24-mar-2018.
    static let date = try! NSRegularExpression(pattern: #"(?<!\d)(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.-]\d{1,2}[/.-]\d{1,2}|\d{1,2}[ -]?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -]?\d{2,4})(?!\d)"#)

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
                    lines.append(Line(truth: l.text, read: read.text.replacingOccurrences(of: "\n", with: " ")))
                }
                out.withLock { $0.append((i, lines)) }
            } catch {
                failures.withLock { $0.append("\(r.image): \(error)") }
            }
        })
        return (out.value.sorted { $0.0 < $1.0 }.flatMap(\.1), failures.value.sorted())
    }
}
