import Foundation
import ReceiptLearning
import ReceiptModel
import ReceiptParser
import ReceiptStore

/// `receipts shops list|show|rename|merge|forget`: the shop directory learned from your corrections.
enum ShopsCommand {
    /// `--store`, `--json` and the shops named.
    struct Args: ParsableArgs {
        var store = StoreArgs()
        var json = false
        var given: [String] = []

        static let storeOnly = StoreArgs.group.embedded(in: \Args.store)
        static let storeAndJSON = storeOnly + OptionGroup([.flag("--json", \.json, help: "JSON Lines: one `shop` object a shop, keys sorted.")])
    }

    static let command = Command(
        name: "shops",
        summary: "The shops learned from your corrections: list, show, rename, merge, forget.",
        discussion: """
        A receipt you correct (`receipts edit`) or accept (`receipts review`) teaches its shop: the shop
        named by its vendor learns the receipt's registration, tax and phone numbers, its address lines
        and its header; a total or date you changed to a value printed on the receipt teaches which kind
        of line holds it. Every later receipt read with the store (`batch`, `parse --store`,
        `batch --reparse`) that matches a shop takes its name, and the values its habits point at,
        with evidence saying which correction taught them. Nothing is learned from receipts you never
        corrected or accepted; undoing a correction unlearns it; see docs/learning.md.
        A SHOP is its id (`receipts shops list`) or its name.
        """,
        subcommands: [list, show, rename, merge, forget])

    static let list = Command(
        name: "list",
        summary: "List the shops: receipts, what taught them, their keys and habits.",
        options: Args.storeAndJSON, arguments: .none("shops list takes no arguments"),
        run: { args, ctx in
            let store = try StoreSupport.open(args.store, ctx)
            let shops = try StoreSupport.attempt("reading the shops") { try store.shops() }
            if args.json {
                for s in shops { ctx.console.out(JSONLine.encode(ShopReport(s))) }
                return .ok
            }
            if shops.isEmpty {
                ctx.console.out("no shops learned yet: correct a receipt (receipts edit) or accept one (receipts review) to teach its shop")
                return .ok
            }
            ctx.console.outRaw(table(shops))
            return .ok
        })

    static func table(_ shops: [StoredShop]) -> String {
        let head = ["ID", "SHOP", "RECEIPTS", "TAUGHT BY", "KEYS", "HABITS"]
        let rows = shops.map { s -> [String] in
            let strong = Set(s.keys.map(\.key).filter(\.kind.isStrong))
            let keys = ShopKeyKind.allCases.filter(\.isStrong).compactMap { k -> String? in
                let n = strong.filter { $0.kind == k }.count
                return n == 0 ? nil : "\(n) \(k == .registration ? "reg" : k.rawValue)"
            }
            return [s.id.description, StoreSupport.clip(s.name, 36), "\(s.receipts.count)", teachers(s.teachers, limit: 4),
                    keys.isEmpty ? "header" : keys.joined(separator: ", "), Self.habitFields(s)]
        }
        let widths = head.indices.map { i in max(head[i].count, rows.map { $0[i].count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            cells.indices.map { i in i == cells.count - 1 ? cells[i] : i == 0 || i == 2 ? StoreSupport.lpad(cells[i], widths[i]) : StoreSupport.pad(cells[i], widths[i]) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
        }
        return ([head] + rows).map(line).joined() + "\(shops.count) shop\(shops.count == 1 ? "" : "s")\n"
    }

    static func teachers(_ ids: [ReceiptID], limit: Int) -> String {
        ids.prefix(limit).map(\.description).joined(separator: " ") + (ids.count > limit ? " +\(ids.count - limit)" : "")
    }

    /// The shop a command line names: its id, else its name (any spelling of the same name key),
    /// else the one shop whose name contains it.
    static func shop(_ arg: String, in store: any ReceiptStore) throws -> StoredShop {
        let shops = try StoreSupport.attempt("reading the shops") { try store.shops() }
        if let n = Int64(arg), let s = shops.first(where: { $0.id.rawValue == n }) { return s }
        let key = ShopName.key(arg)
        if let s = shops.first(where: { ShopName.key($0.name) == key }) { return s }
        let some = shops.filter { !key.isEmpty && ShopName.key($0.name).contains(key) }
        if some.count == 1 { return some[0] }
        if some.count > 1 {
            throw CLIFailure(.inputError, "'\(arg)' names \(some.count) shops (\(some.map { "\($0.id) \($0.name)" }.joined(separator: ", "))): give its id")
        }
        throw CLIFailure(.inputError, "no shop '\(arg)' (receipts shops list shows them)")
    }

    static let show = Command(
        name: "show",
        summary: "Show one shop: its keys, habits, the receipts and corrections it learned from, the receipts read as it.",
        options: Args.storeAndJSON,
        arguments: Positionals("SHOP", kind: .text, count: .one("shops show takes one shop: an id or a name"),
                               help: "The shop: its id or its name.", \.given),
        run: { args, ctx in
            let store = try StoreSupport.open(args.store, ctx)
            let s = try shop(args.given[0], in: store)
            if args.json { ctx.console.out(JSONLine.encode(ShopReport(s))); return .ok }
            var corrections: [ReceiptID: [Correction]] = [:]
            for id in s.teachers {
                corrections[id] = try StoreSupport.attempt("reading receipt \(id)") { try store.receiptDetail(id)?.corrections.filter(\.isActive) ?? [] }
            }
            ctx.console.outRaw(render(s, corrections: corrections))
            return .ok
        })

    /// The fields the shop has habits for, each once ("total, date").
    static func habitFields(_ s: StoredShop) -> String {
        var seen: [String] = []
        for h in s.habits where !seen.contains(h.field.rawValue) { seen.append(h.field.rawValue) }
        return seen.joined(separator: ", ")
    }

    static func render(_ s: StoredShop, corrections: [ReceiptID: [Correction]]) -> String {
        var out = "shop \(s.id)  \(s.name)\n"
        out += "  learned   \(s.createdAt), last \(s.updatedAt)\n"
        let taught = Set(s.teachers)
        for id in s.teachers {
            let cs = corrections[id] ?? []
            let changed = cs.filter { $0.value != $0.previous }.map { "\($0.field.rawValue) \($0.previous ?? "—") → \($0.value ?? "cleared")" }
            let confirmed = cs.filter { $0.value == $0.previous }.map(\.field.rawValue)
            var what: [String] = []
            if !changed.isEmpty { what.append("corrected " + changed.joined(separator: ", ")) }
            if !confirmed.isEmpty { what.append("confirmed " + confirmed.joined(separator: ", ")) }
            out += "  from      \(id): \(what.isEmpty ? "—" : what.joined(separator: "; "))\n"
        }
        var byKey: [ShopKey: [ReceiptID]] = [:]
        for k in s.keys { byKey[k.key, default: []].append(k.receiptID) }
        for kind in ShopKeyKind.allCases {
            for (k, ids) in byKey.filter({ $0.key.kind == kind }).sorted(by: { $0.key.value < $1.key.value }) {
                out += "  \(StoreSupport.pad(kind == .header ? "header" : "key", 10))\(StoreSupport.clip(kind == .header ? "'\(k.value)'" : k.description, 72))  (\(teachers(ids, limit: 6)))\n"
            }
        }
        // One line a kind of line: every receipt confirmed or corrected on the same kind teaches it again.
        var habitOrder: [String] = [], byHabit: [String: [ReceiptID]] = [:]
        for h in s.habits {
            let said = "\(h.field.rawValue): \(h.line) holds it"
            if byHabit[said] == nil { habitOrder.append(said) }
            byHabit[said, default: []].append(h.receiptID)
        }
        for said in habitOrder {
            out += "  habit     \(said) (\(teachers(byHabit[said] ?? [], limit: 6)))\n"
        }
        let years = Dictionary(grouping: s.dates, by: \.date.year).sorted { $0.key < $1.key }
        if !years.isEmpty { out += "  years     " + years.map { "\($0.key) (\($0.value.count))" }.joined(separator: ", ") + "  (dates you corrected or confirmed)\n" }
        let read = s.receipts.filter { !taught.contains($0) }
        if !read.isEmpty { out += "  read as   \(teachers(read, limit: 20)) (receipts read as this shop)\n" }
        return out
    }

    static let rename = Command(
        name: "rename",
        summary: "Give a shop another name; the receipts read as it show the new name.",
        options: Args.storeOnly,
        arguments: Positionals("SHOP NAME", kind: .text, count: .atLeastOne("shops rename takes a shop and its new name"),
                               help: "The shop (id or name), then the new name.", \.given),
        run: { args, ctx in
            guard args.given.count == 2 else { throw CLIFailure(.usage, "shops rename takes a shop and its new name (quote a name with spaces)") }
            return try StoreSupport.writing(args.store, ctx) { store in
                let s = try shop(args.given[0], in: store)
                let renamed = try decide("renaming shop \(s.id)") { try store.renameShop(s.id, to: args.given[1]) }
                ctx.console.out("shop \(s.id): \(s.name) → \(renamed.name) (\(renamed.receipts.count) receipt\(renamed.receipts.count == 1 ? "" : "s"))")
                return .ok
            }
        })

    static let merge = Command(
        name: "merge",
        summary: "Make shops one (two branches of a chain, say): the others' keys, habits and receipts go to the first, which keeps its name.",
        options: Args.storeOnly,
        arguments: Positionals("SHOP OTHER", kind: .text, count: .atLeastOne("shops merge takes the shop to keep and the ones to merge into it"),
                               help: "The shop to keep, then the shops to merge into it (ids or names).", \.given),
        run: { args, ctx in
            guard args.given.count >= 2 else { throw CLIFailure(.usage, "shops merge takes the shop to keep and at least one to merge into it") }
            return try StoreSupport.writing(args.store, ctx) { store in
                let keep = try shop(args.given[0], in: store)
                for arg in args.given.dropFirst() {
                    let other = try shop(arg, in: store)
                    let merged = try decide("merging shop \(other.id) into \(keep.id)") { try store.mergeShop(other.id, into: keep.id) }
                    ctx.console.out("shop \(other.id) (\(other.name)) merged into shop \(keep.id) (\(merged.name)): \(merged.receipts.count) receipts")
                }
                return .ok
            }
        })

    static let forget = Command(
        name: "forget",
        summary: "Forget shops and everything they learned; the receipts read as them go back to the parser's values.",
        discussion: "Your corrections stay (correcting one of those receipts again teaches its shop again).",
        options: Args.storeOnly,
        arguments: Positionals("SHOP", kind: .text, count: .atLeastOne("shops forget takes one shop or more"), help: "Shops (ids or names).", \.given),
        run: { args, ctx in
            try StoreSupport.writing(args.store, ctx) { store in
                for arg in args.given {
                    let s = try shop(arg, in: store)
                    let gone = try decide("forgetting shop \(s.id)") { try store.forgetShop(s.id) }
                    ctx.console.out("shop \(gone.id) (\(gone.name)) forgotten: \(gone.keys.count) keys and \(gone.habits.count) habits from \(gone.teachers.count) receipts; "
                                    + "\(gone.receipts.count - gone.teachers.count) receipts read as it went back to the parser's values")
                }
                return .ok
            }
        })

    /// A store request the user may have asked wrongly (a name another shop has): exit 2 or 3, else 5.
    static func decide<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StoreError {
            switch e.code.category {
            case .request: throw CLIFailure(.usage, e.description)
            case .notFound: throw CLIFailure(.inputError, e.description)
            case .store: throw CLIFailure(.storeError, "\(what): \(e)")
            }
        }
    }
}

/// One shop in `shops list --json` / `shops show --json`.
struct ShopReport: Encodable {
    struct Key: Encodable {
        var kind: String
        var value: String
        var receiptID: Int64
        enum CodingKeys: String, CodingKey { case kind, value, receiptID = "receipt_id" }
    }
    struct Habit: Encodable {
        var field: String
        var line: String
        var label: String
        var above: String?
        var receiptID: Int64
        var correctionID: Int64
        enum CodingKeys: String, CodingKey { case field, line, label, above, receiptID = "receipt_id", correctionID = "correction_id" }
    }
    var shopID: Int64
    var name: String
    var createdAt: String
    var updatedAt: String
    var receiptIDs: [Int64]
    var teacherIDs: [Int64]
    var keys: [Key]
    var habits: [Habit]

    enum CodingKeys: String, CodingKey {
        case shopID = "shop_id", name, createdAt = "created_at", updatedAt = "updated_at", receiptIDs = "receipt_ids", teacherIDs = "teacher_ids"
        case keys, habits
    }

    init(_ s: StoredShop) {
        shopID = s.id.rawValue; name = s.name; createdAt = s.createdAt; updatedAt = s.updatedAt
        receiptIDs = s.receipts.map(\.rawValue); teacherIDs = s.teachers.map(\.rawValue)
        keys = s.keys.map { Key(kind: $0.key.kind.rawValue, value: $0.key.value, receiptID: $0.receiptID.rawValue) }
        habits = s.habits.map { Habit(field: $0.field.rawValue, line: $0.line.description, label: $0.line.label, above: $0.line.above,
                                      receiptID: $0.receiptID.rawValue, correctionID: $0.correctionID) }
    }
}
