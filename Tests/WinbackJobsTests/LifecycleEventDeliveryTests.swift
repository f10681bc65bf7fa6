import Crypto
import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackIO
import WinbackTestSupport

@testable import WinbackJobs
@testable import WinbackRemote

/// Lifecycle events (docs/deliveries.md: Lifecycle events) from `winback run` to every sink of `winback deliver`: the
/// published file's stable ids; each event once per sink in its own batches, in each tool's shape and limits, with the
/// account's offer of the day; nothing again on a re-run; a failing sink resumed alone; bad `delivery.events` refused.
@Suite struct LifecycleEventDeliveryTests {
    static let asOf = DeliverTests.asOf
    static let kinds = LifecycleEvent.Kind.allCases

    /// The sample day published with all three sinks on loopback mocks and every event type, and its
    /// `lifecycle_events.ndjson.gz` replaced by `count` crafted events (the sample day has few): every fifth one of
    /// an account that has an offer today, every other one with an `appAccountToken`.
    static func publishedDay(
        _ name: String, receiver: MockWebhookReceiver, segment: MockMarketingAPI, braze: MockMarketingAPI, count: Int
    ) async throws -> (config: URL, events: [LifecycleEvent], offers: [String: String]) {
        let events = (["\"offers\""] + kinds.map { "\"\($0.rawValue)\"" }).joined(separator: ", ")
        let config = try SampleConfig.copy(name) { text in
            text.replacingOccurrences(
                of: #""ledger":"#,
                with: #""delivery": { "events": [\#(events)], "webhook": { "url": "\#(receiver.url)", "secretFile": "webhook.secret", "#
                    + #""batchSize": 7, "timeoutSeconds": 5 }, "#
                    + #""segment": { "url": "\#(segment.baseURL)/v1/batch", "writeKeyFile": "segment.key", "timeoutSeconds": 5 }, "#
                    + #""braze": { "restEndpoint": "\#(braze.baseURL)", "apiKeyFile": "braze.key", "timeoutSeconds": 5 } },"#
                    + "\n  " + #""ledger":"#)
        }
        let directory = config.deletingLastPathComponent()
        try (DeliverTests.secret + "\n").write(to: directory.appendingPathComponent("webhook.secret"), atomically: true, encoding: .utf8)
        try (MarketingSinkTests.writeKey + "\n").write(
            to: directory.appendingPathComponent("segment.key"), atomically: true, encoding: .utf8)
        try (MarketingSinkTests.apiKey + "\n").write(to: directory.appendingPathComponent("braze.key"), atomically: true, encoding: .utf8)
        let outcome = try await RunJob.run(RunOptions(configPath: config.path, asOf: asOf, isQuiet: true))
        #expect(outcome.exitCode == 0)

        var offers: [String: String] = [:]
        for line in try DeliverTests.offerLines(config) {
            let key = try JSONParser.parse(Array(line.utf8))["accountKey"]?.stringValue ?? ""
            if offers[key] == nil { offers[key] = line }
        }
        let offered = offers.keys.sorted()
        let start = InstantFormat.days(year: 2026, month: 11, day: 19) * InstantFormat.day
        let crafted = (0..<count).map { index in
            let token = index % 2 == 0 ? String(format: "00000000-0000-4000-8000-%012d", index) : nil
            let accountKey = index % 5 == 0 ? offered[index % offered.count] : token ?? "9\(index)"
            return LifecycleEvent(
                kind: kinds[index % kinds.count], occurredAt: start + Int64(index) * 1000, originalTransactionId: "9\(index)",
                accountKey: accountKey, appAccountToken: token, productId: "com.example.winback.monthly", storefront: "USA",
                reason: index % kinds.count == 2 ? .voluntary : nil)
        }
        let day = directory.appendingPathComponent("out/dt=\(asOf)").path
        try FileManager.default.removeItem(atPath: day + "/lifecycle_events.ndjson.gz")
        _ = try LifecycleEventsFile.write(crafted.map { $0.line(id: LifecycleEventsFile.id($0)) }, directory: day)
        return (config, crafted, offers)
    }

    static func mocks() throws -> (MockWebhookReceiver, MockMarketingAPI, MockMarketingAPI) {
        let (segment, braze) = try MarketingSinkTests.mocks()
        return (try MockWebhookReceiver(secret: Array(DeliverTests.secret.utf8)), segment, braze)
    }

    /// The members of a JSON array `name` in `body`.
    static func list(_ body: String, _ name: String) throws -> [JSONValue] {
        guard case .array(let items)? = try JSONParser.parse(Array(body.utf8))[name] else { return [] }
        return items.map(\.value)
    }

    @Test func theRunPublishesTheDaysEventsWithStableIds() async throws {
        let config = try SampleConfig.copy("events-run")
        let day = "2026-11-05"
        let outcome = try await RunJob.run(RunOptions(configPath: config.path, asOf: day, isQuiet: true))
        let file = config.deletingLastPathComponent().appendingPathComponent("out/dt=\(day)/lifecycle_events.ndjson.gz")
        let lines = try Gunzip.text(Array(try Data(contentsOf: file))).split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        // The sample's 2026-11-05: one subscription turned auto-renew off, one lapsed.
        #expect(outcome.exitCode == 0)
        #expect(lines.compactMap { $0["type"]?.stringValue }.sorted() == ["subscription.auto_renew_disabled", "subscription.expired"])
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for line in lines {
            let occurredAt = try #require(line["occurredAt"]?.stringValue.flatMap(parser.date(from:)))
            #expect(occurredAt.timeIntervalSince1970 >= 1_793_836_800 && occurredAt.timeIntervalSince1970 < 1_793_923_200)
            let identity =
                "\(line["type"]?.stringValue ?? ""):\(line["originalTransactionId"]?.stringValue ?? ""):\(Int64(occurredAt.timeIntervalSince1970 * 1000))"
            let digest = SHA256.hash(data: Array(identity.utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(line["id"] == .string(String(digest.prefix(32))))
            #expect(line.objectMembers?.map(\.key) == ReportSchema.lifecycleEvents.columns.map(\.name))
        }
    }

    @Test func everyEventReachesEverySinkOnceInItsShape() async throws {
        let (receiver, segment, braze) = try Self.mocks()
        defer { receiver.stop(); segment.stop(); braze.stop() }
        let (config, events, offers) = try await Self.publishedDay(
            "events-sinks", receiver: receiver, segment: segment, braze: braze, count: 200)
        let outcome = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
        let ids = Set(events.map(LifecycleEventsFile.id))

        // The webhook: per type, batches of 7 typed by the event type, keyed <type>/<D>/<n>, signed both ways.
        let eventBatches = receiver.deliveries.filter { $0.isAcknowledged && $0.key.hasPrefix("subscription.") }
        #expect(eventBatches.allSatisfy { $0.isSigned })
        var sent: [String] = []
        for kind in Self.kinds {
            let batches = eventBatches.filter { $0.key.hasPrefix(kind.rawValue + "/") }
            let expected = events.filter { $0.kind == kind }
            #expect(batches.map(\.key) == (0..<(expected.count + 6) / 7).map { "\(kind.rawValue)/\(Self.asOf)/\($0)" })
            for (number, batch) in batches.enumerated() {
                let body = try JSONParser.parse(Array(batch.body.utf8))
                #expect(body.objectMembers?.map(\.key) == ["type", "asOf", "batch", "events"])
                #expect(body["type"] == .string(kind.rawValue) && body["batch"] == .integer(Int64(number)))
                for event in try Self.list(batch.body, "events") {
                    sent.append(event["id"]?.stringValue ?? "")
                    #expect(event["type"] == .string(kind.rawValue))
                    // The account's offer of the day, or null.
                    let offer = try offers[event["accountKey"]?.stringValue ?? ""].map {
                        JSONText.render(try JSONParser.parse(Array($0.utf8)))
                    }
                    #expect(event["offer"].map(JSONText.render) == (offer ?? "null"))
                }
            }
        }
        #expect(sent.count == events.count && Set(sent) == ids)
        #expect(events.contains { offers[$0.accountKey] != nil })

        // Segment: every event once, messageId its id, its name, userId or anonymousId.
        let calls = try segment.requests.filter { $0.status == 200 }.flatMap { try Self.list($0.body, "batch") }
        let eventCalls = calls.filter { $0["event"]?.stringValue != "Winback Offer Selected" }
        #expect(eventCalls.count == events.count && Set(eventCalls.compactMap { $0["messageId"]?.stringValue }) == ids)
        for call in eventCalls {
            let event = try #require(events.first { LifecycleEventsFile.id($0) == call["messageId"]?.stringValue })
            #expect(
                call["event"] == .string(event.kind.segmentName)
                    && call["timestamp"] == .string(InstantFormat.iso8601(milliseconds: event.occurredAt)))
            #expect(event.appAccountToken.map { call["userId"] == .string($0) } ?? (call["anonymousId"] == .string(event.accountKey)))
            #expect(call["properties"]?["id"] == call["messageId"])
        }

        // Braze: events with a token only, at most 75 a request, named subscription_….
        let brazeEvents = try braze.requests.filter { $0.status == 200 }.flatMap { request in
            let list = try Self.list(request.body, "events")
            #expect(list.count <= BrazeBatch.maximumEvents)
            return list
        }.filter { $0["name"]?.stringValue != "winback_offer_selected" }
        let withToken = events.filter { $0.appAccountToken != nil }
        #expect(brazeEvents.count == withToken.count)
        #expect(Set(brazeEvents.compactMap { $0["properties"]?["id"]?.stringValue }) == Set(withToken.map(LifecycleEventsFile.id)))
        #expect(brazeEvents.allSatisfy { event in Self.kinds.contains { $0.brazeName == event["name"]?.stringValue } })

        #expect(outcome.counts("webhook")?.events == events.count && outcome.counts("segment")?.events == events.count)
        #expect(outcome.counts("braze")?.events == withToken.count && outcome.events == 2 * events.count + withToken.count)
        #expect(outcome.summary["events"] == .integer(Int64(outcome.events)))

        // Again: nothing is sent to any sink.
        let before = (receiver.deliveries.count, segment.requests.count, braze.requests.count)
        let again = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
        #expect(again.batches == 0 && again.events == 0)
        #expect((receiver.deliveries.count, segment.requests.count, braze.requests.count) == before)
    }

    @Test func aSinkThatFailsOnEventsIsResumedAloneWithoutRepeats() async throws {
        let (receiver, segment, braze) = try Self.mocks()
        defer { receiver.stop(); segment.stop(); braze.stop() }
        let (config, events, _) = try await Self.publishedDay(
            "events-resume", receiver: receiver, segment: segment, braze: braze, count: 400)
        // Braze takes the offers' batches and two of events, then fails six times (75): the rest waits.
        let withToken = events.filter { $0.appAccountToken != nil }.count
        let offerBatches = (try DeliverTests.offerLines(config).filter { $0.contains(#""appAccountToken":""#) }.count + 74) / 75
        braze.answer(Array(repeating: 200, count: offerBatches + 2) + Array(repeating: 503, count: 6))
        do {
            _ = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
            Issue.record("a failing sink did not fail the delivery")
        } catch {
            #expect(error.exitCode == 75)
        }
        let (webhookBefore, segmentBefore) = (receiver.deliveries.count, segment.requests.count)
        let outcome = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
        #expect(receiver.deliveries.count == webhookBefore && segment.requests.count == segmentBefore)
        #expect(outcome.counts("braze")?.alreadyDelivered == offerBatches + 2)
        let delivered = try braze.requests.filter { $0.status == 200 }.flatMap { try Self.list($0.body, "events") }
            .compactMap { $0["properties"]?["id"]?.stringValue }
        #expect(delivered.count == Set(delivered).count + 0 && Set(delivered).count == withToken)
    }

    @Test func aDayPublishedWithoutEventsIs74NamingTheFile() async throws {
        let (receiver, segment, braze) = try Self.mocks()
        defer { receiver.stop(); segment.stop(); braze.stop() }
        let (config, _, _) = try await Self.publishedDay("events-missing", receiver: receiver, segment: segment, braze: braze, count: 1)
        let file = config.deletingLastPathComponent().appendingPathComponent("out/dt=\(Self.asOf)/lifecycle_events.ndjson.gz")
        try FileManager.default.removeItem(at: file)
        do {
            _ = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
            Issue.record("a missing events file was not refused")
        } catch {
            #expect(error.exitCode == 74 && error.description.contains("lifecycle_events.ndjson.gz"))
        }
        #expect(receiver.deliveries.isEmpty && segment.requests.isEmpty && braze.requests.isEmpty)
    }

    @Test(arguments: [
        (#"["offers", "subscription.churned"]"#, "delivery.events[1]"),
        (#"["subscription.expired", "subscription.expired"]"#, "delivery.events[1]"),
        (#"[]"#, "delivery.events"),
        (#""offers""#, "delivery.events"),
    ])
    func badEventsAreAConfigErrorNamingTheKey(_ events: String, _ key: String) throws {
        let config = try SampleConfig.copy("events-config") { text in
            text.replacingOccurrences(
                of: #""ledger":"#,
                with: #""delivery": { "events": \#(events), "segment": { "writeKeyFile": "k" } },"# + "\n  " + #""ledger":"#)
        }
        let result = try CommandRunner.run(["deliver", "--config", config.path, "--as-of", Self.asOf])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains(key), "\(result.firstErrorLine)")
    }
}
