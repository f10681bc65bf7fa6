import WinbackAppStore

/// Additive counters keyed like a table's rows (docs/sharding.md): the key cells of a row (period
/// label, product, plan, currency, …) → its counts, every one a sum over subscriptions. Two shards' tables
/// combine by adding the counts of equal keys, so the merge of N shards' tables is the table of one
/// machine. The reports build their rows from these tables in every run, sharded or not.
public struct TallyTable: Sendable, Equatable {
    /// Key cells → counts (money in milliunits); every key of a table has the same number of counts.
    public private(set) var counts: [[String?]: [Int64]] = [:]

    /// An empty table.
    public init() {}

    /// Adds `values` to the counts of `key` (a new key starts at `values`).
    public mutating func add(_ key: [String?], _ values: [Int64]) {
        guard let existing = counts[key] else {
            counts[key] = values
            return
        }
        counts[key] = zip(existing, values).map { $0 &+ $1 }
    }

    /// Adds every count of `other`.
    public mutating func add(_ other: TallyTable) {
        for (key, values) in other.counts { add(key, values) }
    }

    /// `[[key cells…], [counts…]]` per key, in key order, so equal tables render to equal bytes.
    public var json: JSONValue {
        let keys = counts.keys.sorted(by: Self.precedes)
        return JSONText.array(
            keys.map { key in
                JSONText.array([
                    JSONText.array(key.map { $0.map(JSONValue.string) ?? .null }),
                    JSONText.array((counts[key] ?? []).map(JSONValue.integer)),
                ])
            })
    }

    /// The table `json` (``json``) holds; `nil` when it is not of that shape.
    public init?(json: JSONValue) {
        guard case .array(let entries) = json else { return nil }
        for entry in entries {
            guard case .array(let pair) = entry.value, pair.count == 2, case .array(let keyCells) = pair[0].value,
                case .array(let valueCells) = pair[1].value
            else { return nil }
            var key: [String?] = []
            for cell in keyCells {
                switch cell.value {
                case .null: key.append(nil)
                case .string(let text): key.append(text)
                default: return nil
                }
            }
            var values: [Int64] = []
            for cell in valueCells {
                guard case .integer(let value) = cell.value else { return nil }
                values.append(value)
            }
            add(key, values)
        }
    }

    /// Key order for rendering: cell by cell, an absent cell first, then by code point.
    static func precedes(_ a: [String?], _ b: [String?]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return TextOrder.less(x, y) }
        return a.count < b.count
    }
}
