import Foundation
import Synchronization
import Testing
import WinbackIngest
import WinbackTestSupport

@testable import WinbackJobs

/// A verified store that cannot take entries (docs/inputs.md, issue 44): the night goes on with the same
/// results, and the operator is told once, naming the store, the first file and the reason.
@Suite struct StoreWriteFailureTests {
    @Test func anEntryThatCannotBeWrittenIsAWarningNamingTheFileAndTheReason() async throws {
        let loaded = try LoadedConfig.load(path: RunGoldenTests.sampleConfig)
        let directory = try CommandRunner.temporaryDirectory("store-gone").appendingPathComponent("verified")
        let store = try VerifiedStore(directory: directory.path, verifierDigest: VerifiedStore.verifierDigest(loaded.ingestSettings))
        // The store's directory disappears after it was opened (a volume unmounted, a clean-up job).
        try FileManager.default.removeItem(at: directory)
        let warnings = Mutex<[String]>([])
        let (files, _) = try InputDiscovery.discover(loaded)
        let result = try await IngestStage.run(
            loaded.ingestSettings, files: files, isQuiet: true, store: store, warn: { message in warnings.withLock { $0.append(message) } }
        ) { _, _ in }
        #expect(result.counts.read == 3942)
        let said = warnings.withLock { $0 }
        #expect(said.count == 2, "\(said)")
        let first = try #require(said.first)
        #expect(
            first.contains(directory.path) && first.contains("was not written") && first.contains("No such file or directory"), "\(first)")
        #expect(said.last == "verified store \(directory.path): 11 more entries not written")
        #expect(store.writeFailure(path: result.inputs[0].path) != nil)
    }
}
