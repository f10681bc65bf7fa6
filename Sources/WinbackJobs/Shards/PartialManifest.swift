import WinbackCore
import WinbackIngest

/// `partial.json`, the last file a shard writes into its partial directory (docs/sharding.md): which shard of
/// which run it is, and per input file (in input order) its size, SHA-256 and the keyed entry under
/// `entries/` holding the shard's outcomes of that file.
///
/// A partial directory, format version 1:
/// - `entries/<name>.wbs`: one keyed verified-store entry per input file (``StoreEntryEncoder``, magic
///   `WBVK`): the outcomes of the shard's records of that file, in input order, each with its
///   ``RecordOrder``, ending in the entry's SHA-256;
/// - `partial.json`: `{"format":"winback-partial","version":1,"shard":i,"shards":N,"asOf":"D",
///   "configSha256":…,"winbackVersion":…,"inputs":[{"path","bytes","sha256","entry"}],"inputWarnings":[…],
///   "records":{"read","accepted","rejected"}}`, written atomically after every entry, so a directory
///   without it is an unfinished shard.
struct PartialManifest: Sendable, Equatable {
    static let format = "winback-partial"
    static let version: Int64 = 1
    static let fileName = "partial.json"
    static let entriesDirectory = "entries"

    /// One input file as the shard read it.
    struct Input: Sendable, Equatable {
        var stats: InputStats
        /// The entry's file name under `entries/`.
        var entry: String
    }

    var shard: ShardSpec
    /// The as-of date `D`, `YYYY-MM-DD`.
    var asOf: String
    /// Lower-case hex SHA-256 of the config file's bytes.
    var configSha256: String
    var winbackVersion: String
    var inputs: [Input]
    /// Warnings about the inputs (a pattern matching nothing), reported by the merge.
    var inputWarnings: [String]
    /// The shard's own records (informational).
    var read: Int
    var accepted: Int
    var rejected: Int

    /// The JSON text of `partial.json`.
    func rendered() -> String {
        JSONText.render(
            JSONText.object([
                ("format", .string(Self.format)), ("version", .integer(Self.version)), ("shard", .integer(Int64(shard.index))),
                ("shards", .integer(Int64(shard.count))), ("asOf", .string(asOf)), ("configSha256", .string(configSha256)),
                ("winbackVersion", .string(winbackVersion)),
                (
                    "inputs",
                    .array(
                        inputs.map { input in
                            JSONElement(
                                value: JSONText.object([
                                    ("path", .string(input.stats.path)), ("bytes", .integer(Int64(input.stats.bytes))),
                                    ("sha256", .string(input.stats.sha256)), ("entry", .string(input.entry)),
                                ]), range: 0..<0)
                        })
                ),
                ("inputWarnings", .array(inputWarnings.map { JSONElement(value: .string($0), range: 0..<0) })),
                (
                    "records",
                    JSONText.object([
                        ("read", .integer(Int64(read))), ("accepted", .integer(Int64(accepted))), ("rejected", .integer(Int64(rejected))),
                    ])
                ),
            ])) + "\n"
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
        guard root["format"] == .string(format) else { throw ConfigError(key: "format", message: "expected '\(format)'") }
        guard root["version"] == .integer(version) else {
            throw ConfigError(key: "version", message: "expected \(version) (written by another winback version?)")
        }
        guard let shard = ShardSpec(index: try integer(root["shard"], "shard"), count: try integer(root["shards"], "shards")) else {
            throw ConfigError(key: "shard", message: "expected 0 ≤ shard < shards")
        }
        guard case .array(let inputElements)? = root["inputs"] else { throw ConfigError(key: "inputs", message: "expected an array") }
        var inputs: [Input] = []
        for (index, element) in inputElements.enumerated() {
            let key = "inputs[\(index)]"
            let entry = try string(element.value["entry"], key + ".entry")
            guard !entry.contains("/"), entry.hasSuffix(".wbs") else {
                throw ConfigError(key: key + ".entry", message: "expected a file name")
            }
            inputs.append(
                Input(
                    stats: InputStats(
                        path: try string(element.value["path"], key + ".path"), bytes: try integer(element.value["bytes"], key + ".bytes"),
                        sha256: try string(element.value["sha256"], key + ".sha256")), entry: entry))
        }
        guard case .array(let warningElements)? = root["inputWarnings"] else {
            throw ConfigError(key: "inputWarnings", message: "expected an array")
        }
        var warnings: [String] = []
        for (index, element) in warningElements.enumerated() { warnings.append(try string(element.value, "inputWarnings[\(index)]")) }
        let records = root["records"]
        return PartialManifest(
            shard: shard, asOf: try string(root["asOf"], "asOf"), configSha256: try string(root["configSha256"], "configSha256"),
            winbackVersion: try string(root["winbackVersion"], "winbackVersion"), inputs: inputs, inputWarnings: warnings,
            read: try integer(records?["read"], "records.read"), accepted: try integer(records?["accepted"], "records.accepted"),
            rejected: try integer(records?["rejected"], "records.rejected"))
    }
}
