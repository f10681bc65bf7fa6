/// `retention_cohorts` (SPEC §6, §10) over non-family subscriptions. A subscription's cohort is the month
/// (report time zone) and product of its earliest paid transaction `F` (revoked or not). With
/// `d0 = F.expiresDate − F.purchaseDate`, for `k = 0…24`: `eligible` counts members with
/// `F.purchaseDate + k × d0 < T`; `retained` those of them with at least `k + 1` paid, non-revoked
/// transactions. Rows only where `eligible > 0`.
///
/// Example: a monthly subscriber who paid in January, February and March (`T` in June) is eligible for
/// k = 0…4 and retained for k = 0, 1, 2.
public enum RetentionCohortsReport {
    public static let maximumPeriodIndex = 24

    public static func rows(_ timelines: [SubscriptionTimeline], calendar: ReportCalendar) -> [[String?]] {
        struct Key: Hashable {
            var month: String
            var product: String
        }
        var cohorts: [Key: (size: Int, eligible: [Int], retained: [Int])] = [:]
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
            let key = Key(month: periods[period].label, product: first.productId)
            let duration = first.expiresDate - first.purchaseDate
            let retainedPeriods = timeline.transactions.indices.filter { timeline.transactions[$0].isPaid && !timeline.isRevoked($0) }.count
            var cohort = cohorts[key] ?? (0, Array(repeating: 0, count: maximumPeriodIndex + 1), Array(repeating: 0, count: maximumPeriodIndex + 1))
            cohort.size += 1
            for k in 0...maximumPeriodIndex where first.purchaseDate + Int64(k) * duration < calendar.asOf {
                cohort.eligible[k] += 1
                if retainedPeriods >= k + 1 { cohort.retained[k] += 1 }
            }
            cohorts[key] = cohort
        }
        var rows: [[String?]] = []
        let keys = cohorts.keys.sorted { lhs, rhs in
            lhs.month != rhs.month ? lhs.month < rhs.month : lhs.product.unicodeScalars.lexicographicallyPrecedes(rhs.product.unicodeScalars)
        }
        for key in keys {
            guard let cohort = cohorts[key] else { continue }
            for k in 0...maximumPeriodIndex where cohort.eligible[k] > 0 {
                rows.append([
                    key.month, key.product, String(k), String(cohort.size), String(cohort.eligible[k]), String(cohort.retained[k]),
                    RateFormat.format(cohort.retained[k], cohort.eligible[k]),
                ])
            }
        }
        return rows
    }
}
