import Foundation
import Synchronization
import Testing
import WinbackAppStore
import WinbackJobs
import WinbackRemote
import WinbackTestSupport

/// `winback deliver` (docs/deliveries.md) against ``MockWebhookReceiver`` on loopback: every offer line of the day
/// acknowledged in exactly one batch across 429, 500, a timeout, a dropped connection and a kill; a refused
/// batch is 76 naming it; the signature verifies and the secret stays out of output.
@Suite struct DeliverTests {
    static let secret = "s3cret-for-tests-only"
    static let asOf = "2026-11-19"

    /// A sample config with a `delivery` block for `receiver` (the secret file ends in a newline, which is not
    /// part of the secret), run for the day.
    static func publishedDay(_ name: String, receiver: MockWebhookReceiver, batchSize: Int = 3) async throws -> URL {
        let config = try SampleConfig.copy(name) { text in
            text.replacingOccurrences(
                of: #""ledger":"#,
                with: #""delivery": { "webhook": { "url": "\#(receiver.url)", "secretFile": "webhook.secret", "batchSize": \#(batchSize), "#
                    + #""timeoutSeconds": 5 } },"# + "\n  " + #""ledger":"#)
        }
        try (secret + "\n").write(
            to: config.deletingLastPathComponent().appendingPathComponent("webhook.secret"), atomically: true, encoding: .utf8)
        let outcome = try await RunJob.run(RunOptions(configPath: config.path, asOf: asOf, isQuiet: true))
        #expect(outcome.exitCode == 0)
        return config
    }

    static func options(_ config: URL) -> DeliverOptions {
        var options = DeliverOptions(
            configPath: config.path, asOf: asOf, sleep: { _ in }, jitter: { 0.5 }, environment: [:])
        options.retryPolicy = RetryPolicy(maxAttempts: 6, baseDelay: 0.01, maxDelay: 1, maxRetryAfter: 300)
        options.isQuiet = true
        return options
    }

    /// The day's offer lines, in file order.
    static func offerLines(_ config: URL) throws -> [String] {
        let file = config.deletingLastPathComponent().appendingPathComponent("out/dt=\(asOf)/offers.ndjson.gz")
        return try Gunzip.text(Array(try Data(contentsOf: file))).split(separator: "\n").map(String.init)
    }

    /// The offer lines the receiver acknowledged, one batch per key (the first acknowledgement of a key),
    /// in request order; and how many keys it acknowledged more than once.
    static func acknowledged(_ receiver: MockWebhookReceiver) throws -> (lines: [String], repeats: Int, keys: [String]) {
        var seen = Set<String>()
        var lines: [String] = []
        var repeats = 0
        var keys: [String] = []
        for delivery in receiver.deliveries where delivery.isAcknowledged {
            guard seen.insert(delivery.key).inserted else {
                repeats += 1
                continue
            }
            keys.append(delivery.key)
            let body = try JSONParser.parse(Array(delivery.body.utf8))
            guard case .array(let offers)? = body["offers"] else { throw FixtureError(description: "a batch without offers") }
            lines += offers.map { JSONText.render($0.value) }
        }
        return (lines, repeats, keys)
    }

    @Test func everyOfferIsAcknowledgedOnceAcrossFaults() async throws {
        let receiver = try MockWebhookReceiver(secret: Array(Self.secret.utf8))
        defer { receiver.stop() }
        let config = try await Self.publishedDay("deliver", receiver: receiver, batchSize: 1)
        let expected = try Self.offerLines(config)
        #expect(expected.count > 6)
        // One fault per batch (each then succeeds on its second attempt), so a slow test machine cannot make one
        // batch use up its six attempts.
        receiver.inject([.none, .status(429), .none, .status(500), .none, .stall(8), .none, .drop, .none, .status(503)])
        let logs = LogLines()
        var options = Self.options(config)
        options.isQuiet = false
        let outcome = try await DeliverJob.run(options) { logs.append($0) }
        let (lines, repeats, keys) = try Self.acknowledged(receiver)
        // Lines compared as parsed JSON: the receiver re-renders them.
        #expect(lines.map { try? JSONParser.parse(Array($0.utf8)) } == expected.map { try? JSONParser.parse(Array($0.utf8)) })
        #expect(repeats == 0 && receiver.deliveries.allSatisfy(\.isSigned))
        #expect(outcome.offers == expected.count && outcome.batches == keys.count && outcome.retries >= 5 && outcome.alreadyDelivered == 0)
        #expect(receiver.deliveries.count == outcome.batches + outcome.retries)
        #expect(keys.first?.hasSuffix("/\(Self.asOf)/0") == true)
        let body = try JSONParser.parse(Array((receiver.deliveries.first { $0.isAcknowledged }?.body ?? "").utf8))
        #expect(body["asOf"] == .string(Self.asOf) && body["batch"] == .integer(0))
        #expect(!logs.all.joined().contains(Self.secret))

        // Again: everything was delivered; nothing is sent.
        let requests = receiver.deliveries.count
        let again = try await DeliverJob.run(Self.options(config)) { _ in }
        #expect(again.batches == 0 && again.offers == 0 && again.alreadyDelivered == keys.count)
        #expect(receiver.deliveries.count == requests)
    }

    @Test func aReceiverThatDropsConnectionsSeesExactlyTheSummarysRetries() async throws {
        let receiver = try MockWebhookReceiver(secret: Array(Self.secret.utf8))
        defer { receiver.stop() }
        let config = try await Self.publishedDay("deliver-drops", receiver: receiver, batchSize: 1)
        // Each of the first batches dropped once or twice before it is answered: 7 drops in all.
        receiver.inject([.drop, .none, .drop, .drop, .none, .drop, .none, .drop, .drop, .none, .drop, .none])
        let outcome = try await DeliverJob.run(Self.options(config)) { _ in }
        let (_, repeats, keys) = try Self.acknowledged(receiver)
        #expect(repeats == 0 && outcome.batches == keys.count)
        // Every request the receiver saw is an acknowledged batch or a retry the summary counts: no phantom request.
        #expect(outcome.retries == 7)
        #expect(receiver.deliveries.count == outcome.batches + outcome.retries)
        let signed = receiver.deliveries.allSatisfy(\.isSigned)
        #expect(signed)
    }

    @Test func aWhsecSecretSignsWithItsDecodedKey() async throws {
        let key: [UInt8] = Array("a key of thirty-two bytes, exact".utf8)
        let receiver = try MockWebhookReceiver(secret: key)
        defer { receiver.stop() }
        let config = try await Self.publishedDay("deliver-whsec", receiver: receiver, batchSize: 50)
        try ("whsec_" + Data(key).base64EncodedString() + "\n").write(
            to: config.deletingLastPathComponent().appendingPathComponent("webhook.secret"), atomically: true, encoding: .utf8)
        let outcome = try await DeliverJob.run(Self.options(config)) { _ in }
        let signed = receiver.deliveries.allSatisfy(\.isSigned)
        #expect(outcome.batches > 0 && receiver.deliveries.count == outcome.batches && signed)
        let body = try JSONParser.parse(Array((receiver.deliveries.first?.body ?? "").utf8))
        #expect(body["type"] == .string("offers.selected"))

        // A whsec_ secret whose key is not base64 is the config's error, naming the key.
        try "whsec_not base64!\n".write(
            to: config.deletingLastPathComponent().appendingPathComponent("webhook.secret"), atomically: true, encoding: .utf8)
        do {
            _ = try await DeliverJob.run(Self.options(config)) { _ in }
            Issue.record("a whsec_ secret that is not base64 was accepted")
        } catch {
            #expect(error.exitCode == 64 && error.description.contains("delivery.webhook.secretFile"), "\(error)")
        }
    }

    @Test func aRefusedBatchExits76NamingItAndTheRestFollowLater() async throws {
        let receiver = try MockWebhookReceiver(secret: Array(Self.secret.utf8))
        defer { receiver.stop() }
        let config = try await Self.publishedDay("deliver-400", receiver: receiver)
        receiver.inject([.none, .status(400)])
        var error: JobError?
        do {
            _ = try await DeliverJob.run(Self.options(config)) { _ in }
        } catch let thrown {
            error = thrown
        }
        #expect(
            error?.exitCode == 76 && error?.description.contains("/\(Self.asOf)/1 with HTTP 400") == true, "\(String(describing: error))")
        let later = try await DeliverJob.run(Self.options(config)) { _ in }
        #expect(later.alreadyDelivered == 1)
        let (lines, repeats, _) = try Self.acknowledged(receiver)
        #expect(lines.count == (try Self.offerLines(config)).count && repeats == 0)
    }

    /// `kill -9` mid-delivery, then deliver again: every batch acknowledged, none recorded twice; at most
    /// the batch in flight at the kill reaches the receiver twice (same key and body: it deduplicates).
    @Test func killNineThenDeliverAgain() async throws {
        let receiver = try MockWebhookReceiver(secret: Array(Self.secret.utf8))
        defer { receiver.stop() }
        let config = try await Self.publishedDay("deliver-kill", receiver: receiver, batchSize: 1)
        let expected = try Self.offerLines(config)
        receiver.inject(Array(repeating: .slow(0.2), count: expected.count))
        let arguments = ["deliver", "--config", config.path, "--as-of", Self.asOf, "--quiet"]
        let process = try CommandRunner.start(arguments)
        for _ in 0..<200 where receiver.deliveries.count < 3 { try await Task.sleep(nanoseconds: 50_000_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(receiver.deliveries.count < expected.count, "the first deliver finished before it was killed")
        let again = try CommandRunner.run(arguments)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let (lines, repeats, _) = try Self.acknowledged(receiver)
        #expect(lines.map { try? JSONParser.parse(Array($0.utf8)) } == expected.map { try? JSONParser.parse(Array($0.utf8)) })
        #expect(repeats <= 1)
        let summary = try JSONParser.parse(Array(again.stdout.utf8))
        #expect(summary["command"] == .string("deliver") && summary["alreadyDelivered"] != .integer(0), "\(again.stdout)")
        #expect(!again.stdout.contains(Self.secret) && !again.stderr.contains(Self.secret))
    }

    @Test func withoutADeliveryBlockOrAPublishedDay() async throws {
        let plain = try SampleConfig.copy("deliver-none")
        var error: JobError?
        do {
            _ = try await DeliverJob.run(Self.options(plain)) { _ in }
        } catch let thrown {
            error = thrown
        }
        #expect(error?.exitCode == 64 && error?.description.contains("delivery") == true)
        let receiver = try MockWebhookReceiver(secret: Array(Self.secret.utf8))
        defer { receiver.stop() }
        let config = try await Self.publishedDay("deliver-unpublished", receiver: receiver)
        var options = Self.options(config)
        options.asOf = "2026-11-18"
        do {
            _ = try await DeliverJob.run(options) { _ in }
            error = nil
        } catch let thrown {
            error = thrown
        }
        #expect(error?.exitCode == 74 && error?.description.contains("not published") == true, "\(String(describing: error))")
        #expect(receiver.deliveries.isEmpty)
    }
}
