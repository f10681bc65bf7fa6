import WinbackAnalytics
import WinbackAppStore
import WinbackCore

/// The seven sections of `report.html`, each a chart plus the few numbers that matter.
extension ReportPage {
    /// A highlighted figure: a caption and a number carrying its report value.
    static func figure(_ caption: String, display: String, column: String, value: String) -> String {
        "<div class=\"figure\">\(HTMLText.escape(caption))<b data-column=\"\(HTMLText.escape(column))\" data-value=\"\(HTMLText.escape(value))\">\(HTMLText.escape(display))</b></div>"
    }

    // MARK: Active paid subscriptions

    static func activeSection(_ content: ReportPageContent) -> String {
        var byMonth: [String: [String: Int]] = [:]
        var groupTotals: [String: Int] = [:]
        var groupProducts: [String: Set<String>] = [:]
        for row in content.churnMonthly {
            let group = row.subscriptionGroupId ?? "(no group)"
            byMonth[row.period, default: [:]][group, default: 0] += row.counts.activeEnd
            groupTotals[group, default: 0] += row.counts.activeEnd
            groupProducts[group, default: []].insert(row.product.productId)
        }
        let names = ProductGroupNames(groupProducts)
        let ranked = groupTotals.keys.sorted { (groupTotals[$0] ?? 0, $1) > (groupTotals[$1] ?? 0, $0) }
        let shown = Array(ranked.prefix(ranked.count > maximumGroups + 1 ? maximumGroups : maximumGroups + 1))
        let folded = Set(ranked.dropFirst(shown.count))
        var series = shown.enumerated().map { index, group in
            ChartSeries(
                name: names.name(of: group), color: ChartPalette.category(index),
                values: content.months.map { month in byMonth[month]?[group].map(Double.init) ?? 0 })
        }
        if !folded.isEmpty {
            series.append(
                ChartSeries(
                    name: "\(folded.count) other groups", color: ChartPalette.category(7),
                    values: content.months.map { month in
                        Double(folded.reduce(0) { $0 + (byMonth[month]?[$1] ?? 0) })
                    }))
        }
        let chart = VerticalBarChart(
            categories: content.months, series: series, isStacked: true,
            xTitle: "Month (bar = active at the end of the month; the last month ends at as-of)",
            yTitle: "Active paid subscriptions", isCount: true)
        let latest = content.months.last.map { byMonth[$0, default: [:]].values.reduce(0, +) } ?? 0
        let lastFull = byMonth[content.lastFullMonth, default: [:]].values.reduce(0, +)

        var html = "<div class=\"callout\">"
        html += figure("Active paid at as-of", display: ChartNumber.grouped(latest), column: "active_end", value: String(latest))
        html += figure(
            "Active paid at the end of \(content.lastFullMonth)", display: ChartNumber.grouped(lastFull), column: "active_end",
            value: String(lastFull))
        html += "</div>"
        html += ChartSeries.legend(series) + chart.rendered(label: "Active paid subscriptions per month, stacked by product group")

        html += billingPlanTable(content.churnMonthly, month: content.months.last)

        let statusTotal = content.subscriptionsByStatus.reduce(0) { $0 + $1.count }
        let statusSeries = content.subscriptionsByStatus.enumerated().map { index, entry in
            ChartSeries(name: entry.status, color: ChartPalette.category(index), values: [Double(entry.count)])
        }
        html += "<h3>Status mix at as-of</h3>" + ChartSeries.legend(statusSeries)
        html += HorizontalBarChart(categories: ["all products"], series: statusSeries, xTitle: "Subscriptions", yTitle: "").rendered(
            label: "Subscriptions by status at as-of")
        html +=
            HTMLTable(
                id: "status-table", headers: ["Status", "Subscriptions", "Share"],
                rows: content.subscriptionsByStatus.map { entry in
                    [
                        .label(entry.status, column: "status"), .count(entry.count, column: entry.status),
                        .rate(RateFormat.millionths(entry.count, statusTotal), column: "share"),
                    ]
                },
                footnote:
                    "\(ChartNumber.grouped(content.familyShared)) family-shared subscriptions are not counted here (as in summary.json.gz)."
            ).rendered
        return html
    }

    /// Active paid at as-of per product and billing plan, for products sold with more than one plan (a
    /// 12-month commitment billed monthly beside the same product billed up front); empty otherwise.
    static func billingPlanTable(_ rows: [ChurnReport.Row], month: String?) -> String {
        var active: [ProductPlan: Int] = [:]
        for row in rows where row.period == month { active[row.product, default: 0] += row.counts.activeEnd }
        guard active.keys.contains(where: { $0.billingPlanType != nil }) else { return "" }
        let shown = active.keys.sorted(by: ProductPlan.precedes).prefix(maximumRows)
        return "<h3>Billing plans at as-of</h3>"
            + HTMLTable(
                id: "plans-table", headers: ["Product", "Billing plan", "Active paid"],
                rows: shown.map { product in
                    [
                        .label(product.productId, column: "product_id"),
                        .label(product.billingPlanType ?? "–", column: "billing_plan_type"),
                        .count(active[product] ?? 0, column: "active_end"),
                    ]
                },
                footnote:
                    "MONTHLY is a 12-month commitment billed monthly; BILLED_UPFRONT the same product paid at once; – a transaction without a billing plan. Per month in churn_monthly.csv.gz."
            ).rendered
    }

    // MARK: Churn

    /// One month of `churn_monthly` summed over all products.
    struct MonthTotals {
        var activeStart = 0
        var activeEnd = 0
        var new = 0
        var reactivated = 0
        var churned = 0
        /// Churned per reason stack (``ChartPalette/reasonStack(_:)``).
        var byStack: [String: Int] = [:]
    }

    /// Per month, the sums of `churn_monthly`'s rows over all products.
    static func churnByMonth(_ content: ReportPageContent) -> [String: MonthTotals] {
        var result: [String: MonthTotals] = [:]
        for row in content.churnMonthly {
            var entry = result[row.period] ?? MonthTotals()
            entry.activeStart += row.counts.activeStart
            entry.activeEnd += row.counts.activeEnd
            entry.new += row.counts.new
            entry.reactivated += row.counts.reactivated
            entry.churned += row.counts.churned
            for reason in LapseReason.allCases {
                entry.byStack[ChartPalette.reasonStack(reason.rawValue), default: 0] += row.counts.byReason[reason] ?? 0
            }
            result[row.period] = entry
        }
        return result
    }

    static func churnSection(_ content: ReportPageContent) -> String {
        let byMonth = churnByMonth(content)
        let series = ChartPalette.reasons.map { reason in
            ChartSeries(
                name: reason.label, color: reason.color,
                values: content.months.map { month -> Double? in
                    guard let entry = byMonth[month], entry.activeStart > 0 else { return nil }
                    return RateFormat.value(entry.byStack[reason.column] ?? 0, entry.activeStart)
                })
        }
        let highlight = content.months.firstIndex(of: content.lastFullMonth).map { (index: $0, label: "last full month") }
        let chart = VerticalBarChart(
            categories: content.months, series: series, isStacked: true, xTitle: "Month (the last one runs to as-of)",
            yTitle: "Churned ÷ active at month start", isCount: false, highlighted: highlight)
        let last = byMonth[content.lastFullMonth] ?? MonthTotals()
        let rate = RateFormat.format(last.churned, last.activeStart)
        var html = "<div class=\"callout\">"
        html += figure(
            "Active at the start of \(content.lastFullMonth)", display: ChartNumber.grouped(last.activeStart), column: "activeStart",
            value: String(last.activeStart))
        html += figure(
            "Churned in \(content.lastFullMonth)", display: ChartNumber.grouped(last.churned), column: "churned",
            value: String(last.churned))
        html += figure(
            "Churn rate, \(content.lastFullMonth)",
            display: ChartNumber.percent(millionths: RateFormat.millionths(last.churned, last.activeStart)), column: "churnRate",
            value: rate ?? "")
        html += "</div>"
        html += ChartSeries.legend(series) + chart.rendered(label: "Monthly churn rate stacked by lapse reason")
        html += paragraph(
            "A lapse counts in the month its paid coverage ended; “returned later” are lapses followed by a new span before as-of.")
        let recent = content.months.suffix(12)
        html +=
            HTMLTable(
                id: "churn-table", headers: ["Month", "Active at start", "Active at end", "New", "Reactivated", "Churned", "Churn rate"],
                rows: recent.map { month in
                    let entry = byMonth[month] ?? MonthTotals()
                    return [
                        .label(month, column: "month"), .count(entry.activeStart, column: "active_start"),
                        .count(entry.activeEnd, column: "active_end"), .count(entry.new, column: "new"),
                        .count(entry.reactivated, column: "reactivated"), .count(entry.churned, column: "churned"),
                        .rate(RateFormat.millionths(entry.churned, entry.activeStart), column: "churn_rate"),
                    ]
                },
                footnote: content.months.count > recent.count
                    ? "Earlier months are in churn_monthly.csv.gz (all products summed here)."
                    : "All products summed; per product in churn_monthly.csv.gz."
            ).rendered
        return html
    }

    // MARK: Expiration reasons

    static func expirationSection(_ content: ReportPageContent) -> String {
        let rows = content.expirationReasons
        var byProduct: [String: [String: Int]] = [:]
        var totals: [String: Int] = [:]
        for row in rows {
            let product = row.productId ?? ""
            byProduct[product, default: [:]][ChartPalette.reasonStack(row.lapseReason ?? "unknown"), default: 0] += row.subscriptions
            totals[product, default: 0] += row.subscriptions
        }
        guard !rows.isEmpty else { return paragraph("No subscription is expired at as-of.") }
        let ranked = totals.keys.sorted { (totals[$0] ?? 0, $1) > (totals[$1] ?? 0, $0) }
        var categories = Array(ranked.prefix(maximumRows))
        let rest = ranked.dropFirst(maximumRows)
        if !rest.isEmpty { categories.append("\(rest.count) other products") }
        let series = ChartPalette.reasons.map { reason in
            ChartSeries(
                name: reason.label, color: reason.color,
                values: categories.enumerated().map { index, product -> Double? in
                    let products = index < maximumRows ? [product] : Array(rest)
                    return Double(products.reduce(0) { $0 + (byProduct[$1]?[reason.column] ?? 0) })
                })
        }
        let expired = totals.values.reduce(0, +)
        var html =
            "<div class=\"callout\">"
            + figure("Expired subscriptions", display: ChartNumber.grouped(expired), column: "subscriptions", value: String(expired))
            + "</div>"
        html += ChartSeries.legend(series)
        html += HorizontalBarChart(categories: categories, series: series, xTitle: "Expired subscriptions", yTitle: "Product").rendered(
            label: "Expired subscriptions by product, stacked by expiration reason")
        let shown = rows.prefix(maximumRows * 2)
        html +=
            HTMLTable(
                id: "expiration-table", headers: ["Product", "Lapse reason", "Expiration intent", "Subscriptions", "Share"],
                rows: shown.map { row -> [HTMLTable.Cell] in
                    [
                        .label(row.productId ?? "", column: "product_id"), .label(row.lapseReason ?? "", column: "lapse_reason"),
                        .label(row.expirationIntent.map { String($0) } ?? "–", column: "expiration_intent"),
                        .count(row.subscriptions, column: "subscriptions"), .rate(row.share, column: "share"),
                    ]
                },
                footnote: rows.count > shown.count ? "\(rows.count - shown.count) more rows in expiration_reasons.csv.gz." : nil
            ).rendered
        return html
    }

    // MARK: Offers

    static func offerTypeName(_ raw: Int64?) -> String {
        switch raw {
        case 1?: return "introductory"
        case 2?: return "promotional"
        case 3?: return "offer code"
        case 4?: return "win-back"
        case 5?: return "retention"
        case let other?: return "type \(other)"
        case nil: return "unknown type"
        }
    }

    static func offersSection(_ content: ReportPageContent) -> String {
        let rows = content.offerUsage
        guard !rows.isEmpty else { return paragraph("No transaction used an offer.") }
        let ranked = rows.enumerated().sorted { a, b in
            a.element.redemptions != b.element.redemptions ? a.element.redemptions > b.element.redemptions : a.offset < b.offset
        }.map(\.element)
        let shown = Array(ranked.prefix(maximumRows))
        let label = { (row: OfferUsageReport.Row) -> String in
            [offerTypeName(row.offerType), row.offerIdentifier, row.offerPeriod].compactMap { $0 }.joined(separator: " · ")
        }
        let types: [Int64] = [1, 2, 3, 4]
        var series = types.enumerated().map { index, type in
            ChartSeries(
                name: offerTypeName(type), color: ChartPalette.category(index),
                values: shown.map { row in row.offerType == type ? Double(row.redemptions) : nil })
        }
        series.append(
            ChartSeries(
                name: "other types", color: ChartPalette.category(7),
                values: shown.map { row in types.contains(row.offerType ?? 0) ? nil : Double(row.redemptions) }))
        series = series.filter { $0.values.contains { $0 != nil } }
        let redemptions = rows.reduce(0) { $0 + $1.redemptions }
        let converted = rows.reduce(0) { $0 + $1.converted }
        let completed = rows.reduce(0) { $0 + $1.completed }
        var html = "<div class=\"callout\">"
        html += figure("Offer redemptions", display: ChartNumber.grouped(redemptions), column: "redemptions", value: String(redemptions))
        html += figure("Converted to paid", display: ChartNumber.grouped(converted), column: "converted", value: String(converted))
        html += figure(
            "Conversion of completed offers", display: ChartNumber.percent(millionths: RateFormat.millionths(converted, completed)),
            column: "conversion_rate",
            value: RateFormat.format(converted, completed) ?? "")
        html += "</div>" + ChartSeries.legend(series)
        html += HorizontalBarChart(
            categories: shown.map(label), series: series, xTitle: "Redemptions (after each bar: conversion rate of completed offers)",
            yTitle: "Offer",
            notes: shown.map { "conv. " + ChartNumber.percent(millionths: $0.conversionRate) }
        ).rendered(label: "Offer redemptions per offer, sorted by redemptions")
        html +=
            HTMLTable(
                id: "offers-table",
                headers: [
                    "Type", "Offer", "Period", "Discount", "Redemptions", "Active in offer", "Completed", "Converted", "Conversion rate",
                    "Refunded",
                ],
                rows: shown.map { row -> [HTMLTable.Cell] in
                    [
                        .label(offerTypeName(row.offerType), column: "offer_type"),
                        .label(row.offerIdentifier ?? "–", column: "offer_identifier"),
                        .label(row.offerPeriod ?? "–", column: "offer_period"),
                        .label(row.offerDiscountType ?? "–", column: "offer_discount_type"),
                        .count(row.redemptions, column: "redemptions"), .count(row.activeInOffer, column: "active_in_offer"),
                        .count(row.completed, column: "completed"), .count(row.converted, column: "converted"),
                        .rate(row.conversionRate, column: "conversion_rate"), .count(row.refunded, column: "refunded"),
                    ]
                },
                footnote: ranked.count > shown.count ? "\(ranked.count - shown.count) more offers in offer_usage.csv.gz." : nil
            ).rendered
        return html
    }

    // MARK: Retention

    static func retentionSection(_ content: ReportPageContent) -> String {
        guard !content.retentionCohorts.isEmpty else { return paragraph("No cohort has reached its first renewal yet.") }
        var cells: [String: [Int: (eligible: Int, retained: Int)]] = [:]
        var maximumIndex = 0
        for row in content.retentionCohorts {
            maximumIndex = max(maximumIndex, row.periodIndex)
            var cell = cells[row.cohortMonth]?[row.periodIndex] ?? (0, 0)
            cell.eligible += row.eligible
            cell.retained += row.retained
            cells[row.cohortMonth, default: [:]][row.periodIndex] = cell
        }
        let cohorts = Array(cells.keys.sorted(by: CodePointOrder.less).suffix(maximumCohorts))
        let columns = Array(0...min(maximumIndex, maximumPeriods - 1))
        let grid = cohorts.map { cohort in
            columns.map { index -> Heatmap.Cell in
                guard let cell = cells[cohort]?[index], let rate = RateFormat.value(cell.retained, cell.eligible) else {
                    return Heatmap.Cell(rate: nil, text: "", tooltip: "")
                }
                guard cell.eligible >= minimumCohortCell else {
                    return Heatmap.Cell(
                        rate: rate, text: "n=\(cell.eligible)",
                        tooltip:
                            "cohort \(cohort), period \(index): \(cell.retained) of \(cell.eligible) retained — too few to read a rate",
                        isSparse: true)
                }
                return Heatmap.Cell(
                    rate: rate, text: ChartNumber.fixed(rate * 100, 0),
                    tooltip:
                        "cohort \(cohort), period \(index): \(cell.retained) of \(cell.eligible) retained (\(ChartNumber.percent(rate)))")
            }
        }
        var html = paragraph(
            "Share of each first-purchase cohort still paying k periods later (retained ÷ eligible, all products summed; cells in %; "
                + "grey cells hold fewer than \(minimumCohortCell) subscriptions and show their count).")
        html += Heatmap.legend
        html += Heatmap(
            rowLabels: cohorts, columnLabels: columns.map(String.init), cells: grid, xTitle: "Period index k", yTitle: "Cohort month"
        ).rendered(
            label: "Retention heatmap, cohort month by period index")
        var notes: [String] = []
        if cells.count > cohorts.count { notes.append("\(cells.count - cohorts.count) earlier cohorts") }
        if maximumIndex >= maximumPeriods { notes.append("periods beyond \(maximumPeriods - 1)") }
        if !notes.isEmpty { html += "<p class=\"note\">Not drawn: \(notes.joined(separator: " and ")); see retention_cohorts.csv.gz.</p>" }
        return html
    }

    // MARK: Campaigns

    static func campaignsSection(_ content: ReportPageContent) -> String {
        guard !content.campaigns.isEmpty else { return paragraph("No campaigns are configured.") }
        let measures: [(name: String, column: String, value: (CampaignCounts) -> Int)] = [
            ("eligible", "eligible", \.eligible), ("treatment", "treatment", \.treatment), ("holdout", "holdout", \.holdout),
            ("signed offers", "signed", \.signed),
        ]
        let shown = Array(content.campaigns.prefix(maximumRows))
        let series = measures.enumerated().map { index, measure in
            ChartSeries(name: measure.name, color: ChartPalette.category(index), values: shown.map { Double(measure.value($0)) })
        }
        var html = ""
        if !content.offersSigned { html += "<p class=\"alert\">Offers were not signed in this run.</p>" }
        html += ChartSeries.legend(series)
        html += VerticalBarChart(
            categories: shown.map(\.id), series: series, isStacked: false, xTitle: "Campaign", yTitle: "Accounts", isCount: true
        )
        .rendered(label: "Eligible, treatment, holdout and signed offers per campaign")
        // Offer-code campaigns with a pool (docs/campaigns.md): the codes left, and a warning when tonight's ran short.
        let hasCodes = content.campaigns.contains { $0.codesLeft != nil }
        for campaign in content.campaigns where (campaign.codesShort ?? 0) > 0 {
            html +=
                "<p class=\"alert codes-short\">Campaign \(HTMLText.escape(campaign.id)) ran out of offer codes: \(campaign.codesShort ?? 0) "
                + "treatment accounts were left without one (and not selected tonight). Add codes to its pool.</p>"
        }
        html +=
            HTMLTable(
                id: "campaigns-table",
                headers: ["Campaign", "Eligible", "Treatment", "Holdout", "Signed offers"] + (hasCodes ? ["Codes left"] : []),
                rows: content.campaigns.map { campaign in
                    [.label(campaign.id, column: "campaignId")] + measures.map { .count($0.value(campaign), column: $0.column) }
                        + (hasCodes ? [campaign.codesLeft.map { .count($0, column: "codesLeft") } ?? .label("", column: "codesLeft")] : [])
                }
            ).rendered
        html += outcomesPart(content)
        return html
    }

    // MARK: Data quality

    static func qualitySection(_ content: ReportPageContent) -> String {
        let counts = content.counts
        var html = "<div class=\"callout\">"
        html += figure(
            "Reject rate", display: ChartNumber.percent(millionths: RateFormat.millionths(counts.rejected, counts.read) ?? 0),
            column: "rejectRate",
            value: RateFormat.format(counts.rejected, counts.read) ?? "0.000000")
        html += "</div>"
        let figures: [(String, String, Int)] = [
            ("Records read", "read", counts.read), ("Accepted", "accepted", counts.accepted), ("Rejected", "rejected", counts.rejected),
            ("Duplicates (superseded versions)", "duplicates", counts.duplicates),
            ("Warnings (unknown Apple values, kept raw)", "warnings", counts.warnings),
            ("Purchased after as-of", "future", content.future),
            ("Other product types (not modelled)", "otherProductTypes", content.otherProductTypes),
        ]
        html +=
            HTMLTable(
                id: "records-table", headers: ["Records", "Count"],
                rows: figures.map { [.label($0.0, column: "measure"), .count($0.2, column: $0.1)] }
            ).rendered
        html += eventsTable(content.eventsDaily)
        let codes = counts.rejectedByCode.sorted { $0.key.rawValue < $1.key.rawValue }
        guard !codes.isEmpty else { return html + paragraph("No record was rejected.") }
        let series = [ChartSeries(name: "rejected records", color: ChartPalette.category(5), values: codes.map { Double($0.value) })]
        html += HorizontalBarChart(categories: codes.map(\.key.rawValue), series: series, xTitle: "Rejected records", yTitle: "Reject code")
            .rendered(
                label: "Rejected records by code")
        html +=
            HTMLTable(
                id: "rejects-table", headers: ["Code", "Rejected"],
                rows: codes.map { [.label($0.key.rawValue, column: "code"), .count($0.value, column: $0.key.rawValue)] },
                footnote: "Each rejected record, with its file, line, field and original text, is in rejects.ndjson.gz."
            ).rendered
        return html
    }

    /// Notifications of the last 90 days by type and subtype: the sums of `events_daily`'s rows.
    static func eventsTable(_ rows: [EventsDailyReport.Row]) -> String {
        var totals: [String: Int] = [:]
        for row in rows {
            totals[row.notificationType + (row.subtype.map { " / " + $0 } ?? ""), default: 0] += row.notifications
        }
        guard !totals.isEmpty else { return paragraph("No notification in the last 90 days.") }
        let ordered = totals.sorted { $0.value != $1.value ? $0.value > $1.value : CodePointOrder.less($0.key, $1.key) }
        return HTMLTable(
            id: "events-table", headers: ["Notification (last 90 days)", "Count"],
            rows: ordered.prefix(maximumRows).map { [.label($0.key, column: "notification"), .count($0.value, column: "notifications")] },
            footnote: "One per notificationUUID, by type and subtype; per day in events_daily.csv.gz."
        ).rendered
    }
}
