import ArgumentParser
import WinbackJobs
import WinbackRemote

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Download notifications, transaction histories or subscription statuses from the App Store Server API.",
        discussion: """
            Without --history or --statuses: notifications into <api.directory>/notifications/, one gzip NDJSON file \
            per UTC day, written when all of the day's pages are in; days already written are skipped unless \
            --refresh. Default range: the last 3 days through yesterday (UTC); Apple keeps 180 days. \
            With --history and/or --statuses: for each id of --ids FILE and/or --ids-from-notifications, the \
            transaction history (then only what changed since) into <api.directory>/history/ and the subscription \
            statuses into <api.directory>/statuses/, at most api.requestsPerSecond requests a second (default 40); \
            a stopped sync resumes where it stopped. Ends with a one-line JSON summary on stdout. Exit codes: 0 success; 64 invalid config, flag or \
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

    @Flag(name: .long, help: "Fetch each id's transaction history (Get Transaction History v2) instead of notifications.")
    var history = false

    @Flag(name: .long, help: "Fetch each id's subscription statuses (Get All Subscription Statuses) instead of notifications.")
    var statuses = false

    @Option(name: .long, help: "With --history/--statuses: a file of original transaction ids, one per line.")
    var ids: String?

    @Flag(name: .long, help: "With --history/--statuses: every originalTransactionId in the synced notifications.")
    var idsFromNotifications = false

    @Option(name: .long, help: "Seconds a request may go without progress before it is tried again (default 60).")
    var timeout: Double = 60

    @Flag(name: .long, help: "No progress or log lines on stderr.")
    var quiet = false

    func validate() throws {
        if history || statuses {
            if from != nil || to != nil || refresh {
                throw ValidationError("--from, --to and --refresh are for notifications; not with --history or --statuses")
            }
            guard ids != nil || idsFromNotifications else {
                throw ValidationError("--history and --statuses need --ids FILE, --ids-from-notifications, or both")
            }
        } else if ids != nil || idsFromNotifications {
            throw ValidationError("--ids and --ids-from-notifications go with --history or --statuses")
        }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: expected seconds from 0 to 3600, found \(timeout)") }
    }

    @Option(
        name: .customLong("metrics-file"),
        help: "Write what the command counted to this file when it ends (Prometheus text, for node_exporter's textfile collector).")
    var metricsFile: String?

    func run() async throws {
        try await CommandSupport.run(command: "sync", level: .shown(quiet: quiet), metricsFile: metricsFile) {
            var options = SyncOptions(configPath: config, from: from, to: to)
            options.refresh = refresh
            options.isQuiet = quiet
            options.requestTimeout = timeout
            if history || statuses {
                options.history = history
                options.statuses = statuses
                options.idsFile = ids
                options.idsFromNotifications = idsFromNotifications
                let outcome = try await HistorySyncJob.run(options) { CommandSupport.say($0) }
                CommandSupport.writeStdout(outcome.summaryLine)
                return ExitStatus.success
            }
            let outcome = try await SyncJob.run(options) { CommandSupport.say($0) }
            CommandSupport.writeStdout(outcome.summaryLine)
            return ExitStatus.success
        }
    }
}
