import WinbackAppStore

/// Which part of a sharded run a process does (docs/sharding.md): shard `index` of `count`, written `i/N`.
public struct ShardSpec: Sendable, Equatable, CustomStringConvertible {
    /// The most shards a run may be split into.
    public static let maximumCount = 4096

    /// `i`, from 0.
    public let index: Int
    /// `N`, at least 1.
    public let count: Int

    /// Shard `index` of `count`; `nil` unless `0 ≤ index < count ≤ ` ``maximumCount``.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `i/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `i/N`.
    public var description: String { "\(index)/\(count)" }

    /// The environment variables `--shard auto` reads the index from, in order: a Kubernetes Indexed Job's,
    /// then an AWS Batch array job's.
    public static let indexVariables = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]

    /// The shard of `--shard VALUE [--shards N]`: `i/N`, or `auto` with `--shards N` and the index from
    /// ``indexVariables`` in `environment`. A bad value, a missing `--shards` or index, or a disagreement
    /// throws naming the flag.
    public static func resolve(_ value: String, shards: Int?, environment: [String: String]) throws(ConfigError) -> ShardSpec {
        if value == "auto" {
            guard let shards else { throw ConfigError(key: "--shard", message: "auto needs --shards N (the number of shards)") }
            guard let (name, text) = indexVariables.lazy.compactMap({ name in environment[name].map { (name, $0) } }).first else {
                throw ConfigError(
                    key: "--shard", message: "auto reads the index from \(indexVariables.joined(separator: " or ")), and neither is set")
            }
            guard let index = Int(text), let spec = ShardSpec(index: index, count: shards) else {
                throw ConfigError(
                    key: "--shard", message: "auto: \(name)=\(text) is not a shard index from 0 to \(shards - 1) (--shards \(shards))")
            }
            return spec
        }
        guard let spec = ShardSpec(value) else {
            throw ConfigError(key: "--shard", message: "expected i/N with 0 ≤ i < N ≤ \(maximumCount), or auto, found '\(value)'")
        }
        if let shards, shards != spec.count {
            throw ConfigError(key: "--shards", message: "\(shards) disagrees with --shard \(value)")
        }
        return spec
    }
}
