import Foundation
import WinbackCore
import WinbackCrypto
import WinbackJobs

/// What `winback refunds` needs to speak to the App Store Server API (docs/sync.md: the `api` block and its key):
/// checked before the ingest, so a missing key fails fast.
struct ClientSetup {
    private let key: InAppPurchaseKey
    private let baseURL: String
    private let bundleId: String
    private let options: RefundsOptions
    private let log: @Sendable (String) -> Void

    /// Reads the `api` block (64 naming it when absent) and loads its key.
    init(_ loaded: LoadedConfig, options: RefundsOptions, log: @escaping @Sendable (String) -> Void) throws(JobError) {
        let settings = try SyncSetup.settings(loaded, command: "winback refunds")
        key = try InAppPurchaseKeyLoader.apiKey(loaded, settings: settings, environment: options.environment, warn: log)
        baseURL = settings.baseURL ?? APISettings.defaultBaseURL(environment: loaded.config.app.environment)
        bundleId = loaded.config.app.bundleId
        self.options = options
        let quiet: @Sendable (String) -> Void = { _ in }
        self.log = options.isQuiet ? quiet : log
    }

    /// A client on `transport` with the options' retry policy and effects.
    func client(_ transport: HTTPTransport) -> AppStoreAPIClient {
        AppStoreAPIClient(
            transport: transport, baseURL: baseURL, key: key, bundleId: bundleId, policy: options.retryPolicy, pacer: nil,
            now: options.now, sleep: options.sleep, jitter: options.jitter, log: log)
    }
}
