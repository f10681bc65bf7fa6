import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directories tests make under the system temporary directory, removed when the test process exits,
/// whether their tests passed or not. `WINBACK_KEEP_TEST_FILES=1` keeps them, to look at a failure.
enum TemporaryDirectories {
    private static let made = Mutex<[URL]>([])
    /// Registers the removal once, on first use.
    private static let removalAtExit: Void = {
        atexit { TemporaryDirectories.removeAll() }
    }()

    /// A fresh, empty directory `winback-<name>-<UUID>`.
    static func make(_ name: String) throws -> URL {
        _ = removalAtExit
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("winback-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        made.withLock { $0.append(url) }
        return url
    }

    private static func removeAll() {
        guard ProcessInfo.processInfo.environment["WINBACK_KEEP_TEST_FILES"] != "1" else { return }
        for url in made.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}
