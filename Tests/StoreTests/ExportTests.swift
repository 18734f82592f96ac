import Foundation
import ReceiptInventory
import ReceiptTestSupport
import ReceiptModel
import ReceiptStore
import Testing

/// `receipts export`: the filters of `list`, CSV with every field, a journal hledger reads.
@Suite("Export: CSV, JSON, ledger")
struct ExportTests {
    /// #1 Harbor Lane 2024-03-04 55.84 USD (tax 4.43, card 1234), linked and confirmed
    /// #2 Bäckerei 2024-02-16 10.65 EUR, cash
    /// #3 no date
    /// #4 a duplicate of #1
    /// #5 "Smith; Sons | Co" 2024-05-01, total corrected 20.00 → 21.00
    func fixture(_ engine: Engine, _ name: String = #function) throws -> (TempDir, String) {
        let tmp = try TempDir(name)
        let path = try tmp.storeLocation(engine)
        let store = try openStore(path)
        var harbor = receipt(vendor: "Harbor Lane Hardware LLC", date: "2024-03-04", total: "55.84", subtotal: "51.41", tax: "4.43", number: "8841",
                             time: "14:32", lines: [("CLAW HAMMER 16OZ", "14.99", 1), ("WOOD GLUE", "36.42", 1)])
        harbor.paymentMethod = Field("card", confidence: 0.8, evidence: ev())
        harbor.cardLast4 = Field("1234", confidence: 0.85, evidence: ev())
        try save(store, harbor, hash: "h1", path: "in/us-hardware-01.png")
        var bakery = receipt(vendor: "Bäckerei Sonnenschein", date: "2024-02-16", total: "10.65", currency: "EUR")
        bakery.paymentMethod = Field("cash", confidence: 0.8, evidence: ev())
        try save(store, bakery, hash: "b1", path: "in/bakery.png")
        try save(store, receipt(vendor: "ercanda", date: nil, total: "3.00"), hash: "x1", path: "in/faded.jpg")
        try save(store, harbor, hash: "h2", path: "in/IMG_2041.jpg")
        try save(store, receipt(vendor: "Smith; Sons | Co", date: "2024-05-01", total: "20.00"), hash: "s1", path: "in/smith.png")
        try store.upsertItems([InventoryItem(name: "Claw hammer, 16 oz", price: Amount("14.99"), currency: "USD")])
        _ = try store.applyReconciliation([LinkProposal(receiptID: ReceiptID(1), itemID: ItemID(1), linePosition: 0, score: 0.96, reasons: ["test"])],
                                          duplicates: [DuplicateMark(id: ReceiptID(4), original: ReceiptID(1), reason: "same")])
        try store.decideLink(LinkID(1), status: .confirmed, by: "sam")
        try store.correct(ReceiptID(5), [try .set(.total, "21.00")], by: "sam")
        return (tmp, path)
    }

    static func hledger() throws -> String {
        let found = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/hledger" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "hledger is not installed: `make setup` installs it (Debian package hledger)")
    }

    static func run(_ exe: String, _ args: [String]) throws -> (Int32, String, String) {
        let r = try runProcess(exe, args)
        return (r.code, r.out, r.err)
    }

    @Test(arguments: Engine.allCases) func hledgerReadsTheJournal(_ engine: Engine) throws {
        let hledger = try Self.hledger()
        let (tmp, store) = try fixture(engine)
        let journal = tmp.path("receipts.journal")
        let r = cli(["export", "--store", store, "--output", journal])  // the format follows the extension
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("warning: receipt #3 (faded.jpg) left out of the journal: no date"))
        #expect(r.err.contains("warning: receipt #4 (IMG_2041.jpg) left out of the journal: a duplicate of #1"))
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(text.contains("2024-03-04 (8841) Harbor Lane Hardware LLC  ; receipt:1, status:parsed\n    ; file: in/us-hardware-01.png\n"
                              + "    ; item:1 Claw hammer 16 oz (link 1 confirmed)\n"))

        let (code, out, err) = try Self.run(hledger, ["-f", journal, "balance", "--flat", "-O", "csv"])
        #expect(code == 0, "hledger: \(err)")
        var balance: [String: String] = [:]
        for line in out.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: "\",\"").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if cells.count == 2 { balance[cells[0]] = cells[1] }
        }
        #expect(balance["expenses:receipts"] == "10.65 EUR, 72.41 USD", "\(out)")
        #expect(balance["expenses:tax"] == "4.43 USD")
        #expect(balance["liabilities:card:1234"] == "-55.84 USD")
        #expect(balance["assets:cash"] == "-10.65 EUR")
        #expect(balance["assets:unknown"] == "-21.00 USD", "the corrected total")
        #expect(balance["total"] == "0")

        let (_, stats, _) = try Self.run(hledger, ["-f", journal, "stats"])
        let transactions = try #require(stats.split(separator: "\n").first { $0.hasPrefix("Transactions ") && $0.contains("per day") && !$0.contains("last") }, "hledger stats: \(stats)")
        #expect(transactions.hasSuffix(": 3 (0.0 per day)"), "\(transactions)")
        // The payee keeps its words, without the characters that would end it.
        let (_, payees, _) = try Self.run(hledger, ["-f", journal, "payees"])
        #expect(payees.split(separator: "\n").contains("Smith Sons Co"))
        // Filters: the same as list.
        let eur = cli(["export", "--store", store, "--format", "ledger", "--currency", "EUR"])
        #expect(eur.out.contains("Bäckerei") && !eur.out.contains("Harbor"))
    }

    @Test(arguments: Engine.allCases) func csvHasEveryFieldAndTheListFilters(_ engine: Engine) throws {
        let (tmp, store) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let r = cli(["export", "--store", store, "--vendor", "harbor", "--status", "parsed"])
        #expect(r.code == 0, "\(r.err)")
        let table = CSVTable(text: r.out)
        #expect(table.records.count == 1)
        let row = Dictionary(uniqueKeysWithValues: zip(table.header, try #require(table.records.first).fields))
        #expect(row["receipt_id"] == "1")
        #expect(row["status"] == "parsed")
        #expect(row["vendor"] == "Harbor Lane Hardware LLC")
        #expect(row["date"] == "2024-03-04")
        #expect(row["time"] == "14:32")
        #expect(row["total"] == "55.84")
        #expect(row["subtotal"] == "51.41")
        #expect(row["tax"] == "4.43")
        #expect(row["currency"] == "USD")
        #expect(row["receipt_number"] == "8841")
        #expect(row["payment_method"] == "card")
        #expect(row["card_last4"] == "1234")
        #expect(row["total_confidence"] == "0.90")
        #expect(row["line_item_count"] == "2")
        #expect(row["link_status"] == "confirmed")
        #expect(row["line_item"] == "1")
        #expect(row["line_item_text"] == "CLAW HAMMER 16OZ")
        #expect(row["item_name"] == "Claw hammer, 16 oz")

        let corrected = CSVTable(text: cli(["export", "--store", store, "--status", "corrected"]).out)
        let c = Dictionary(uniqueKeysWithValues: zip(corrected.header, try #require(corrected.records.first).fields))
        #expect(corrected.records.count == 1)
        #expect(c["total"] == "21.00" && c["corrected"] == "total" && c["total_confidence"] == "1.00")
        #expect(CSVTable(text: cli(["export", "--store", store, "--from", "2024-03-01", "--max", "30"]).out).records.count == 1)
        #expect(CSVTable(text: cli(["export", "--store", store, "--unlinked"]).out).records.count == 4)
        #expect(CSVTable(text: cli(["export", "--store", store, "--linked"]).out).records.count == 1)
        #expect(cli(["export", "--store", store, "--format", "xml"]).code == 2)
    }

    @Test(arguments: Engine.allCases) func jsonHasLineItemsAndEvidence(_ engine: Engine) throws {
        let (tmp, store) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let r = cli(["export", "--store", store, "--format", "json", "--vendor", "harbor", "--status", "parsed"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let receipts = try #require(doc["receipts"] as? [[String: Any]])
        #expect(receipts.count == 1)
        let lines = try #require(receipts[0]["line_items"] as? [[String: Any]])
        #expect(lines.map { $0["description"] as? String } == ["CLAW HAMMER 16OZ", "WOOD GLUE"])
        #expect(lines.map { $0["line_item"] as? Int } == [1, 2])
        let tax = try #require(receipts[0]["tax"] as? [String: Any])
        #expect(tax["value"] as? String == "4.43")
        #expect((tax["evidence"] as? [String: Any])?["rule"] as? String == "test")
        let link = try #require((receipts[0]["links"] as? [[String: Any]])?.first)
        #expect((link["item"] as? [String: Any])?["price"] as? String == "14.99")
    }
}
