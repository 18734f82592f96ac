import Foundation
import ReceiptModel
import ReceiptReconcile
import ReceiptStore

// receipts-bench: figures for the store and the reconciler.
//
//   receipts-bench reconcile [--receipts N] [--items N] [--seed S] [--store LOCATION | --keep PATH] [--goal S] [--check]
//       Generates N synthetic receipts and N items (60 % of items bought on one of the
//       receipts), stores them in a temporary SQLite file and times `Reconciler.run`
//       (read the store, plan, write the proposals). Prints the figure, and how the
//       proposals compare with the generator's truth. --check: exit 1 when over the goal
//       (default 2 s). Build with -c release for a meaningful figure.
//
//   receipts-bench store --store LOCATION [--count N] [--jobs J]
//       A batch's store calls per receipt (is it stored, claim, save with reading), no OCR.
//
//   receipts-bench parse-text [--rounds N] [--goal R] [--slowest K] [--check] DIR…
//       The parser alone on labelled sets' true text, in process, one thread: receipts/s/core
//       (ParseText.swift).
//
// Hidden helpers for the concurrency test (two real processes on one store):
//   receipts-bench write --store PATH --tag T --count N
//   receipts-bench decide --store PATH --rounds N

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

func option(_ name: String, _ args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("receipts-bench: \(message)\n".utf8))
    exit(2)
}

func evidence() -> Evidence { Evidence(rule: "bench") }

func parsed(vendor: String, date: CalendarDate, total: Amount, subtotal: Amount? = nil, tax: Amount? = nil, currency: String,
            number: String?, lines: [LineItem]) -> ParsedReceipt {
    ParsedReceipt(vendor: Field(vendor, confidence: 0.9, evidence: evidence()), date: Field(date, confidence: 0.9, evidence: evidence()),
                  total: Field(total, confidence: 0.9, evidence: evidence()), subtotal: subtotal.map { Field($0, confidence: 0.9, evidence: evidence()) },
                  tax: tax.map { Field($0, confidence: 0.9, evidence: evidence()) }, currency: Field(currency, confidence: 0.9, evidence: evidence()),
                  receiptNumber: number.map { Field($0, confidence: 0.9, evidence: evidence()) }, lineItems: lines, parserVersion: "bench")
}

// MARK: reconcile benchmark

func benchReconcile(_ args: [String]) throws {
    let nReceipts = Int(option("--receipts", args) ?? "") ?? 10_000
    let nItems = Int(option("--items", args) ?? "") ?? 10_000
    var rng = SplitMix64(state: UInt64(option("--seed", args) ?? "") ?? 42)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("receipts-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    // --keep PATH: write the store there instead, and leave it for a look.
    // --store LOCATION: an empty store of any engine (a postgres:// URL); --keep PATH: a SQLite file left for a look.
    let path = option("--store", args) ?? option("--keep", args) ?? dir.appendingPathComponent("bench.sqlite").path
    defer { try? FileManager.default.removeItem(at: dir) }

    let shops = ["Brightwave Electronics", "Harbor Lane Hardware", "Cedar & Pine Home Goods", "Wohnwelt Hansen", "Maison Dupont",
                 "Thornbury & Sons", "Lakeshore Outfitters", "Nordvik Jarnhandel", "Voltline Electronics", "Blue Heron Coffee"]
    let vendors: [(receipt: String, item: String)] = (0..<300).map { i in
        let places = ["Austin", "Boston", "Denver", "Fresno", "Tulsa", "Omaha", "Reno", "Salem", "Dover", "Akron",
                      "Mesa", "Provo", "Ogden", "Butte", "Helena", "Eugene", "Bend", "Yuma", "Tempe", "Plano",
                      "Irving", "Frisco", "Laredo", "Tyler", "Waco", "Macon", "Athens", "Rome", "Troy", "Utica"]
        let base = "\(shops[i % shops.count]) \(places[i / shops.count % places.count])"
        return ("\(base.uppercased()) INC. #\(100 + i)", base)
    }
    let nouns = ["HEADPHONES", "TELEVISION", "MIXER", "KETTLE", "DRILL", "HAMMER", "LANTERN", "STOVE", "SOFA", "SHELF", "LAMP", "TOASTER",
                 "BLENDER", "CAMERA", "MONITOR", "ROUTER", "VACUUM", "HEATER", "FAN", "SPEAKER", "KEYBOARD", "MOUSE", "CHAIR", "DESK"]
    let brands = ["SONY", "BOSCH", "PHILIPS", "VANTEC", "COLEMAN", "DYSON", "LOGI", "IKEA", "BRAUN", "MIELE", "ACER", "TPLINK"]
    let startDay = CalendarDate(year: 2022, month: 1, day: 1)!.dayNumber
    func day(_ n: Int) -> CalendarDate {
        // dayNumber -> date (days since 1970-01-01), Howard Hinnant's civil_from_days.
        let z = n + 719468, era = (z >= 0 ? z : z - 146096) / 146097, doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365, doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9
        return CalendarDate(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)!
    }
    func price() -> Amount {
        // Log-uniform 1…2000, to the cent, ending .99 half the time.
        let x = exp(Double.random(in: 0...log(2000.0), using: &rng))
        let cents = Int64(x * 100)
        return Amount(cents: Bool.random(using: &rng) ? cents / 100 * 100 + 99 : max(1, cents))
    }

    struct Truth { var receipt: Int; var line: Int }
    var receipts: [StoredReceiptInput] = []
    var lineNames: [[(brand: String, noun: String, model: String)]] = []
    var receiptMeta: [(vendor: Int, day: Int, addedTax: Decimal?)] = []
    for r in 0..<nReceipts {
        let v = Int.random(in: 0..<vendors.count, using: &rng)
        let d = startDay + Int.random(in: 0..<1095, using: &rng)
        var lines: [LineItem] = []
        var names: [(String, String, String)] = []
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            let b = brands.randomElement(using: &rng)!, n = nouns.randomElement(using: &rng)!
            let model = "\(b.prefix(2))\(Int.random(in: 100...9999, using: &rng))"
            let q = Int.random(in: 1...10, using: &rng) == 1 ? 2 : 1
            let unit = price()
            lines.append(LineItem(description: "\(b) \(n) \(model)", quantity: Decimal(q), unitPrice: unit, amount: unit * Decimal(q), evidence: evidence()))
            names.append((b, n, model))
        }
        let sub = lines.reduce(Amount(0)) { $0 + $1.amount }
        let usTax = r % 2 == 0
        let tax = Amount(cents: (sub * Decimal(string: "0.0825")!).cents)
        let total = usTax ? sub + tax : sub
        let p = parsed(vendor: vendors[v].receipt, date: day(d), total: total, subtotal: usTax ? sub : nil, tax: usTax ? tax : nil,
                       currency: "USD", number: "R\(r)", lines: lines)
        receipts.append(StoredReceiptInput(contentHash: String(format: "%064x", r), sourcePath: "bench/\(r).png", ocrText: nil, parsed: p,
                                           engineVersion: "bench", status: .parsed))
        lineNames.append(names)
        receiptMeta.append((v, d, usTax ? tax.value / sub.value : nil))
    }
    var items: [InventoryItem] = []
    var truth: [String: Truth] = [:]
    // Each bought item takes its own receipt line (a line of quantity 2 can back two items).
    var slots: [(r: Int, l: Int)] = []
    for (r, rec) in receipts.enumerated() {
        for (l, line) in rec.parsed.lineItems.enumerated() {
            for _ in 0..<Int(truncating: (line.quantity ?? 1) as NSDecimalNumber) { slots.append((r, l)) }
        }
    }
    slots.shuffle(using: &rng)
    for i in 0..<nItems {
        let ext = "bench-\(i)"
        if Int.random(in: 0..<10, using: &rng) < 6, let slot = slots.popLast() {
            let (r, l) = slot
            let line = receipts[r].parsed.lineItems[l]
            let n = lineNames[r][l]
            var p = line.unitPrice ?? line.amount
            // A third record the price with sales tax, like a card statement shows it.
            if let rate = receiptMeta[r].addedTax, Int.random(in: 0..<3, using: &rng) == 0 { p = Amount(cents: (p * (1 + rate)).cents) }
            let dd = receiptMeta[r].day + [0, 0, 0, 1, -1, 2][Int.random(in: 0..<6, using: &rng)]
            items.append(InventoryItem(name: "\(n.noun.capitalized) \(n.model)", externalID: ext, brand: n.brand.capitalized, price: p,
                                       currency: "USD", purchaseDate: day(dd), vendor: vendors[receiptMeta[r].vendor].item))
            truth[ext] = Truth(receipt: r, line: l)
        } else {
            let b = brands.randomElement(using: &rng)!, n = nouns.randomElement(using: &rng)!
            items.append(InventoryItem(name: "\(n.capitalized) \(b.prefix(2))\(Int.random(in: 100...9999, using: &rng))", externalID: ext,
                                       brand: b.capitalized, price: price(), currency: "USD",
                                       purchaseDate: day(startDay + Int.random(in: 0..<1095, using: &rng)),
                                       vendor: vendors.randomElement(using: &rng)!.item))
        }
    }

    let store = try StoreLocation.open(path)
    let setup = Date()
    let rids = try store.saveReceipts(receipts)
    try store.upsertItems(items)
    let setupSeconds = Date().timeIntervalSince(setup)

    let run = try Reconciler().run(store: store)
    // A second run: what re-running on an unchanged store costs (refresh, nothing new).
    let rerun = try Reconciler().run(store: store)

    // Score the proposals against the generator's truth.
    let itemIDs = Dictionary(uniqueKeysWithValues: try store.items().map { ($0.item.externalID ?? "", $0.id) })
    let receiptIndex = Dictionary(uniqueKeysWithValues: rids.enumerated().map { ($1, $0) })
    var bestByItem: [ItemID: LinkProposal] = [:]
    for p in run.plan.proposals where (bestByItem[p.itemID]?.score ?? -1) < p.score { bestByItem[p.itemID] = p }
    var right = 0, wrong = 0, missed = 0, spurious = 0
    for (ext, t) in truth {
        guard let id = itemIDs[ext], let p = bestByItem[id] else { missed += 1; continue }
        if receiptIndex[p.receiptID] == t.receipt { right += 1 } else { wrong += 1 }
    }
    for (ext, id) in itemIDs where truth[ext] == nil && bestByItem[id] != nil { spurious += 1 }

    func s(_ x: Double) -> String { String(format: "%.2f", x) }
    print("reconcile \(nReceipts) receipts × \(nItems) items: \(s(run.totalSeconds)) s "
          + "(read store \(s(run.loadSeconds)) s, plan \(s(run.planSeconds)) s, write \(run.written.proposed + run.written.autoConfirmed) proposals \(s(run.writeSeconds)) s)")
    print("  re-run on the unchanged store: \(s(rerun.totalSeconds)) s (\(rerun.written.refreshed) refreshed, \(rerun.written.proposed) new)")
    print("  candidates scored: \(run.plan.stats.candidatesScored) (\(String(format: "%.1f", Double(run.plan.stats.candidatesScored) / Double(max(1, nItems)))) per item, not \(nReceipts))")
    print("  synthetic truth: \(truth.count) items bought on a receipt: best proposal right \(right), wrong \(wrong), none \(missed); "
          + "\(nItems - truth.count) items without a receipt got a proposal: \(spurious); ambiguous items: \(run.plan.stats.ambiguousItems)")
    let goal = Double(option("--goal", args) ?? "") ?? 2.0
    let met = run.totalSeconds < goal
    print("  goal: under \(s(goal)) s: \(met ? "met" : "NOT met")")
    print("  setup (not timed): stored \(nReceipts) receipts and \(nItems) items in \(s(setupSeconds)) s; \(path)")
    if args.contains("--check") && !met { exit(1) }
}

// MARK: concurrency helpers

/// Writes `count` receipts and items, as a batch would; every other receipt has a hash the
/// other writer also uses (the same image in two folders), so the store must merge them.
func benchWrite(_ args: [String]) throws {
    guard let path = option("--store", args), let tag = option("--tag", args) else { fail("write needs --store PATH --tag T") }
    let count = Int(option("--count", args) ?? "") ?? 100
    let store = try StoreLocation.open(path)
    let d = CalendarDate(year: 2024, month: 5, day: 1)!
    for i in 0..<count {
        let shared = i % 2 == 0
        let total = Amount(cents: Int64(1000 + i))
        let p = parsed(vendor: "Shop \(i)", date: d, total: total, currency: "USD", number: "N\(i)",
                       lines: [LineItem(description: "THING \(i)", amount: total, evidence: evidence())])
        try store.saveReceipt(StoredReceiptInput(contentHash: shared ? "shared-\(i)" : "\(tag)-\(i)", sourcePath: "\(tag)/\(i).png",
                                                 ocrText: "SHOP \(i)\nTOTAL \(total)", parsed: p, engineVersion: "bench", status: .parsed))
        try store.upsertItems([InventoryItem(name: "Thing \(i)", price: total, currency: "USD", purchaseDate: d, vendor: "Shop \(i)")])
        if i % 10 == 0 { try store.recordFailure(contentHash: nil, path: "\(tag)/broken-\(i).png", code: "unreadable", message: "bench") }
    }
    print("wrote \(count)")
}

/// A user at work while the writers run: reconcile, confirm one link, reject another, repeat.
func benchDecide(_ args: [String]) throws {
    guard let path = option("--store", args) else { fail("decide needs --store PATH") }
    let rounds = Int(option("--rounds", args) ?? "") ?? 20
    let store = try StoreLocation.open(path)
    var confirmed: [Int64] = [], rejected: [Int64] = []
    for _ in 0..<rounds {
        _ = try Reconciler().run(store: store)
        let proposed = try store.links(status: .proposed)
        if let a = proposed.first { try store.decideLink(a.id, status: .confirmed, by: "bench"); confirmed.append(a.id.rawValue) }
        if proposed.count > 1 { let b = proposed[proposed.count - 1]; try store.decideLink(b.id, status: .rejected, by: "bench"); rejected.append(b.id.rawValue) }
        usleep(5_000)
    }
    print("confirmed \(confirmed.map(String.init).joined(separator: ","))")
    print("rejected \(rejected.map(String.init).joined(separator: ","))")
}

let args = Array(CommandLine.arguments.dropFirst())
do {
    switch args.first {
    case "reconcile": try benchReconcile(Array(args.dropFirst()))
    case "write": try benchWrite(Array(args.dropFirst()))
    case "decide": try benchDecide(Array(args.dropFirst()))
    case "parser": ParserCost.run(Array(args.dropFirst()))
    case "store": try StoreCost.run(Array(args.dropFirst()))
    case "parse-text": try ParseText.run(Array(args.dropFirst()))
    default:
        print("usage: receipts-bench reconcile [--receipts N] [--items N] [--seed S] [--keep PATH] [--goal SECONDS] [--check]")
        print("       receipts-bench parser [--check]")
        print("       receipts-bench parse-text [--rounds N] [--goal R] [--slowest K] [--check] DIR…")
        print("       receipts-bench store --store LOCATION [--count N] [--jobs J]")
        exit(args.first == nil || args.first == "--help" ? 0 : 2)
    }
} catch {
    fail("\(error)")
}
