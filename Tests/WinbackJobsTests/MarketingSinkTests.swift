import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackTestSupport

@testable import WinbackJobs
@testable import WinbackRemote

/// `winback deliver` to Segment and Braze (docs/deliveries.md) against loopback mocks of their APIs: auth, the
/// documented shapes and limits, every offer once per sink, a failing sink never blocking another and resumed alone.
@Suite struct MarketingSinkTests {
    static let writeKey = "segment-write-key-for-tests"
    static let apiKey = "braze-rest-api-key-for-tests"

    /// The sample day published with `delivery.segment` and `delivery.braze` pointing at the mocks.
    static func publishedDay(_ name: String, segment: MockMarketingAPI, braze: MockMarketingAPI) async throws -> URL {
        let config = try SampleConfig.copy(name) { text in
            text.replacingOccurrences(
                of: #""ledger":"#,
                with:
                    #""delivery": { "segment": { "url": "\#(segment.baseURL)/v1/batch", "writeKeyFile": "segment.key", "timeoutSeconds": 5 }, "#
                    + #""braze": { "restEndpoint": "\#(braze.baseURL)/", "apiKeyFile": "braze.key", "timeoutSeconds": 5 } },"#
                    + "\n  " + #""ledger":"#)
        }
        let directory = config.deletingLastPathComponent()
        try (writeKey + "\n").write(to: directory.appendingPathComponent("segment.key"), atomically: true, encoding: .utf8)
        try (apiKey + "\n").write(to: directory.appendingPathComponent("braze.key"), atomically: true, encoding: .utf8)
        let outcome = try await RunJob.run(RunOptions(configPath: config.path, asOf: DeliverTests.asOf, isQuiet: true))
        #expect(outcome.exitCode == 0)
        return config
    }

    static func mocks() throws -> (segment: MockMarketingAPI, braze: MockMarketingAPI) {
        (
            try MockMarketingAPI(authorization: "Basic " + Data((writeKey + ":").utf8).base64EncodedString()),
            try MockMarketingAPI(authorization: "Bearer " + apiKey)
        )
    }

    /// The offers, parsed, in file order.
    static func offers(_ config: URL) throws -> [JSONValue] {
        try DeliverTests.offerLines(config).map { try JSONParser.parse(Array($0.utf8)) }
    }

    @Test func everyOfferReachesSegmentAndBrazeOnceInTheirShapes() async throws {
        let (segment, braze) = try Self.mocks()
        defer { segment.stop(); braze.stop() }
        let config = try await Self.publishedDay("sinks", segment: segment, braze: braze)
        let offers = try Self.offers(config)
        let withToken = offers.filter { $0["appAccountToken"]?.stringValue != nil }
        #expect(offers.count > 100 && withToken.count < offers.count)
        let outcome = try await DeliverJob.run(DeliverTests.options(config)) { _ in }

        // Segment: one request (the day is under 500 KB), a Track call per offer, messageId its key.
        let segmentRequests = segment.requests.filter { $0.status == 200 }
        #expect(segmentRequests.allSatisfy { $0.path == "/v1/batch" && $0.headers["content-type"] == "application/json" })
        #expect(segmentRequests.allSatisfy { $0.body.utf8.count <= SegmentBatch.maximumRequestBytes })
        let calls = try segmentRequests.flatMap { request -> [JSONValue] in
            guard case .array(let batch)? = try JSONParser.parse(Array(request.body.utf8))["batch"] else { return [] }
            return batch.map(\.value)
        }
        #expect(calls.count == offers.count)
        for (call, offer) in zip(calls, offers) {
            #expect(call["type"] == .string("track") && call["event"] == .string("Winback Offer Selected"))
            let key = "\(offer["campaignId"]?.stringValue ?? "")/\(DeliverTests.asOf)/\(offer["accountKey"]?.stringValue ?? "")"
            #expect(call["messageId"] == .string(key))
            if let token = offer["appAccountToken"]?.stringValue {
                #expect(call["userId"] == .string(token) && call["anonymousId"] == nil)
            } else {
                #expect(call["anonymousId"] == offer["accountKey"] && call["userId"] == nil)
            }
            // An offer never signed (an offer code, a message) has no issuedAt, and its call no timestamp.
            #expect(call["timestamp"] == (offer["issuedAt"] == .null ? nil : offer["issuedAt"]))
            #expect(call["properties"]?["jwsV2"] == (offer["jwsV2"] == .null ? nil : offer["jwsV2"]))
            #expect(JSONText.render(call).utf8.count <= SegmentBatch.maximumMessageBytes)
        }

        // Braze: at most 75 events a request, one per offer with an appAccountToken; the others counted.
        let brazeRequests = braze.requests.filter { $0.status == 200 }
        #expect(brazeRequests.allSatisfy { $0.path == "/users/track" })
        let events = try brazeRequests.flatMap { request -> [JSONValue] in
            guard case .array(let list)? = try JSONParser.parse(Array(request.body.utf8))["events"] else { return [] }
            #expect(list.count <= BrazeBatch.maximumEvents)
            return list.map(\.value)
        }
        #expect(brazeRequests.count == (withToken.count + 74) / 75)
        #expect(events.map { $0["external_id"] } == withToken.map { $0["appAccountToken"] })
        #expect(events.allSatisfy { $0["name"] == .string("winback_offer_selected") && $0["time"]?.stringValue != nil })

        #expect(outcome.counts("segment")?.offers == offers.count && outcome.counts("segment")?.batches == segmentRequests.count)
        #expect(outcome.counts("braze")?.offers == withToken.count && outcome.counts("braze")?.skipped == offers.count - withToken.count)
        #expect(outcome.counts("webhook") == nil)
        #expect(!outcome.summaryLine.contains(Self.writeKey) && !outcome.summaryLine.contains(Self.apiKey))

        // Again: every batch of both sinks was acknowledged; nothing is sent.
        let (segmentBefore, brazeBefore) = (segment.requests.count, braze.requests.count)
        let again = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
        #expect(again.batches == 0 && again.alreadyDelivered == segmentRequests.count + brazeRequests.count)
        #expect(segment.requests.count == segmentBefore && braze.requests.count == brazeBefore)
    }

    @Test func aFailingSinkNeverBlocksTheOtherAndIsResumedAlone() async throws {
        let (segment, braze) = try Self.mocks()
        defer { segment.stop(); braze.stop() }
        let config = try await Self.publishedDay("sinks-failing", segment: segment, braze: braze)
        // Segment answers 503 six times: its one batch exhausts its attempts (75); Braze is delivered all the same.
        segment.answer(Array(repeating: 503, count: 6))
        let logs = LogLines()
        do {
            _ = try await DeliverJob.run(DeliverTests.options(config)) { logs.append($0) }
            Issue.record("a failing sink did not fail the delivery")
        } catch {
            #expect(error.exitCode == 75 && error.description.contains("Segment did not acknowledge batch segment/2026-11-19/0"))
        }
        let brazeAcknowledged = braze.requests.filter { $0.status == 200 }.count
        #expect(brazeAcknowledged > 0 && segment.requests.count == 6)
        #expect(logs.all.contains { $0.contains("deliver: segment: stopped after 0 batches") })

        // Run again: only Segment's batch goes; Braze sends nothing more.
        let outcome = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
        #expect(outcome.counts("segment")?.batches == 1 && outcome.counts("braze")?.batches == 0)
        #expect(outcome.counts("braze")?.alreadyDelivered == brazeAcknowledged)
        #expect(braze.requests.count == brazeAcknowledged)
    }

    @Test func aRefusedKeyIs76AndTheOtherSinkStillGoes() async throws {
        let (segment, braze) = try Self.mocks()
        defer { segment.stop(); braze.stop() }
        let config = try await Self.publishedDay("sinks-refused", segment: segment, braze: braze)
        try "wrong-key\n".write(
            to: config.deletingLastPathComponent().appendingPathComponent("braze.key"), atomically: true, encoding: .utf8)
        do {
            _ = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
            Issue.record("a refused key did not fail the delivery")
        } catch {
            #expect(error.exitCode == 76 && error.description.contains("Braze refused batch braze/2026-11-19/0 with HTTP 401"))
            #expect(!error.description.contains("wrong-key"))
        }
        #expect(segment.requests.filter { $0.status == 200 }.count == 1)
    }

    @Test(arguments: [
        (#""segment": { "url": "ftp://x" }"#, "delivery.segment.url"),
        (#""segment": { "writeKeyFile": "k", "batchSize": 3 }"#, "delivery.segment.batchSize"),
        (#""braze": { "apiKeyFile": "k" }"#, "delivery.braze.restEndpoint"),
        (#""braze": { "restEndpoint": "http://braze.example.com", "apiKeyFile": "k" }"#, "delivery.braze.restEndpoint"),
        (#""sendgrid": {}"#, "delivery.sendgrid"),
    ])
    func aBadSinkIsAConfigErrorNamingItsKey(_ block: String, _ key: String) throws {
        let config = try SampleConfig.copy("sink-config") { text in
            text.replacingOccurrences(of: #""ledger":"#, with: #""delivery": { \#(block) },"# + "\n  " + #""ledger":"#)
        }
        let result = try CommandRunner.run(["deliver", "--config", config.path, "--as-of", DeliverTests.asOf])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains(key), "\(result.firstErrorLine)")
    }

    @Test func segmentBatchesStayUnderTheRequestLimitAndSkipOversizedMessages() throws {
        let offers = (0..<10).compactMap { index in
            DeliveredOffer(
                line: #"{"campaignId":"c","accountKey":"a\#(index)","appAccountToken":null,"issuedAt":"2026-11-19T00:00:00Z","pad":""#
                    + String(repeating: "x", count: index == 7 ? 40_000 : 300) + #""}"#)
        }
        let (batches, tooLarge) = SegmentBatch.batches(offers, asOf: "2026-11-19", maximumRequestBytes: 1_000)
        #expect(tooLarge == ["c/2026-11-19/a7"])
        #expect(batches.map(\.messages.count).reduce(0, +) == 9 && batches.count > 2)
        #expect(batches.allSatisfy { $0.body(offers, asOf: "2026-11-19").count <= 1_000 })
        #expect(batches.map(\.number) == Array(0..<batches.count))
        let (braze, skipped) = BrazeBatch.batches(offers, maximumEvents: 4)
        #expect(braze.isEmpty && skipped == 10)
    }
}
