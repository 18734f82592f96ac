import ReceiptReconcile
import ReceiptStore

/// Small helpers over the reconciler for tests.
enum ReceiptReconcileFacade {
    /// Runs the reconciler with default options; returns how many links exist afterwards.
    @discardableResult
    static func reconcile(_ store: ReceiptStore, _ configure: (inout ReconcileOptions) -> Void = { _ in }) throws -> Int {
        var o = ReconcileOptions()
        configure(&o)
        _ = try Reconciler(options: o).run(store: store)
        return try store.links().count
    }
}
