/// The app whose data a run accepts (`app` in the config).
public struct AppIdentity: Sendable, Hashable {
    /// The app's bundle identifier.
    public var bundleId: String
    /// Required for Production; compared with a notification's `appAppleId` only in Production, as Apple does.
    public var appAppleId: Int64?
    /// `Production` or `Sandbox`.
    public var environment: String

    /// The identity of an app.
    public init(bundleId: String, appAppleId: Int64?, environment: String) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }
}
