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

    /// The rows of `retention_cohorts.csv.gz`, sorted by cohort, product, plan and period index.
    public static func rows(_ timelines: [SubscriptionTimeline], calendar: ReportCalendar) -> [[String?]] {
        struct Key: Hashable {
            var month: String
            var product: ProductPlan
        }
        // Cohort → its slot in the dense counters, so adding a member changes them in place.
        var slots: [Key: Int] = [:]
        var sizes: [Int] = []
        var eligible: [[Int]] = []
        var retained: [[Int]] = []
        var firstPaid = Int64.max
        for timeline in timelines where !timeline.isFamilyShared {
            if let purchase = timeline.transactions.first(where: \.isPaid)?.purchaseDate { firstPaid = min(firstPaid, purchase) }
        }
        let periods = calendar.months(from: firstPaid == .max ? calendar.asOf - 1 : firstPaid)
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
            for k in 0...maximumPeriodIndex where first.purchaseDate + Int64(k) * duration < calendar.asOf {
                eligible[slot][k] += 1
                if retainedPeriods >= k + 1 { retained[slot][k] += 1 }
            }
        }
        var rows: [[String?]] = []
        let keys = slots.keys.sorted { lhs, rhs in
            lhs.month != rhs.month ? lhs.month < rhs.month : ProductPlan.precedes(lhs.product, rhs.product)
        }
        for key in keys {
            guard let slot = slots[key] else { continue }
            for k in 0...maximumPeriodIndex where eligible[slot][k] > 0 {
                rows.append([
                    key.month, key.product.productId, key.product.billingPlanType, String(k), String(sizes[slot]),
                    String(eligible[slot][k]), String(retained[slot][k]),
                    RateFormat.format(retained[slot][k], eligible[slot][k]),
                ])
            }
        }
        return rows
    }
}
