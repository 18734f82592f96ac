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

    @Test func explicitSymbolsWin() {
        #expect(parser.parse(text: "Bäckerei Sonne GmbH\nSUMME EUR 12,50").currency?.value == "EUR")
        #expect(parser.parse(text: "Kettle Shop Ltd\nTOTAL £34.99").currency?.value == "GBP")
    }
}
