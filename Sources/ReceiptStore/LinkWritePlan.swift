import ReceiptModel

/// The rules for writing one reconciliation, apart from any database: from the links and
/// duplicate marks as they are now and what the reconciler proposes, the writes to make.
/// An engine reads the current state inside its write transaction, makes the plan, and
/// applies the steps in order in that same transaction, so a decision the user made in
/// another process since the reconciler read the store is never overwritten.
///
/// The rules:
/// - Duplicate marks are set as proposed and cleared where no longer proposed; a duplicate
///   receipt loses its proposed links.
/// - A link the user decided (confirmed or rejected) is never changed.
/// - One row per receipt and item: a pair already proposed is refreshed (score, reasons,
///   line), or confirmed when the proposal says so.
/// - An item with a confirmed link gets no new proposal, and its open proposals are withdrawn.
/// - Earlier proposals this run no longer makes are withdrawn.
public struct LinkWritePlan: Sendable, Hashable {
    /// A link as it stands, for the plan: which pair, which state.
    public struct CurrentLink: Sendable, Hashable {
        public var id: LinkID
        public var receiptID: ReceiptID
        public var itemID: ItemID
        public var status: LinkStatus
        public init(id: LinkID, receiptID: ReceiptID, itemID: ItemID, status: LinkStatus) {
            self.id = id; self.receiptID = receiptID; self.itemID = itemID; self.status = status
        }
    }

    /// One step, in the order an engine applies them.
    public enum Step: Sendable, Hashable {
        /// Clear the duplicate mark of a receipt no longer found to be a copy.
        case clearDuplicate(ReceiptID)
        /// Mark (or re-mark with another original or reason) a receipt as a copy.
        case markDuplicate(DuplicateMark)
        /// Delete a proposed link of a receipt marked as a copy.
        case removeDuplicateProposal(LinkID)
        /// A new link: proposed, or confirmed by `auto` when `proposal.autoConfirm`.
        case insert(LinkProposal)
        /// Still proposed: new score, reasons, line and ambiguity.
        case refresh(LinkID, LinkProposal)
        /// Was proposed, now confirmed by `auto` (with the new score, reasons, line).
        case autoConfirm(LinkID, LinkProposal)
        /// The user confirmed or rejected this pair: nothing is written.
        case keepDecision(LinkID)
        /// The item has a confirmed link: this proposal is not written.
        case skipConfirmedItem(LinkProposal)
        /// Delete a proposed link this run does not make (or whose item is confirmed now).
        case withdraw(LinkID)

        /// Whether an engine has anything to write for this step.
        public var writes: Bool {
            switch self {
            case .keepDecision, .skipConfirmedItem: return false
            default: return true
            }
        }
    }

    public var steps: [Step]

    /// What the steps do, counted.
    public var summary: ReconcileWriteSummary {
        var s = ReconcileWriteSummary()
        for step in steps {
            switch step {
            case .clearDuplicate: break
            case .markDuplicate: s.duplicatesMarked += 1
            case .removeDuplicateProposal: s.duplicateLinksRemoved += 1
            case let .insert(p): if p.autoConfirm { s.autoConfirmed += 1 } else { s.proposed += 1 }
            case .refresh: s.refreshed += 1
            case .autoConfirm: s.autoConfirmed += 1
            case .keepDecision: s.keptDecisions += 1
            case .skipConfirmedItem: s.skippedConfirmedItems += 1
            case .withdraw: s.withdrawn += 1
            }
        }
        return s
    }

    /// The plan for writing `proposals` and `duplicates` over the store's current `links` and
    /// `currentDuplicates` (receipts marked as copies now). A pair proposed twice is written once.
    public init(links: [CurrentLink], currentDuplicates: [DuplicateMark], proposals: [LinkProposal], duplicates: [DuplicateMark]) {
        var steps = Self.duplicateSteps(current: currentDuplicates, wanted: duplicates)
        let marked = Set(duplicates.map(\.id))
        var remaining: [CurrentLink] = []
        for l in links {
            if marked.contains(l.receiptID), l.status == .proposed { steps.append(.removeDuplicateProposal(l.id)) } else { remaining.append(l) }
        }
        steps += Self.linkSteps(links: remaining, proposals: proposals)
        self.steps = steps
    }

    /// Clear marks no longer wanted, then set the wanted ones that differ from what is stored.
    static func duplicateSteps(current: [DuplicateMark], wanted: [DuplicateMark]) -> [Step] {
        let wantedIDs = Set(wanted.map(\.id))
        let now = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var steps: [Step] = current.filter { !wantedIDs.contains($0.id) }.map { .clearDuplicate($0.id) }
        for m in wanted where now[m.id].map({ $0.original != m.original || $0.reason != m.reason }) ?? true {
            steps.append(.markDuplicate(m))
        }
        return steps
    }

    /// Each proposal against the link of its pair (if any), then the withdrawals.
    static func linkSteps(links: [CurrentLink], proposals: [LinkProposal]) -> [Step] {
        struct Pair: Hashable { var receipt: ReceiptID; var item: ItemID }
        var byPair: [Pair: CurrentLink] = [:]
        var confirmedItems: Set<ItemID> = []
        for l in links {
            byPair[Pair(receipt: l.receiptID, item: l.itemID)] = l
            if l.status == .confirmed { confirmedItems.insert(l.itemID) }
        }
        var steps: [Step] = []
        var kept: Set<LinkID> = []
        var seen: Set<Pair> = []
        for p in proposals {
            let pair = Pair(receipt: p.receiptID, item: p.itemID)
            guard seen.insert(pair).inserted else { continue }
            if let l = byPair[pair] {
                if l.status != .proposed { steps.append(.keepDecision(l.id)); kept.insert(l.id); continue }
                if confirmedItems.contains(p.itemID) { steps.append(.skipConfirmedItem(p)); continue }
                kept.insert(l.id)
                if p.autoConfirm {
                    steps.append(.autoConfirm(l.id, p))
                    confirmedItems.insert(p.itemID)
                } else {
                    steps.append(.refresh(l.id, p))
                }
            } else {
                if confirmedItems.contains(p.itemID) { steps.append(.skipConfirmedItem(p)); continue }
                steps.append(.insert(p))
                if p.autoConfirm { confirmedItems.insert(p.itemID) }
            }
        }
        // In link order (the store's id order), as the rows were read.
        for l in links where l.status == .proposed && !kept.contains(l.id) { steps.append(.withdraw(l.id)) }
        return steps
    }
}
