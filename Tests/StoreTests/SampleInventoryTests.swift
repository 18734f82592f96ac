import Foundation
import ReceiptInventory
import ReceiptModel
import ReceiptReconcile
import ReceiptStore
import Testing

/// The sample inventory against the sample receipts, with the receipts' true fields taken
/// from their sidecars (what a perfect OCR + parser would store). Counts the links the
/// reconciler gets right and wrong; the figure quoted in docs/store-schema.md.
@Suite("Sample inventory × sample receipts")
struct SampleInventoryTests {
    /// Which receipt proves which item (nil: the item has no receipt among the samples).
    static let truth: [String: String?] = [
        "WH-1000XM5 Wireless Headphones": "us-electronics-01",
        "Vantec 55 inch 4K Smart TV": "us-electronics-01",
        "Stand Mixer 5 qt Tilt-Head": "us-kitchen-01",
        "Chef knife 8 inch": "us-kitchen-01",
        "Claw hammer 16 oz": "us-hardware-01",
        "Sofa Livorno 3-seater grey": "de-moebel-01",
        "Regal Quadro 4x4 white": "de-moebel-01",  // two of them, one line of quantity 2
        "Casserole inox 24cm": "fr-maison-01",
        "Kettle 1.7L stainless": "uk-diy-01",
        "Camp stove 2-burner": "ca-outfitters-01",
        "LED lantern 500 lm": "ca-outfitters-01",
        "Water filter pump": "ca-outfitters-01",
        "Skruvdragare 18V": "se-jarnhandel-01",
        "Wireless mouse ergonomic": "rot90-us-electronics",
        "Cordless vacuum V11": nil,
        "Laptop Air 13": nil,
        "Dining table oak": nil,
    ]

    @Test("every true link proposed, no wrong one")
    func sampleInventory() throws {
        let tmp = try TempDir()
        let store = try SQLReceiptStore(path: tmp.path("s.sqlite"))
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.samples)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("nestory-") }.map { String($0.dropLast(5)) }.sorted()
        var fileOf: [ReceiptID: String] = [:]
        for n in names {
            let image = try FileManager.default.contentsOfDirectory(atPath: Repo.samples).first { $0.hasPrefix(n + ".") && !$0.hasSuffix(".json") } ?? n
            let id = try save(store, try parsedFromSidecar(n), hash: "sidecar-" + n, path: "SampleReceipts/" + image)
            fileOf[id] = n
        }
        #expect(names.count >= 30)
        let csv = Repo.path("SampleReceipts/inventory.csv")
        try store.upsertItems(try InventoryImporter.parse(data: try Data(contentsOf: URL(fileURLWithPath: csv)), fileName: csv).items.map(\.item))

        let run = try Reconciler().run(store: store)
        let items = Dictionary(uniqueKeysWithValues: try store.items().map { ($0.id, $0.item.name) })
        var trueLinks = 0, wrong: [String] = [], expected = 0
        for s in try store.items() {
            if let t = Self.truth[s.item.name], t != nil { expected += 1 }
        }
        for l in try store.links() {
            let name = items[l.itemID]!
            let file = fileOf[l.receiptID]!
            if Self.truth[name] == .some(file) { trueLinks += 1 } else { wrong.append("\(name) → \(file): \(l.reasons.joined(separator: "; "))") }
        }
        print("sample inventory (receipt fields from the sidecars): \(trueLinks) of \(expected) true links proposed, \(wrong.count) wrong; "
              + "\(run.plan.stats.ambiguousItems) ambiguous; \(names.count) receipts × \(items.count) items")
        #expect(trueLinks == expected)
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(run.plan.stats.ambiguousItems == 0)
    }
}
