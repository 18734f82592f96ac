import Foundation
import ReceiptEval
import ReceiptModel
import ReceiptParser

/// `receipts-bench parse-text DIR…`: the parser alone, in this process, on the true text of labelled
/// sets (SROIE layout with `box/`, as `receipts eval --truth-text` reads them), without process start,
/// file reading or label loading in the figure. One thread, timed by its CPU time (not the wall clock,
/// which other work on the machine stretches): receipts per second is per core.
///
///   receipts-bench parse-text [--rounds N] [--goal R] [--slowest K] [--check] DIR…
///       Loads each set's receipts with their true text, parses each once to warm up, then times
///       `parse` over all of them N times (default 5). Prints per set the receipts, the seconds of
///       the timed rounds, receipts/s on one core, the median and slowest receipt (each receipt's
///       median over the rounds) and whether the goal (default 5,000/s) is met. --slowest K: the K
///       receipts that took longest (their median, lines and characters not ASCII) and their share
///       of the set's time, where a parser change looks first. --check: exit 1 when a set misses it.
///
/// Hidden: `parse-text --dump FILE DIR…` writes every receipt's `ParsedReceipt` as JSON (sorted
/// keys), one line each, `id<TAB>json`, in load order: to show a change to the parser alters no output.
enum ParseText {
    static func run(_ args: [String]) throws {
        var dirs: [String] = []
        var i = 0
        while i < args.count {
            if ["--rounds", "--goal", "--dump", "--slowest"].contains(args[i]) { i += 2; continue }
            if args[i] == "--check" { i += 1; continue }
            if args[i].hasPrefix("--") { fail("parse-text: unknown option \(args[i])") }
            dirs.append(args[i]); i += 1
        }
        guard !dirs.isEmpty else { fail("parse-text needs one folder at least (a set with box/: its true text)") }
        let rounds = max(1, Int(option("--rounds", args) ?? "") ?? 5)
        let goal = Double(option("--goal", args) ?? "") ?? 5_000
        let slowest = max(0, Int(option("--slowest", args) ?? "") ?? 0)
        let parser = ReceiptParser()

        if let dump = option("--dump", args) {
            var out = Data()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for dir in dirs {
                for (id, page) in try pages(dir) {
                    out.append(Data("\(id)\t".utf8))
                    out.append(try encoder.encode(parser.parse(page)))
                    out.append(Data("\n".utf8))
                }
            }
            try out.write(to: URL(fileURLWithPath: dump))
            return
        }

        print("the parser alone on true text, one thread, \(rounds) rounds after a warm-up (goal: \(Int(goal)) receipts/s/core):")
        var allMet = true
        for dir in dirs {
            let set = try pages(dir)
            guard !set.isEmpty else { print("  \(dir): no receipts with true text"); continue }
            var sink = 0
            for (_, page) in set { sink &+= parser.parse(page).lineItems.count }
            // times[r][k]: receipt k in round r, nanoseconds.
            var times = [[UInt64]](repeating: [UInt64](repeating: 0, count: set.count), count: rounds)
            var total: UInt64 = 0
            for r in 0..<rounds {
                for (k, (_, page)) in set.enumerated() {
                    let t0 = cpuNanoseconds()
                    let p = parser.parse(page)
                    let t1 = cpuNanoseconds()
                    sink &+= p.lineItems.count
                    times[r][k] = t1 - t0
                    total += t1 - t0
                }
            }
            // Each receipt's median over the rounds, in load order (`--slowest` names them), then sorted.
            let medians = (0..<set.count).map { k in median((0..<rounds).map { times[$0][k] }) }
            let perReceipt = medians.sorted()
            let seconds = Double(total) / 1e9
            let rate = Double(set.count * rounds) / seconds
            let met = rate >= goal
            allMet = allMet && met
            print(String(format: "  %@: %d receipts × %d rounds in %.3f s: %.0f receipts/s/core; median receipt %.3f ms, slowest %.3f ms; goal %@",
                         (dir as NSString).lastPathComponent, set.count, rounds, seconds, rate,
                         Double(median(perReceipt)) / 1e6, Double(perReceipt.last ?? 0) / 1e6, met ? "met" : "NOT met"))
            if slowest > 0 {
                // (Their share of the sum of the medians.)
                let order = medians.indices.sorted { medians[$0] > medians[$1] }.prefix(slowest)
                let all = medians.reduce(0, +), top = order.reduce(0) { $0 + medians[$1] }
                print(String(format: "    the %d slowest, %.1f %% of the set's time:", order.count, all == 0 ? 0 : 100 * Double(top) / Double(all)))
                for k in order {
                    let page = set[k].1
                    let other = page.lines.reduce(0) { $0 + $1.text.unicodeScalars.filter { !$0.isASCII }.count }
                    print(String(format: "    %8.3f ms  %@  %d lines, %d characters not ASCII", Double(medians[k]) / 1e6, set[k].0, page.lines.count, other))
                }
            }
            if sink == Int.min { print("") }  // keeps the parses from being optimised away
        }
        if args.contains("--check"), !allMet { exit(1) }
    }

    /// A set's receipts that have true text, as (id, page), in file-name order.
    static func pages(_ dir: String) throws -> [(String, OCRPage)] {
        try LabelledReceipt.load(dir).compactMap { r in r.truthPage.map { (r.id, $0) } }
    }

    /// This thread's CPU time: what a parse costs a core, whatever else the machine is doing.
    static func cpuNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    static func median(_ xs: [UInt64]) -> UInt64 {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s[s.count / 2]
    }
}
