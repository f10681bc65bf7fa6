import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackJobs
import WinbackTestSupport

/// The committed sample data, verified end to end.
@Suite struct SampleDataVerifyTests {
    static var sampleConfig: String { Fixtures.packageRoot.appendingPathComponent("jobs/sample.json").path }

    @Test func exactlyTheInjectedBadRecordsAreRejected() async throws {
        var lines: [String] = []
        let outcome = try await VerifyJob.run(configPath: Self.sampleConfig, isQuiet: true) { lines.append($0) }
        let counts = outcome.result.counts
        #expect(counts.read == counts.accepted + counts.rejected)
        #expect(outcome.exitCode == ExitStatus.success)

        let expected = try JSONParser.parse(
            Array(try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("sample-data/expected-rejects.json"))))
        guard case .array(let expectedElements) = expected else {
            Issue.record("expected-rejects.json is not an array")
            return
        }
        func key(_ value: JSONValue) -> String {
            let path = value["path"]?.stringValue ?? "-"
            let line: String
            if case .integer(let number)? = value["line"] { line = String(number) } else { line = "?" }
            return "\(value["source"]?.stringValue ?? ""):\(line):\(path):\(value["code"]?.stringValue ?? "")"
        }
        let expectedKeys = expectedElements.map { "../sample-data/" + key($0.value) }.sorted()
        let actual = try lines.map { try JSONParser.parse($0) }
        #expect(actual.map(key).sorted() == expectedKeys)
        #expect(Set(actual.compactMap { $0["code"]?.stringValue }).count == RejectCode.allCases.count)
        #expect(actual.allSatisfy { $0["record"]?.stringValue != nil && $0["message"]?.stringValue?.isEmpty == false })
    }

    @Test func everySourceIsCountedAndDuplicatesAreFound() async throws {
        let outcome = try await VerifyJob.run(configPath: Self.sampleConfig, isQuiet: true) { _ in }
        let result = outcome.result
        #expect(result.inputs.count == 12)
        #expect(result.counts.recordsBySource.values.reduce(0, +) == result.counts.read)
        #expect(result.counts.duplicates > 0)
        #expect(result.counts.warnings == 1)
        #expect(result.chainValidations == 5)
        #expect(result.inputs.allSatisfy { $0.sha256.count == 64 && $0.bytes > 0 })
    }
}
