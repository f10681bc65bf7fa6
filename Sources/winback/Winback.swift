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
        subcommands: [RunCommand.self, VerifyCommand.self, SignCommand.self, SampleDataCommand.self, BenchCommand.self]
    )
}
