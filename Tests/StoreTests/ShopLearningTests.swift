import Foundation
import ReceiptModel
import ReceiptStore
import Testing

/// The shop directory with real OCR and a real store, on both engines: two receipts from one
/// invented shop (Tests/Fixtures/shops, made by Tests/Fixtures/tools/make_shop_fixtures.py) whose
/// bracketed company name the parser reads into the vendor; the user corrects the first, and the
/// second is read right with what that taught.
@Suite("it learns your shops", .serialized)
struct ShopLearningTests {
    static let first = Repo.path("Tests/Fixtures/shops/kedai-mutiara-1.jpg")
    static let second = Repo.path("Tests/Fixtures/shops/kedai-mutiara-2.jpg")
    static let name = "Mutiara Selera Sdn Bhd"
    static let env = ["OMP_THREAD_LIMIT": "1"]

    struct Sidecar: Decodable { var vendor: String; var date: String; var total: String }
    static func sidecar(_ image: String) throws -> Sidecar {
        let url = URL(fileURLWithPath: image).deletingPathExtension().appendingPathExtension("json")
        return try JSONDecoder().decode(Sidecar.self, from: Data(contentsOf: url))
    }

    /// Runs `receipts ARGS`, expecting exit 0.
    @discardableResult
    static func run(_ args: [String]) -> CLIResult {
        let r = cli(args, env: env)
        #expect(r.code == 0, "receipts \(args.joined(separator: " ")): exit \(r.code)\n\(r.out)\(r.err)")
        return r
    }

    static func batch(_ store: String, _ files: String...) {
        run(["batch", "--store", store, "--jobs", "1", "--quiet"] + files)
    }

    static func detail(_ store: String, _ id: Int64) throws -> ReceiptDetail {
        try #require(try openStore(store, create: false).receiptDetail(ReceiptID(id)), "no receipt #\(id) in \(store)")
    }

    /// The first receipt read and its vendor corrected, the second read after: the store's location.
    static func corrected(_ engine: Engine, in tmp: TempDir) throws -> String {
        let store = try tmp.storeLocation(engine)
        batch(store, first)
        // The premise: the parser alone gets this shop's vendor wrong.
        let parsed = try detail(store, 1).effective.vendor?.value
        #expect(parsed != nil && ShopName.key(parsed!) != ShopName.key(name), "the parser now reads the vendor right: \(parsed ?? "nothing")")
        run(["edit", "--store", store, "1", "--vendor", name])
        batch(store, second)
        return store
    }

    @Test("corrected once: the shop's next receipt is read with its name, and the evidence says what matched and which correction taught it",
          arguments: Engine.allCases)
    func correctedOnceReadRightNextTime(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try Self.corrected(engine, in: tmp)
        let d = try Self.detail(store, 2)
        let truth = try Self.sidecar(Self.second)
        #expect(d.effective.vendor?.value == Self.name)
        #expect(d.effective.date?.value.iso == truth.date)
        #expect(d.effective.total?.value == Amount(truth.total))
        // The parser's own reading is kept beside what the shop set.
        #expect(d.receipt.parsed.vendor?.value != Self.name)
        let learned = try #require(d.learned?.vendor)
        let notes = learned.evidence.notes.map(\.description).joined(separator: " ")
        #expect(notes.contains("registration number 1187734H"))
        #expect(notes.contains("your correction of #1"))
        #expect(learned.confidence >= 0.9)
        #expect(d.shop?.name == Self.name)
        let shops = try openStore(store, create: false).shops()
        #expect(shops.count == 1)
        #expect(shops.first?.teachers == [ReceiptID(1)])
        #expect(shops.first?.receipts == [ReceiptID(1), ReceiptID(2)])
        // `show` says where the value came from.
        let shown = Self.run(["show", "--store", store, "2"]).out
        #expect(shown.contains("learned from shop 1 \(Self.name) [shop]"), "\(shown)")
        #expect(shown.contains("parser read: "))
        let json = Self.run(["show", "--store", store, "2", "--json"]).out
        #expect(json.contains(#""learned":true"#) && json.contains(#""shop":"Mutiara Selera Sdn Bhd""#), "\(json)")
        // parse --store reads with the shops and writes nothing; --no-learn reads as a stranger.
        let withShops = Self.run(["parse", "--store", store, Self.second]).out
        #expect(withShops.contains(Self.name), "\(withShops)")
        let stranger = Self.run(["parse", "--store", store, "--no-learn", Self.second]).out
        #expect(!stranger.contains(Self.name), "\(stranger)")
        #expect(try openStore(store, create: false).stats().receipts == 2)
        let info = Self.run(["store", "info", "--store", store]).out
        #expect(info.contains("shops     1 learned from your corrections"), "\(info)")
        #expect(info.contains("1 receipt read with a shop's values"))
    }

    @Test("nothing is learned from receipts nobody corrected or accepted", arguments: Engine.allCases)
    func nothingFromUnconfirmed(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try tmp.storeLocation(engine)
        Self.batch(store, Self.first, Self.second)
        #expect(try openStore(store, create: false).shops().isEmpty)
        #expect(try Self.detail(store, 2).learned == nil)
        #expect(Self.run(["shops", "list", "--store", store]).out.hasPrefix("no shops learned yet"))
    }

    @Test("undoing the correction unlearns it: the shop is gone and its receipts show the parser's values again", arguments: Engine.allCases)
    func undoUnlearns(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try Self.corrected(engine, in: tmp)
        #expect(try Self.detail(store, 2).effective.vendor?.value == Self.name)
        Self.run(["edit", "--store", store, "1", "--undo", "vendor"])
        #expect(try openStore(store, create: false).shops().isEmpty)
        let d = try Self.detail(store, 2)
        #expect(d.learned == nil)
        #expect(d.effective.vendor?.value == d.receipt.parsed.vendor?.value)
        #expect(d.effective.vendor?.value != Self.name)
    }

    @Test("forgetting the shop unlearns it and keeps the correction; correcting again teaches again", arguments: Engine.allCases)
    func forgetUnlearns(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try Self.corrected(engine, in: tmp)
        let out = Self.run(["shops", "forget", "--store", store, "mutiara"]).out
        #expect(out.contains("shop 1 (\(Self.name)) forgotten"), "\(out)")
        #expect(out.contains("1 receipts read as it went back to the parser's values"))
        #expect(try openStore(store, create: false).shops().isEmpty)
        #expect(try Self.detail(store, 2).effective.vendor?.value != Self.name)
        #expect(try Self.detail(store, 1).effective.vendor?.value == Self.name)  // the correction stays
        // Read again: nothing matches now.
        Self.run(["batch", "--store", store, "--reparse", "--force"])
        #expect(try Self.detail(store, 2).learned == nil)
        // Correcting the first receipt again teaches its shop again; a forced re-parse reads the second with it.
        Self.run(["edit", "--store", store, "1", "--vendor", Self.name.uppercased()])
        #expect(try openStore(store, create: false).shops().count == 1)
        Self.run(["batch", "--store", store, "--reparse", "--force"])
        #expect(try Self.detail(store, 2).effective.vendor?.value == Self.name.uppercased())
    }

    @Test("review --accept confirms receipts without a terminal and teaches their shop as the interactive accept does",
          arguments: Engine.allCases)
    func reviewAcceptTeaches(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try tmp.storeLocation(engine)
        Self.batch(store, Self.first)
        let shown = try #require(try Self.detail(store, 1).effective.vendor?.value)
        let out = Self.run(["review", "--store", store, "--by", "kim", "--accept", "1"]).out
        #expect(out.hasPrefix("receipt #1: accepted by kim (vendor \(shown), date "), "\(out)")
        let d = try Self.detail(store, 1)
        #expect(d.state == .corrected)
        #expect(Set(d.corrections.filter(\.isActive).map(\.field)) == [.vendor, .date, .total])
        #expect(d.corrections.allSatisfy { $0.by == "kim" && $0.value == $0.previous })
        let shops = try openStore(store, create: false).shops()
        #expect(shops.map(\.name) == [shown])
        Self.batch(store, Self.second)
        #expect(try Self.detail(store, 2).effective.vendor?.value == shown)
        // Wrong uses are usage errors; an unknown receipt changes nothing.
        #expect(cli(["review", "--store", store, "--accept"], env: Self.env).code == 2)
        #expect(cli(["review", "--store", store, "2"], env: Self.env).code == 2)
        let missing = cli(["review", "--store", store, "--accept", "2", "99"], env: Self.env)
        #expect(missing.code == 3 && missing.err.contains("99"), "\(missing.err)")
        #expect(try Self.detail(store, 2).corrections.isEmpty)
    }

    @Test("shops list, show, rename and merge: as a table and as JSON, errors naming the shop", arguments: Engine.allCases)
    func shopsCommand(_ engine: Engine) throws {
        let tmp = try TempDir()
        let store = try Self.corrected(engine, in: tmp)
        let list = Self.run(["shops", "list", "--store", store]).out
        let lines = list.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID  SHOP") == true, "\(list)")
        #expect(lines.contains { $0.hasPrefix("1  \(Self.name)") && $0.contains(" 2  #1 ") && $0.contains("1 reg, 1 tax, 1 phone") }, "\(list)")
        #expect(lines.last == "1 shop")
        struct ShopJSON: Decodable {
            struct Key: Decodable { var kind: String; var value: String; var receipt_id: Int64 }
            var shop_id: Int64; var name: String; var receipt_ids: [Int64]; var teacher_ids: [Int64]; var keys: [Key]
        }
        let json = Self.run(["shops", "list", "--store", store, "--json"]).out
        let shop = try JSONDecoder().decode(ShopJSON.self, from: Data(json.utf8))
        #expect(shop.shop_id == 1 && shop.name == Self.name && shop.receipt_ids == [1, 2] && shop.teacher_ids == [1])
        #expect(shop.keys.contains { $0.kind == "registration" && $0.value == "1187734H" && $0.receipt_id == 1 })
        #expect(shop.keys.contains { $0.kind == "header" })
        let show = Self.run(["shops", "show", "--store", store, "1"]).out
        #expect(show.hasPrefix("shop 1  \(Self.name)\n"), "\(show)")
        #expect(show.contains("  from      #1: corrected vendor KEDAI MAKAN MUTIARA"))
        #expect(show.contains("  key       registration number 1187734H  (#1)"))
        #expect(show.contains("  read as   #2 (receipts read as this shop)"))
        // Rename: the receipts read as the shop show the new name.
        Self.run(["shops", "rename", "--store", store, "1", "Kedai Makan Mutiara"])
        #expect(try Self.detail(store, 2).effective.vendor?.value == "Kedai Makan Mutiara")
        // Errors name what is wrong.
        let none = cli(["shops", "show", "--store", store, "nowhere"], env: Self.env)
        #expect(none.code == 3 && none.err.contains("no shop 'nowhere'"), "\(none.err)")
        #expect(cli(["shops", "rename", "--store", store, "1"], env: Self.env).code == 2)
        // Merge: a second shop (another sample, corrected) merged into the first keeps the first's name.
        Self.batch(store, Repo.path("SampleReceipts/my-nasi-01.jpg"))
        Self.run(["edit", "--store", store, "3", "--vendor", "Restoran Nasi Kandar Sri Pulau"])
        #expect(try openStore(store, create: false).shops().count == 2)
        let merged = Self.run(["shops", "merge", "--store", store, "1", "nasi kandar"]).out
        #expect(merged.contains("merged into shop 1 (Kedai Makan Mutiara): 3 receipts"), "\(merged)")
        let after = try openStore(store, create: false).shops()
        #expect(after.map(\.name) == ["Kedai Makan Mutiara"])
        #expect(after.first?.teachers == [ReceiptID(1), ReceiptID(3)])
    }
}

/// Schema 6 → 7 adds the shop directory in place: every receipt, correction and item is kept, and
/// the upgraded store learns.
@Suite("migration to the shop directory")
struct ShopMigrationTests {
    @Test("a version 6 store with receipts and corrections upgrades to 7, keeps them, and learns from a correction made after")
    func fromSix() throws {
        let tmp = try TempDir()
        let path = tmp.path("v6.sqlite")
        do {
            let v6 = try SQLReceiptStore(path: path, schemaVersion: 6)
            #expect(try v6.schemaVersion() == 6)
            try save(v6, receipt(vendor: "Old Shop", date: "2024-01-02", total: "43.20", lines: [("THING", "43.20", 1)]), hash: "h6")
            try save(v6, receipt(vendor: "Another", date: "2024-02-03", total: "5.00"), hash: "h7")
            _ = try v6.correct(ReceiptID(1), [try FieldChange.set(.total, "43.25")], by: "kim")
        }
        let store = try SQLReceiptStore(path: path)
        #expect(try store.schemaVersion() == SQLReceiptStore.latestSchemaVersion)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.receipts().map(\.contentHash) == ["h6", "h7"])
        let d = try #require(try store.receiptDetail(ReceiptID(1)))
        #expect(d.effective.total?.value == Amount("43.25") && d.state == .corrected)
        #expect(d.corrections.map(\.by) == ["kim"] && d.receipt.parsed.total?.value == Amount("43.20"))
        #expect(d.learned == nil && d.shop == nil)
        let s = try store.stats()
        #expect(s.receipts == 2 && s.lineItems == 1 && s.shops == 0 && s.learnedReceipts == 0)
        // The new tables work on the upgraded file.
        let info = cli(["store", "info", "--store", path])
        #expect(info.out.contains("schema version \(SQLReceiptStore.latestSchemaVersion)") && info.out.contains("shops     0 learned"), "\(info.out)")
        #expect(cli(["shops", "list", "--store", path]).out.hasPrefix("no shops learned yet"))
    }
}
