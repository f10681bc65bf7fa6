import ArgumentParser
import WinbackAnalytics
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

    @Option(
        name: .long,
        help:
            "Run as shard i/N (or 'auto': i from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX, N from --shards): verify only its records and write a partial for `winback merge`."
    )
    var shard: String?

    @Option(name: .long, help: "The number of shards N, with --shard auto.")
    var shards: Int?

    @Option(name: .long, help: "With --shard: the directory the shard's partial is written to.")
    var partial: String?

    @Option(
        name: .customLong("metrics-file"),
        help: "Write what the command counted to this file when it ends (Prometheus text, for node_exporter's textfile collector).")
    var metricsFile: String?

    func run() async throws {
        try await CommandSupport.run(command: "run", level: .shown(quiet: quiet, verbose: verbose), metricsFile: metricsFile) {
            var options = RunOptions(configPath: config, asOf: asOf, outputOverride: out, isQuiet: quiet)
            options.isVerbose = verbose
            options.usesStore = !noStore
            options.exitsAfterRun = true
            if shard != nil || shards != nil || partial != nil {
                guard let shard else { throw JobError.usage("--shards and --partial go with --shard i/N or --shard auto") }
                let spec: ShardSpec
                do {
                    spec = try ShardSpec.resolve(shard, shards: shards, environment: options.environment)
                } catch {
                    throw JobError.usage("\(error)")
                }
                guard out == nil else { throw JobError.usage("--out: a shard publishes nothing; its partial goes to --partial DIR") }
                options.partialDirectory = partial
                CommandSupport.writeStdout(try await ShardJob.run(options, shard: spec))
                return ExitStatus.success
            }
            let outcome = try await RunJob.run(options)
            CommandSupport.writeStdout(outcome.summaryLine)
            return outcome.exitCode
        }
    }
}
