import Foundation
import ReceiptTestSupport
import ReceiptModel
import ReceiptStore
import ReceiptsCLI
import Testing

/// A fresh folder under the system temp dir, removed when the value is dropped.
final class TempDir {
    let url: URL
    init(_ name: String = #function) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory.appendingPathComponent("store-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func write(_ name: String, _ text: String) throws -> String {
        let p = path(name)
        try text.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }
}

enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ rel: String) -> String { root.appendingPathComponent(rel).path }
    static let samples = path("SampleReceipts")

    /// A built executable of this package (see `PackageExecutables.path`).
    static func executable(_ name: String) -> String? { PackageExecutables.path(name) }
}

/// Runs `receipts` in-process.
struct CLIResult { var code: Int32; var out: String; var err: String }
func cli(_ args: [String], env: [String: String] = [:]) -> CLIResult {
    let c = CapturingConsole()
    let code = CLI.run(args, context: CommandContext(console: c.console, environment: env, input: .none))
    return CLIResult(code: code, out: c.stdout, err: c.stderr)
}

func ev() -> Evidence { Evidence(rule: "test") }

/// A parsed receipt built by hand.
func receipt(vendor: String?, date: String?, total: String?, subtotal: String? = nil, tax: String? = nil, currency: String? = "USD",
             number: String? = nil, time: String? = nil, lines: [(String, String, Int)] = []) -> ParsedReceipt {
    ParsedReceipt(
        vendor: vendor.map { Field($0, confidence: 0.9, evidence: ev()) },
        date: date.flatMap { CalendarDate(iso: $0) }.map { Field($0, confidence: 0.9, evidence: ev()) },
        time: time.flatMap { t -> TimeOfDay? in let p = t.split(separator: ":").compactMap { Int($0) }; return TimeOfDay(hour: p[0], minute: p[1]) }
            .map { Field($0, confidence: 0.9, evidence: ev()) },
        total: total.flatMap { Amount($0) }.map { Field($0, confidence: 0.9, evidence: ev()) },
        subtotal: subtotal.flatMap { Amount($0) }.map { Field($0, confidence: 0.9, evidence: ev()) },
        tax: tax.flatMap { Amount($0) }.map { Field($0, confidence: 0.9, evidence: ev()) },
        currency: currency.map { Field($0, confidence: 0.9, evidence: ev()) },
        receiptNumber: number.map { Field($0, confidence: 0.9, evidence: ev()) },
        lineItems: lines.map { d, a, q in
            LineItem(description: d, quantity: Decimal(q), unitPrice: q > 1 ? Amount(Amount(a)!.value / Decimal(q)) : Amount(a), amount: Amount(a)!, evidence: ev())
        },
        parserVersion: "test-1")
}

@discardableResult
func save(_ store: ReceiptStore, _ p: ParsedReceipt, hash: String, path: String? = nil) throws -> ReceiptID {
    try store.saveReceipt(StoredReceiptInput(contentHash: hash, sourcePath: path ?? "\(hash).png", ocrText: "text of \(hash)", parsed: p,
                                             engineVersion: "test-engine", status: .parsed))
}

/// The sidecar of a sample receipt (its true fields) as a parsed receipt: the OCR
/// pipeline at its best. Used to measure the reconciler apart from OCR.
func parsedFromSidecar(_ name: String) throws -> ParsedReceipt {
    let data = try Data(contentsOf: URL(fileURLWithPath: Repo.samples).appendingPathComponent(name + ".json"))
    let obj = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let lines = (obj["line_items"] as? [[String: Any]] ?? []).map { l in
        LineItem(description: l["description"] as! String, quantity: Decimal(l["quantity"] as? Int ?? 1),
                 unitPrice: (l["unit_price"] as? String).flatMap { Amount($0) }, amount: Amount(l["amount"] as! String)!, evidence: ev())
    }
    return receipt(vendor: obj["vendor"] as? String, date: obj["date"] as? String, total: obj["total"] as? String,
                   subtotal: obj["subtotal"] as? String, tax: obj["tax"] as? String, currency: obj["currency"] as? String,
                   number: obj["receipt_number"] as? String, time: obj["time"] as? String,
                   lines: []).with(lines: lines)
}

extension ParsedReceipt {
    func with(lines: [LineItem]) -> ParsedReceipt { var c = self; c.lineItems = lines; return c }
}
