import Foundation
import ReceiptModel
import ReceiptStore
import Synchronization

/// `receipts-bench store --store LOCATION [--count N] [--jobs J]`: what a batch's store calls cost
/// per receipt, with no OCR: each of J threads, for its share of N receipts, does what
/// `BatchRunner` does per image (is it stored? claim it with a lease, save it with its reading
/// and line items, which ends the claim). The receipt is a realistic one: 40 lines of 5 words
/// with boxes in the reading, 8 line items. Prints the cost per receipt.
enum StoreCost {
    static func run(_ args: [String]) throws {
        guard let location = option("--store", args) else { fail("store needs --store LOCATION (an empty store)") }
        let n = Int(option("--count", args) ?? "") ?? 2000
        let jobs = Int(option("--jobs", args) ?? "") ?? 2
        let store = try StoreLocation.open(location)
        guard try store.stats().receipts == 0 else { fail("\(location): give an empty store") }
        let input = template()
        let next = Mutex(0)
        let errors = Mutex([String]())
        let t0 = Date()
        DispatchQueue.concurrentPerform(iterations: jobs) { j in
            let worker = "bench:\(j)"
            while true {
                let i = next.withLock { v -> Int in defer { v += 1 }; return v }
                guard i < n else { break }
                do {
                    let hash = String(format: "%064x", i)
                    if try store.containsReceipt(contentHash: hash) { continue }
                    guard case .claimed = try store.claim(contentHash: hash, path: "bench/\(i).png", worker: worker, lease: 90, evenIfStored: false) else { continue }
                    var r = input
                    r.contentHash = hash
                    r.sourcePath = "bench/\(i).png"
                    try store.saveReceipt(r)
                } catch { errors.withLock { $0.append("\(error)") } }
            }
        }
        let seconds = Date().timeIntervalSince(t0)
        let failed = errors.withLock { $0 }
        if let e = failed.first { fail("\(failed.count) errors, first: \(e)") }
        let stored = try store.stats().receipts
        let engine = location.contains("://") ? "PostgreSQL" : "SQLite"
        print(String(format: "claim-and-store, %@: %d receipts, %d workers: %.2f ms per receipt (%.0f receipts/s)%@",
                     engine, n, jobs, seconds * 1000 / Double(n), Double(n) / seconds, stored == n ? "" : "; STORED \(stored)"))
    }

    static func template() -> StoredReceiptInput {
        let ev = Evidence(rule: "bench")
        var lines: [OCRLine] = []
        for l in 0..<40 {
            let words = (0..<5).map { w in
                OCRWord(text: ["CLAW", "HAMMER", "16OZ", "14.99", "TOTAL"][w], box: BoundingBox(x: 20 + w * 80, y: 30 + l * 24, width: 70, height: 20), confidence: 0.9)
            }
            lines.append(OCRLine(words: words, box: BoundingBox(x: 20, y: 30 + l * 24, width: 400, height: 20)))
        }
        let page = OCRPage(lines: lines, width: 800, height: 1200)
        let items = (0..<8).map { i in
            LineItem(description: "ITEM \(i) CLAW HAMMER", quantity: 1, unitPrice: Amount("14.99"), amount: Amount("14.99")!, evidence: ev)
        }
        let parsed = ParsedReceipt(vendor: Field("Harbor Lane Hardware LLC", confidence: 0.9, evidence: ev),
                                   date: Field(CalendarDate(iso: "2024-03-04")!, confidence: 0.9, evidence: ev),
                                   total: Field(Amount("119.92")!, confidence: 0.9, evidence: ev),
                                   currency: Field("USD", confidence: 0.9, evidence: ev), lineItems: items, parserVersion: "bench")
        return StoredReceiptInput(contentHash: "", sourcePath: "", ocrText: page.text, reading: OCRReading(first: page), parsed: parsed,
                                  engineVersion: "bench", status: .parsed)
    }
}
