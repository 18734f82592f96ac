import Foundation
import ReceiptInventory
import ReceiptModel
import ReceiptStore
import Testing

@Suite("receipts items / reconcile / links / export")
struct CLITests {
    @Test("items import: bad rows as `error: FILE:LINE: reason`, the rest imported, exit code 3")
    func importBadRows() throws {
        let tmp = try TempDir()
        let store = tmp.path("s.sqlite")
        let file = try tmp.write("inv.csv", "name,price,date\nLamp,19.99,2024-01-01\nChair,abc,2024-01-01\n,1.00,2024-01-01\nDesk,120,2024-01-02\n")
        let r = cli(["items", "import", "--store", store, file])
        #expect(r.code == 3)
        #expect(r.err == "error: \(file):3: price 'abc' is not an amount\nerror: \(file):4: no name\n")
        #expect(r.out.contains("2 items read: 2 new, 0 updated, 0 unchanged; 2 bad rows skipped"))
        let again = cli(["items", "import", "--store", store, file])
        #expect(again.out.contains("0 new, 0 updated, 2 unchanged"))
        let list = cli(["items", "list", "--store", store])
        #expect(list.code == 0 && list.out.contains("Lamp") && list.out.contains("Desk"))
        let missing = cli(["items", "import", "--store", store, tmp.path("nope.csv")])
        #expect(missing.code == 3 && missing.err.contains("cannot read"))
    }

    @Test("the store comes from --store, else RECEIPTS_STORE; an unusable path is exit code 5")
    func storeLocation() throws {
        let tmp = try TempDir()
        let file = try tmp.write("inv.csv", "name,price\nLamp,19.99\n")
        let env = ["RECEIPTS_STORE": tmp.path("env.sqlite")]
        #expect(cli(["items", "import", file], env: env).code == 0)
        #expect(FileManager.default.fileExists(atPath: tmp.path("env.sqlite")))
        let info = cli(["store", "info"], env: env)
        #expect(info.out.contains("env.sqlite (schema version \(SQLReceiptStore.latestSchemaVersion))") && info.out.contains("items     1"))
        let bad = cli(["items", "import", "--store", "/proc/nope/s.sqlite", file])
        #expect(bad.code == 5 && bad.err.hasPrefix("error: cannot open the store"))
        let none = cli(["store", "info", "--store", "/proc/nope/s.sqlite"])
        #expect(none.code == 5 && none.err.hasPrefix("error: no store at /proc/nope/s.sqlite"))
    }

    /// A receipt printing serial numbers under its items, read by Tesseract: `show` lists them, and the items whose
    /// serials they are are linked by them, though bought on another day than the inventory says and named otherwise.
    @Test("serial numbers read from a receipt link the items that carry them", arguments: Engine.allCases)
    func serialsLinkItems(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try tmp.storeLocation(engine, "s.sqlite")
        let image = Repo.path("Tests/Fixtures/serials/us-serials-01.png")
        let batch = cli(["batch", "--store", store, "--quiet", "--no-learn", image])
        #expect(batch.code == 0, "\(batch.err)")
        let show = cli(["show", "--store", store, "1"])
        #expect(show.out.contains("serial QF14-7730-2291") && show.out.contains("serial 356938035643809"), "\(show.out)")
        let inventory = try tmp.write("inv.csv", """
            name,serial,price,date,vendor
            Work laptop,QF14 7730 2291,1212.20,2024-12-01,
            Phone (Nimbus),356938035643809,699.00,2024-10-14,Quillfield
            Charger,,39.99,2024-10-14,Quillfield

            """)
        #expect(cli(["items", "import", "--store", store, inventory]).code == 0)
        let rec = cli(["reconcile", "--store", store])
        #expect(rec.code == 0 && rec.out.contains("3 new proposals"), "\(rec.out)")
        #expect(rec.out.contains("serial QF14-7730-2291 printed under line 'ORBITAL LAPTOP 14 16GB' (the item's: QF14 7730 2291); "
                                 + "line 'ORBITAL LAPTOP 14 16GB' 1149.00 + 5.5% tax = 1212.20 = price; dates 48 days apart"), "\(rec.out)")
        #expect(rec.out.contains("serial 356938035643809 printed under line 'NIMBUS PHONE 128GB'"), "\(rec.out)")
        let links = try openStore(store).links()
        #expect(links.map(\.linePosition).sorted { ($0 ?? -1) < ($1 ?? -1) } == [0, 1, 2])
    }

    @Test("walkthrough: import, reconcile, confirm, reject, export as CSV and JSON", arguments: Engine.allCases)
    func walkthrough(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try tmp.storeLocation(engine, "demo.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.path("SampleReceipts/inventory.csv")]).code == 0)
        let s = try openStore(store)
        try save(s, try parsedFromSidecar("us-electronics-01"), hash: "e", path: "SampleReceipts/us-electronics-01.png")
        try save(s, try parsedFromSidecar("us-kitchen-01"), hash: "k", path: "SampleReceipts/us-kitchen-01.png")

        let rec = cli(["reconcile", "--store", store])
        #expect(rec.code == 0)
        #expect(rec.out.contains("4 new proposals"))
        #expect(rec.out.contains("line 'SONY WH-1000XM5 HEADPHONES' 349.99 = price; same date 2024-11-23; vendor 'Brightwave Electronics Inc.' ~ 'Brightwave Electronics'"))
        #expect(rec.out.contains("4 links wait for you"))

        #expect(cli(["links", "confirm", "--store", store, "--by", "sam", "1", "2"]).code == 0)
        let rej = cli(["links", "reject", "--store", store, "3"])
        #expect(rej.code == 0 && rej.out.contains("link 3: rejected"))
        let unknown = cli(["links", "confirm", "--store", store, "99"])
        #expect(unknown.code == 3 && unknown.err.contains("no link 99"))
        #expect(cli(["links", "confirm", "--store", store, "x"]).code == 2)

        let again = cli(["reconcile", "--store", store])
        #expect(again.out.contains("0 new proposals") && again.out.contains("left as you decided"))
        let confirmed = cli(["links", "list", "--store", store, "--status", "confirmed"])
        #expect(confirmed.out.components(separatedBy: "[confirmed by sam]").count == 3)

        let csv = cli(["export", "--store", store, "--link-status", "confirmed"])
        #expect(csv.code == 0)
        let rows = CSVTable(text: csv.out)
        for column in ["receipt_id", "vendor", "date", "time", "total", "subtotal", "tax", "currency", "receipt_number", "payment_method",
                       "card_last4", "status", "total_confidence", "corrected", "link_id", "link_status", "line_item", "line_item_text", "item_name"] {
            #expect(rows.header.contains(column), "no column \(column)")
        }
        let linkStatus = try #require(rows.header.firstIndex(of: "link_status"))
        #expect(rows.records.filter { $0.fields[linkStatus] == "confirmed" }.count == 2)
        let lineText = try #require(rows.header.firstIndex(of: "line_item_text"))
        #expect(rows.records.contains { $0.fields[lineText] == "SONY WH-1000XM5 HEADPHONES" })
        let subtotal = try #require(rows.header.firstIndex(of: "subtotal"))
        #expect(rows.records.contains { $0.fields[subtotal] == "1134.94" })
        let out = tmp.path("export.json")
        let json = cli(["export", "--store", store, "--output", out])
        #expect(json.code == 0 && json.err.contains("wrote 2 receipts with 4 links"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let receipts = try #require(doc["receipts"] as? [[String: Any]])
        #expect(receipts.count == 2)
        let links = receipts.flatMap { $0["links"] as? [[String: Any]] ?? [] }
        #expect(links.contains {
            ($0["item"] as? [String: Any])?["name"] as? String == "WH-1000XM5 Wireless Headphones" && $0["status"] as? String == "confirmed"
                && $0["decided_by"] as? String == "sam"
        })
        #expect(receipts.allSatisfy { ($0["line_items"] as? [Any])?.isEmpty == false })
    }
}
