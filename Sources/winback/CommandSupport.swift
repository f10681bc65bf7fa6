import ArgumentParser
import Foundation
import Logging
import WinbackAppStore
import WinbackIO
import WinbackJobs

/// Output and error handling shared by the subcommands.
enum CommandSupport {
    static func writeStdout(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The process's logger (``Diagnostics/logger``): everything the commands say on stderr.
    static var logger: Logger { Diagnostics.logger }

    /// A line from a job's log: a warning (`warning: …`) at `warning`, anything else (progress) at `info`.
    static func say(_ line: String) {
        if line.hasPrefix("warning") { logger.warning("\(line)") } else { logger.info("\(line)") }
    }

    /// The summary line of a command that failed: stdout's last line is a JSON object on every exit.
    static func failureSummary(command: String?, exitCode: Int32, error: String) -> String {
        JSONText.render(
            JSONText.object([
                ("command", command.map(JSONValue.string) ?? .null), ("exitCode", .integer(Int64(exitCode))), ("error", .string(error)),
            ]))
    }

    /// Runs `body`, turning a ``JobError`` (or a file error from WinbackIO, exit 74) into its message on
    /// stderr, a JSON summary line on stdout and its exit code. With `metricsFile`, what the command counted is
    /// written there when it ends, whatever its exit code (``MetricsFile``); a file that cannot be written is 74.
    /// On stderr, `level` and up (``StderrLogHandler``): `.warning` for `--quiet`, `.debug` for `--verbose`.
    static func run(
        command: String, level: Logger.Level = .info, metricsFile: String? = nil, _ body: () async throws -> Int32
    ) async throws {
        MemoryRelease.configureHeap()
        Diagnostics.bootstrap(level: level)
        let metrics = metricsFile.map { MetricsFile.start(path: $0, command: command) }
        let code: Int32
        do {
            code = try await body()
            try metrics?.write(exitCode: code, now: Date())
        } catch let error as ExitCode {
            throw error
        } catch {
            let jobError: JobError =
                switch error {
                case let error as JobError: error
                case let error as IOError: .io(error)
                default: .internalError("\(error)")
                }
            logger.error("winback: error: \(jobError.description)")
            do {
                try metrics?.write(exitCode: jobError.exitCode, now: Date())
            } catch {
                logger.error("winback: error: --metrics-file: \(error)")
            }
            writeStdout(failureSummary(command: command, exitCode: jobError.exitCode, error: jobError.description))
            throw ExitCode(jobError.exitCode)
        }
        if code != ExitStatus.success { throw ExitCode(code) }
    }
}

extension Logger.Level {
    /// What a command shows on stderr: `--verbose` every reject (`debug`), `--quiet` warnings and errors (the jobs
    /// say nothing else when quiet, and warn then only of what must not go unseen, such as a key readable by others),
    /// else progress.
    static func shown(quiet: Bool, verbose: Bool = false) -> Logger.Level {
        verbose ? .debug : quiet ? .warning : .info
    }
}
