import ArgumentParser
import Foundation
import WinbackBench
import WinbackJobs

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Benchmarks: the model and each report writer on simulated transactions, offer signing, gzip, or the ES256 ceiling.",
        discussion: "End to end at scale: Benchmarks/scale-run.sh (see README)."
    )

    @Option(name: .long, help: "Transactions to simulate.")
    var transactions: Int = 1_000_000

    @Option(name: .long, help: "Instead of the model: sign this many offers (V1 + V2) and write them to a fresh ledger.")
    var offers: Int?

    @Option(name: .long, help: "Instead of the model: N ES256 verifications of a 6.6 KB input on one core (the verify ceiling).")
    var es256: Int?

    @Option(name: .long, help: "Instead of the model: verify + decode N signed transactions held in memory, on one core and on all cores.")
    var verify: Int?

    @Option(name: .long, help: "Instead of the model: deflate (levels 6 and 1) and inflate this many MB of report-like CSV on one core.")
    var gzip: Int?

    @Option(name: .long, help: "Seed of the simulation.")
    var seed: UInt64 = 42

    @Option(name: .long, help: "Where the benchmark writes its reports (a temporary directory by default).")
    var out: String?

    func run() async throws {
        try await CommandSupport.run(command: "bench") {
            let directory = out ?? (NSTemporaryDirectory() + "winback-bench-\(getpid())")
            defer { if out == nil { try? FileManager.default.removeItem(atPath: directory) } }
            if let verify {
                CommandSupport.writeStdout(try await VerifyBenchmark.run(records: verify, seed: seed))
            } else if let gzip {
                CommandSupport.writeStdout(try GzipBenchmark.run(megabytes: gzip))
            } else if let es256 {
                CommandSupport.writeStdout(try ES256Benchmark.run(count: es256))
            } else if let offers {
                CommandSupport.writeStdout(try SigningBenchmark.run(offers: offers, seed: seed, directory: directory))
            } else {
                let result = try await ModelBenchmark.run(transactions: transactions, seed: seed, outputDirectory: directory)
                CommandSupport.writeStdout(result.summaryLine)
            }
            return ExitStatus.success
        }
    }
}
