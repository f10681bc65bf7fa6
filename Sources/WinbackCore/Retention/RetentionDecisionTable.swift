import WinbackAnalytics

/// The decisions of one published day, by original transaction id (docs/retention-messaging.md): for each subscription, the row
/// of the first campaign in config order. Built once per day and then only read, so it is shared by every
/// request without a lock.
///
/// Sized for 1.6 M subscriptions: rows share their columns (a day has few distinct decisions), and a canonical
/// decimal id is kept as a 64-bit integer, so an entry costs about 12 bytes plus the dictionary's slack.
public struct RetentionDecisionTable: Sendable {
    /// The published day the decisions come from, `YYYY-MM-DD`.
    public let day: String
    /// The distinct decisions of the day; entries hold an index into it.
    private var decisions: [RetentionDecision] = []
    private var indexByDecision: [RetentionDecision: UInt32] = [:]
    /// Each campaign's position in the config; campaigns the config no longer has come after every other.
    private let campaignRank: [String: Int]
    /// Subscriptions whose id is a canonical decimal that fits 64 bits (every id Apple issues).
    private var numeric: [UInt64: UInt32] = [:]
    /// Any other id.
    private var other: [String: UInt32] = [:]

    /// An empty table for `day`, ranking campaigns by `campaignOrder` (the config's order of campaign ids).
    public init(day: String, campaignOrder: [String]) {
        self.day = day
        var rank: [String: Int] = [:]
        for (index, id) in campaignOrder.enumerated() where rank[id] == nil { rank[id] = index }
        campaignRank = rank
    }

    /// The number of subscriptions with a decision.
    public var count: Int { numeric.count + other.count }

    /// Adds a row; of two rows for one subscription the first campaign in config order stays (then the
    /// smaller campaign id, for campaigns the config does not name).
    public mutating func add(originalTransactionId: String, _ decision: RetentionDecision) {
        let index: UInt32
        if let known = indexByDecision[decision] {
            index = known
        } else {
            index = UInt32(decisions.count)
            decisions.append(decision)
            indexByDecision[decision] = index
        }
        if let key = Self.numericKey(originalTransactionId) {
            if let current = numeric[key], !precedes(decision, decisions[Int(current)]) { return }
            numeric[key] = index
        } else {
            if let current = other[originalTransactionId], !precedes(decision, decisions[Int(current)]) { return }
            other[originalTransactionId] = index
        }
    }

    /// The decision for `originalTransactionId`, or `nil` when no campaign selected it.
    public func decision(for originalTransactionId: String) -> RetentionDecision? {
        let index = Self.numericKey(originalTransactionId).map { numeric[$0] } ?? other[originalTransactionId]
        return index.map { decisions[Int($0)] }
    }

    private func precedes(_ candidate: RetentionDecision, _ current: RetentionDecision) -> Bool {
        let (left, right) = (campaignRank[candidate.campaignId] ?? .max, campaignRank[current.campaignId] ?? .max)
        return left != right ? left < right : CodePointOrder.less(candidate.campaignId, current.campaignId)
    }

    /// `text` as an integer when it is a canonical decimal (no sign, no leading zero) below 2^64.
    static func numericKey(_ text: String) -> UInt64? {
        let utf8 = text.utf8
        guard let first = utf8.first, first != UInt8(ascii: "0") || utf8.count == 1, utf8.count <= 20 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
        }
        return value
    }
}
