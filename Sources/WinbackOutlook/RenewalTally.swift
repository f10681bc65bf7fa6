import WinbackAnalytics
import WinbackAppStore

/// Renewals that fell due and those that happened, per segment (``RenewalFeatures/segments``) and per product:
/// the sufficient statistics of the outlook's estimate. Additive, so shards' tallies sum to one machine's.
public struct RenewalTally: Sendable, Equatable {
    /// Per segment key: renewals due and renewed.
    public var counts: [String: Counts] = [:]

    /// Due and renewed.
    public struct Counts: Sendable, Equatable {
        /// Renewals that fell due.
        public var due = 0
        /// … of which renewed.
        public var renewed = 0

        /// Counts from their parts.
        public init(due: Int = 0, renewed: Int = 0) {
            self.due = due
            self.renewed = renewed
        }
    }

    /// An empty tally.
    public init() {}

    /// Counts one renewal that fell due with `features`.
    public mutating func add(_ features: RenewalFeatures, renewed: Bool) {
        for key in features.segments + [features.productSegment] {
            counts[key, default: Counts()].due += 1
            if renewed { counts[key, default: Counts()].renewed += 1 }
        }
    }

    /// Adds another tally (a shard's).
    public mutating func add(_ other: RenewalTally) {
        for (key, value) in other.counts {
            counts[key, default: Counts()].due += value.due
            counts[key, default: Counts()].renewed += value.renewed
        }
    }

    /// The tally as JSON (`{"<segment>": [due, renewed], …}`, keys in code-point order).
    public var json: JSONValue {
        JSONText.object(
            counts.keys.sorted { CodePointOrder.less($0, $1) }.map { key in
                let value = counts[key] ?? Counts()
                return (key, JSONText.array([.integer(Int64(value.due)), .integer(Int64(value.renewed))]))
            })
    }

    /// The tally ``json`` holds, or `nil`.
    public init?(json: JSONValue) {
        guard let members = json.objectMembers else { return nil }
        for member in members {
            guard case .array(let pair) = member.value, pair.count == 2, case .integer(let due) = pair[0].value,
                case .integer(let renewed) = pair[1].value
            else { return nil }
            counts[member.key] = Counts(due: Int(due), renewed: Int(renewed))
        }
    }
}
