import Foundation
import Testing
import WinbackAnalytics
import WinbackCrypto
import WinbackIngest
import WinbackJobs
import WinbackSampleData
import WinbackTestSupport

/// A notification whose nested renewal info belongs to another subscription than its nested transaction (or
/// that has no transaction at all): each nested record is kept by the shard of its own subscription, so N
/// shards and the merge publish the one-machine day, duplicates included, for N = 1…7 (issue 51).
@Suite(.serialized) struct CrossedNotificationShardTests {
    static let asOf = "2026-11-19"
    static let seed: UInt64 = 23

    /// A sample of 300 subscriptions plus `exports/notifications/crossed.ndjson`: 24 notifications re-signed with
    /// the next notification's renewal info, every third without its transaction; made once, by a task every test
    /// awaits (blocking a thread of the cooperative pool to wait for it could starve the pool).
    static let dataset = Task<URL?, Never> {
        guard let directory = try? CommandRunner.temporaryDirectory("crossed-notifications") else { return nil }
        _ = try? await SampleDataJob.run(outputDirectory: directory.path, subscriptions: 300, seed: seed)
        guard let lines = try? crossedNotifications(directory) else { return nil }
        let file = directory.appendingPathComponent("exports/notifications/crossed.ndjson")
        guard (try? Data(lines.joined(separator: "\n").appending("\n").utf8).write(to: file)) != nil else { return nil }
        return directory
    }

    /// The decoded payload of a compact JWS, as a Foundation object.
    static func payload(_ jws: String) throws -> [String: Any] {
        let segment = try #require(jws.split(separator: ".").dropFirst().first)
        let bytes = try #require(Base64.decodeURL(String(segment)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// The crossed notifications' NDJSON lines, signed with the dataset's TEST-ONLY leaf key under the original header.
    static func crossedNotifications(_ directory: URL) throws -> [String] {
        let compressed = try Data(contentsOf: directory.appendingPathComponent("exports/notifications/notifications.ndjson.gz"))
        let signed = try Gunzip.text(Array(compressed)).split(separator: "\n").compactMap { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["signedPayload"] as? String
        }
        let withRenewal = try signed.filter { (try payload($0)["data"] as? [String: Any])?["signedRenewalInfo"] != nil }
        let signer = JWSSigner(key: try TestPKI.key(seed: seed, label: "leaf"))
        var lines: [String] = []
        for (number, (jws, next)) in zip(withRenewal, withRenewal.dropFirst()).prefix(24).enumerated() {
            var notification = try payload(jws)
            var data = try #require(notification["data"] as? [String: Any])
            data["signedRenewalInfo"] = try #require((try payload(next)["data"] as? [String: Any])?["signedRenewalInfo"])
            if number % 3 == 2 { data["signedTransactionInfo"] = nil }
            notification["data"] = data
            notification["notificationUUID"] = "c0ffee00-0000-4000-8000-\(String(format: "%012d", number))"
            let header = Array(try #require(jws.split(separator: ".").first).utf8)
            let body = try JSONSerialization.data(withJSONObject: notification, options: [.sortedKeys])
            let crossed = try signer.sign(encodedHeader: header, payload: Array(body))
            lines.append("{\"signedPayload\":\"\(crossed)\"}")
        }
        return lines
    }

    @Test func theCrossedNotificationsVerifyAndSplitAcrossShards() async throws {
        let directory = try #require(await Self.dataset.value)
        let text = try String(contentsOf: directory.appendingPathComponent("exports/notifications/crossed.ndjson"), encoding: .utf8)
        let records = text.split(separator: "\n").map { line in
            RawRecord(
                location: RecordLocation(source: "crossed.ndjson", line: 1, path: nil),
                content: .signed(RecordText(String(line.dropFirst(18).dropLast(2))), .notification), text: RecordText(String(line)))
        }
        #expect(records.count == 24)
        // For every N > 1 some notification's renewal info falls in another shard than the notification: the
        // day below would differ without each part kept by its own shard.
        for count in 2...7 {
            #expect(
                records.contains { ShardRule.nestedRenewalShard(of: $0, count: count) != ShardRule.shard(of: $0, count: count) },
                "N = \(count)")
        }
        let single = try CommandRunner.temporaryDirectory("crossed-verify")
        let outcome = try await RunJob.run(
            SharedAccountShardTests.options(
                directory.appendingPathComponent("winback.json"), output: single, ledger: single.appendingPathComponent("l.sqlite")))
        #expect(outcome.exitCode == 0)
    }

    @Test(arguments: 1...7) func shardsAndMergePublishTheOneMachineDay(_ count: Int) async throws {
        let config = try #require(await Self.dataset.value).appendingPathComponent("winback.json")
        let work = try CommandRunner.temporaryDirectory("crossed-\(count)")
        let single = work.appendingPathComponent("single")
        _ = try await RunJob.run(
            SharedAccountShardTests.options(config, output: single, ledger: work.appendingPathComponent("single.sqlite")))
        try await SharedAccountShardTests.expectShardsAndMergePublish(single, config: config, count: count, work: work)
    }
}
