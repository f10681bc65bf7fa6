import ArgumentParser
import Foundation
import WinbackIO
import WinbackJobs

/// Output and error handling shared by the subcommands.
enum CommandSupport {
    static func writeStdout(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func writeStderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Runs `body`, turning a ``JobError`` (or a file error from WinbackIO, exit 74) into its message and exit code.
    static func run(_ body: () async throws -> Int32) async throws {
        MemoryRelease.configureHeap()
        let code: Int32
        do {
            code = try await body()
        } catch let error as JobError {
            writeStderr("winback: error: \(error.description)\n")
            throw ExitCode(error.exitCode)
        } catch let error as IOError {
            let jobError = JobError.io(error)
            writeStderr("winback: error: \(jobError.description)\n")
            throw ExitCode(jobError.exitCode)
        } catch let error as ExitCode {
            throw error
        } catch {
            writeStderr("winback: error: \(error)\n")
            throw ExitCode(ExitStatus.failure)
        }
        if code != ExitStatus.success { throw ExitCode(code) }
    }
}
