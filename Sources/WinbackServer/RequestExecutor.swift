import Dispatch

/// Where `winback serve` runs its answers: a task executor of its own (Dispatch threads), not Swift's shared
/// cooperative pool (as many threads as cores). Answering takes microseconds of CPU, but whatever else the process
/// runs on the shared pool — a night's job in the same test process, a long blocking call — could otherwise
/// hold every request behind it; with this executor an answer waits only for CPU.
final class RequestExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "winback.serve.answers", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
