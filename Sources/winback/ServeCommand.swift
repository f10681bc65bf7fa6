import ArgumentParser
import WinbackJobs
import WinbackRemote
import WinbackServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer the App Store's Retention Messaging requests from the newest published day's decisions.",
        discussion: """
            POST /retention takes Apple's {"signedPayload": JWS}, verified like a record, for the config's app and \
            environment, signed within 5 minutes, not seen in the last 10; the answer comes from \
            dt=<D>/retention_decisions.csv.gz of the newest day with _SUCCESS (picked up within 10 s of publishing): a \
            promotional offer signed now, an alternate product, a message, or the fallback. POST /notifications keeps \
            the notifications Apple pushes (verified, for this app) in <api.directory>/notifications/received/, \
            durable before the 200. GET /healthz, GET /metrics \
            (Prometheus). Every answer is logged to retention-requests/<UTC date>.ndjson beside the ledger. Prints one \
            JSON line when listening and a JSON summary when stopped (SIGTERM or SIGINT: requests in flight are \
            answered first); SIGHUP reloads the newest published day, a day refused before included. Exit codes: 0 stopped; 64 invalid config or flag; 74 unreadable file or address in use.
            """
    )

    @Option(name: .long, help: "The run configuration (JSON).")
    var config: String

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0: any free port, printed on stdout).")
    var port = 8080

    @Option(name: .customLong("tls-cert"), help: "A PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(name: .long, help: "The output root holding dt=<D>/ (default: the config's output).")
    var out: String?

    @Option(
        name: .customLong("max-connections"),
        help: "Connections kept open at once (default: the descriptor limit less 64); at the limit the stalest idle one makes room.")
    var maxConnections: Int?

    @Option(
        name: .long,
        help: "This server's name in the files of pushed notifications (<date>.<instance>.ndjson; default: the host name).")
    var instance: String?

    @Flag(name: .long, help: "No progress lines on stderr.")
    var quiet = false

    func run() async throws {
        try await CommandSupport.run(command: "serve", level: .shown(quiet: quiet)) {
            var options = ServeOptions(configPath: config)
            options.host = host
            options.port = port
            options.tlsCertificatePath = tlsCert
            options.tlsKeyPath = tlsKey
            options.outputOverride = out
            options.isQuiet = quiet
            options.instance = instance
            let service = try ServeJob.prepare(options) { message in
                CommandSupport.say(message)
            }
            let tls = tlsCert.flatMap { certificate in tlsKey.map { (certificatePath: certificate, keyPath: $0) } }
            if let maxConnections, maxConnections < 1 {
                throw JobError.usage("--max-connections: expected a number of connections of at least 1, found \(maxConnections)")
            }
            let server = try await RetentionServer.start(
                service: service, host: host, port: port, tls: tls, maximumConnections: maxConnections)
            let summary = try await ServeLifecycle.run(
                server, logger: CommandSupport.logger,
                onListening: { CommandSupport.writeStdout(server.listeningLine) },
                onHangUp: {
                    // SIGHUP (systemctl reload): look for a newly published day now, a refused one included.
                    CommandSupport.logger.info("serve: SIGHUP: reloading the newest published day")
                    service.reload(retryingRefused: true)
                },
                onShutdown: { CommandSupport.logger.info("serve: stopping: finishing requests in flight") })
            CommandSupport.writeStdout(summary)
            return ExitStatus.success
        }
    }
}
