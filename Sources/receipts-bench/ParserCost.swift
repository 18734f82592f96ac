import Foundation
import ReceiptModel
import ReceiptParser

/// `receipts-bench parser`: the parser's cost against the size of its input, on generated
/// receipt text (words, amounts, dates as receipts print them). Linear means 10× the lines
/// costs about 10× the time; the goal is at most 15× from 10,000 to 100,000 lines.
enum ParserCost {
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        static let words = ["MILK", "BREAD", "Coffee", "Beans", "ORGANIC", "Apples", "SUBTOTAL", "TAX", "TOTAL", "CASH", "CHANGE",
                            "VISA", "Card", "Store", "Receipt", "No.", "Qty", "Sdn", "Bhd", "GST", "Thank", "you", "Item", "Price",
                            "Summe", "EUR", "RM", "USD", "Total", "Amount", "Due", "Balance", "Rounding", "Discount", "Member"]

        mutating func word() -> String { Self.words[next(Self.words.count)] }
        mutating func amount() -> String { "\(next(500)).\(String(format: "%02d", next(100)))" }
        mutating func date() -> String { String(format: "%02d/%02d/20%02d", 1 + next(28), 1 + next(12), 10 + next(15)) }

        mutating func line() -> String {
            switch next(6) {
            case 0: return "\(word()) \(word()) \(amount())"
            case 1: return "\(word()) \(next(9) + 1) x \(amount()) \(amount())"
            case 2: return "\(date()) \(next(24)):\(String(format: "%02d", next(60))) \(word())"
            case 3: return "\(word()) \(word()) \(word())"
            case 4: return "\(word()): \(amount())"
            default: return "\(word()) \(amount()) \(word()) \(amount())"
            }
        }
    }

    static func time(_ text: String, parser: ReceiptParser, boxes: Bool = false) -> (seconds: Double, warnings: [String]) {
        // With boxes (as OCR and SROIE's truth text give them): lines stacked down the page, as rows are rebuilt from boxes.
        let page = boxes
            ? OCRPage(lines: text.split(separator: "\n").enumerated().map { i, l in
                OCRLine(text: String(l), box: BoundingBox(x: 10 + (i % 3) * 5, y: 30 * i, width: 400, height: 24)) })
            : OCRPage(text: text)
        let t0 = Date()
        let r = parser.parse(page)
        return (Date().timeIntervalSince(t0), r.warnings ?? [])
    }

    static func run(_ args: [String]) {
        let parser = ReceiptParser()
        var g = Generator(state: 16)
        func lines(_ n: Int) -> String { (0..<n).map { _ in g.line() }.joined(separator: "\n") }
        print("parser cost on generated receipt text (one receipt; lines of words, amounts, dates):")
        var times: [Int: Double] = [:]
        let sizes = option("--sizes", args).map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1_000, 10_000, 100_000]
        for n in sizes {
            let (s, w) = time(lines(n), parser: parser)
            times[n] = s
            print(String(format: "  %7d lines: %7.2f s", n, s) + (w.isEmpty ? "" : "  (\(w.joined(separator: "; ")))"))
        }
        var ratio = (times[100_000] ?? 0) / max(times[10_000] ?? 1, 1e-9)
        if times[100_000] != nil {
            print(String(format: "  100,000 / 10,000 lines: %.1f× the time (linear: 10×; goal: at most 15×): %@", ratio, ratio <= 15 ? "met" : "NOT met"))
        }
        var boxed: [Int: Double] = [:]
        for n in sizes where n >= 10_000 {
            let (s, _) = time(lines(n), parser: parser, boxes: true)
            boxed[n] = s
            print(String(format: "  %7d lines with boxes: %7.2f s", n, s))
        }
        if let a = boxed[10_000], let b = boxed[100_000] {
            let r = b / max(a, 1e-9)
            ratio = max(ratio, r)
            print(String(format: "  with boxes, 100,000 / 10,000 lines: %.1f× the time: %@", r, r <= 15 ? "met" : "NOT met"))
        }
        let lineBytes = Int(option("--line-bytes", args) ?? "") ?? 1_000_000
        var line = ""
        while line.utf8.count < lineBytes { line += g.line() + " " }
        let (s1, w1) = time(line, parser: parser)
        print(String(format: "  one line of %d bytes: %.2f s", line.utf8.count, s1) + (w1.isEmpty ? "" : "  (\(w1.joined(separator: "; ")))"))
        let dates = (0..<(Int(option("--dates", args) ?? "") ?? 5_000)).map { _ in g.date() }.joined(separator: " ")
        let (s2, w2) = time(dates, parser: parser)
        print(String(format: "  one line of %d dates: %.2f s", dates.split(separator: " ").count, s2) + (w2.isEmpty ? "" : "  (\(w2.joined(separator: "; ")))"))
        if args.contains("--check"), ratio > 15 || s1 > 10 || s2 > 5 { exit(1) }
    }
}
