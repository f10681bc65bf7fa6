import ArgumentParser
import WinbackJobs

struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Re-sign the stored offers of a campaign and day with a fresh timestamp (V1 signatures live 24 hours).",
        discussion: "Prints the new offers.ndjson lines, then a one-line JSON summary. Who was selected does not change."
    )

    @Option(name: .long, help: "The run configuration (JSON).")
    var config: String

    @Option(name: .long, help: "The campaign id.")
    var campaign: String

    @Option(
        name: .customLong("as-of"), help: "The day whose selections to re-sign (YYYY-MM-DD); default: yesterday in the report time zone.")
    var asOf: String?

    func run() async throws {
        try await CommandSupport.run(command: "sign") {
            let outcome = try SignJob.run(configPath: config, campaignId: campaign, asOf: asOf) { CommandSupport.say($0) }
            for line in outcome.lines { CommandSupport.writeStdout(line) }
            CommandSupport.writeStdout(outcome.summaryLine)
            return ExitStatus.success
        }
    }
}
