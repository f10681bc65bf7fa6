import ArgumentParser
import WinbackJobs
import WinbackRemote

struct RefundsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refunds",
        abstract: "Answer the App Store's refund requests (CONSUMPTION_REQUEST) by the config's refund policies, each once. Meant hourly.",
        discussion: """
            Ingests the config's inputs as `winback run` does (the verified store and pushed notifications included), decides \
            every CONSUMPTION_REQUEST the ledger has not answered by refunds.overrides, then the first matching \
            refunds.policies entry, and sends it with Send Consumption Information (PUT /inApps/v2/transactions/consumption/\
            {transactionId}) while it is younger than 12 hours. The ledger records each request before and after sending: \
            a re-run never sends an answered request again. Older requests are recorded late, NO_RESPONSE ones no_response. \
            Ends with a one-line JSON summary on stdout. Exit codes: 0 success (Apple refusing one answer with a 4xx is a \
            warning, recorded); 64 invalid config or flag; 74 I/O error; 75 Apple kept failing (429, 5xx, network) or \
            another run holds the ledger; 76 an unexpected answer (a redirect); 77 Apple refused the key (401/403).
            """
    )

    @Option(name: .long, help: "The run configuration (JSON) with `refunds` and `api` blocks.")
    var config: String

    @Flag(name: .customLong("dry-run"), help: "Print each decision as a JSON line on stdout; send and record nothing.")
    var dryRun = false

    @Flag(name: .customLong("no-store"), help: "Verify every input file again, without reading or writing the verified store.")
    var noStore = false

    @Flag(name: .long, help: "No progress lines on stderr.")
    var quiet = false

    @Option(
        name: .customLong("metrics-file"),
        help: "Write what the command counted to this file when it ends (Prometheus text, for node_exporter's textfile collector).")
    var metricsFile: String?

    func run() async throws {
        try await CommandSupport.run(command: "refunds", level: .shown(quiet: quiet), metricsFile: metricsFile) {
            var options = RefundsOptions(configPath: config)
            options.isDryRun = dryRun
            options.usesStore = !noStore
            options.isQuiet = quiet
            options.printLine = { CommandSupport.writeStdout($0) }
            let outcome = try await RefundsJob.run(options) { CommandSupport.say($0) }
            CommandSupport.writeStdout(outcome.summaryLine)
            return ExitStatus.success
        }
    }
}
