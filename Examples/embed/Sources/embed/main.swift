// An app that reads one receipt with the receipts library and prints what it found as JSON.
// Run from the repository: swift run --package-path Examples/embed embed SampleReceipts/us-hardware-01.png
import Foundation
import ReceiptModel
import ReceiptParser
import ReceiptPipeline

/// What this app keeps of a receipt: each field with its confidence and the line it was read from.
struct Found: Encodable {
    struct Value: Encodable {
        var value: String
        var confidence: Double
        var line: String?
    }
    var file: String
    var vendor: Value?
    var date: Value?
    var total: Value?
    var currency: String?
    var needsReview: Bool
}

func value<T>(_ field: Field<T>?, _ show: (T) -> String) -> Found.Value? {
    field.map { Found.Value(value: show($0.value), confidence: $0.confidence, line: $0.evidence.text) }
}

guard let path = CommandLine.arguments.dropFirst().first else {
    print("usage: embed RECEIPT-IMAGE")
    exit(2)
}
// Tesseract with its English model and the parser's built-in rules; the OCR runs on the reader's own thread.
let reader = ReceiptReader()
do {
    let receipt = try await reader.read(path: path).receipt
    let found = Found(file: path,
                      vendor: value(receipt.vendor) { $0 },
                      date: value(receipt.date) { $0.iso },
                      total: value(receipt.total) { $0.description },
                      currency: receipt.currency?.value,
                      needsReview: ReviewPolicy.needsReview(receipt))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(found), as: UTF8.self))
} catch {
    print("error: \(path): \(error)")
    exit(3)
}
