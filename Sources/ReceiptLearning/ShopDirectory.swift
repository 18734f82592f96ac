import Foundation
import ReceiptModel
import ReceiptSupport
import ReceiptStore

/// The shops the user taught, ready to match receipts against: each shop's strong keys (registration,
/// tax and phone numbers), its headers as trigrams, its addresses and its habits.
///
/// A receipt is taken for a shop when
/// - it shares a strong key with the shop (a key taught to two shops or more is left out: a
///   customer's own number printed on several suppliers' invoices names no shop), or
/// - its header is at least `headerThreshold` alike to one of the shop's (`Trigrams.likeness`),
///   and no other shop's is nearly as alike (`headerMargin`);
/// and never when the receipt's registration or tax number is another than every one the shop has
/// (two branches of one chain with different company numbers stay two shops).
public struct ShopDirectory: Sendable {
    /// Header likeness above which a receipt is taken for a shop on its header alone; chosen on
    /// sroie-stream (docs/learning.md: how).
    public static let headerThreshold = 0.6
    /// A match on the header alone must beat the next shop's by this much (header likeness, with
    /// the name's likeness at `nameWeight`).
    public static let headerMargin = 0.05
    /// How much the likeness of the name the receipt prints to a shop's name counts beside the header's.
    public static let nameWeight = 0.5
    /// Between shops sharing a key, the receipt prints one's name when it is this alike to it, and the
    /// others' less by `nameMargin`.
    public static let sameName = 0.8
    public static let nameMargin = 0.2
    /// Confidence of a vendor taken from a shop on a strong key, and on the header alone (at the
    /// threshold, rising to `strongConfidence` at likeness 1): measured on sroie-stream.
    public static let strongConfidence = 0.97
    public static let headerConfidence = 0.8

    struct Entry: Sendable {
        var id: ShopID
        var name: String
        /// The name's trigrams, for the likeness of the name a receipt prints (made once, not per receipt).
        var nameTrigrams: Trigrams
        /// Strong key → the receipt that taught it last.
        var strong: [ShopKey: ReceiptID]
        var headers: [(Trigrams, ReceiptID)]
        var addresses: Set<String>
        var habits: [TaughtHabit]
        /// The years of the dates the user corrected or confirmed: how many, and the latest receipt.
        var years: [Int: (count: Int, latest: ReceiptID)]
        /// The latest receipt that taught it: ties go to the shop taught last.
        var latest: ReceiptID
    }

    let entries: [Entry]
    /// The entries by shop.
    let byID: [ShopID: Entry]
    /// Strong keys taught to two shops or more.
    let ambiguous: Set<ShopKey>

    public init(_ shops: [StoredShop]) {
        var owners: [ShopKey: Set<ShopID>] = [:]
        for s in shops { for k in s.keys where k.key.kind.isStrong { owners[k.key, default: []].insert(s.id) } }
        ambiguous = Set(owners.filter { $0.value.count > 1 }.keys)
        entries = shops.compactMap { s in
            var strong: [ShopKey: ReceiptID] = [:], headers: [(Trigrams, ReceiptID)] = [], addresses: Set<String> = []
            for k in s.keys {
                switch k.key.kind {
                case .registration, .tax, .phone: strong[k.key] = max(strong[k.key] ?? k.receiptID, k.receiptID)
                case .header: headers.append((Trigrams(k.key.value), k.receiptID))
                case .address: addresses.insert(k.key.value)
                }
            }
            guard let latest = s.teachers.last else { return nil }
            var years: [Int: (count: Int, latest: ReceiptID)] = [:]
            for d in s.dates {
                let y = years[d.date.year]
                years[d.date.year] = ((y?.count ?? 0) + 1, max(y?.latest ?? d.receiptID, d.receiptID))
            }
            return Entry(id: s.id, name: s.name, nameTrigrams: Trigrams(ShopName.key(s.name)), strong: strong, headers: headers, addresses: addresses, habits: s.habits, years: years, latest: latest)
        }
        byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// A shop the receipt was taken for.
    public struct Match: Sendable, Hashable {
        public var shop: ShopID
        public var name: String
        /// Why (the vendor's evidence note).
        public var note: ShopMatch
        public var confidence: Double
        /// On a strong key (else on the header alone).
        public var strong: Bool
        public var habits: [TaughtHabit]
        /// The years of the shop's confirmed dates: how many, and the latest receipt dated in each.
        public var years: [Int: (count: Int, latest: ReceiptID)]

        public static func == (a: Match, b: Match) -> Bool { a.shop == b.shop && a.note == b.note && a.confidence == b.confidence }
        public func hash(into h: inout Hasher) { h.combine(shop); h.combine(note) }
    }

    /// One shop as a receipt compares with it (for `match` and for measuring the thresholds).
    public struct Comparison: Sendable, Hashable {
        public var shop: ShopID
        public var name: String
        public var shared: [ShopKey]
        /// The receipt's registration or tax number is another than all of the shop's.
        public var conflict: Bool
        public var header: Double
        public var headerTeacher: ReceiptID?
        public var keyTeacher: ReceiptID?
    }

    /// The receipt compared with every shop, most alike first.
    public func compare(_ fp: Fingerprint) -> [Comparison] {
        let mine = Trigrams(fp.header)
        let strong = fp.strongKeys.filter { !ambiguous.contains($0) }
        let addresses = fp.keys.filter { $0.kind == .address }
        return entries.map { e in
            var shared: [ShopKey] = [], keyTeacher: ReceiptID?
            for k in strong {
                if let (theirs, teacher) = e.strong.first(where: { Self.same($0.key, k) }) {
                    shared.append(theirs)
                    keyTeacher = max(keyTeacher ?? teacher, teacher)
                }
            }
            shared += addresses.filter { e.addresses.contains($0.value) }
            // Every number the shop was taught counts here, shared or not: a conflict is a number it never had.
            var conflict = false
            for kind in [ShopKeyKind.registration, .tax] {
                let ours = fp.strongKeys.filter { $0.kind == kind }
                let theirs = e.strong.keys.filter { $0.kind == kind }
                if !ours.isEmpty, !theirs.isEmpty, !ours.contains(where: { o in theirs.contains { Self.near(o, $0) } }) { conflict = true }
            }
            var header = 0.0, headerTeacher: ReceiptID?
            for (t, r) in e.headers {
                let l = mine.likeness(t)
                if l > header || (l == header && r > (headerTeacher ?? r)) { header = l; headerTeacher = r }
            }
            return Comparison(shop: e.id, name: e.name, shared: shared, conflict: conflict, header: header,
                              headerTeacher: headerTeacher, keyTeacher: keyTeacher)
        }.sorted { ($0.shared.filter(\.kind.isStrong).count, $0.header) > ($1.shared.filter(\.kind.isStrong).count, $1.header) }
    }

    /// The shop this receipt comes from, if the directory knows it. `name` is the vendor as the
    /// parser read it: between shops whose headers are alike (a chain's branches print one
    /// address), the one whose name the receipt prints is preferred.
    public func match(_ fp: Fingerprint, name: String? = nil) -> Match? {
        guard !entries.isEmpty else { return nil }
        let printed = Trigrams(ShopName.key(name ?? ""))
        func rank(_ c: Comparison) -> Double { c.header + Self.nameWeight * printed.likeness(byID[c.shop]?.nameTrigrams ?? Trigrams(ShopName.key(c.name))) }
        let all = compare(fp).filter { !$0.conflict }
        func rounded(_ x: Double) -> Double { (x * 100).rounded() / 100 }
        if let best = all.first(where: { $0.shared.contains { $0.kind.isStrong } }), let teacher = best.keyTeacher, let e = byID[best.shop] {
            let note = ShopMatch(shop: best.shop.rawValue, name: best.name, keys: best.shared, header: best.header > 0 ? rounded(best.header) : nil,
                                 teacher: teacher.rawValue)
            return Match(shop: best.shop, name: best.name, note: note, confidence: Self.strongConfidence, strong: true, habits: e.habits, years: e.years)
        }
        // A key taught to several shops (one company under two names, a chain's head office): the one of
        // them whose name the receipt prints, when it prints one of theirs clearly.
        let shared = fp.strongKeys.filter { ambiguous.contains($0) }
        if !shared.isEmpty {
            let owners = entries.filter { e in shared.contains { k in e.strong.keys.contains { Self.same($0, k) } } }
                .map { e in (e, printed.likeness(e.nameTrigrams)) }.sorted { $0.1 > $1.1 }
            if let (e, likeness) = owners.first, likeness >= Self.sameName, owners.dropFirst().allSatisfy({ $0.1 <= likeness - Self.nameMargin }),
               let c = all.first(where: { $0.shop == e.id }) {
                let keys = shared.compactMap { k in e.strong.keys.first { Self.same($0, k) } }
                let teacher = keys.compactMap { e.strong[$0] }.max() ?? e.latest
                let note = ShopMatch(shop: e.id.rawValue, name: e.name, keys: keys + c.shared.filter { !$0.kind.isStrong },
                                     header: c.header > 0 ? rounded(c.header) : nil, teacher: teacher.rawValue)
                return Match(shop: e.id, name: e.name, note: note, confidence: Self.strongConfidence, strong: true, habits: e.habits, years: e.years)
            }
        }
        let byHeader = all.filter { $0.header >= Self.headerThreshold }.sorted { rank($0) > rank($1) }
        guard let best = byHeader.first, let teacher = best.headerTeacher, let e = byID[best.shop] else { return nil }
        if byHeader.count > 1, rank(byHeader[1]) > rank(best) - Self.headerMargin { return nil }
        let note = ShopMatch(shop: best.shop.rawValue, name: best.name, keys: best.shared, header: rounded(best.header), teacher: teacher.rawValue)
        let t = (best.header - Self.headerThreshold) / (1 - Self.headerThreshold)
        let confidence = Self.headerConfidence + (Self.strongConfidence - Self.headerConfidence) * max(0, min(1, t))
        return Match(shop: best.shop, name: best.name, note: note, confidence: confidence, strong: false, habits: e.habits, years: e.years)
    }

    /// Two strong keys name the same thing: equal, or (eight characters and more) one OCR slip apart.
    static func same(_ a: ShopKey, _ b: ShopKey) -> Bool {
        guard a.kind == b.kind else { return false }
        if a.value == b.value { return true }
        return a.value.count >= 8 && a.value.count == b.value.count && zip(a.value, b.value).filter { $0 != $1 }.count == 1
    }

    /// Near enough not to be another number: two slips apart at most.
    static func near(_ a: ShopKey, _ b: ShopKey) -> Bool {
        a.kind == b.kind && EditDistance.levenshtein(Array(a.value), Array(b.value), limit: 2) <= 2
    }
}
