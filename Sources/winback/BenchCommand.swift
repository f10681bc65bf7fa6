import ArgumentParser
import Foundation
import WinbackJobs

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: the subscription model and report writers on simulated transactions.",
        discussion: "Verification throughput is measured with `winback verify` on a `winback sample-data` export (see README)."
    )

    @Option(name: .long, help: "Transactions to simulate.")
    var transactions: Int = 1_000_000

    @Option(name: .long, help: "Seed of the simulation.")
    var seed: UInt64 = 42

    @Option(name: .long, help: "Where the benchmark writes its reports (a temporary directory by default).")
    var out: String?

    func run() async throws {
        try await CommandSupport.run {
            let directory = out ?? (NSTemporaryDirectory() + "winback-bench-\(getpid())")
            let result = try ModelBenchmark.run(transactions: transactions, seed: seed, outputDirectory: directory)
            if out == nil { try? FileManager.default.removeItem(atPath: directory) }
            CommandSupport.writeStdout(result.summaryLine)
            return ExitStatus.success
        }
    }
}
