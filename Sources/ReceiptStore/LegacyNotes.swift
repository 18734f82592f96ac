import Foundation
import ReceiptModel

/// Schema 6: notes and checks stored as codes with their arguments. Before it they were stored
/// as the sentences they render to (`"keyword 'total'"`) and read back by parsing the English.
/// Each such sentence becomes `.text(sentence)`, which shows exactly as it did; new receipts are
/// stored with their cases (`{"keyword": {"_0": "total"}}`), and `batch --reparse` gives old ones
/// theirs again from the stored OCR reading.
enum LegacyNotes {
    /// Rewrites every receipt's `parsed_json` and every line item's `evidence_json`, in the
    /// migration's transaction.
    static func migrate(_ c: any SQLConnection) throws {
        let receipts = try c.query("SELECT id, parsed_json FROM receipts") { ($0.int(0), $0.text(1)) }
        for (id, json) in receipts {
            let migrated = try rewrite(json, as: ParsedReceipt.self, what: "receipt #\(id)", c)
            if migrated != json { try c.run("UPDATE receipts SET parsed_json = ? WHERE id = ?", [.text(migrated), .int(id)]) }
        }
        let items = try c.query("SELECT receipt_id, position, evidence_json FROM line_items") { ($0.int(0), $0.int(1), $0.text(2)) }
        for (id, position, json) in items {
            let migrated = try rewrite(json, as: Evidence.self, what: "receipt #\(id), line item \(position + 1)", c)
            if migrated != json {
                try c.run("UPDATE line_items SET evidence_json = ? WHERE receipt_id = ? AND position = ?", [.text(migrated), .int(id), .int(position)])
            }
        }
    }

    /// The stored JSON of a `T` with every note and check that is a sentence made a `.text` case,
    /// re-encoded as the store encodes. JSON that is not an object (none is stored) is left alone.
    static func rewrite<T: Codable>(_ json: String, as: T.Type, what: String, _ c: any SQLConnection) throws -> String {
        guard let tree = try? JSONSerialization.jsonObject(with: Data(json.utf8)), tree is [String: Any] else { return json }
        let data = try JSONSerialization.data(withJSONObject: sentencesAsText(tree))
        do {
            return try SQLReceiptStore.encodeJSON(try JSONDecoder().decode(T.self, from: data))
        } catch {
            throw StoreError(.unreadable, "\(what): its stored notes cannot be read: \(error)", location: c.path,
                             context: "migrating the store to version 6")
        }
    }

    /// Under every `notes` and `checks` key, a string element becomes `{"text": {"_0": string}}`.
    static func sentencesAsText(_ node: Any) -> Any {
        if let dict = node as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, value) in dict {
                if key == "notes" || key == "checks", let list = value as? [Any] {
                    out[key] = list.map { ($0 as? String).map { ["text": ["_0": $0]] } ?? sentencesAsText($0) }
                } else {
                    out[key] = sentencesAsText(value)
                }
            }
            return out
        }
        if let list = node as? [Any] { return list.map(sentencesAsText) }
        return node
    }
}
