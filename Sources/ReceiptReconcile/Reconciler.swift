import Foundation
import ReceiptModel
import ReceiptStore

/// How the reconciler scores and decides. The defaults are what `receipts reconcile` uses.
public struct ReconcileOptions: Sendable {
    /// Dates this many days apart still count as "the same purchase" (full score at 0 days,
    /// half at the edge). Candidates come from the amount index, and from this window.
    public var dateWindowDays = 3
    /// Beyond this gap a receipt is not a candidate even when the amount matches.
    public var maxDateGapDays = 45
    /// Relative amount tolerance (0.01 = 1 %) …
    public var amountTolerance: Decimal = Decimal(string: "0.01")!
    /// … but never tighter than this (absolute).
    public var amountToleranceMinimum = Amount("0.05")!
    /// Proposals below this score are not made.
    public var proposeThreshold = 0.6
    /// Confirm links automatically when the score is at least `autoConfirmThreshold` and no
    /// other candidate comes within `ambiguityMargin`. Off unless asked for.
    public var autoConfirm = false
    public var autoConfirmThreshold = 0.9
    /// A runner-up within this much of the best makes the match ambiguous.
    public var ambiguityMargin = 0.1
    /// At most this many proposals per item (the best and ambiguous runners-up).
    public var maxProposalsPerItem = 3

    public init() {}

    /// Weights of the four signals. Amount and date always count; vendor and line text
    /// count when both sides have them (so a receipt without line items is not punished).
    static let wAmount = 0.45, wDate = 0.25, wVendor = 0.15, wText = 0.15
}

/// What one reconciliation decided: the links to propose and the duplicates to mark, before they are written.
public struct ReconcilePlan: Sendable {
    public struct Stats: Sendable, Equatable {
        public var receipts = 0
        public var items = 0
        /// Items that already have a confirmed receipt: left alone.
        public var itemsAlreadyConfirmed = 0
        /// Items with neither price nor date: nothing to search by.
        public var itemsWithoutPriceOrDate = 0
        public var candidatesScored = 0
        public var itemsMatched = 0
        public var ambiguousItems = 0
        public var duplicateReceipts = 0
    }
    public var proposals: [LinkProposal]
    public var duplicates: [DuplicateMark]
    public var stats: Stats
}

/// What `Reconciler.run` did, with timings.
public struct ReconcileRun: Sendable {
    public var plan: ReconcilePlan
    public var written: ReconcileWriteSummary
    public var loadSeconds: Double
    public var planSeconds: Double
    public var writeSeconds: Double
    public var totalSeconds: Double { loadSeconds + planSeconds + writeSeconds }
}

/// Proposes links between receipts and inventory items, with reasons in words:
///
///     let run = try Reconciler().run(store: store)
///     for p in run.plan.proposals { print(p.receiptID, p.itemID, p.score, p.reasons) }
///
/// A user's decisions (a confirmed or rejected link) are never changed; proposals the data no
/// longer supports are withdrawn; two photos of one purchase are marked as duplicates, not linked twice.
///
/// Candidates are found through indexes, not by comparing every receipt with every item:
/// a sorted array of every amount a receipt shows (total, subtotal, each line, each line's
/// unit price, each line with the receipt's tax added or removed) searched by binary search
/// around the item's price, and receipts sorted by date searched around the item's date.
public struct Reconciler: Sendable {
    public var options: ReconcileOptions
    public init(options: ReconcileOptions = ReconcileOptions()) { self.options = options }

    /// Reads the store, plans, writes the plan. One read snapshot, one write transaction.
    public func run(store: any ReceiptStore) throws -> ReconcileRun {
        let t0 = Date()
        let input = try store.reconcileInput()
        let t1 = Date()
        let plan = self.plan(receipts: input.receipts, items: input.items, links: input.links)
        let t2 = Date()
        let written = try store.applyReconciliation(plan.proposals, duplicates: plan.duplicates)
        let t3 = Date()
        return ReconcileRun(plan: plan, written: written, loadSeconds: t1.timeIntervalSince(t0),
                            planSeconds: t2.timeIntervalSince(t1), writeSeconds: t3.timeIntervalSince(t2))
    }

    // MARK: - Planning

    enum TargetKind: UInt8 { case total, subtotal, line, lineEach, lineWithTax, lineWithoutTax }

    struct AmountTarget {
        var cents: Int64
        var receipt: Int32
        var line: Int32  // -1: the receipt as a whole
        var kind: TargetKind
        var baseCents: Int64 = 0  // what the tax was added to / taken from (then `cents` is derived from it)
    }

    /// Classes, not structs: handed around millions of times, a reference costs one retain.
    final class PreparedReceipt {
        var s: ReceiptSummary
        var day: Int?
        var vendor: Int32  // interned vendor tokens, -1 when none
        var lineTokens: [[Int32]]
        /// Tax on top: (tax, net) in cents; the rate is tax / net.
        var addedTax: (Int64, Int64)?
        /// VAT included: (tax, net) in cents.
        var includedTax: (Int64, Int64)?
        var excluded = false  // a duplicate of another receipt
        // Amounts in cents, computed once (Decimal arithmetic is slow).
        let totalCents: Int64?
        let subtotalCents: Int64?
        let taxCents: Int64?
        let lineCents: [Int64]
        let unitCents: [Int64?]
        /// Each line's serial numbers as compared (`TextMatch.serialKey`).
        let lineSerials: [[String]]
        init(s: ReceiptSummary, day: Int?, vendor: Int32, lineTokens: [[Int32]]) {
            self.s = s; self.day = day; self.vendor = vendor; self.lineTokens = lineTokens
            totalCents = s.total?.cents; subtotalCents = s.subtotal?.cents; taxCents = s.tax?.cents
            lineCents = s.lines.map(\.amount.cents); unitCents = s.lines.map { $0.unitPrice?.cents }
            lineSerials = s.lines.map { $0.serials.compactMap(TextMatch.serialKey) }
        }
    }

    final class PreparedItem {
        let s: StoredItem
        let cents: Int64?
        let day: Int?
        let vendor: Int32
        let tokens: [Int32]
        /// The item's serial number as compared (`TextMatch.serialKey`).
        let serial: String?
        init(s: StoredItem, cents: Int64?, day: Int?, vendor: Int32, tokens: [Int32]) {
            self.s = s; self.cents = cents; self.day = day; self.vendor = vendor; self.tokens = tokens
            serial = s.item.serial.flatMap(TextMatch.serialKey)
        }
    }

    struct Candidate {
        var item: Int
        var receipt: Int
        var line: Int?
        var score: Double
        var evidence: Evidence
    }

    /// Vendors interned by their significant words, similarities cached per pair.
    final class VendorTable {
        let words: Vocabulary
        var ids: [[Int32]: Int32] = [:]
        var tokens: [[Int32]] = []
        var cache: [Int64: Double] = [:]
        init(words: Vocabulary) { self.words = words }
        func intern(_ s: String?) -> Int32 {
            guard let s else { return -1 }
            let t = TextMatch.vendorTokens(s).map(words.intern)
            if t.isEmpty { return -1 }
            if let id = ids[t] { return id }
            let id = Int32(tokens.count)
            ids[t] = id; tokens.append(t)
            return id
        }
        func similarity(_ a: Int32, _ b: Int32) -> Double {
            if a < 0 || b < 0 { return 0 }
            if a == b { return 1 }
            let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
            if let v = cache[key] { return v }
            let v = words.vendorSimilarity(tokens[Int(a)], tokens[Int(b)])
            cache[key] = v
            return v
        }
    }

    /// Plans one reconciliation: duplicates to mark and links to propose, with reasons.
    /// Steps: prepare the receipts, find duplicates, index the rest by amount and date, read
    /// the user's decisions, search candidates for each item, assign receipt lines to items,
    /// write the proposals.
    public func plan(receipts: [ReceiptSummary], items: [StoredItem], links: [Link]) -> ReconcilePlan {
        var stats = ReconcilePlan.Stats()
        stats.receipts = receipts.count
        stats.items = items.count
        let vendors = VendorTable(words: Vocabulary())
        let rs = prepare(receipts, vendors: vendors)

        // Same purchase photographed twice: flag, do not link twice.
        let duplicates = findDuplicates(rs, vendors: vendors)
        let dupIDs = Set(duplicates.map(\.id))
        for r in rs where dupIDs.contains(r.s.id) { r.excluded = true }
        stats.duplicateReceipts = duplicates.count

        let index = CandidateIndex(rs)
        let decisions = UserDecisions(links, receipts: rs)
        let its = prepare(items, vendors: vendors)
        let tolerance = (basis: Int64(truncating: (options.amountTolerance * 10_000) as NSDecimalNumber), minimum: options.amountToleranceMinimum.cents)
        let perItem = its.indices.map { candidates(for: $0, its, rs, index, decisions, vendors, tolerance, &stats) }
        let assignment = assign(perItem, its, rs, slotUse: decisions.slotUse)
        let proposals = self.proposals(assignment, perItem: perItem, its, rs, &stats)
        return ReconcilePlan(proposals: proposals, duplicates: duplicates, stats: stats)
    }

    /// Receipts with interned vendor and line words, amounts in cents and tax rates.
    func prepare(_ receipts: [ReceiptSummary], vendors: VendorTable) -> [PreparedReceipt] {
        let rs = receipts.map { r in
            PreparedReceipt(s: r, day: r.date?.dayNumber, vendor: vendors.intern(r.vendor),
                            lineTokens: r.lines.map { TextMatch.itemTokens($0.description).map(vendors.words.intern) })
        }
        for r in rs { Self.taxRates(r) }
        return rs
    }

    /// Items with interned vendor and name words (name, brand and model), price in cents.
    func prepare(_ items: [StoredItem], vendors: VendorTable) -> [PreparedItem] {
        items.map { s in
            PreparedItem(s: s, cents: s.item.price?.cents, day: s.item.purchaseDate?.dayNumber, vendor: vendors.intern(s.item.vendor),
                         tokens: TextMatch.itemTokens([s.item.name, s.item.brand ?? "", s.item.model ?? ""].joined(separator: " ")).map(vendors.words.intern))
        }
    }

    /// The two indexes candidates are looked up in: every amount a receipt shows, sorted, and
    /// the receipts sorted by day. Duplicates are left out.
    struct CandidateIndex {
        var targets: [AmountTarget] = []
        var byDay: [(day: Int, receipt: Int)]
        /// The receipts that print each serial number under a line.
        var bySerial: [String: [Int]] = [:]

        init(_ rs: [PreparedReceipt]) {
            targets.reserveCapacity(rs.count * 6)
            for (ri, r) in rs.enumerated() where !r.excluded { Self.addAmounts(of: r, Int32(ri), to: &targets) }
            for (ri, r) in rs.enumerated() where !r.excluded {
                for key in Set(r.lineSerials.joined()) { bySerial[key, default: []].append(ri) }
            }
            targets.sort { $0.cents < $1.cents }
            byDay = rs.enumerated().compactMap { i, r in r.excluded ? nil : r.day.map { ($0, i) } }.sorted { $0.day < $1.day }
        }

        /// Total, subtotal, each line, one piece of each line, and those with the tax added or the VAT taken out.
        static func addAmounts(of r: PreparedReceipt, _ rIdx: Int32, to targets: inout [AmountTarget]) {
            if let t = r.totalCents { targets.append(AmountTarget(cents: t, receipt: rIdx, line: -1, kind: .total)) }
            if let s = r.subtotalCents, s != r.totalCents { targets.append(AmountTarget(cents: s, receipt: rIdx, line: -1, kind: .subtotal)) }
            for li in r.lineCents.indices {
                let lIdx = Int32(li), amount = r.lineCents[li]
                targets.append(AmountTarget(cents: amount, receipt: rIdx, line: lIdx, kind: .line))
                var bases = [amount]
                if let u = r.unitCents[li], u != amount {
                    targets.append(AmountTarget(cents: u, receipt: rIdx, line: lIdx, kind: .lineEach))
                    bases.append(u)
                }
                // The line (and, for several pieces, one piece) with the tax added or the VAT taken out:
                // exact rational arithmetic in cents, rounded half up: base × (net + tax) / net.
                for base in bases {
                    if let (tax, net) = r.addedTax {
                        targets.append(AmountTarget(cents: Reconciler.mulDiv(base, net + tax, net), receipt: rIdx, line: lIdx, kind: .lineWithTax, baseCents: base))
                    }
                    if let (tax, net) = r.includedTax {
                        targets.append(AmountTarget(cents: Reconciler.mulDiv(base, net, net + tax), receipt: rIdx, line: lIdx, kind: .lineWithoutTax, baseCents: base))
                    }
                }
            }
        }
    }

    /// What the user already decided: items with a confirmed receipt, rejected pairs, and the
    /// receipt lines confirmed links already use.
    struct UserDecisions {
        var confirmedItems: Set<ItemID> = []
        var rejected: Set<PairKey> = []
        var slotUse: [SlotKey: [Candidate]] = [:]

        init(_ links: [Link], receipts rs: [PreparedReceipt]) {
            let receiptIndex = Dictionary(uniqueKeysWithValues: rs.enumerated().map { ($1.s.id, $0) })
            for l in links {
                switch l.status {
                case .confirmed:
                    confirmedItems.insert(l.itemID)
                    if let ri = receiptIndex[l.receiptID] {
                        slotUse[SlotKey(receipt: ri, line: l.linePosition ?? -1), default: []]
                            .append(Candidate(item: -1, receipt: ri, line: l.linePosition, score: 2, evidence: Evidence()))
                    }
                case .rejected: rejected.insert(PairKey(item: l.itemID, receipt: l.receiptID))
                case .proposed: break
                }
            }
        }
    }

    /// The receipts worth proposing for item `ii`, best first (one candidate per receipt):
    /// those with an amount near its price (not too many days apart), and those of the same
    /// shop within the date window.
    func candidates(for ii: Int, _ its: [PreparedItem], _ rs: [PreparedReceipt], _ index: CandidateIndex, _ decisions: UserDecisions,
                    _ vendors: VendorTable, _ tolerance: (basis: Int64, minimum: Int64), _ stats: inout ReconcilePlan.Stats) -> [Candidate] {
        let item = its[ii]
        if decisions.confirmedItems.contains(item.s.id) { stats.itemsAlreadyConfirmed += 1; return [] }
        if item.cents == nil && item.day == nil { stats.itemsWithoutPriceOrDate += 1; return [] }
        let tolBasis = tolerance.basis, minTol = tolerance.minimum
        var best: [Int: Candidate] = [:]
        func consider(_ ri: Int, _ target: AmountTarget?, printsSerial: Bool = false) {
            let r = rs[ri]
            if decisions.rejected.contains(PairKey(item: item.s.id, receipt: r.s.id)) { return }
            // Another currency makes the amounts no evidence, and the pair no candidate, unless the receipt
            // prints the item's serial number (a unit bought abroad, or listed at its price at home).
            if !printsSerial, !Self.amountsComparable(item.s.item.currency, r.s.currency) { return }
            stats.candidatesScored += 1
            guard let c = score(item: item, ii: ii, receipt: r, ri: ri, target: target, vendors: vendors, toleranceBasis: tolBasis, minimumTolerance: minTol) else { return }
            if c.score >= options.proposeThreshold, c.score > (best[ri]?.score ?? -1) { best[ri] = c }
        }
        let targets = index.targets, byDay = index.byDay
        if let p = item.cents {
            let tol = max(minTol, p * tolBasis / 10_000)
            var lo = Self.lowerBound(targets, p - tol)
            while lo < targets.count && targets[lo].cents <= p + tol {
                let t = targets[lo]
                lo += 1
                let ri = Int(t.receipt)
                if let d = item.day, let rd = rs[ri].day, abs(d - rd) > options.maxDateGapDays { continue }
                consider(ri, t)
            }
        }
        if let d = item.day {
            var lo = Self.lowerBoundDay(byDay, d - options.dateWindowDays)
            while lo < byDay.count && byDay[lo].day <= d + options.dateWindowDays {
                let ri = byDay[lo].receipt
                lo += 1
                if best[ri] != nil { continue }
                // Without an amount, only the same shop makes it worth scoring.
                if vendors.similarity(item.vendor, rs[ri].vendor) < 0.8 { continue }
                consider(ri, nil)
            }
        }
        // The receipts that print the item's serial number, whatever their amounts and dates say; and when one
        // does, the receipts that do not are no contenders: the serial names the unit sold.
        if let serial = item.serial, let printing = index.bySerial[serial] {
            for ri in printing where best[ri] == nil {
                // The serial's line's amounts (as printed, each, with the tax) nearest the price, if near enough:
                // the amount index left it out when the dates are further apart than a purchase's.
                var amounts: [AmountTarget] = []
                if let p = item.cents, Self.amountsComparable(item.s.item.currency, rs[ri].s.currency),
                   let sl = rs[ri].lineSerials.firstIndex(where: { $0.contains(serial) }) {
                    CandidateIndex.addAmounts(of: rs[ri], Int32(ri), to: &amounts)
                    let tol = max(minTol, p * tolBasis / 10_000)
                    amounts = amounts.filter { $0.line == Int32(sl) && abs($0.cents - p) <= tol }
                    amounts.sort { abs($0.cents - p) < abs($1.cents - p) }
                }
                consider(ri, amounts.first, printsSerial: true)
            }
            if best.values.contains(where: { $0.evidence.serial != nil }) {
                best = best.filter { $0.value.evidence.serial != nil }
            }
        }
        return best.values.sorted { $0.score != $1.score ? $0.score > $1.score : rs[$0.receipt].s.id < rs[$1.receipt].s.id }
    }

    /// Which item gets which receipt (line), and the contenders that make an item ambiguous.
    struct Assignment {
        var assigned: [Int: Candidate] = [:]
        var extra: [Int: [Candidate]] = [:]
        var ambiguousNote: [Int: [String]] = [:]
    }

    /// Best pairs first; a line backs as many items as its quantity, a whole receipt one.
    /// Two items wanting the same line about equally are both shown, neither decided; runners-up
    /// on other receipts within the margin make an item ambiguous.
    func assign(_ perItem: [[Candidate]], _ its: [PreparedItem], _ rs: [PreparedReceipt], slotUse confirmedSlots: [SlotKey: [Candidate]]) -> Assignment {
        var all = perItem.flatMap { $0 }
        all.sort {
            if $0.score != $1.score { return $0.score > $1.score }
            if its[$0.item].s.id != its[$1.item].s.id { return its[$0.item].s.id < its[$1.item].s.id }
            return rs[$0.receipt].s.id < rs[$1.receipt].s.id
        }
        var out = Assignment()
        var slotUse = confirmedSlots
        for c in all {
            if out.assigned[c.item] != nil { continue }
            let slot = SlotKey(receipt: c.receipt, line: c.line ?? -1)
            let used = slotUse[slot] ?? []
            if used.count < capacity(slot, rs) {
                out.assigned[c.item] = c
                slotUse[slot, default: []].append(c)
            } else if let rival = used.first(where: { $0.item >= 0 && $0.score - c.score <= options.ambiguityMargin }) {
                // Two items want the same line about equally: show both, decide nothing.
                let what = c.line.map { "line \($0 + 1)" } ?? "receipt"
                out.extra[c.item, default: []].append(c)
                out.ambiguousNote[c.item, default: []].append("ambiguous: \(Self.label(item: rival.item, its)) matches the same \(what) (score \(Self.f2(rival.score)))")
                out.ambiguousNote[rival.item, default: []].append("ambiguous: \(Self.label(item: c.item, its)) matches the same \(what) (score \(Self.f2(c.score)))")
            }
        }
        // Runners-up on other receipts within the margin make an item ambiguous.
        for (ii, b) in out.assigned {
            for c in perItem[ii] where c.receipt != b.receipt && b.score - c.score <= options.ambiguityMargin {
                out.extra[ii, default: []].append(c)
            }
        }
        return out
    }

    /// The proposals of each item: its assigned receipt and contenders (at most
    /// `maxProposalsPerItem`, best first), each with its reasons and the others named.
    func proposals(_ a: Assignment, perItem: [[Candidate]], _ its: [PreparedItem], _ rs: [PreparedReceipt],
                   _ stats: inout ReconcilePlan.Stats) -> [LinkProposal] {
        var proposals: [LinkProposal] = []
        for ii in its.indices {
            var mine: [Candidate] = []
            if let b = a.assigned[ii] { mine.append(b) }
            for c in a.extra[ii] ?? [] where !mine.contains(where: { $0.receipt == c.receipt }) { mine.append(c) }
            if mine.isEmpty { continue }
            mine.sort { $0.score > $1.score }
            mine = Array(mine.prefix(options.maxProposalsPerItem))
            let notes = a.ambiguousNote[ii] ?? []
            let ambiguous = !notes.isEmpty || mine.count > 1
            stats.itemsMatched += 1
            if ambiguous { stats.ambiguousItems += 1 }
            for c in mine {
                var reasons = explain(c, item: its[ii], receipt: rs[c.receipt])
                // Each proposal names the other contenders.
                for o in mine where o.receipt != c.receipt {
                    reasons.append("ambiguous: \(Self.label(receipt: o.receipt, rs)) scores \(Self.f2(o.score)) too")
                }
                reasons += notes
                let auto = options.autoConfirm && !ambiguous && c.score >= options.autoConfirmThreshold
                proposals.append(LinkProposal(receiptID: rs[c.receipt].s.id, itemID: its[ii].s.id, linePosition: c.line,
                                              score: (c.score * 1000).rounded() / 1000, reasons: reasons, ambiguous: ambiguous, autoConfirm: auto))
            }
        }
        return proposals
    }

    static func label(receipt ri: Int, _ rs: [PreparedReceipt]) -> String {
        let r = rs[ri].s
        return "receipt \(r.id)" + (r.sourcePath.map { " (\(($0 as NSString).lastPathComponent))" } ?? "")
    }

    static func label(item ii: Int, _ its: [PreparedItem]) -> String { "item \(its[ii].s.id) '\(its[ii].s.item.name)'" }

    /// Vendor similarity from which the vendor counts as agreeing. Below it fall other
    /// branches of a chain ("Brightwave Electronics Boston" / "… Dover" ≈ 0.76).
    static let vendorAgrees = 0.8

    /// Currencies written with the same sign: a receipt's "$" read as USD may be CAD.
    static let dollarCurrencies: Set<String> = ["USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN"]
    static func sameSign(_ a: String, _ b: String) -> Bool { dollarCurrencies.contains(a) && dollarCurrencies.contains(b) }

    /// Whether an item's price and a receipt's amounts can be compared: the same currency, or both written "$",
    /// or one of them not known.
    static func amountsComparable(_ item: String?, _ receipt: String?) -> Bool {
        guard let a = item, let b = receipt, a != b else { return true }
        return sameSign(a, b)
    }

    struct PairKey: Hashable { var item: ItemID; var receipt: ReceiptID }
    struct SlotKey: Hashable { var receipt: Int; var line: Int }

    func capacity(_ slot: SlotKey, _ rs: [PreparedReceipt]) -> Int {
        guard slot.line >= 0, slot.line < rs[slot.receipt].s.lines.count else { return 1 }
        let q = rs[slot.receipt].s.lines[slot.line].quantity ?? 1
        return max(1, min(100, Int(truncating: q as NSDecimalNumber)))
    }

    // MARK: scoring

    /// The numbers behind one candidate; the words are written only for the proposals kept.
    struct Evidence {
        var target: AmountTarget?
        var amountDiff: Int64 = 0
        var amountScore = 0.0
        var gap: Int?
        var vendorSim: Double?
        var textSim: Double?
        var textLine = -1
        /// The item's serial number as the receipt prints it under line `line`.
        var serial: String?
    }

    /// Scores one item against one receipt (through `target`, the receipt amount that is near
    /// the item's price, if any). Nil when the pair is not a candidate: dates too far apart, or
    /// too few signals agree: an exact amount needs one more of date (within the window),
    /// vendor, line text; a near amount two; no amount all three; and more of those three must
    /// agree than contradict (vendor clearly another shop, line text unrelated, > 14 days apart).
    func score(item: PreparedItem, ii: Int, receipt r: PreparedReceipt, ri: Int, target: AmountTarget?, vendors: VendorTable,
               toleranceBasis: Int64, minimumTolerance: Int64) -> Candidate? {
        // The line that prints the item's serial number decides the pair: the amount found on another line
        // is not this item's, and dates, vendor and words no longer need to agree.
        var serialLine: Int?
        if let serial = item.serial, let li = r.lineSerials.firstIndex(where: { $0.contains(serial) }) { serialLine = li }
        let target = serialLine.map { sl in target.flatMap { $0.line == Int32(sl) ? $0 : nil } } ?? target
        var e = Evidence(target: target)
        var got = 0.0, weight = ReconcileOptions.wAmount + ReconcileOptions.wDate
        var line: Int? = serialLine ?? target.flatMap { $0.line >= 0 ? Int($0.line) : nil }
        if line == nil, r.s.lines.count == 1, target?.kind == .total || target?.kind == .subtotal { line = 0 }
        if let sl = serialLine {
            let printed = r.s.lines[sl].serials
            e.serial = printed.first { TextMatch.serialKey($0) == item.serial } ?? printed.first
        }

        var amountExact = false, amountNear = false
        if let t = target, let p = item.cents {
            let diff = abs(p - t.cents)
            let tol = max(minimumTolerance, p * toleranceBasis / 10_000)
            let derived = t.kind == .lineWithTax || t.kind == .lineWithoutTax
            if diff == 0 { e.amountScore = derived ? 0.95 : 1; amountExact = true }
            else if derived && diff <= 2 { e.amountScore = 0.93; amountExact = true }
            // Near is weaker than exact however close: 0.8 for a cent, 0.5 at the tolerance.
            else { e.amountScore = max(0.5, 0.8 - 0.3 * Double(diff) / Double(max(tol, 1))); amountNear = true }
            e.amountDiff = diff
            got += ReconcileOptions.wAmount * e.amountScore
        }

        var agree = 0, against = 0
        if let d = item.day, let rd = r.day {
            let gap = abs(d - rd)
            if gap > options.maxDateGapDays && serialLine == nil { return nil }
            let w = max(1, options.dateWindowDays)
            let s: Double
            if gap == 0 { s = 1 }
            else if gap <= w { s = 1 - 0.5 * Double(gap) / Double(w) }
            else { s = max(0, 0.4 - 0.4 * Double(gap - w) / Double(max(1, options.maxDateGapDays - w))) }
            got += ReconcileOptions.wDate * s
            e.gap = gap
            if gap <= options.dateWindowDays { agree += 1 } else if gap > 14 { against += 1 }
        }
        if item.vendor >= 0, r.vendor >= 0 {
            let s = vendors.similarity(item.vendor, r.vendor)
            weight += ReconcileOptions.wVendor
            got += ReconcileOptions.wVendor * s
            e.vendorSim = s
            if s >= Self.vendorAgrees { agree += 1 } else if s < 0.5 { against += 1 }
        }
        let needed = amountExact ? 1 : amountNear ? 2 : 3
        if !r.s.lines.isEmpty, !item.tokens.isEmpty {
            weight += ReconcileOptions.wText
            // Even a perfect text match would not be enough: skip comparing the words.
            if serialLine == nil, agree + 1 < needed || agree + 1 <= against || (got + ReconcileOptions.wText) / weight < options.proposeThreshold { return nil }
            var bestLine = -1, bestSim = 0.0
            if let l = line {
                bestLine = l; bestSim = vendors.words.coverage(item.tokens, r.lineTokens[l])
            } else {
                for (li, toks) in r.lineTokens.enumerated() {
                    let s = vendors.words.coverage(item.tokens, toks)
                    if s > bestSim { bestSim = s; bestLine = li }
                }
                if bestSim >= 0.6 { line = bestLine }
            }
            got += ReconcileOptions.wText * bestSim
            e.textSim = bestSim; e.textLine = bestLine
            if bestSim >= 0.6 { agree += 1 } else if bestSim < 0.3 { against += 1 }
        }
        // Enough signals agree, and more agree than contradict (another shop, unrelated words,
        // weeks apart). A serial number printed for the item is enough alone.
        if serialLine != nil {
            return Candidate(item: ii, receipt: ri, line: line, score: max(got / weight, Self.serialScore), evidence: e)
        }
        // The line prints another unit's serial number.
        if item.serial != nil, let l = line, !r.lineSerials[l].isEmpty { return nil }
        guard agree >= needed, agree > against else { return nil }
        return Candidate(item: ii, receipt: ri, line: line, score: got / weight, evidence: e)
    }

    /// The score of a pair whose receipt prints the item's serial number, at least: above the auto-confirm threshold.
    static let serialScore = 0.99

    /// The reasons, in words, for one candidate.
    func explain(_ c: Candidate, item: PreparedItem, receipt r: PreparedReceipt) -> [String] {
        var reasons: [String] = []
        let e = c.evidence
        let i = item.s.item
        if let printed = e.serial, let l = c.line {
            reasons.append("serial \(printed) printed under line '\(r.s.lines[l].description)'" + (printed == i.serial ? "" : " (the item's: \(i.serial ?? ""))"))
        }
        if let t = e.target, let p = i.price {
            let derived = t.kind == .lineWithTax || t.kind == .lineWithoutTax
            let equal = e.amountDiff == 0 || derived && e.amountDiff <= 2
            let rel = equal ? "=" : "≈"
            let priceText = equal ? "price" : "price \(p) (\(Amount(cents: e.amountDiff)) apart)"
            let l = t.line >= 0 ? r.s.lines[Int(t.line)] : nil
            switch t.kind {
            case .total: reasons.append("total \(r.s.total!) \(rel) \(priceText)")
            case .subtotal: reasons.append("subtotal \(r.s.subtotal!) \(rel) \(priceText) (before tax; total \(r.s.total.map { "\($0)" } ?? "?"))")
            case .line: reasons.append("line '\(l!.description)' \(l!.amount) \(rel) \(priceText)")
            case .lineEach: reasons.append("line '\(l!.description)' \(l!.unitPrice!) each \(rel) \(priceText)")
            case .lineWithTax:
                reasons.append("line '\(l!.description)' \(Amount(cents: t.baseCents))\(t.baseCents == l!.amount.cents ? "" : " each") + \(Self.percent(r.addedTax!)) tax = \(Amount(cents: t.cents)) \(rel) \(priceText)")
            case .lineWithoutTax:
                reasons.append("line '\(l!.description)' \(Amount(cents: t.baseCents))\(t.baseCents == l!.amount.cents ? "" : " each") without \(Self.percent(r.includedTax!)) VAT = \(Amount(cents: t.cents)) \(rel) \(priceText)")
            }
        } else if let p = i.price, Self.amountsComparable(i.currency, r.s.currency) {
            reasons.append("price \(p) not on the receipt" + (r.s.total.map { " (total \($0))" } ?? ""))
        } else if i.price == nil {
            reasons.append("no price on the item")
        }
        if let a = i.currency, let b = r.s.currency, a != b {
            reasons.append("currency \(b) on the receipt, \(a) on the item" + (Self.sameSign(a, b) ? " (both written $)" : " (amounts not compared)"))
        }
        if let gap = e.gap {
            reasons.append(gap == 0 ? "same date \(r.s.date!.iso)" : "dates \(gap) day\(gap == 1 ? "" : "s") apart (\(i.purchaseDate!.iso) / \(r.s.date!.iso))")
        } else {
            reasons.append(item.day == nil ? "no purchase date on the item" : "no date on the receipt")
        }
        if let s = e.vendorSim, let a = r.s.vendor, let b = i.vendor {
            reasons.append(a == b ? "vendor '\(a)'" : s >= Self.vendorAgrees ? "vendor '\(a)' ~ '\(b)'" : "vendor '\(a)' ≠ '\(b)'")
        }
        if let s = e.textSim {
            if e.textLine >= 0, s >= 0.5 {
                reasons.append("line '\(r.s.lines[e.textLine].description)' ~ '\(i.name)'")
            } else if c.line != nil {
                reasons.append("line text does not resemble '\(i.name)'")
            }
        }
        return reasons
    }

    /// Tax added on top (US/CA: subtotal + tax = total, the lines are before tax) or included
    /// (EU: the lines sum to the total and the tax is the VAT inside it; also assumed when a
    /// receipt shows tax but no subtotal). Lines the parser missed do not change the answer.
    static func taxRates(_ r: PreparedReceipt) {
        guard let tax = r.taxCents, tax > 0, let total = r.totalCents, total > tax else { return }
        let lineSum = r.lineCents.reduce(0, +)
        let near = { (a: Int64, b: Int64) in abs(a - b) <= 5 }
        if let sub = r.subtotalCents, sub > 0, near(sub + tax, total) {
            if !r.lineCents.isEmpty && near(lineSum, total) { r.includedTax = (tax, sub) } else { r.addedTax = (tax, sub) }
        } else if r.subtotalCents == nil {
            r.includedTax = (tax, total - tax)
        }
    }

    // MARK: duplicates

    /// Two receipts are the same purchase when vendor (fuzzy), date, total and receipt number
    /// (or, when neither has a number, the time) agree. The oldest stored one is the original.
    func findDuplicates(_ rs: [PreparedReceipt], vendors: VendorTable) -> [DuplicateMark] {
        struct Key: Hashable { var day: Int; var cents: Int64; var ref: String }
        var groups: [Key: [Int]] = [:]
        for (i, r) in rs.enumerated() {
            guard let day = r.day, let total = r.totalCents, r.vendor >= 0 else { continue }
            let number = r.s.receiptNumber.map { String($0.uppercased().filter { $0.isLetter || $0.isNumber }) }.flatMap { $0.isEmpty ? nil : $0 }
            guard let ref = number.map({ "n:" + $0 }) ?? r.s.time.map({ "t:" + $0 }) else { continue }
            groups[Key(day: day, cents: total, ref: ref), default: []].append(i)
        }
        var marks: [DuplicateMark] = []
        for (key, members) in groups where members.count > 1 {
            let sorted = members.sorted { rs[$0].s.id < rs[$1].s.id }
            var originals: [Int] = []
            for m in sorted {
                if let o = originals.first(where: { vendors.similarity(rs[$0].vendor, rs[m].vendor) >= 0.8 }) {
                    let orig = rs[o].s, dup = rs[m].s
                    let what = key.ref.hasPrefix("n:") ? "receipt no. \(dup.receiptNumber!)" : "time \(dup.time!)"
                    let file = orig.sourcePath.map { " (\(($0 as NSString).lastPathComponent))" } ?? ""
                    marks.append(DuplicateMark(id: dup.id, original: orig.id,
                                               reason: "same vendor '\(dup.vendor!)', date \(dup.date!.iso), total \(dup.total!) and \(what) as receipt \(orig.id)\(file)"))
                } else {
                    originals.append(m)
                }
            }
        }
        return marks.sorted { $0.id < $1.id }
    }

    // MARK: helpers

    static func lowerBound(_ a: [AmountTarget], _ cents: Int64) -> Int {
        var lo = 0, hi = a.count
        while lo < hi { let mid = (lo + hi) / 2; if a[mid].cents < cents { lo = mid + 1 } else { hi = mid } }
        return lo
    }

    static func lowerBoundDay(_ a: [(day: Int, receipt: Int)], _ day: Int) -> Int {
        var lo = 0, hi = a.count
        while lo < hi { let mid = (lo + hi) / 2; if a[mid].day < day { lo = mid + 1 } else { hi = mid } }
        return lo
    }

    static func f2(_ x: Double) -> String { String(format: "%.2f", x) }

    /// a × b / c rounded half up (c > 0).
    static func mulDiv(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64 {
        let (hi, lo) = a.multipliedFullWidth(by: b)
        let (q, rem) = c.dividingFullWidth((hi, lo))
        return rem * 2 >= c ? q + 1 : q
    }

    /// "8.25%" for (tax, net) in cents.
    static func percent(_ taxNet: (Int64, Int64)) -> String {
        var v = Decimal(taxNet.0) * 100 / Decimal(taxNet.1), r = Decimal()
        NSDecimalRound(&r, &v, 2, .plain)
        var s = "\(r)"
        if s.contains(".") { while s.hasSuffix("0") { s.removeLast() }; if s.hasSuffix(".") { s.removeLast() } }
        return s + "%"
    }
}
