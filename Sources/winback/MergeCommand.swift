import ArgumentParser
import WinbackJobs

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the partials of `winback run --shard i/N` into the day a single run would publish.",
        discussion: """
            Checks that the partials are the N distinct shards of this config (its SHA-256), as-of date and N \
            (64 naming what differs), then selects campaigns over all accounts, signs, writes the ledger and \
            publishes <output>/dt=<D>/ as `winback run` does. Ends with a one-line JSON summary on stdout. Exit \
            codes as `winback run`: 0, 64, 65, 74, 75, 1.
            """
    )

    @Option(name: .long, help: "The run configuration (JSON), byte for byte the one the shards ran with.")
    var config: String

    @Option(name: .customLong("as-of"), help: "The as-of date D (YYYY-MM-DD); default: yesterday in the report time zone.")
    var asOf: String?

    @Option(name: .long, parsing: .upToNextOption, help: "The shards' partial directories (all N of them).")
    var partials: [String] = []

    @Option(name: .long, help: "Output directory (overrides the config's output; relative to the current directory).")
    var out: String?

    @Flag(name: .long, help: "Every rejected record as a compiler-style line on stderr.")
    var verbose = false

    @Flag(name: .long, help: "No progress or log lines on stderr.")
    var quiet = false

    @Option(
        name: .customLong("metrics-file"),
        help: "Write what the command counted to this file when it ends (Prometheus text, for node_exporter's textfile collector).")
    var metricsFile: String?

    func run() async throws {
        try await CommandSupport.run(command: "merge", level: .shown(quiet: quiet, verbose: verbose), metricsFile: metricsFile) {
            var options = RunOptions(configPath: config, asOf: asOf, outputOverride: out, isQuiet: quiet)
            options.isVerbose = verbose
            options.exitsAfterRun = true
            let outcome = try await MergeJob.run(options, partialDirectories: partials)
            CommandSupport.writeStdout(outcome.summaryLine)
            return outcome.exitCode
        }
    }
}
