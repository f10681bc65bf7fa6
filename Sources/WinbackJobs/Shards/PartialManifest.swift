import WinbackAnalytics
import WinbackAppStore
import WinbackIngest

/// `partial.json`, the last file a shard writes into its partial directory (docs/sharding.md): which shard of
/// which run it is, what it read, its record counts, and the size and SHA-256 of each record file beside it.
///
/// A partial directory, format version 6 (every record file is gzip of length-prefixed fields,
/// ``PartialRecordWriter``):
/// - `subscriptions.wbr`: per subscription the shard owns, in `originalTransactionId` order: the id and its
///   `subscriptions` row's typed values (``EncodedRow``), which the merge renders as CSV and Parquet;
/// - `rejects.wbr`: per rejected record, in input order: input file index, line, index on the line, the
///   `rejects.ndjson` line and the diagnostic;
/// - `candidates.wbr`: per campaign candidate (``CandidateRecord``): campaign id and the account;
/// - `events.wbr`: per lifecycle event of the as-of date (``LifecycleEventsFile``), in file order: `occurredAt`
///   (epoch ms), type, `originalTransactionId` and its `lifecycle_events.ndjson` line;
/// - `refunds.wbr`: per refund request of the shard's notifications (docs/refunds.md): its `notificationUUID` and
///   the request as JSON (``RefundRequest/json``);
/// - `outlook.wbr`: per subscription that can still renew, in `originalTransactionId` order: the id and its
///   `renewal_outlook` row's facts as JSON (``RenewalFacts``), which the merge turns into rows under the estimate fit
///   on every shard's part (docs/renewal-outlook.md);
/// - `tallies.wbr`: one record: ``ReportTallies``, the campaign-outcome members' tally and the renewal outlook's
///   part (``RenewalOutlook``), as JSON;
/// - `partial.json`: `{"format":"winback-partial","version":6,"shard":i,"shards":N,"asOf":"D","configSha256",
///   "winbackVersion","inputs":[{"path","bytes","sha256"}],"inputWarnings":[…],"counts":{…},"filesFromStore",
///   "outcomeCohortsSha256","files":{"<name>":{"bytes","sha256","records"}}}`, written atomically after every
///   other file, so a directory without it is an unfinished shard.
struct PartialManifest: Sendable, Equatable {
    static let format = "winback-partial"
    static let version: Int64 = 6
    static let fileName = "partial.json"
    /// The record files, in the order the merge reads them.
    static let subscriptionsFile = "subscriptions.wbr"
    static let rejectsFile = "rejects.wbr"
    static let candidatesFile = "candidates.wbr"
    static let eventsFile = "events.wbr"
    static let refundsFile = "refunds.wbr"
    static let outlookFile = "outlook.wbr"
    static let talliesFile = "tallies.wbr"
    static let recordFiles = [subscriptionsFile, rejectsFile, candidatesFile, eventsFile, refundsFile, outlookFile, talliesFile]

    /// A record file's size, SHA-256 and record count.
    struct FileDigest: Sendable, Equatable {
        var bytes: Int
        var sha256: String
        var records: Int
    }

    var shard: ShardSpec
    /// The as-of date `D`, `YYYY-MM-DD`.
    var asOf: String
    /// Lower-case hex SHA-256 of the config file's bytes.
    var configSha256: String
    var winbackVersion: String
    /// Every input file as the shard read it, in input order.
    var inputs: [InputStats]
    /// Warnings about the inputs (a pattern matching nothing), reported by the merge.
    var inputWarnings: [String]
    /// The shard's own records: read, accepted, rejected by code, duplicates, warnings, per source, newest `signedDate`.
    var counts: IngestCounts
    /// Input files the shard replayed from its verified store.
    var filesFromStore: Int
    /// SHA-256 of the campaign-outcome cohorts the shard measured (``OutcomeCohorts/digest(_:)``): the merge
    /// must find the same ones in its ledger.
    var outcomeCohortsSha256: String
    /// The record files by name.
    var files: [String: FileDigest]

    /// The JSON text of `partial.json`.
    func rendered() -> String {
        let inputObjects = inputs.map { input in
            JSONText.object([("path", .string(input.path)), ("bytes", .integer(Int64(input.bytes))), ("sha256", .string(input.sha256))])
        }
        let fileObjects = Self.recordFiles.compactMap { name in
            files[name].map { file in
                (
                    name,
                    JSONText.object([
                        ("bytes", .integer(Int64(file.bytes))), ("sha256", .string(file.sha256)),
                        ("records", .integer(Int64(file.records))),
                    ])
                )
            }
        }
        return JSONText.render(
            JSONText.object([
                ("format", .string(Self.format)), ("version", .integer(Self.version)), ("shard", .integer(Int64(shard.index))),
                ("shards", .integer(Int64(shard.count))), ("asOf", .string(asOf)), ("configSha256", .string(configSha256)),
                ("winbackVersion", .string(winbackVersion)), ("inputs", JSONText.array(inputObjects)),
                ("inputWarnings", JSONText.array(inputWarnings.map(JSONValue.string))), ("counts", Self.json(counts)),
                ("filesFromStore", .integer(Int64(filesFromStore))), ("outcomeCohortsSha256", .string(outcomeCohortsSha256)),
                ("files", JSONText.object(fileObjects)),
            ])) + "\n"
    }

    /// All of `counts`, for `partial.json`.
    static func json(_ counts: IngestCounts) -> JSONValue {
        JSONText.object([
            ("read", .integer(Int64(counts.read))), ("accepted", .integer(Int64(counts.accepted))),
            ("rejected", .integer(Int64(counts.rejected))),
            (
                "rejectedByCode",
                JSONText.object(counts.rejectedByCode.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .integer(Int64($0.value))) })
            ),
            ("duplicates", .integer(Int64(counts.duplicates))), ("warnings", .integer(Int64(counts.warnings))),
            (
                "recordsBySource",
                JSONText.object(
                    counts.recordsBySource.sorted { CodePointOrder.less($0.key, $1.key) }.map { ($0.key, .integer(Int64($0.value))) })
            ),
            ("newestSignedDate", counts.newestSignedDate.map(JSONValue.integer) ?? .null),
        ])
    }

    /// Parses `partial.json`; the error says what is missing or wrong.
    static func parse(_ bytes: [UInt8]) throws(ConfigError) -> PartialManifest {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError(key: fileName, message: "not JSON (\(error))")
        }
        func string(_ value: JSONValue?, _ key: String) throws(ConfigError) -> String {
            guard case .string(let text)? = value else { throw ConfigError(key: key, message: "expected a string") }
            return text
        }
        func integer(_ value: JSONValue?, _ key: String) throws(ConfigError) -> Int {
            guard case .integer(let number)? = value, let result = Int(exactly: number), result >= 0 else {
                throw ConfigError(key: key, message: "expected a non-negative integer")
            }
            return result
        }
        func counts(_ value: JSONValue?, _ key: String) throws(ConfigError) -> [(String, Int)] {
            guard let members = value?.objectMembers else { throw ConfigError(key: key, message: "expected an object") }
            var pairs: [(String, Int)] = []
            for member in members { pairs.append((member.key, try integer(member.value, key + "." + member.key))) }
            return pairs
        }
        guard root["format"] == .string(format) else { throw ConfigError(key: "format", message: "expected '\(format)'") }
        guard root["version"] == .integer(version) else {
            let found = root["version"].map(JSONText.render) ?? "none"
            throw ConfigError(
                key: "version",
                message: "expected \(version), found \(found): the partial is of another format version (written by another "
                    + "winback); run the shards again with this winback")
        }
        guard let shard = ShardSpec(index: try integer(root["shard"], "shard"), count: try integer(root["shards"], "shards")) else {
            throw ConfigError(key: "shard", message: "expected 0 ≤ shard < shards")
        }
        guard case .array(let inputElements)? = root["inputs"] else { throw ConfigError(key: "inputs", message: "expected an array") }
        var inputs: [InputStats] = []
        for (index, element) in inputElements.enumerated() {
            let key = "inputs[\(index)]"
            inputs.append(
                InputStats(
                    path: try string(element.value["path"], key + ".path"), bytes: try integer(element.value["bytes"], key + ".bytes"),
                    sha256: try string(element.value["sha256"], key + ".sha256")))
        }
        guard case .array(let warningElements)? = root["inputWarnings"] else {
            throw ConfigError(key: "inputWarnings", message: "expected an array")
        }
        var warnings: [String] = []
        for (index, element) in warningElements.enumerated() { warnings.append(try string(element.value, "inputWarnings[\(index)]")) }
        let countsValue = root["counts"]
        var ingest = IngestCounts()
        ingest.read = try integer(countsValue?["read"], "counts.read")
        ingest.accepted = try integer(countsValue?["accepted"], "counts.accepted")
        ingest.rejected = try integer(countsValue?["rejected"], "counts.rejected")
        ingest.duplicates = try integer(countsValue?["duplicates"], "counts.duplicates")
        ingest.warnings = try integer(countsValue?["warnings"], "counts.warnings")
        for (code, count) in try counts(countsValue?["rejectedByCode"], "counts.rejectedByCode") {
            guard let reject = RejectCode(rawValue: code) else {
                throw ConfigError(key: "counts.rejectedByCode." + code, message: "unknown reject code")
            }
            ingest.rejectedByCode[reject] = count
        }
        for (source, count) in try counts(countsValue?["recordsBySource"], "counts.recordsBySource") {
            ingest.recordsBySource[source] = count
        }
        switch countsValue?["newestSignedDate"] {
        case .integer(let instant)?: ingest.newestSignedDate = instant
        case .null?: break
        default: throw ConfigError(key: "counts.newestSignedDate", message: "expected an integer or null")
        }
        var files: [String: FileDigest] = [:]
        for name in recordFiles {
            let key = "files." + name
            let file = root["files"]?[name]
            files[name] = FileDigest(
                bytes: try integer(file?["bytes"], key + ".bytes"), sha256: try string(file?["sha256"], key + ".sha256"),
                records: try integer(file?["records"], key + ".records"))
        }
        return PartialManifest(
            shard: shard, asOf: try string(root["asOf"], "asOf"), configSha256: try string(root["configSha256"], "configSha256"),
            winbackVersion: try string(root["winbackVersion"], "winbackVersion"), inputs: inputs, inputWarnings: warnings,
            counts: ingest, filesFromStore: try integer(root["filesFromStore"], "filesFromStore"),
            outcomeCohortsSha256: try string(root["outcomeCohortsSha256"], "outcomeCohortsSha256"), files: files)
    }
}
