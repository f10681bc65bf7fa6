import Foundation

/// Runs the built `winback` executable, as an operator would.
public struct CommandRunner {
    public struct Result: Sendable {
        public var exitCode: Int32
        public var stdout: String
        public var stderr: String
        /// The first line of stderr that is not a warning (the error message). Warnings, such as the one
        /// about the sample key's file mode in a fresh clone (git keeps no 0600), may come before it.
        public var firstErrorLine: String {
            stderr.split(separator: "\n").first { !$0.hasPrefix("warning: ") }.map(String.init) ?? ""
        }
    }

    /// The executable beside the test bundle (`.build/<config>/winback`).
    public static var executable: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("winback")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/winback")
    }

    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        try runProgram(executable.path, arguments, in: directory, environment: environment)
    }

    /// Starts `winback` with `arguments` in the background, its output discarded (a test that kills it).
    public static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs any program (a script, a shell) and collects its output.
    public static func runProgram(_ path: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:])
        throws -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// ``runProgram(_:_:in:environment:)`` waited for on a thread of its own, blocking none of Swift's cooperative
    /// threads (two on a 2-core machine): for a test whose in-process server answers the program on them, which a
    /// blocked pool would starve while other tests block the rest of it.
    public static func runProgramOffThePool(_ path: String, _ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try runProgram(path, arguments) }) }.start()
        }
    }

    /// A fresh temporary directory, removed when the test process exits (``TemporaryDirectories``).
    public static func temporaryDirectory(_ name: String) throws -> URL {
        try TemporaryDirectories.make(name)
    }
}
