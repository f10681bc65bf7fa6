import ArgumentParser
import WinbackJobs
import WinbackSampleData

struct SampleDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-data",
        abstract: "Generate a deterministic synthetic export signed with a TEST-ONLY PKI, a demo key and a config."
    )

    @Option(name: .long, help: "Directory to write the dataset into (created if needed).")
    var out: String

    @Option(name: .long, help: "Number of subscriptions to simulate.")
    var subscriptions: Int = 500

    @Option(name: .long, help: "Seed of the simulation and of the test keys.")
    var seed: UInt64 = 42

    @Option(
        name: .long,
        help: "Share (0 to 1) of subscriptions whose customer already has another one (an app account token used again).")
    var sharedAccounts: Double = 0

    func validate() throws {
        guard subscriptions > 0 else { throw ValidationError("--subscriptions: expected a positive integer, found \(subscriptions)") }
        guard (0...1).contains(sharedAccounts) else {
            throw ValidationError("--shared-accounts: expected a share from 0 to 1, found \(sharedAccounts)")
        }
    }

    func run() async throws {
        try await CommandSupport.run(command: "sample-data") {
            let outcome = try await SampleDataJob.run(
                outputDirectory: out, subscriptions: subscriptions, seed: seed, sharedAccountShare: sharedAccounts)
            CommandSupport.writeStdout(outcome.summaryLine)
            return ExitStatus.success
        }
    }
}
