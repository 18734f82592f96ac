import Testing
import ReceiptModel
import ReceiptParser

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

    @Test func explicitSymbolsWin() {
        #expect(parser.parse(text: "Bäckerei Sonne GmbH\nSUMME EUR 12,50").currency?.value == "EUR")
        #expect(parser.parse(text: "Kettle Shop Ltd\nTOTAL £34.99").currency?.value == "GBP")
    }
}
