import Dispatch

/// A task executor of one thread beside Swift's cooperative pool (as many threads as cores), for a child task that
/// must run while the pool's threads are busy: the subscriptions' Parquet file, written while the report tallies
/// take both cores. On the pool its chunks waited for a tally to end and held the CSV writer back (the 150k day's
/// reports phase took 1.13–1.19 s with Parquet instead of 0.92–0.95 s; docs/performance.md); on a thread of its
/// own the system shares the cores among the three. Serial: jobs run one at a time, in the order enqueued.
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
