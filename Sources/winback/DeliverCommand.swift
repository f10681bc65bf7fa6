import ArgumentParser
import WinbackJobs
import WinbackRemote
import WinbackServer

struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Send a published day's offers to each sink of the config's delivery (webhook, Segment, Braze), each batch once.",
        discussion: """
            Reads dt=<D>/offers.ndjson.gz, and lifecycle_events.ndjson.gz for the event types delivery.events lists \
            (each type in batches of its own). The webhook gets batches per campaign (delivery.webhook.batchSize, default 500) \
            with an Idempotency-Key, an HMAC-SHA256 Winback-Signature and the Standard Webhooks headers; Segment gets Track \
            calls (at most 500 KB a request); Braze gets /users/track events (75 a request; offers without an \
            appAccountToken skipped). The ledger records each batch a sink acknowledged, so running it again sends each \
            sink only the rest; a failing sink never stops the others. Ends with a one-line JSON summary on stdout. \
            Exit codes: 0 success; 64 invalid config or flag; 74 I/O error (day not published, secret unreadable); \
            75 a sink kept failing (429, 5xx, network) or another run holds the ledger; 76 a sink refused a batch \
            (another 4xx, or a redirect).
            """
    )

    @Option(name: .long, help: "The run configuration (JSON) with a `delivery` block.")
    var config: String

    @Option(name: .customLong("as-of"), help: "The day whose offers to send (YYYY-MM-DD); default: yesterday in the report time zone.")
    var asOf: String?

    @Option(name: .long, help: "The output root holding dt=<D>/ (default: the config's output).")
    var out: String?

    @Flag(name: .long, help: "No progress lines on stderr.")
    var quiet = false

    @Option(
        name: .customLong("metrics-file"),
        help: "Write what the command counted to this file when it ends (Prometheus text, for node_exporter's textfile collector).")
    var metricsFile: String?

    func run() async throws {
        try await CommandSupport.run(command: "deliver", level: .shown(quiet: quiet), metricsFile: metricsFile) {
            var options = DeliverOptions(configPath: config, asOf: asOf)
            options.outputOverride = out
            options.isQuiet = quiet
            let outcome = try await DeliverJob.run(options) { CommandSupport.say($0) }
            CommandSupport.writeStdout(outcome.summaryLine)
            return ExitStatus.success
        }
    }
}
