import ArgumentParser
import WinbackJobs

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Download App Store Server Notifications from the App Store Server API into <api.directory>/notifications/.",
        discussion: """
            One gzip NDJSON file per UTC day, written when all of the day's pages are in; days already written \
            are skipped unless --refresh. Default range: the last 3 days through yesterday (UTC); Apple keeps 180 \
            days. Ends with a one-line JSON summary on stdout. Exit codes: 0 success; 64 invalid config, flag or \
            range; 74 I/O error; 75 temporary failure after 6 attempts (429, 5xx, network; days already written \
            stay) or another sync holds the lock; 76 unexpected response; 77 the API refused the key.
            """
    )

    @Option(name: .long, help: "The run configuration (JSON) with an `api` block.")
    var config: String

    @Option(name: .long, help: "First day to download (YYYY-MM-DD, UTC); default: 2 days before --to.")
    var from: String?

    @Option(name: .long, help: "Last day to download (YYYY-MM-DD, UTC), inclusive; default: yesterday.")
    var to: String?

    @Flag(name: .long, help: "Download and rewrite days already written.")
    var refresh = false

    @Option(name: .long, help: "Seconds a request may go without progress before it is tried again (default 60).")
    var timeout: Double = 60

    @Flag(name: .long, help: "No progress or log lines on stderr.")
    var quiet = false

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: expected seconds from 0 to 3600, found \(timeout)") }
    }

    func run() async throws {
        try await CommandSupport.run(command: "sync") {
            var options = SyncOptions(configPath: config, from: from, to: to)
            options.refresh = refresh
            options.isQuiet = quiet
            options.requestTimeout = timeout
            let outcome = try await SyncJob.run(options) { CommandSupport.writeStderr($0 + "\n") }
            CommandSupport.writeStdout(outcome.summaryLine)
            return ExitStatus.success
        }
    }
}
