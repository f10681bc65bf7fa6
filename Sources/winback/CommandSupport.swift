import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif
import WinbackJobs

/// Output and error handling shared by the subcommands.
enum CommandSupport {
    static func writeStdout(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func writeStderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Runs `body`, turning a ``JobError`` into its message and exit code.
    static func run(_ body: () async throws -> Int32) async throws {
        #if canImport(Glibc)
        // One malloc arena for all threads. The ingest workers allocate the deduplicated store and the
        // model is built on another thread; with per-thread arenas the store's freed memory was not reused
        // for the model and a 10 M-transaction run peaked 1.5 GB higher. No measurable cost on ingest.
        // mallopt is in <malloc.h>, which the Glibc module does not export: look it up. M_ARENA_MAX is -8.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: Mallopt.self)(-8, 1)
        }
        #endif
        let code: Int32
        do {
            code = try await body()
        } catch let error as JobError {
            writeStderr("winback: error: \(error.description)\n")
            throw ExitCode(error.exitCode)
        } catch let error as ExitCode {
            throw error
        } catch {
            writeStderr("winback: error: \(error)\n")
            throw ExitCode(ExitStatus.failure)
        }
        if code != ExitStatus.success { throw ExitCode(code) }
    }
}
