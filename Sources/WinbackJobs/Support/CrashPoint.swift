import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Test hooks at named phases of a run (`signed`, `ledger`, `published`). Unset in production.
///
/// - `WINBACK_TEST_KILL_AT=<phase>` makes the process SIGKILL itself there, so tests can prove a crash
///   at any point leaves a consistent ledger and output.
/// - `WINBACK_TEST_PAUSE_AT=<phase>` makes it print `winback: test pause at <phase>` to standard error
///   and wait there, so a test can signal it at a known point instead of after a guessed delay.
package enum CrashPoint {
    static let phase = ProcessInfo.processInfo.environment["WINBACK_TEST_KILL_AT"]
    static let pausePhase = ProcessInfo.processInfo.environment["WINBACK_TEST_PAUSE_AT"]

    package static func reach(_ name: String) {
        if phase == name { kill(getpid(), SIGKILL) }
        if pausePhase == name {
            FileHandle.standardError.write(Data("winback: test pause at \(name)\n".utf8))
            while true { sleep(60) }
        }
    }
}
