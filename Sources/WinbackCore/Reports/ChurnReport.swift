/// `churn_monthly` and `churn_daily` (SPEC §6): per period `P = [p0, p1)` (p1 capped at `T`) and product,
/// over non-family subscriptions.
///
/// - `active_start` / `active_end`: subscriptions active paid at `p0` / at `p1 − 1 ms`, by the covering
///   transaction's product.
/// - `churned`: lapses at `L ∈ P` whose last covering transaction `Y` is paid, by `Y`'s product, split by
///   reason (`churned_returned` are lapses that later came back).
/// - `new` / `reactivated`: first / later spans starting in `P`, by the product of the span's first transaction.
/// - `churn_rate = churned / active_start`, empty when `active_start = 0`.
///
/// Example: a monthly subscriber paying from Jan 10 who cancels (intent 1) with coverage ending Mar 10
/// counts in `new` for January, in `active_start` and `active_end` for February, in `active_start` and
/// `churned_voluntary` for March.
public struct ChurnReport: Sendable {
    /// Counts of one (period, product) cell.
    public struct Counts: Sendable, Equatable {
        public var activeStart = 0
        public var activeEnd = 0
        public var new = 0
        public var reactivated = 0
        public var churned = 0
        public var byReason: [LapseReason: Int] = [:]

        var isZero: Bool { activeStart == 0 && activeEnd == 0 && new == 0 && reactivated == 0 && churned == 0 }
    }

    public let periods: [ReportPeriod]
    /// Period index → product → counts.
    public private(set) var cells: [[String: Counts]]

    /// Column order of the reasons after `churned`.
    public static let reasonColumns: [LapseReason] = [
        .voluntary, .priceIncrease, .billingError, .billingRetry, .productUnavailable, .other, .unknown, .refund, .returned,
    ]

    public init(periods: [ReportPeriod], timelines: [SubscriptionTimeline]) {
        self.periods = periods
        self.cells = Array(repeating: [:], count: periods.count)
        for timeline in timelines where !timeline.isFamilyShared { add(timeline) }
    }

    /// Index of the first period whose start is `>= instant`.
    private func firstPeriod(startingAtOrAfter instant: Int64) -> Int {
        var low = 0
        var high = periods.count
        while low < high {
            let middle = (low + high) / 2
            if periods[middle].start < instant { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Index of the period containing `instant`, if any.
    public func period(containing instant: Int64) -> Int? {
        let index = firstPeriod(startingAtOrAfter: instant + 1) - 1
        guard index >= 0, periods[index].start <= instant, instant < periods[index].end else { return nil }
        return index
    }

    private mutating func add(_ timeline: SubscriptionTimeline) {
        for segment in timeline.segments {
            let transaction = timeline.transactions[segment.transaction]
            guard transaction.isPaid else { continue }
            var index = firstPeriod(startingAtOrAfter: segment.start)
            while index < periods.count, periods[index].start < segment.end {
                cells[index][transaction.productId, default: Counts()].activeStart += 1
                index += 1
            }
            // active_end: p1 − 1 ms inside [start, end), i.e. p1 in (start, end].
            index = max(0, firstPeriod(startingAtOrAfter: segment.start) - 1)
            while index < periods.count, periods[index].end - 1 < segment.end {
                let instant = periods[index].end - 1
                if instant >= segment.start { cells[index][transaction.productId, default: Counts()].activeEnd += 1 }
                index += 1
            }
        }
        for (position, span) in timeline.spans.enumerated() {
            if let index = period(containing: span.start) {
                let product = timeline.transactions[span.first].productId
                if position == 0 { cells[index][product, default: Counts()].new += 1 } else { cells[index][product, default: Counts()].reactivated += 1 }
            }
            guard let lapse = span.lapse, let index = period(containing: lapse.at) else { continue }
            let covering = timeline.transactions[lapse.lastCovering]
            guard covering.isPaid else { continue }
            cells[index][covering.productId, default: Counts()].churned += 1
            cells[index][covering.productId, default: Counts()].byReason[lapse.reason, default: 0] += 1
        }
    }

    /// Sorted rows (period, product) with some non-zero count, in the churn column order.
    public func rows(productGroups: [String: String]) -> [[String?]] {
        var rows: [[String?]] = []
        for (index, period) in periods.enumerated() {
            for product in cells[index].keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
                guard let counts = cells[index][product], !counts.isZero else { continue }
                var row: [String?] = [
                    period.label, product, productGroups[product], String(counts.activeStart), String(counts.activeEnd),
                    String(counts.new), String(counts.reactivated), String(counts.churned),
                ]
                row += Self.reasonColumns.map { String(counts.byReason[$0] ?? 0) }
                row.append(RateFormat.format(counts.churned, counts.activeStart))
                rows.append(row)
            }
        }
        return rows
    }

    /// Totals of one period over all products.
    public func totals(period index: Int) -> Counts {
        var total = Counts()
        for counts in cells[index].values {
            total.activeStart += counts.activeStart
            total.activeEnd += counts.activeEnd
            total.new += counts.new
            total.reactivated += counts.reactivated
            total.churned += counts.churned
        }
        return total
    }
}
