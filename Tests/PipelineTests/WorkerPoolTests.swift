import Foundation
import Testing
@testable import ReceiptPipeline

/// The one worker pool batch and eval share.
@Suite("worker pool")
struct WorkerPoolTests {
    /// Per-worker state: counts how many were made.
    final class Made: Sendable {
        let id: Int
        init(_ made: Locked<Int>) { id = made.withLock { $0 += 1; return $0 } }
    }

    @Test(arguments: [1, 2, 4])
    func everyItemOnceAndOneStatePerWorker(jobs: Int) {
        let seen = Locked([Int: Int]())
        let made = Locked(0)
        WorkerPool.run(jobs: jobs, isCancelled: { false }, produce: { put in
            for i in 0..<200 where !put(i) { break }
        }, work: { (i: Int, state: inout Made?) in
            if state == nil { state = Made(made) }
            seen.withLock { $0[i, default: 0] += 1 }
        })
        #expect(seen.value.count == 200)
        #expect(seen.value.values.allSatisfy { $0 == 1 })
        #expect(made.value >= 1 && made.value <= jobs)
    }

    @Test func producerWaitsWhileTheQueueIsFull() {
        // One slow worker, capacity 2: the producer can never run more than capacity + 1 ahead of the work done.
        let produced = Locked(0), done = Locked(0), maxAhead = Locked(0)
        WorkerPool.run(jobs: 1, capacity: 2, isCancelled: { false }, produce: { put in
            for i in 0..<20 {
                let ahead = produced.value - done.value
                maxAhead.withLock { $0 = max($0, ahead) }
                guard put(i) else { break }
                produced.withLock { $0 += 1 }
            }
        }, work: { (_: Int, _: inout Int?) in
            Thread.sleep(forTimeInterval: 0.002)
            done.withLock { $0 += 1 }
        })
        #expect(done.value == 20)
        #expect(maxAhead.value <= 3)
    }

    @Test func cancellingFinishesWhatIsInFlightAndDropsTheQueue() {
        let stop = Locked(false)
        let done = Locked(0)
        WorkerPool.run(jobs: 2, isCancelled: { stop.value }, produce: { put in
            for i in 0..<1000 where !put(i) { return }
        }, work: { (_: Int, _: inout Int?) in
            let n = done.withLock { $0 += 1; return $0 }
            if n == 10 { stop.withLock { $0 = true } }
            Thread.sleep(forTimeInterval: 0.001)
        })
        // The two workers finish what they hold; nothing queued is started after the stop.
        #expect(done.value >= 10 && done.value <= 12)
    }
}
