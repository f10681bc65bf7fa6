import ArgumentParser
import WinbackJobs

/// The program's entry: huge pages for the heap first (``MemoryRelease/restartWithHugePages()``, a re-exec
/// before any thread starts), then the command line as `AsyncParsableCommand.main()` runs it.
@main
enum Entry {
    static func main() async {
        MemoryRelease.restartWithHugePages()
        do {
            var command = try Winback.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Winback.exit(withError: error)
        }
    }
}
