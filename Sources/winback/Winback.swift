import ArgumentParser
import Foundation
import WinbackJobs

/// `winback`: the nightly App Store subscription analytics and win-back pipeline.
@main
struct Winback: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "winback",
        abstract: "Verify App Store exports, model subscriptions, report churn and sign win-back offers.",
        version: WinbackVersion.current,
        subcommands: [
            RunCommand.self, MergeCommand.self, SyncCommand.self, DeliverCommand.self, RefundsCommand.self, ServeCommand.self,
            VerifyCommand.self,
            SignCommand.self,
            SampleDataCommand.self,
            BenchCommand.self,
        ]
    )

    /// Parses and runs the subcommand. A bad flag, like every other failure, still ends stdout with a JSON
    /// summary line (`command`, `exitCode`, `error`); `--help` and `--version` print only their text.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if !(error is ExitCode), code != .success {
                let names = configuration.subcommands.compactMap { $0.configuration.commandName }
                let command = arguments.first.flatMap { names.contains($0) ? $0 : nil }
                let message = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "usage error"
                CommandSupport.writeStdout(CommandSupport.failureSummary(command: command, exitCode: code.rawValue, error: message))
            }
            exit(withError: error)
        }
    }
}
