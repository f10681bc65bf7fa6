import ArgumentParser
import WinbackJobs

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "The nightly job: ingest, verify, model, report and publish <output>/dt=<D>/ atomically.",
        discussion: """
            Ends with a one-line JSON summary on stdout. Exit codes: 0 success; 64 invalid config or flag; \
            65 reject rate above report.maxRejectRate (reports still published, offers not signed); \
            74 I/O error; 75 another run holds the lock; 1 anything else.
            """
    )

    @Option(name: .long, help: "The run configuration (JSON).")
    var config: String

    @Option(name: .customLong("as-of"), help: "The as-of date D (YYYY-MM-DD); default: yesterday in the report time zone.")
    var asOf: String?

    @Option(name: .long, help: "Output directory (overrides the config's output; relative to the current directory).")
    var out: String?

    @Flag(name: .long, help: "Every rejected record as a compiler-style line on stderr (file:line: error: code: message).")
    var verbose = false

    @Flag(name: .long, help: "No progress or log lines on stderr.")
    var quiet = false

    @Flag(name: .customLong("no-store"), help: "Verify every input file again, without reading or writing the verified store.")
    var noStore = false

    func run() async throws {
        try await CommandSupport.run(command: "run") {
            var options = RunOptions(configPath: config, asOf: asOf, outputOverride: out, isQuiet: quiet)
            options.isVerbose = verbose
            options.usesStore = !noStore
            options.exitsAfterRun = true
            let outcome = try await RunJob.run(options)
            CommandSupport.writeStdout(outcome.summaryLine)
            return outcome.exitCode
        }
    }
}
