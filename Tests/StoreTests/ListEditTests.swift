import Foundation
import ReceiptSupport
import ReceiptModel
import ReceiptReconcile
import ReceiptStore
import Testing

/// `receipts list` filters, `show`, `edit` and `--undo`, corrections over re-reads.
@Suite("List, show, edit")
struct ListEditTests {
    /// A store of six receipts, one per thing a filter can tell apart.
    /// #1 hardware 2024-03-04 55.84 USD, parsed, linked to an item
    /// #2 bakery   2024-02-16 10.65 EUR, parsed
    /// #3 café     2024-08-14 33.34 USD, needs review
    /// #4 hardware 2024-03-04 55.84 USD, a duplicate of #1
    /// #5 furniture 2024-11-02 1236.98 EUR, corrected (vendor)
    /// #6 undated, no total, needs review
    func fixture(_ engine: Engine, _ name: String = #function) throws -> (TempDir, SQLReceiptStore) {
        let tmp = try TempDir(name)
        let store = try openStore(try tmp.storeLocation(engine))
        func put(_ p: ParsedReceipt, _ hash: String, _ status: ReceiptStatus = .parsed) throws {
            try store.saveReceipt(StoredReceiptInput(contentHash: hash, sourcePath: "in/\(hash).png", ocrText: nil, parsed: p,
                                                     engineVersion: "t", status: status))
        }
        try put(receipt(vendor: "Harbor Lane Hardware LLC", date: "2024-03-04", total: "55.84", number: "8841"), "h1")
        try put(receipt(vendor: "Bäckerei Sonnenschein", date: "2024-02-16", total: "10.65", currency: "EUR"), "b1")
        try put(receipt(vendor: "Blue Heron Coffee", date: "2024-08-14", total: "33.34"), "c1", .needsReview)
        try put(receipt(vendor: "Harbor Lane Hardware LLC", date: "2024-03-04", total: "55.84", number: "8841"), "h2")
        try put(receipt(vendor: "Wohnwelt Hanssen", date: "2024-11-02", total: "1236.98", currency: "EUR"), "w1", .needsReview)
        try put(receipt(vendor: "ercanda", date: nil, total: nil, currency: nil), "x1", .needsReview)
        try store.upsertItems([InventoryItem(name: "Claw hammer", price: Amount("55.84"), currency: "USD")])
        _ = try store.applyReconciliation([LinkProposal(receiptID: ReceiptID(1), itemID: ItemID(1), score: 0.9, reasons: ["test"])],
                                          duplicates: [DuplicateMark(id: ReceiptID(4), original: ReceiptID(1), reason: "same")])
        try store.correct(ReceiptID(5), [try .set(.vendor, "Wohnwelt Hansen GmbH")], by: "sam")
        return (tmp, store)
    }

    func ids(_ store: SQLReceiptStore, _ f: ReceiptFilter) throws -> [Int64] { try store.listReceipts(f).map(\.id.rawValue) }

    @Test(arguments: Engine.allCases) func everyFilter(_ engine: Engine) throws {
        let (_, s) = try fixture(engine)
        #expect(try ids(s, ReceiptFilter()) == [2, 1, 4, 3, 5, 6], "by date, undated last")
        #expect(try ids(s, ReceiptFilter(vendor: "HARBOR")) == [1, 4])
        #expect(try ids(s, ReceiptFilter(vendor: "hansen")) == [5], "the corrected vendor is what is searched")
        #expect(try ids(s, ReceiptFilter(from: CalendarDate(iso: "2024-03-04"))) == [1, 4, 3, 5])
        #expect(try ids(s, ReceiptFilter(to: CalendarDate(iso: "2024-03-04"))) == [2, 1, 4])
        #expect(try ids(s, ReceiptFilter(from: CalendarDate(iso: "2024-03-01"), to: CalendarDate(iso: "2024-08-31"))) == [1, 4, 3])
        #expect(try ids(s, ReceiptFilter(minTotal: Amount("33.34"))) == [1, 4, 3, 5])
        #expect(try ids(s, ReceiptFilter(maxTotal: Amount("33.34"))) == [2, 3])
        #expect(try ids(s, ReceiptFilter(minTotal: Amount("20"), maxTotal: Amount("60"))) == [1, 4, 3])
        #expect(try ids(s, ReceiptFilter(currency: "eur")) == [2, 5])
        #expect(try ids(s, ReceiptFilter(state: .needsReview)) == [3, 6])
        #expect(try ids(s, ReceiptFilter(state: .parsed)) == [2, 1])
        #expect(try ids(s, ReceiptFilter(state: .corrected)) == [5])
        #expect(try ids(s, ReceiptFilter(state: .duplicate)) == [4])
        #expect(try ids(s, ReceiptFilter(unlinked: true)) == [2, 4, 3, 5, 6])
        #expect(try ids(s, ReceiptFilter(currency: "USD", state: .parsed, unlinked: true)) == [])
    }

    @Test(arguments: Engine.allCases) func listCommandFiltersAndPrints(_ engine: Engine) throws {
        let (tmp, fx) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let store = fx.location
        func listed(_ extra: [String]) throws -> [Int] {
            let r = cli(["list", "--store", store, "--json"] + extra)
            #expect(r.code == 0, "\(r.err)")
            return try r.out.split(separator: "\n").map { line in
                let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return try #require(o["receipt_id"] as? Int)
            }
        }
        #expect(try listed([]) == [2, 1, 4, 3, 5, 6])
        #expect(try listed(["--vendor", "harbor"]) == [1, 4])
        #expect(try listed(["--from", "2024-03-04", "--to", "2024-08-14"]) == [1, 4, 3])
        #expect(try listed(["--min", "20", "--max", "60"]) == [1, 4, 3])
        #expect(try listed(["--currency", "EUR"]) == [2, 5])
        #expect(try listed(["--status", "needs-review"]) == [3, 6])
        #expect(try listed(["--status", "parsed"]) == [2, 1])
        #expect(try listed(["--status", "corrected"]) == [5])
        #expect(try listed(["--status", "duplicate"]) == [4])
        #expect(try listed(["--unlinked"]) == [2, 4, 3, 5, 6])

        let table = cli(["list", "--store", store, "--status", "corrected"])
        #expect(table.out.contains("#5  2024-11-02   Wohnwelt Hansen GmbH*"))
        #expect(table.out.hasSuffix("1 receipt; ? unsure, * corrected\n"))
        let bad = cli(["list", "--store", store, "--status", "reviewed"])
        #expect(bad.code == 2)
        #expect(bad.err.contains("--status takes parsed, needs-review, corrected, duplicate, not 'reviewed'"))
        #expect(cli(["list", "--store", store, "--from", "2024-13-01"]).code == 2)
        #expect(cli(["list", "--store", store, "--min", "ten"]).code == 2)
    }

    @Test(arguments: Engine.allCases) func showByIDAndByFile(_ engine: Engine) throws {
        let (tmp, fx) = try fixture(engine)
        let store = fx
        // An image read into the store is found by its content wherever it is now.
        let bytes = Data("not really an image, but bytes with a hash".utf8)
        let image = tmp.path("moved.png")
        try bytes.write(to: URL(fileURLWithPath: image))
        try store.saveReceipt(StoredReceiptInput(contentHash: ContentHash.sha256(bytes), sourcePath: "old/place.png", ocrText: nil,
                                                 parsed: receipt(vendor: "Found Shop", date: "2024-01-02", total: "9.99"),
                                                 engineVersion: "t", status: .parsed))
        let byFile = cli(["show", "--store", fx.location, image])
        #expect(byFile.code == 0, "\(byFile.err)")
        #expect(byFile.out.hasPrefix("receipt #7  place.png  [parsed]\n"))
        #expect(byFile.out.contains("  vendor   Found Shop"))
        #expect(cli(["show", "--store", fx.location, "in/b1.png"]).out.hasPrefix("receipt #2  b1.png"))
        #expect(cli(["show", "--store", fx.location, "b1.png"]).out.hasPrefix("receipt #2  b1.png"))

        let shown = cli(["show", "--store", fx.location, "--json", "5"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
        #expect(o["receipt_id"] as? Int == 5)
        #expect(o["status"] as? String == "corrected")
        #expect(o["parse_status"] as? String == "needs_review")
        let vendor = try #require(o["vendor"] as? [String: Any])
        #expect(vendor["value"] as? String == "Wohnwelt Hansen GmbH")
        #expect(vendor["confidence"] as? Double == 1)
        #expect(vendor["corrected"] as? Bool == true)
        #expect((vendor["evidence"] as? [String: Any])?["rule"] as? String == "user")
        #expect((vendor["parser"] as? [String: Any])?["value"] as? String == "Wohnwelt Hanssen")
        let history = try #require(o["corrections"] as? [[String: Any]])
        #expect(history.count == 1)
        #expect(history[0]["corrected_by"] as? String == "sam")
        #expect(history[0]["previous"] as? String == "Wohnwelt Hanssen")
        let links = try #require((cli(["show", "--store", fx.location, "--json", "#1"]).out.data(using: .utf8))
            .flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["links"] as? [[String: Any]])
        #expect(links.first?["item_id"] as? Int == 1)

        let missing = cli(["show", "--store", fx.location, "99"])
        #expect(missing.code == 3)
        #expect(missing.err == "error: no receipt #99 in the store\n")
        #expect(cli(["show", "--store", fx.location, "nowhere.png"]).code == 3)
    }

    @Test(arguments: Engine.allCases) func editRecordsWhoAndWhenAndUndoRestores(_ engine: Engine) throws {
        let (tmp, fx) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let store = fx
        let path = fx.location
        let r = cli(["edit", "--store", path, "--by", "kim", "3", "--total", "33.40", "--date", "2024-08-15", "--tax", "2.00",
                     "--line", "Latte=4.50", "--line", "Beans 1kg = 28.90", "--receipt-number", "A-17", "--card", "4242",
                     "--payment", "card", "--time", "08:05", "--currency", "cad", "--subtotal", "31.40", "--vendor", "Blue Heron"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("receipt #3: total 33.34 → 33.40 (corrected by kim)"))
        #expect(r.out.hasSuffix("receipt #3 is now corrected\n"))
        let d = try #require(try store.receiptDetail(ReceiptID(3)))
        let e = d.effective
        #expect(e.total?.value == Amount("33.40"))
        #expect(e.total?.confidence == 1)
        #expect(e.total?.evidence.rule == "user")
        #expect(e.date?.value.iso == "2024-08-15")
        #expect(e.tax?.value == Amount("2.00"))
        #expect(e.subtotal?.value == Amount("31.40"))
        #expect(e.currency?.value == "CAD")
        #expect(e.time?.value.description == "08:05")
        #expect(e.receiptNumber?.value == "A-17")
        #expect(e.cardLast4?.value == "4242")
        #expect(e.paymentMethod?.value == "card")
        #expect(e.vendor?.value == "Blue Heron")
        #expect(e.lineItems.map(\.description) == ["Latte", "Beans 1kg"])
        #expect(e.lineItems.map(\.amount) == [Amount("4.50")!, Amount("28.90")!])
        #expect(d.receipt.parsed.total?.value == Amount("33.34"), "the parser's reading is kept")
        #expect(d.corrections.count == 11)
        #expect(d.corrections.allSatisfy { $0.by == "kim" && !$0.at.isEmpty && $0.isActive })
        #expect(d.state == .corrected)
        #expect(try ids(store, ReceiptFilter(state: .needsReview)) == [6])
        #expect(try store.stats().needsReview == 1)
        #expect(try store.stats().corrected == 2)
        // The columns the reconciler and the listings read hold the corrected values.
        let summary = try #require(try store.receiptSummaries().first { $0.id == ReceiptID(3) })
        #expect(summary.total == Amount("33.40"))
        #expect(summary.lines.map(\.description) == ["Latte", "Beans 1kg"])

        // A second correction of the same field, then undo twice: back to the first, then to the parser's.
        #expect(cli(["edit", "--store", path, "3", "--total", "33.50"]).code == 0)
        #expect(try store.receiptDetail(ReceiptID(3))?.effective.total?.value == Amount("33.50"))
        #expect(cli(["edit", "--store", path, "3", "--undo", "total"]).code == 0)
        #expect(try store.receiptDetail(ReceiptID(3))?.effective.total?.value == Amount("33.40"))
        let undo = cli(["edit", "--store", path, "--by", "kim", "3", "--undo", "total", "--undo", "line_items"])
        #expect(undo.code == 0, "\(undo.err)")
        let back = try #require(try store.receiptDetail(ReceiptID(3)))
        #expect(back.effective.total?.value == Amount("33.34"))
        #expect(back.effective.total?.confidence == 0.9)
        #expect(back.effective.lineItems.isEmpty)
        #expect(back.corrections.count == 12, "undone corrections stay in the history")
        #expect(back.corrections.filter { !$0.isActive }.allSatisfy { $0.undoneAt != nil && $0.undoneBy != nil })
        #expect(cli(["edit", "--store", path, "3", "--undo", "total"]).code == 3)

        // Undo every field: the receipt goes back to the review queue.
        for f in ["date", "tax", "receipt_number", "card", "payment", "time", "currency", "subtotal", "vendor"] {
            #expect(cli(["edit", "--store", path, "3", "--undo", f]).code == 0, "\(f)")
        }
        #expect(try store.receiptDetail(ReceiptID(3))?.state == .needsReview)

        // --clear removes a wrong value.
        #expect(cli(["edit", "--store", path, "1", "--clear", "tax", "--clear", "vendor"]).code == 0)
        #expect(try store.receiptDetail(ReceiptID(1))?.effective.vendor == nil)
    }

    @Test(arguments: Engine.allCases) func editRejectsBadValues(_ engine: Engine) throws {
        let (tmp, fx) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let path = fx.location
        for (args, message) in [
            (["--total", "12,30"], "total: '12,30' is not an amount (e.g. 12.30)"),
            (["--date", "04/03/2024"], "date: '04/03/2024' is not a date (YYYY-MM-DD)"),
            (["--card", "42"], "card_last4: '42' is not the card's last four digits"),
            (["--line", "no amount"], "line_items: 'no amount' is not DESCRIPTION=AMOUNT"),
            (["--undo", "colour"], "--undo takes a field"),
            ([], "nothing to change"),
            (["--total", "1.00", "--undo", "tax"], "--undo cannot be combined"),
        ] {
            let r = cli(["edit", "--store", path, "1"] + args)
            #expect(r.code == 2, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(cli(["edit", "--store", path, "42", "--total", "1.00"]).code == 3)
        #expect(try openStore(path).receiptDetail(ReceiptID(1))?.corrections.isEmpty == true)
    }

    /// A version 3 store (before corrections) is upgraded in place: its receipts are kept,
    /// listed as before, and can be corrected.
    @Test func version3StoreUpgradesToCorrections() throws {
        let tmp = try TempDir()
        let path = tmp.path("s.sqlite")
        do {
            let v3 = try SQLReceiptStore(path: path, schemaVersion: 3)
            try save(v3, receipt(vendor: "Old Shop", date: "2023-05-06", total: "7.00"), hash: "old")
            #expect(try v3.schemaVersion() == 3)
            #expect(try v3.listReceipts(ReceiptFilter()).map(\.state) == [.parsed])
        }
        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(try store.listReceipts(ReceiptFilter(vendor: "old")).count == 1)
        try store.correct(ReceiptID(1), [try .set(.total, "7.50")], by: "sam")
        #expect(try store.listReceipts(ReceiptFilter()).first?.total == Amount("7.50"))
        #expect(try store.integrityCheck() == "ok")
    }

    /// The reconciler matches on what the user corrected: a misread total finds no item until it is put right.
    @Test func reconcileUsesCorrectedValues() throws {
        let tmp = try TempDir()
        let store = try SQLReceiptStore(path: tmp.path("s.sqlite"))
        try save(store, receipt(vendor: "Harbor Lane Hardware LLC", date: "2024-03-04", total: "85.84"), hash: "h")
        try store.upsertItems([InventoryItem(name: "Cordless drill", price: Amount("55.84"), currency: "USD",
                                             purchaseDate: CalendarDate(iso: "2024-03-04"), vendor: "Harbor Lane Hardware")])
        #expect(try Reconciler().run(store: store).written.proposed == 0)
        try store.correct(ReceiptID(1), [try .set(.total, "55.84")], by: "sam")
        #expect(try Reconciler().run(store: store).written.proposed == 1)
        #expect(try store.links().first?.reasons.contains("total 55.84 = price") == true)
    }

    /// `batch --force` and `batch --reparse --force` read the receipt again; the user's value stays,
    /// the new reading is kept beside it. Real Tesseract on a real sample.
    @Test func correctionsSurviveForceAndReparse() throws {
        let tmp = try TempDir()
        let path = tmp.path("s.sqlite")
        let image = Repo.samples + "/us-hardware-01.png"
        #expect(cli(["batch", "--store", path, "--quiet", "--jobs", "1", image]).code == 0)
        let store = try SQLReceiptStore(path: path)
        let id = try #require(try store.listReceipts(ReceiptFilter()).first?.id)
        #expect(try store.receiptDetail(id)?.effective.total?.value == Amount("55.84"))
        #expect(cli(["edit", "--store", path, image, "--total", "12.30", "--by", "sam"]).code == 0)
        let stampBefore = try #require(try store.receiptDetail(id)?.receipt.processedAt)

        for again in [["batch", "--force", "--store", path, "--quiet", "--jobs", "1", image], ["batch", "--reparse", "--force", "--store", path]] {
            Thread.sleep(forTimeInterval: 1.1)  // processed_at has one-second resolution
            let r = cli(again)
            #expect(r.code == 0, "\(again): \(r.err)")
            let d = try #require(try store.receiptDetail(id))
            #expect(d.receipt.processedAt != stampBefore, "\(again) did not read the receipt again")
            #expect(d.effective.total?.value == Amount("12.30"), "\(again)")
            #expect(d.effective.total?.evidence.rule == "user")
            #expect(d.receipt.parsed.total?.value == Amount("55.84"), "the new reading is kept beside it")
            #expect(d.state == .corrected)
            #expect(try store.listReceipts(ReceiptFilter()).first?.total == Amount("12.30"))
        }
        #expect(cli(["edit", "--store", path, "\(id.rawValue)", "--undo", "total"]).code == 0)
        #expect(try store.receiptDetail(id)?.effective.total?.value == Amount("55.84"))
    }
}
