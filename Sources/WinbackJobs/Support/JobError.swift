import WinbackAppStore
import WinbackIO

/// A fatal error of a job, with its sysexits code (README: Commands).
public enum JobError: Error, Sendable, CustomStringConvertible {
    /// Invalid config or usage (64): the message names the file and key.
    case config(file: String, ConfigError)
    /// A usage problem not tied to one config key (64).
    case usage(String)
    /// Unreadable input or unwritable output (74).
    case io(IOError)
    /// Another run holds the lock (75).
    case locked(String)
    /// A temporary failure that outlasted the retries, e.g. the App Store Server API kept answering 503 (75).
    case temporary(String)
    /// A response the App Store Server API should not give: its status and an excerpt of its body (76).
    case unexpectedResponse(String)
    /// The App Store Server API refused the key: the message names the key id, never the key (77).
    case authentication(String)
    /// Anything else (1).
    case internalError(String)

    /// The job error of a run lock that could not be taken (75 when another run holds it, 74 otherwise).
    public init(_ failure: RunLock.Failure) {
        switch failure {
        case .io(let error): self = .io(error)
        case .held(let message): self = .locked(message)
        }
    }

    /// The process exit code.
    public var exitCode: Int32 {
        switch self {
        case .config, .usage: 64
        case .io: 74
        case .locked, .temporary: 75
        case .unexpectedResponse: 76
        case .authentication: 77
        case .internalError: 1
        }
    }

    /// The message printed after `winback: error: `.
    public var description: String {
        switch self {
        case .config(let file, let error): "invalid config \(file): \(error.key): \(error.message)"
        case .usage(let message): message
        case .io(let error): "I/O error: \(error)"
        case .locked(let message), .temporary(let message), .unexpectedResponse(let message), .authentication(let message): message
        case .internalError(let message): message
        }
    }
}
