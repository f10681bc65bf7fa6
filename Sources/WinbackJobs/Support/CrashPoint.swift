import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A test hook: `WINBACK_TEST_KILL_AT=<phase>` makes the process SIGKILL itself when it reaches that
/// phase (`signed`, `ledger`, `published`), so tests can prove a crash at any point leaves a consistent
/// ledger and output. Unset in production.
enum CrashPoint {
    static let phase = ProcessInfo.processInfo.environment["WINBACK_TEST_KILL_AT"]

    static func reach(_ name: String) {
        if phase == name { kill(getpid(), SIGKILL) }
    }
}
