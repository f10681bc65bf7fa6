import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackIngest
import WinbackTestSupport

/// The shard rule of docs/sharding.md: a record's owner read from its unverified payload, and the shard
/// `SHA-256(owner)[0..<8]` big-endian mod N (expected values computed with Python's hashlib).
@Suite struct ShardRuleTests {
    /// A compact JWS whose payload is `json` (the rule never checks the signature).
    static func jws(_ json: String) -> String {
        var payload: [UInt8] = []
        Base64.appendURL(Array(json.utf8), to: &payload)
        return "eyJhbGciOiJFUzI1NiJ9." + String(decoding: payload, as: UTF8.self) + ".c2lnbmF0dXJl"
    }

    static func record(_ content: RawRecord.Content, line: Int = 7) -> RawRecord {
        RawRecord(location: RecordLocation(source: "files/a.ndjson", line: line, path: nil), content: content, text: RecordText(""))
    }

    struct OwnerCase: Sendable, CustomTestStringConvertible {
        var name: String
        var record: RawRecord
        var owner: String
        var testDescription: String { name }
    }

    static let transaction = jws(
        #"{"transactionId":"2000000999","originalTransactionId":"1000000000000001","bundleId":"b","nested":{"originalTransactionId":"x"}}"#)

    static let owners: [OwnerCase] = [
        OwnerCase(name: "a transaction", record: record(.signed(RecordText(transaction), .transaction)), owner: "1000000000000001"),
        OwnerCase(
            name: "a renewal info (a repeated key: the first)",
            record: record(
                .signed(RecordText(jws(#"{"originalTransactionId":"2000000123456789","originalTransactionId":"1"}"#)), .renewalInfo)),
            owner: "2000000123456789"),
        OwnerCase(
            name: "a notification: its nested transaction's",
            record: record(
                .signed(
                    RecordText(
                        jws(
                            #"{"notificationType":"DID_RENEW","notificationUUID":"u-1","data":{"bundleId":"b","signedTransactionInfo":"\#(transaction)"}}"#
                        )),
                    .notification)), owner: "1000000000000001"),
        OwnerCase(
            name: "a notification without a transaction: its UUID",
            record: record(
                .signed(
                    RecordText(
                        jws(
                            #"{"notificationType":"TEST","notificationUUID":"0f8e3a52-3f4e-4d2b-9f33-6f1d2e8b7c11","data":{"bundleId":"b"}}"#
                        )),
                    .notification)), owner: "0f8e3a52-3f4e-4d2b-9f33-6f1d2e8b7c11"),
        OwnerCase(
            name: "a decoded payload", record: record(.decoded(JSONText.object(["originalTransactionId": .string("42")]), .transaction)),
            owner: "42"),
        OwnerCase(
            name: "a payload without the key", record: record(.signed(RecordText(jws(#"{"transactionId":"1"}"#)), .transaction)),
            owner: "files/a.ndjson:7"),
        OwnerCase(name: "not a JWS", record: record(.signed(RecordText("not-a-jws"), .transaction)), owner: "files/a.ndjson:7"),
        OwnerCase(
            name: "a shape reject", record: record(.failure(RecordFailure(.malformedJSON, "bad"))), owner: "files/a.ndjson:7"),
    ]

    @Test(arguments: owners) func owner(_ example: OwnerCase) {
        #expect(String(decoding: ShardRule.owner(of: example.record), as: UTF8.self) == example.owner)
    }

    @Test(arguments: [
        ("1000000000000001", [0, 0, 2, 14]), ("2000000123456789", [0, 2, 2, 6]), ("files/a.ndjson:7", [1, 0, 1, 9]),
        ("0f8e3a52-3f4e-4d2b-9f33-6f1d2e8b7c11", [1, 2, 1, 1]),
    ])
    func shardOfAnOwner(_ owner: String, _ shards: [Int]) {
        #expect([2, 3, 4, 16].map { ShardRule.shard(ofOwner: Array(owner.utf8), count: $0) } == shards)
        #expect(ShardRule.shard(ofOwner: Array(owner.utf8), count: 1) == 0)
    }

    @Test func memberScannerReadsTopLevelMembersOnly() {
        func value(_ key: String, _ json: String) -> String? {
            let bytes = Array(json.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                JSONMemberScanner.value(of: Array(key.utf8), in: buffer).map { String(decoding: buffer[$0.range], as: UTF8.self) }
            }
        }
        #expect(value("k", #"{"a":{"k":"inner"},"b":["k",{"k":1}],"k":"outer","k":"second"}"#) == "outer")
        #expect(value("k", #" { "s" : "a \"k\": x" , "k" : 12 } "#) == "12")
        #expect(value("k", #"{"k":{"x":[1,2]}}"#) == #"{"x":[1,2]}"#)
        #expect(value("k", #"{"a":1}"#) == nil)
        #expect(value("k", #"{"k":"v""#) == "v", "the first member ends the scan")
        #expect(value("k", #"["k"]"#) == nil)
        #expect(value("k", "{}") == nil)
        func match(_ json: String) -> JSONMemberScanner.Match {
            Array(json.utf8).withUnsafeBufferPointer { JSONMemberScanner.match(Array("k".utf8), in: $0) }
        }
        guard case .found(let value) = match(#"{"a":1,"k":"v"}"#) else {
            Issue.record("expected the member")
            return
        }
        #expect(value.range == 12..<13 && value.isString && !value.isObject)
        #expect(match(#"{"a":1,"k":"v"#) == .truncated)
        #expect(match(#"{"a":"long strin"#) == .truncated)
        #expect(match(#"{"a":1,"b":2}"#) == .absent)
    }

    /// A payload longer than the prefix the rule decodes first, with the key far in: read all the same.
    @Test func anOwnerPastTheDecodedPrefixIsFound() {
        let padding = String(repeating: "x", count: 600)
        let late = Self.record(.signed(RecordText(Self.jws(#"{"pad":"\#(padding)","originalTransactionId":"77"}"#)), .transaction))
        #expect(String(decoding: ShardRule.owner(of: late), as: UTF8.self) == "77")
        let early = Self.record(.signed(RecordText(Self.jws(#"{"originalTransactionId":"78","pad":"\#(padding)"}"#)), .transaction))
        #expect(String(decoding: ShardRule.owner(of: early), as: UTF8.self) == "78")
        let none = Self.record(.signed(RecordText(Self.jws(#"{"pad":"\#(padding)"}"#)), .transaction))
        #expect(String(decoding: ShardRule.owner(of: none), as: UTF8.self) == "files/a.ndjson:7")
        for record in [late, early, none] { Self.expectTheFastPathAgrees(record) }
    }

    /// `shard(of:count:)` decides most records from a prefix of the payload without allocating: it must give
    /// the rule's own answer, `shard(ofOwner: owner(of:))`.
    static func expectTheFastPathAgrees(_ record: RawRecord, sourceLocation: SourceLocation = #_sourceLocation) {
        let owner = ShardRule.owner(of: record)
        for count in 2...9 {
            #expect(
                ShardRule.shard(of: record, count: count) == ShardRule.shard(ofOwner: owner, count: count), sourceLocation: sourceLocation)
        }
    }

    @Test func theFastPathAgreesOnEverySampleRecord() throws {
        var records = 0
        for file in ["transactions/part-0.ndjson.gz", "transactions/part-1.ndjson.gz", "notifications/notifications.ndjson.gz"] {
            let url = Fixtures.packageRoot.appendingPathComponent("sample-data/exports/" + file)
            let text = try Gunzip.bytes(Array(try Data(contentsOf: url)))
            var start = 0
            var line = 0
            while start < text.count {
                let end = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
                line += 1
                for record in RecordClassifier.classifyLine(text, range: start..<end, source: file, line: line) {
                    Self.expectTheFastPathAgrees(record)
                    records += 1
                }
                start = end + 1
            }
        }
        #expect(records > 2000)
    }

    struct SpecCase: Sendable, CustomTestStringConvertible {
        var value: String
        var shards: Int?
        var environment: [String: String]
        var expected: Result<String, ConfigError>
        var testDescription: String { "--shard \(value) --shards \(shards.map(String.init) ?? "-") \(environment)" }
    }

    @Test(arguments: [
        SpecCase(value: "2/4", shards: nil, environment: [:], expected: .success("2/4")),
        SpecCase(value: "2/4", shards: 4, environment: [:], expected: .success("2/4")),
        SpecCase(
            value: "2/4", shards: 3, environment: [:],
            expected: .failure(ConfigError(key: "--shards", message: "3 disagrees with --shard 2/4"))),
        SpecCase(value: "auto", shards: 4, environment: ["JOB_COMPLETION_INDEX": "3"], expected: .success("3/4")),
        SpecCase(value: "auto", shards: 4, environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "0"], expected: .success("0/4")),
        SpecCase(
            value: "auto", shards: 4, environment: ["JOB_COMPLETION_INDEX": "4"],
            expected: .failure(
                ConfigError(key: "--shard", message: "auto: JOB_COMPLETION_INDEX=4 is not a shard index from 0 to 3 (--shards 4)"))),
        SpecCase(
            value: "auto", shards: nil, environment: ["JOB_COMPLETION_INDEX": "1"],
            expected: .failure(ConfigError(key: "--shard", message: "auto needs --shards N (the number of shards)"))),
        SpecCase(
            value: "auto", shards: 2, environment: [:],
            expected: .failure(
                ConfigError(
                    key: "--shard",
                    message: "auto reads the index from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX, and neither is set"))),
        SpecCase(
            value: "4/4", shards: nil, environment: [:],
            expected: .failure(ConfigError(key: "--shard", message: "expected i/N with 0 ≤ i < N ≤ 4096, or auto, found '4/4'"))),
        SpecCase(
            value: "-1/4", shards: nil, environment: [:],
            expected: .failure(ConfigError(key: "--shard", message: "expected i/N with 0 ≤ i < N ≤ 4096, or auto, found '-1/4'"))),
    ])
    func shardFlags(_ example: SpecCase) {
        let result = Result { () throws(ConfigError) in
            try ShardSpec.resolve(example.value, shards: example.shards, environment: example.environment).description
        }
        #expect(result == example.expected)
    }
}
