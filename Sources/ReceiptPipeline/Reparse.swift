import ReceiptModel
import ReceiptParser
import ReceiptStore
import ReceiptLearning

/// Parses again what OCR read, with a (newer) parser and no OCR: the stored reading when
/// there is one (words, boxes, every look: the same parser gives the same receipt), else the
/// stored text (receipts stored before the store kept readings).
public enum Reparse {
    /// Re-parses every stored receipt whose parser version differs from `parser`'s (all of them
    /// with `force`) and saves each with its review status. Returns how many were re-parsed.
    /// With `learn`, each is read with the shops the store's directory knows when the run starts.
    public static func run(store: any ReceiptStore, parser: ReceiptParser, force: Bool, learn: Bool = true,
                           isCancelled: () -> Bool = { false }) throws -> Int {
        let stored = try store.readings(parserVersionOtherThan: force ? nil : ReceiptParser.version)
        let learning = learn ? ShopLearning(shops: try store.shops(), parser: parser) : nil
        var n = 0
        for s in stored {
            if isCancelled() { break }
            let receipt: ParsedReceipt, page: OCRPage
            if let reading = s.reading {
                (receipt, page) = parser.parse(reading)
            } else if let t = s.ocrText {
                page = OCRPage(text: t)
                receipt = parser.parse(page)
            } else {
                continue
            }
            let learned = learning?.read(receipt, reading: s.reading ?? OCRReading(first: page), page: page)
            _ = try store.saveReceipt(StoredReceiptInput(contentHash: s.contentHash, sourcePath: s.sourcePaths.first ?? "", ocrText: s.reading == nil ? s.ocrText : page.text,
                                                         reading: s.reading, parsed: receipt, learned: learned, engineVersion: s.engineVersion,
                                                         status: ReviewPolicy.needsReview(receipt.applying(learned)) ? .needsReview : .parsed))
            n += 1
        }
        return n
    }
}
