import Foundation
import WinbackJobs

/// The inputs of `winback serve` (docs/retention-messaging.md), with its ``Effects`` (clock, nonces) injectable for tests.
public struct ServeOptions: Sendable {
    /// The config file.
    public var configPath: String
    /// The address to listen on (`--host`, default `127.0.0.1`).
    public var host = "127.0.0.1"
    /// The port to listen on (`--port`, default 8080; 0 picks a free one).
    public var port = 8080
    /// A PEM certificate chain and its private key (`--tls-cert`, `--tls-key`): serve HTTPS instead of HTTP.
    public var tlsCertificatePath: String?
    /// The private key of ``tlsCertificatePath``.
    public var tlsKeyPath: String?
    /// The output root holding `dt=<D>/` (`--out`); default: the config's `output`.
    public var outputOverride: String?
    /// How often the output root is looked at for a newly published day, seconds (docs/retention-messaging.md: within 10 s).
    public var reloadIntervalSeconds = 2.0
    /// No progress lines on stderr.
    public var isQuiet = false
    /// The clock and nonces (``Effects``).
    public var effects: Effects
    /// The wall clock, epoch milliseconds (``Effects/nowMilliseconds``): freshness, replays, `iat`, the request log.
    public var now: @Sendable () -> Int64 {
        get { { [effects] in effects.nowMilliseconds } }
        set { effects.now = { Date(timeIntervalSince1970: Double(newValue()) / 1000) } }
    }
    /// A fresh nonce for each signed offer (``Effects/nonce``).
    public var nonce: @Sendable () -> String {
        get { effects.nonce }
        set { effects.nonce = newValue }
    }
    /// Environment variables (`WINBACK_SIGNING_KEY_FILE`).
    public var environment: [String: String]
    /// `--instance`: this server's name in the files of pushed notifications (`<date>.<instance>.ndjson`), so
    /// replicas never share a file; `nil`: the host name.
    public var instance: String?

    /// Options with the real clock and random nonces unless given (`now` in epoch milliseconds).
    public init(
        configPath: String, now: (@Sendable () -> Int64)? = nil, nonce: @escaping @Sendable () -> String = { RandomNonce.make() },
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.configPath = configPath
        self.effects = Effects(nonce: nonce)
        self.environment = environment
        if let now { self.now = now }
    }
}
