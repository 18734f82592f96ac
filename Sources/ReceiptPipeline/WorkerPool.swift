import Foundation
import Synchronization

/// A fixed number of worker threads fed from a bounded queue: memory stays flat however
/// many items the producer finds, and a slow item holds up only its worker. Each worker
/// keeps state of its own (its pipeline and OCR engine), made on first need, so a run
/// that needs no OCR never loads an engine. Batch and eval share it.
public enum WorkerPool {
    /// Runs `work` on every item `produce` puts, on `jobs` threads.
    ///
    /// `produce` runs on the calling thread; `put` blocks while `capacity` items wait and
    /// returns false once the pool takes no more (cancelled): stop producing then.
    /// When `isCancelled` turns true, the items in flight finish and the queued ones are
    /// dropped. Returns when every worker has stopped.
    public static func run<Item: Sendable, State>(
        jobs: Int,
        capacity: Int? = nil,
        isCancelled: @escaping @Sendable () -> Bool,
        produce: (_ put: (Item) -> Bool) -> Void,
        work: @escaping @Sendable (Item, inout State?) -> Void
    ) {
        let workers = max(1, jobs)
        let queue = BoundedQueue<Item>(capacity: capacity ?? workers * 4)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let t = Thread {
                var state: State? = nil  // this worker's own, never shared
                while let item = queue.take() {
                    if isCancelled() { queue.cancel(); break }
                    work(item, &state)
                }
                group.leave()
            }
            t.stackSize = 8 << 20  // the parser's regular expressions recurse deeply on long lines
            t.start()
        }
        produce { item in queue.put(item) && !isCancelled() }
        if isCancelled() { queue.cancel() } else { queue.finish() }
        group.wait()
    }
}

/// The hand-off between the producer and the workers. Blocking waits need a condition
/// variable, which `Mutex` does not offer.
final class BoundedQueue<Item: Sendable>: @unchecked Sendable {
    // @unchecked: all state is guarded by `cond`.
    private let cond = NSCondition()
    private var items: [Item] = []  // at most `capacity`: removeFirst is cheap
    private var closed = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// False when the queue was closed (stop producing).
    func put(_ item: Item) -> Bool {
        cond.lock(); defer { cond.unlock() }
        while items.count >= capacity && !closed { cond.wait() }
        guard !closed else { return false }
        items.append(item)
        cond.broadcast()
        return true
    }

    /// The next item, or nil once the queue is closed and empty.
    func take() -> Item? {
        cond.lock(); defer { cond.unlock() }
        while items.isEmpty && !closed { cond.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        cond.broadcast()
        return item
    }

    /// No more items will come: workers drain what is queued, then stop.
    func finish() { cond.lock(); closed = true; cond.broadcast(); cond.unlock() }
    /// Stop now: queued items are dropped.
    func cancel() { cond.lock(); closed = true; items.removeAll(); cond.broadcast(); cond.unlock() }
}

/// A value behind a `Mutex`, in a class so escaping closures and several threads can share it.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    public init(_ value: Value) { mutex = Mutex(value) }
    public func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R { try mutex.withLock { try body(&$0) } }
    public var value: Value { mutex.withLock { $0 } }
}
