import Foundation
import ReceiptModel
import ReceiptStore
import Testing

/// The link-writing rules on their own: current links + proposals in, steps out. No store.
@Suite("Link write plan")
struct LinkWritePlanTests {
    typealias Step = LinkWritePlan.Step

    func link(_ id: Int64, r: Int64, i: Int64, _ status: LinkStatus = .proposed) -> LinkWritePlan.CurrentLink {
        .init(id: LinkID(id), receiptID: ReceiptID(r), itemID: ItemID(i), status: status)
    }

    func proposal(r: Int64, i: Int64, score: Double = 0.8, auto: Bool = false) -> LinkProposal {
        LinkProposal(receiptID: ReceiptID(r), itemID: ItemID(i), score: score, reasons: ["r\(r) i\(i)"], autoConfirm: auto)
    }

    func plan(_ links: [LinkWritePlan.CurrentLink] = [], current: [DuplicateMark] = [], _ proposals: [LinkProposal] = [],
              duplicates: [DuplicateMark] = []) -> LinkWritePlan {
        LinkWritePlan(links: links, currentDuplicates: current, proposals: proposals, duplicates: duplicates)
    }

    @Test("new pairs are inserted, proposed pairs refreshed, proposals no longer made withdrawn (last)")
    func insertRefreshWithdraw() {
        let p1 = proposal(r: 1, i: 10), p2 = proposal(r: 2, i: 20, score: 0.7)
        let plan = plan([link(5, r: 1, i: 10), link(6, r: 3, i: 30)], [p1, p2])
        #expect(plan.steps == [.refresh(LinkID(5), p1), .insert(p2), .withdraw(LinkID(6))])
        var s = ReconcileWriteSummary()
        s.refreshed = 1; s.proposed = 1; s.withdrawn = 1
        #expect(plan.summary == s)
    }

    @Test("a pair the user confirmed or rejected is kept as decided: nothing written, nothing withdrawn")
    func userDecisionsAreKept() {
        let links = [link(1, r: 1, i: 10, .confirmed), link(2, r: 2, i: 20, .rejected), link(3, r: 3, i: 30, .rejected)]
        let plan = plan(links, [proposal(r: 1, i: 10, auto: true), proposal(r: 2, i: 20)])
        #expect(plan.steps == [.keepDecision(LinkID(1)), .keepDecision(LinkID(2))])
        #expect(plan.steps.allSatisfy { !$0.writes })
        #expect(plan.summary.keptDecisions == 2 && plan.summary.withdrawn == 0)
    }

    @Test("an item with a confirmed receipt gets no new proposal, and its open proposal is withdrawn")
    func confirmedItemIsLeftAlone() {
        let links = [link(1, r: 1, i: 10, .confirmed), link(2, r: 2, i: 10)]
        let onOther = proposal(r: 2, i: 10), onNew = proposal(r: 3, i: 10)
        let plan = plan(links, [onOther, onNew])
        #expect(plan.steps == [.skipConfirmedItem(onOther), .skipConfirmedItem(onNew), .withdraw(LinkID(2))])
        #expect(plan.summary.skippedConfirmedItems == 2 && plan.summary.withdrawn == 1)
    }

    @Test("auto-confirm: a proposed pair is confirmed, a new pair inserted confirmed; later proposals for that item are skipped")
    func autoConfirm() {
        let a = proposal(r: 1, i: 10, score: 0.95, auto: true), b = proposal(r: 2, i: 10)
        let c = proposal(r: 3, i: 30, auto: true), d = proposal(r: 4, i: 30)
        let plan = plan([link(7, r: 1, i: 10), link(8, r: 2, i: 10)], [a, b, c, d])
        #expect(plan.steps == [.autoConfirm(LinkID(7), a), .skipConfirmedItem(b), .insert(c), .skipConfirmedItem(d), .withdraw(LinkID(8))])
        #expect(plan.summary.autoConfirmed == 2 && plan.summary.proposed == 0 && plan.summary.skippedConfirmedItems == 2)
    }

    @Test("duplicates: new and changed marks set, unchanged left, stale cleared; a copy loses its proposals, not its decisions")
    func duplicates() {
        let same = DuplicateMark(id: ReceiptID(2), original: ReceiptID(1), reason: "same")
        let changed = DuplicateMark(id: ReceiptID(3), original: ReceiptID(1), reason: "now another reason")
        let stale = DuplicateMark(id: ReceiptID(4), original: ReceiptID(1), reason: "was a copy")
        let new = DuplicateMark(id: ReceiptID(5), original: ReceiptID(1), reason: "new")
        let links = [link(1, r: 5, i: 10), link(2, r: 5, i: 20, .confirmed), link(3, r: 2, i: 30), link(4, r: 6, i: 40)]
        let plan = plan(links, current: [same, DuplicateMark(id: ReceiptID(3), original: ReceiptID(1), reason: "old"), stale],
                        [proposal(r: 6, i: 40)], duplicates: [same, changed, new])
        #expect(plan.steps == [
            .clearDuplicate(ReceiptID(4)), .markDuplicate(changed), .markDuplicate(new),
            .removeDuplicateProposal(LinkID(1)), .removeDuplicateProposal(LinkID(3)),
            .refresh(LinkID(4), proposal(r: 6, i: 40)),
        ])
        #expect(plan.summary.duplicatesMarked == 2 && plan.summary.duplicateLinksRemoved == 2 && plan.summary.withdrawn == 0)
    }

    @Test("a pair proposed twice is written once; nothing in, nothing out")
    func edges() {
        let p = proposal(r: 1, i: 10)
        #expect(plan([], [p, proposal(r: 1, i: 10, score: 0.9)]).steps == [.insert(p)])
        #expect(plan().steps.isEmpty && plan().summary == ReconcileWriteSummary())
    }
}
