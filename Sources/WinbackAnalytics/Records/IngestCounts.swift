import WinbackAppStore

/// Record counts of an ingest: `read = accepted + rejected` always holds.
public struct IngestCounts: Sendable, Equatable {
    /// Records read (accepted + rejected).
    public var read = 0
    /// Records that passed every check.
    public var accepted = 0
    /// Records rejected.
    public var rejected = 0
    /// Rejected records by reject code.
    public var rejectedByCode: [RejectCode: Int] = [:]
    /// Superseded versions of transactions and renewal infos (accepted, then replaced).
    public var duplicates = 0
    /// Unknown enum values, one per value per record.
    public var warnings = 0
    /// Records per input file (config-relative path).
    public var recordsBySource: [String: Int] = [:]
    /// The newest `signedDate` (epoch ms) among accepted transactions, renewal infos and notifications,
    /// `nil` when none was accepted.
    public var newestSignedDate: Int64?

    /// All counts zero.
    public init() {}

    /// `rejected ÷ read`, 0 when nothing was read.
    public var rejectRate: Double { read == 0 ? 0 : Double(rejected) / Double(read) }

    /// Counts an accepted record, its warnings, its source and its `signedDate`.
    public mutating func countAccepted(_ record: AcceptedRecord) {
        read += 1
        accepted += 1
        warnings += record.warnings.count
        recordsBySource[record.location.source, default: 0] += 1
        let signedDate: Int64? =
            switch record.kept {
            case .transaction(let transaction): transaction.signedDate
            case .renewalInfo(let renewal): renewal.signedDate
            case .notification(let event): event.signedDate
            case .ignored: nil
            }
        if let signedDate, signedDate > (newestSignedDate ?? .min) { newestSignedDate = signedDate }
    }

    /// Counts a rejected record by code and source.
    public mutating func countRejected(_ rejection: Rejection) {
        read += 1
        rejected += 1
        rejectedByCode[rejection.code, default: 0] += 1
        recordsBySource[rejection.location.source, default: 0] += 1
    }

    /// The `records` object of the summary: `read, accepted, rejected, rejectedByCode, duplicates, warnings`
    /// plus any `extra` counts (`future`, `otherProductTypes`) in the given order.
    public func summaryJSON(extra: [(String, Int)] = []) -> JSONValue {
        let byCode = rejectedByCode.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            ($0.key.rawValue, JSONValue.integer(Int64($0.value)))
        }
        var pairs: [(String, JSONValue)] = [
            ("read", .integer(Int64(read))), ("accepted", .integer(Int64(accepted))), ("rejected", .integer(Int64(rejected))),
            ("rejectedByCode", JSONText.object(byCode)), ("duplicates", .integer(Int64(duplicates))),
        ]
        pairs += extra.map { ($0.0, JSONValue.integer(Int64($0.1))) }
        pairs.append(("warnings", .integer(Int64(warnings))))
        return JSONText.object(pairs)
    }
}

extension IngestCounts {
    /// Adds `other`'s counts (a shard's, docs/sharding.md): sums, and the newer `newestSignedDate`.
    public mutating func add(_ other: IngestCounts) {
        read += other.read
        accepted += other.accepted
        rejected += other.rejected
        for (code, count) in other.rejectedByCode { rejectedByCode[code, default: 0] += count }
        duplicates += other.duplicates
        warnings += other.warnings
        for (source, count) in other.recordsBySource { recordsBySource[source, default: 0] += count }
        if let newest = other.newestSignedDate, newest > (newestSignedDate ?? .min) { newestSignedDate = newest }
    }
}
