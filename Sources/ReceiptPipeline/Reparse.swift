import ReceiptModel
import ReceiptParser
import ReceiptStore

/// Parses again what OCR read, with a (newer) parser and no OCR: the stored reading when
/// there is one (words, boxes, every look: the same parser gives the same receipt), else the
/// stored text (receipts stored before the store kept readings).
public enum Reparse {
    /// Re-parses every stored receipt whose parser version differs from `parser`'s (all of them
    /// with `force`) and saves each with its review status. Returns how many were re-parsed.
    public static func run(store: any ReceiptStore, parser: ReceiptParser, force: Bool,
                           isCancelled: () -> Bool = { false }) throws -> Int {
        let stored = try store.readings(parserVersionOtherThan: force ? nil : ReceiptParser.version)
        var n = 0
        for s in stored {
            if isCancelled() { break }
            let receipt: ParsedReceipt, text: String?
            if let reading = s.reading {
                let replayed = parser.parse(reading)
                (receipt, text) = (replayed.receipt, replayed.page.text)
            } else if let t = s.ocrText {
                (receipt, text) = (parser.parse(text: t), t)
            } else {
                continue
            }
            _ = try store.saveReceipt(StoredReceiptInput(contentHash: s.contentHash, sourcePath: s.sourcePaths.first ?? "", ocrText: text,
                                                         reading: s.reading, parsed: receipt, engineVersion: s.engineVersion,
                                                         status: ReviewPolicy.needsReview(receipt) ? .needsReview : .parsed))
            n += 1
        }
        return n
    }
}
