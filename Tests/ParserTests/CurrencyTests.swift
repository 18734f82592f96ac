import Testing
import ReceiptModel
@testable import ReceiptParser

@Suite("Currency")
struct CurrencyTests {
    let parser = ReceiptParser()

    @Test("a bare $ is read by the tax or payment system named on the receipt", arguments: [
        ("NORTH TRAIL GEAR INC\nSUBTOTAL 20.00\nHST 13% 2.60\nTOTAL $22.60", "CAD"),
        ("HARBOUR CAFE PTY LTD\nABN 12 345 678 901\nTOTAL $9.50\nEFTPOS", "AUD"),
        ("CORNER DELI LLC\nSUBTOTAL 20.00\nTAX 1.60\nTOTAL $21.60", "USD"),
        ("DUTY FREE LTD\nTOTAL US$ 21.60\nHST included", "USD"),
    ])
    func dollar(_ text: String, _ code: String) throws {
        let r = parser.parse(text: text)
        let c = try #require(r.currency)
        #expect(c.value == code)
        #expect(!c.evidence.rule.isEmpty)
    }

    /// Two currencies seen as often and first on one line ("RM12.50 $4.00"): the one the line's signs give first (the
    /// rules' order), whichever is printed first, not the one a dictionary happens to list first (Swift seeds each
    /// dictionary anew, so that answer could change from one parse to the next). Every pair of some signs, both ways.
    @Test func aTieBetweenCurrenciesGoesToTheRulesOrder() {
        let tokens = ["RM12.50", "$4.00", "€3,00", "£2.00", "USD 3.00", "SGD 1.00", "IDR 5.000", "EUR 2.00", "GBP 1.50", "MYR 9.00", "¥800"]
        var ties = 0
        for a in tokens {
            for b in tokens where a != b {
                let line = "\(a) \(b)"
                let codes = parser.compiled.currencies(in: ParseLine(index: 0, line: OCRLine(text: line), rules: parser.compiled))
                guard codes.count == 2, codes[0] != codes[1] else { continue }
                ties += 1
                #expect(parser.parse(text: "SHOP\n\(line)\nTOTAL 16.50").currency?.value == codes[0], "\(line)")
            }
        }
        #expect(ties > 60)
    }

    /// A bare dollar's hints on a page whose lines are merged into rows: asked of every page line, and with the lines of a
    /// row that holds no hint, "usd" or "US$" passed over (`currency(pageLines:)`), the same currency and evidence. Pages
    /// of two or three columns side by side, dollar amounts, the hints as printed, slipped, run into other words, split
    /// across two lines of a row, and lines not ASCII.
    @Test func rowsWithoutHintsPassTheirLinesOver() {
        var g = HandScannerTests.Lines(state: 0x4869_6E74)
        let hints = ["HST", "hst 13%", "GST/HST", "lnterac", "INTERAC", "Interac:", "EFTPOS", "eft", "pos", "ABN", "abn:12", "NETS", "UEN",
                     "0ctopus", "TPS", "TVQ", "PST", "usd", "US$", "US", "$", "Tax", "Visa", "ird", "I R D", "Qst", "hstx", "xhst", "Caf\u{E9}",
                     "\u{301}HST", "H\u{301}ST"]
        let plain = ["TOTAL", "Subtotal", "$4.99", "$12.00", "2 @ $1.50", "Coffee", "THANK YOU", "12.00", "Change", "Cash"]
        var hinted = 0, passed = 0
        for k in 0..<2_000 {
            var lines: [OCRLine] = []
            var y = 0
            for _ in 0..<Int.random(in: 2...14, using: &g) {
                y += Int.random(in: 22...30, using: &g)
                for c in 0..<Int.random(in: 1...3, using: &g) {
                    var words: [String] = []
                    for _ in 0..<Int.random(in: 1...3, using: &g) {
                        words.append(Int.random(in: 0...6, using: &g) == 0 ? hints.randomElement(using: &g)! : plain.randomElement(using: &g)!)
                    }
                    lines.append(OCRLine(text: words.joined(separator: " "), box: BoundingBox(x: c * 220, y: y, width: 180, height: 20)))
                }
            }
            if k % 2 == 1 { lines.shuffle(using: &g) }
            let page = OCRPage(lines: lines)
            let quick = parser.read(page).currency, every = parser.read(page, passingOver: false).currency
            #expect(quick == every, "page \(k): \(lines.map(\.text))")
            if every?.evidence.rule == "currency.dollar-hint" { hinted += 1 }
            if every?.value == "USD", every?.evidence.rule == "currency.symbol" { passed += 1 }
        }
        // (Pages on both sides: a hint found, and none found with lines passed over.)
        #expect(hinted > 800 && passed > 400, "\(hinted) \(passed)")
    }

    @Test func explicitSymbolsWin() {
        #expect(parser.parse(text: "Bäckerei Sonne GmbH\nSUMME EUR 12,50").currency?.value == "EUR")
        #expect(parser.parse(text: "Kettle Shop Ltd\nTOTAL £34.99").currency?.value == "GBP")
    }
}
