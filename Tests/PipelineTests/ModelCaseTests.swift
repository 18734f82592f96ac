import Foundation
import Testing
import ReceiptOCR
@testable import ReceiptEval

/// The receipt model keeps letter case: trained partly on a stream whose labels are all capitals, it must
/// still write lower case where receipts print it. Judged on project-made mixed-case receipt lines
/// (`Tests/Fixtures/case-lines`, made by `Tests/Fixtures/tools/make_case_lines.py`; none is a training line),
/// each read alone by the real Tesseract with the shipped model and with stock `eng`.
@Suite("The receipt model keeps letter case", .serialized)
struct ModelCaseTests {
    static func read(_ model: String, _ receipts: [LabelledReceipt]) -> [LineEval.Line] {
        var o = OCROptions()
        o.language = model
        let options = o
        let (lines, failures) = LineEval.run(receipts, makeEngine: { try TesseractEngine(options: options) }, jobs: 2)
        #expect(failures.isEmpty, "\(failures)")
        return lines
    }

    @Test func lowerCaseWherePrintedAndNoWorseThanStock() throws {
        let receipts = try LabelledReceipt.load(Repo.fixtures + "/case-lines")
        #expect(receipts.count == 48)
        let ours = Self.read(Tessdata.receiptModel, receipts), stock = Self.read("eng", receipts)
        #expect(ours.count == 48 && stock.count == 48)

        // Lower case as printed: of the lower-case letters the lines print, the model writes nearly all as lower case.
        let printed = ours.reduce(0) { $0 + $1.truth.filter(\.isLowercase).count }
        let written = ours.reduce(0) { $0 + min($1.truth.filter(\.isLowercase).count, $1.read.filter(\.isLowercase).count) }
        #expect(printed > 300)
        #expect(Double(written) >= 0.9 * Double(printed), "lower case written \(written) of \(printed)")
        // Not a model that writes capitals only (the stream's labels): lines printed all lower case read that way.
        #expect(ours.contains { $0.truth == $0.truth.lowercased() && $0.truth.contains(where: \.isLetter) && $0.read == $0.truth })

        // Case-sensitive character error no worse than stock eng's.
        var a = LineEval.Figures(), b = LineEval.Figures()
        for l in ours { a.add(l, spaceless: false) }
        for l in stock { b.add(l, spaceless: false) }
        #expect(a.chars == b.chars && a.chars > 0)
        #expect(a.errorsCaseSensitive <= b.errorsCaseSensitive,
                "case-sensitive errors: receipt \(a.errorsCaseSensitive), eng \(b.errorsCaseSensitive) of \(a.chars) characters")
    }
}
