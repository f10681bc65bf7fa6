/// `retention_cohorts` (docs/analysts.md) over non-family subscriptions. A subscription's cohort is the
/// month (report time zone), product and billing plan of its earliest paid transaction `F` (revoked or not). With
/// `d0 = F.expiresDate − F.purchaseDate`, for `k = 0…24`: `eligible` counts members with
/// `F.purchaseDate + k × d0 < T`; `retained` those of them with at least `k + 1` paid, non-revoked
/// transactions. Rows only where `eligible > 0`.
///
/// Example: a monthly subscriber who paid in January, February and March (`T` in June) is eligible for
/// k = 0…4 and retained for k = 0, 1, 2.
public enum RetentionCohortsReport {
    /// The last period index reported (24 periods after the cohort's first).
    public static let maximumPeriodIndex = 24

    /// The instant whose month is the first cohort month: the earliest paid purchase of a non-family subscription
    /// (`Int64.max` when none).
    public static func firstPaid(_ timelines: [SubscriptionTimeline]) -> Int64 {
        var firstPaid = Int64.max
        for timeline in timelines where !timeline.isFamilyShared {
            if let purchase = timeline.transactions.first(where: \.isPaid)?.purchaseDate { firstPaid = min(firstPaid, purchase) }
        }
        return firstPaid
    }

    /// The rows for `timelines` in one run: the cohort months from the first paid purchase through `D`'s.
    public static func rows(_ timelines: [SubscriptionTimeline], calendar: ReportCalendar) -> [Row] {
        let first = firstPaid(timelines)
        return rows(tally(timelines, periods: calendar.months(from: first == .max ? calendar.asOf - 1 : first), asOf: calendar.asOf))
    }

    /// The counts of `timelines` whose cohort month is one of `periods`, keyed `[month, product, plan]`:
    /// `cohort_size`, then `eligible` for k = 0…24, then `retained` for k = 0…24 (docs/sharding.md).
    public static func tally(_ timelines: [SubscriptionTimeline], periods: [ReportPeriod], asOf: Int64) -> TallyTable {
        struct Key: Hashable {
            var month: String
            var product: ProductPlan
        }
        // Cohort → its slot in the dense counters, so adding a member changes them in place.
        var slots: [Key: Int] = [:]
        var sizes: [Int] = []
        var eligible: [[Int]] = []
        var retained: [[Int]] = []
        let churn = ChurnReport(periods: periods, timelines: [])
        for timeline in timelines where !timeline.isFamilyShared {
            guard let firstIndex = timeline.transactions.firstIndex(where: \.isPaid) else { continue }
            let first = timeline.transactions[firstIndex]
            guard let period = churn.period(containing: first.purchaseDate) else { continue }
            let key = Key(month: periods[period].label, product: ProductPlan(first))
            let duration = first.expiresDate - first.purchaseDate
            let retainedPeriods = timeline.transactions.indices.count { timeline.transactions[$0].isPaid && !timeline.isRevoked($0) }
            let slot: Int
            if let known = slots[key] {
                slot = known
            } else {
                slot = sizes.count
                slots[key] = slot
                sizes.append(0)
                eligible.append(Array(repeating: 0, count: maximumPeriodIndex + 1))
                retained.append(Array(repeating: 0, count: maximumPeriodIndex + 1))
            }
            sizes[slot] += 1
            for k in 0...maximumPeriodIndex where first.purchaseDate + Int64(k) * duration < asOf {
                eligible[slot][k] += 1
                if retainedPeriods >= k + 1 { retained[slot][k] += 1 }
            }
        }
        var table = TallyTable()
        for (key, slot) in slots {
            table.add(
                [key.month, key.product.productId, key.product.billingPlanType],
                ([sizes[slot]] + eligible[slot] + retained[slot]).map(Int64.init))
        }
        return table
    }

    /// A row: one cohort, product and plan at period index `k`.
    public struct Row: TableRow, Equatable {
        /// `cohort_month`, `YYYY-MM`.
        public var cohortMonth: String
        /// `product_id` and `billing_plan_type`.
        public var product: ProductPlan
        /// `period_index`: `k`.
        public var periodIndex: Int
        /// `cohort_size`.
        public var cohortSize: Int
        /// `eligible`: subscriptions whose period `k` had come by `T`.
        public var eligible: Int
        /// `retained`: of those, still paying at period `k`.
        public var retained: Int

        /// A row from its values.
        public init(cohortMonth: String, product: ProductPlan, periodIndex: Int, cohortSize: Int, eligible: Int, retained: Int) {
            self.cohortMonth = cohortMonth
            self.product = product
            self.periodIndex = periodIndex
            self.cohortSize = cohortSize
            self.eligible = eligible
            self.retained = retained
        }

        /// `retention_rate`: ``retained`` over ``eligible``, in millionths.
        public var retentionRate: Int64? { RateFormat.millionths(retained, eligible) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.text(cohortMonth)
            fields.text(product.productId)
            fields.text(product.billingPlanType)
            for count in [periodIndex, cohortSize, eligible, retained] { fields.integer(Int64(count)) }
            fields.rate(retentionRate)
        }
    }

    /// The rows of `retention_cohorts.csv.gz` from a ``tally(_:periods:asOf:)`` (or several, added), sorted by
    /// cohort, product, plan and period index.
    public static func rows(_ tally: TallyTable) -> [Row] {
        let width = maximumPeriodIndex + 1
        let keys = tally.counts.keys.sorted { lhs, rhs in
            lhs[0] != rhs[0]
                ? (lhs[0] ?? "") < (rhs[0] ?? "")
                : ProductPlan.precedes(
                    ProductPlan(productId: lhs[1] ?? "", billingPlanType: lhs[2]),
                    ProductPlan(productId: rhs[1] ?? "", billingPlanType: rhs[2]))
        }
        var rows: [Row] = []
        for key in keys {
            guard let values = tally.counts[key], values.count == 1 + 2 * width else { continue }
            for k in 0...maximumPeriodIndex where values[1 + k] > 0 {
                rows.append(
                    Row(
                        cohortMonth: key[0] ?? "", product: ProductPlan(productId: key[1] ?? "", billingPlanType: key[2]), periodIndex: k,
                        cohortSize: Int(values[0]), eligible: Int(values[1 + k]), retained: Int(values[1 + width + k])))
            }
        }
        return rows
    }
}
