import Crypto
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO

/// The cohorts `campaign_outcomes` measures (docs/campaigns.md): the ledger's first selections in the 365 days
/// before `D`, and what their members did. A one-machine run measures them on its model; each shard measures the
/// members it owns, reading the ledger without writing it, and the merge adds the shards' measures
/// (docs/sharding.md).
enum OutcomeCohorts {
    /// The cohorts in `ledger`.
    static func read(_ ledger: OfferLedger, calendar: ReportCalendar) throws(JobError) -> [CampaignCohort] {
        let (from, until) = days(calendar)
        return try ledger.cohorts(from: from, until: until) { windowStart($0, calendar) }
    }

    /// The cohorts in the ledger at `path`, read-only; none when there is no ledger.
    static func read(ledgerPath path: String, calendar: ReportCalendar) throws(JobError) -> [CampaignCohort] {
        let (from, until) = days(calendar)
        return try OfferLedger.cohorts(readingOnly: path, from: from, until: until) { windowStart($0, calendar) }
    }

    /// The selection days measured: `D − 365` up to, not including, `D`.
    private static func days(_ calendar: ReportCalendar) -> (from: String, until: String) {
        (InstantFormat.date(days: calendar.asOfDayNumber - 365), calendar.asOfLabel)
    }

    /// `T_S` of selection day `day`: the instant `S + 1` starts in the report time zone.
    private static func windowStart(_ day: String, _ calendar: ReportCalendar) -> Int64 {
        guard let (year, month, dayOfMonth) = ReportCalendar.parseDate(day) else { return calendar.asOf }
        return calendar.startOfDay(year: year, month: month, day: dayOfMonth + 1)
    }

    /// What the members whose subscriptions are among `timelines` did in each window
    /// (``CampaignOutcomesReport/memberTally(_:timelines:asOf:context:)``).
    static func memberTally(_ cohorts: [CampaignCohort], timelines: [SubscriptionTimeline], asOf: Int64, money: MoneyContext) -> TallyTable
    {
        guard !cohorts.isEmpty else { return TallyTable() }
        let wanted = Set(cohorts.flatMap { $0.members.map(\.originalTransactionId) })
        var members: [String: SubscriptionTimeline] = [:]
        for timeline in timelines where wanted.contains(timeline.originalTransactionId) {
            members[timeline.originalTransactionId] = timeline
        }
        return CampaignOutcomesReport.memberTally(cohorts, timelines: members, asOf: asOf, context: money)
    }

    /// Lower-case hex SHA-256 of `cohorts` (campaign, day, window start, audience, each member): shards and
    /// merge compare it to be sure they measured the same cohorts.
    static func digest(_ cohorts: [CampaignCohort]) -> String {
        var hasher = SHA256()
        for cohort in cohorts {
            var text =
                "\(JSONText.quoted(cohort.campaignId)) \(cohort.selectedOn) \(cohort.windowStart) \(JSONText.quoted(cohort.audience))\n"
            for member in cohort.members {
                text +=
                    "  \(JSONText.quoted(member.originalTransactionId)) \(member.variant.rawValue) "
                    + "\(member.offerIdentifier.map(JSONText.quoted) ?? "-")\n"
            }
            hasher.update(data: Array(text.utf8))
        }
        return HexDigest.string(hasher.finalize())
    }
}
