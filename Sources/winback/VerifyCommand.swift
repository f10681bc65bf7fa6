import ArgumentParser
import WinbackJobs

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Ingest and verify the inputs only; writes no files.",
        discussion: """
            Prints each rejected record as one JSON line on stdout (source, line, path, code, message, record), \
            then a one-line JSON summary. Counts go to stderr. Exits 65 when the reject rate exceeds \
            report.maxRejectRate, 64 for an invalid config, 74 for an unreadable input.
            """
    )

    @Option(name: .long, help: "The run configuration (JSON).")
    var config: String

    @Flag(name: .long, help: "Every rejected record as a compiler-style line on stderr (file:line: error: code: message).")
    var verbose = false

    @Flag(name: .long, help: "No progress or counts on stderr.")
    var quiet = false

    func run() async throws {
        try await CommandSupport.run(command: "verify", level: .shown(quiet: quiet, verbose: verbose)) {
            let outcome = try await VerifyJob.run(
                configPath: config, isQuiet: quiet, isVerbose: verbose, writeLine: CommandSupport.writeStdout)
            if !quiet {
                CommandSupport.logger.info("\(outcome.report.hasSuffix("\n") ? String(outcome.report.dropLast()) : outcome.report)")
            }
            CommandSupport.writeStdout(outcome.summaryLine)
            return outcome.exitCode
        }
    }
}
