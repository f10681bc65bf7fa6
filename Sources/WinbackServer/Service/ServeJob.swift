import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackJobs

/// Prepares `winback serve` (docs/retention-messaging.md): reads the config, its roots and (when a Retention Messaging campaign
/// offers a promotional offer) the signing key, and loads the newest published day's decisions. The server
/// library that carries the requests is the caller's (`WinbackServer`).
public enum ServeJob {
    /// The service the server answers with. Exit 64 for an invalid config or flag, 74 for an unreadable file.
    public static func prepare(_ options: ServeOptions, inform: @escaping @Sendable (String) -> Void) throws(JobError) -> RetentionService {
        guard (0...65_535).contains(options.port) else {
            throw .usage("invalid --port \(options.port): expected an integer from 0 to 65535")
        }
        guard (options.tlsCertificatePath == nil) == (options.tlsKeyPath == nil) else {
            throw .usage("--tls-cert and --tls-key go together: give both (HTTPS) or neither (HTTP, TLS terminated in front)")
        }
        let loaded = try LoadedConfig.load(path: options.configPath)
        let config = loaded.config
        var warnings: [String] = []
        let campaigns = try loaded.campaigns(warnings: &warnings)
        for warning in warnings where !options.isQuiet { inform(warning) }
        let retention = campaigns.filter { $0.channel == .retentionMessaging }
        if retention.isEmpty, config.retentionMessaging?.defaultMessageIdentifier == nil, !options.isQuiet {
            inform("warning: no campaign has channel 'retention_messaging' and no default message is set: every answer is {}")
        }
        let signer =
            try retention.contains { $0.offerKind == .promotional }
            ? OfferSigner(
                key: InAppPurchaseKeyLoader.signingKey(loaded, environment: options.environment, warn: inform),
                bundleId: config.app.bundleId)
            : nil
        let output =
            options.outputOverride.map { FileSystem.resolve($0, against: FileManager.default.currentDirectoryPath) }
            ?? loaded.resolve(config.output)
        // Anyone can send the server a chain: it remembers a few (Apple uses one or two at a time), not all.
        let chains = ChainValidator(roots: loaded.roots, maximumCachedChains: 64)
        let inbox = try notificationInbox(loaded, options: options)
        if inbox == nil, !options.isQuiet {
            inform("serve: POST /notifications is off (the config has no api.directory to keep pushed notifications in)")
        }
        let service = RetentionService(
            app: config.app, verifier: SignedPayloadVerifier(chains: chains, decoder: PayloadDecoder(app: config.app)), signer: signer,
            defaultMessageIdentifier: config.retentionMessaging?.defaultMessageIdentifier, campaignOrder: campaigns.map(\.id),
            output: output,
            ledgerPath: loaded.ledgerPath(override: nil), inbox: inbox, options: options, inform: inform)
        if !service.reload(), PublishedDecisions.latest(output: output) == nil, !options.isQuiet {
            inform("warning: no published day with _SUCCESS under \(output) yet: answering with the fallback until one appears")
        }
        return service
    }

    /// The inbox of pushed notifications, `<api.directory>/notifications/received/` (docs/notifications-pushed.md), or `nil` without
    /// an `api` block. An instance name other than letters, digits, `-`, `_` and `.` is 64; an unusable
    /// directory 74.
    static func notificationInbox(_ loaded: LoadedConfig, options: ServeOptions) throws(JobError) -> NotificationInbox? {
        guard let api = loaded.config.api else { return nil }
        let instance = options.instance ?? ProcessInfo.processInfo.hostName
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard !instance.isEmpty, instance.count <= 64, instance.allSatisfy(allowed.contains), !instance.hasPrefix(".") else {
            throw .usage("invalid --instance '\(instance)': expected 1 to 64 letters, digits, '-', '_' or '.' (a file name part)")
        }
        let today = String(InstantFormat.iso8601(milliseconds: options.now()).prefix(10))
        do {
            return try NotificationInbox(
                directory: loaded.resolve(api.directory) + "/notifications/received", instance: instance, today: today)
        } catch {
            throw .io(error)
        }
    }
}
