import WinbackAnalytics
import WinbackAppStore

/// Renewals that fell due and those that happened, per finest segment (``RenewalSegment`` of level 5: auto-renew and
/// billing state, period kind, tenure bucket, price increase, product): the sufficient statistics of the outlook's
/// estimate. Every broader segment is a sum of these (``expanded()``). Additive, so shards' tallies sum to one
/// machine's.
public struct RenewalTally: Sendable, Equatable {
    /// Per finest segment: renewals due and renewed.
    public var counts: [RenewalSegment: Counts] = [:]

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
        counts[RenewalSegment.of(features, level: 5), default: Counts()].add(renewed: renewed)
    }

    /// Adds `counts` to the finest segment `segment`.
    mutating func add(_ segment: RenewalSegment, _ counts: Counts) {
        self.counts[segment, default: Counts()].due += counts.due
        self.counts[segment, default: Counts()].renewed += counts.renewed
    }

    /// The counts of every segment, each level (``RenewalSegment/level``, 0–6) summed from the finest.
    public func expanded() -> [RenewalSegment: Counts] {
        var all: [RenewalSegment: Counts] = [:]
        for (finest, value) in counts {
            for level in UInt8(0)...6 {
                let segment = finest.truncated(to: level)
                all[segment, default: Counts()].due += value.due
                all[segment, default: Counts()].renewed += value.renewed
            }
        }
        return all
    }

    /// Adds another tally (a shard's).
    public mutating func add(_ other: RenewalTally) {
        for (key, value) in other.counts {
            counts[key, default: Counts()].due += value.due
            counts[key, default: Counts()].renewed += value.renewed
        }
    }

    /// The counts of the segment written `text` (``RenewalSegment/text``), if any.
    public func counts(_ text: String) -> Counts? { RenewalSegment(text: text).flatMap { expanded()[$0] } }

    /// The tally as JSON (`{"<finest segment's text>": [due, renewed], …}`, keys in code-point order).
    public var json: JSONValue {
        let keyed = counts.map { (text: $0.key.text, counts: $0.value) }.sorted { CodePointOrder.less($0.text, $1.text) }
        return JSONText.object(
            keyed.map { ($0.text, JSONText.array([.integer(Int64($0.counts.due)), .integer(Int64($0.counts.renewed))])) })
    }

    /// The tally ``json`` holds, or `nil`.
    public init?(json: JSONValue) {
        guard let members = json.objectMembers else { return nil }
        for member in members {
            guard let segment = RenewalSegment(text: member.key), segment.level == 5, case .array(let pair) = member.value, pair.count == 2,
                case .integer(let due) = pair[0].value, case .integer(let renewed) = pair[1].value
            else { return nil }
            counts[segment] = Counts(due: Int(due), renewed: Int(renewed))
        }
    }
}

extension RenewalTally.Counts {
    mutating func add(renewed happened: Bool) {
        due += 1
        if happened { renewed += 1 }
    }
}
