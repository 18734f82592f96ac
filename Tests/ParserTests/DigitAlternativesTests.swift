import Testing
import ReceiptModel
@testable import ReceiptParser

/// A total misread by one digit is settled by the receipt's arithmetic, and where the OCR engine kept
/// its other readings of the digits (`OCRWord.alternatives`), only to a digit the engine weighed there.
@Suite("Digits settled by arithmetic and the reader's alternatives")
struct DigitAlternativesTests {
    static func line(_ words: [(String, [OCRAlternative]?)], y: Int) -> OCRLine {
        OCRLine(words: words.enumerated().map { i, w in
            OCRWord(text: w.0, box: BoundingBox(x: 10 + 120 * i, y: y, width: 100, height: 20), confidence: 0.9, alternatives: w.1)
        })
    }

    /// An invented receipt whose subtotal and tax make 43.20, with the total line read as `total`.
    static func receipt(total: String, alternatives: [OCRAlternative]?) -> OCRPage {
        OCRPage(lines: [
            line([("KEDAI", nil), ("RUNCING", nil), ("SDN", nil), ("BHD", nil)], y: 10),
            line([("Date:", nil), ("12/03/2018", [])], y: 40),
            line([("SUBTOTAL", nil), ("40.00", [])], y: 70),
            line([("GST", nil), ("8%", []), ("3.20", [])], y: 100),
            line([("TOTAL", nil), (total, alternatives)], y: 130),
        ], width: 600, height: 200)
    }

    @Test func aDigitTheReaderWeighedIsTakenAndSaidSo() throws {
        // 7 for 3 is no confusion the fixed table knows; the reader weighed a 3 at that place.
        let r = ReceiptParser().parse(Self.receipt(total: "47.20", alternatives: [OCRAlternative(at: 1, characters: "31", confidence: 0.55)]))
        let total = try #require(r.total)
        #expect(total.value == Amount("43.20"))
        #expect(total.evidence.notes.contains(.engineWeighedDigit("3")), "\(total.evidence.notes)")
        #expect(total.evidence.notes.contains { if case .digitRepaired = $0 { true } else { false } })
        #expect(r.checks.contains(.sumAfterDigitRepair(.subtotalTax(subtotal: Amount("40.00")!, tax: Amount("3.20")!), equals: Amount("43.20")!)))
    }

    @Test func aDigitTheReaderDidNotWeighIsLeftAsRead() throws {
        // 8 for 3 is in the fixed table, but the reader kept its alternatives and 3 was not among them:
        // the sum's own inputs may be the misread ones, so the total stays as read (and in doubt).
        let r = ReceiptParser().parse(Self.receipt(total: "48.20", alternatives: [OCRAlternative(at: 1, characters: "6", confidence: 0.3)]))
        #expect(r.total?.value == Amount("48.20"))
        #expect(r.checks.contains(.subtotalTaxMismatch))
        // Weighed nothing at all for the word: the same.
        #expect(ReceiptParser().parse(Self.receipt(total: "48.20", alternatives: [])).total?.value == Amount("48.20"))
    }

    @Test func withoutAlternativesTheFixedTableDecidesAsBefore() {
        // A reading with no alternatives recorded (stock engine, older stored readings): 8→3 is a known confusion.
        let known = ReceiptParser().parse(Self.receipt(total: "48.20", alternatives: nil))
        #expect(known.total?.value == Amount("43.20"))
        #expect(known.total?.evidence.notes.contains(.engineWeighedDigit("3")) == false)
        // 7→3 is not: left as read.
        #expect(ReceiptParser().parse(Self.receipt(total: "47.20", alternatives: nil)).total?.value == Amount("47.20"))
    }

    @Test func theDigitIsFoundInAWordWithACurrencyRunIn() throws {
        // "RM47.20": the amount's digits end the word's; the alternative's place counts in the word's characters.
        let r = ReceiptParser().parse(Self.receipt(total: "RM47.20", alternatives: [OCRAlternative(at: 3, characters: "3", confidence: 0.4)]))
        #expect(r.total?.value == Amount("43.20"))
    }
}
