import Dispatch

/// A task executor of one thread beside Swift's cooperative pool (as many threads as cores), for a child task that
/// must not take a pool thread from the work it runs beside: the subscriptions' Parquet file, written while the
/// campaigns select and sign (``RunJob/besideSubscriptionsParquet(_:_:outputs:_:)``); the system shares the cores
/// among the threads (docs/performance.md, sessions 28 and 30). Serial: jobs run one at a time, in the order enqueued.
final class SideExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor whose thread is named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
