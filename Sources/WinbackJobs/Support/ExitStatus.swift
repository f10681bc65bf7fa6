/// Exit codes of `winback` (sysexits, README: Commands).
public enum ExitStatus {
    /// Success.
    public static let success: Int32 = 0
    /// Anything else.
    public static let failure: Int32 = 1
    /// Usage or invalid config.
    public static let usage: Int32 = 64
    /// The reject rate exceeded `maxRejectRate`.
    public static let dataError: Int32 = 65
    /// Unreadable input or unwritable output.
    public static let ioError: Int32 = 74
    /// Another run holds the lock; or `winback sync` gave up on a temporary failure (429, 5xx, network).
    public static let locked: Int32 = 75
    /// `winback sync`: the App Store Server API answered something unexpected (EX_PROTOCOL).
    public static let unexpectedResponse: Int32 = 76
    /// `winback sync`: the API refused the key (401/403; EX_NOPERM).
    public static let authentication: Int32 = 77
}
