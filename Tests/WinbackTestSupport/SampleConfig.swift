import Foundation
import Synchronization

/// Copies of `jobs/sample.json` for tests: absolute sample-data paths, and a private output directory and
/// ledger, so tests running in parallel never share state.
public enum SampleConfig {
    /// Writes `<temp>/config.json` with `edit` applied; returns the config URL (its directory holds out/ and state/).
    public static func copy(_ name: String, edit: (String) -> String = { $0 }) throws -> URL {
        let directory = try CommandRunner.temporaryDirectory(name)
        let root = Fixtures.packageRoot
        let text = try String(contentsOf: root.appendingPathComponent("jobs/sample.json"), encoding: .utf8)
            .replacingOccurrences(of: "../sample-data", with: root.appendingPathComponent("sample-data").path)
            .replacingOccurrences(of: "\"../state/ledger.sqlite\"", with: "\"state/ledger.sqlite\"")
            .replacingOccurrences(of: "\"../out\"", with: "\"out\"")
        let url = directory.appendingPathComponent("config.json")
        try edit(text).write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

/// Deterministic nonces for tests: `00000000-0000-4000-8000-000000000001`, `…002`, ….
public final class SequentialNonce: Sendable {
    private let counter = Atomic<Int>(0)

    public init() {}

    public func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        let digits = String(value)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
}
