import WinbackAppStore

/// The additive counters of every aggregate table of a run (docs/sharding.md): what a shard hands the
/// merge instead of its subscriptions. Every count is a sum over subscriptions (or notifications), every
/// "first" instant a minimum, so the tallies of N shards added (``add(_:)``) are the tallies of one machine; the
/// tables are then built from them (`RunReports`) in a sharded run and a one-machine run alike.
///
/// Monthly counters cover the months from the model's earliest purchase, wider than any table's: each table's
/// own months (from its first instant, over every shard) are chosen when the tables are built, and cells
/// outside them are left out there.
public struct ReportTallies: Sendable, Equatable {
    /// The counters of the money tables (docs/money.md).
    public struct Money: Sendable, Equatable {
        /// `revenue_monthly`, keyed `[month, product, currency]`.
        public var revenueMonthly = TallyTable()
        /// `revenue_daily`, keyed `[day, product, currency]`.
        public var revenueDaily = TallyTable()
        /// `mrr_monthly`, keyed `[month, product, plan, currency]`.
        public var mrr = TallyTable()
        /// `ltv_cohorts`, keyed `[cohort month, product, currency]`.
        public var ltv = TallyTable()

        /// Empty counters.
        public init() {}

        mutating func add(_ other: Money) {
            revenueMonthly.add(other.revenueMonthly)
            revenueDaily.add(other.revenueDaily)
            mrr.add(other.mrr)
            ltv.add(other.ltv)
        }
    }

    /// Subscriptions in the model.
    public var subscriptions = 0
    /// Subscription transactions purchased at or after `T`.
    public var future = 0
    /// Transactions that are not auto-renewable subscriptions.
    public var otherProductTypes = 0
    /// Family Sharing subscriptions.
    public var familyShared = 0
    /// Subscriptions per status at `T`, Family Sharing excluded.
    public var statuses: [SubscriptionStatus: Int] = [:]
    /// Product id → its latest purchase's subscription group.
    public var productGroups: [String: DatedProductGroup] = [:]
    /// The first purchase of a non-family subscription (the months of `churn_monthly` and `mrr_monthly`);
    /// `Int64.max` when none.
    public var firstPurchase = Int64.max
    /// The first charge of a sale (the months of `revenue_monthly`); `Int64.max` when none.
    public var firstCharge = Int64.max
    /// The first paid purchase of a sale (the cohort months of `ltv_cohorts`); `Int64.max` when none.
    public var firstPaidSale = Int64.max
    /// `churn_monthly` (``ChurnReport/tally``).
    public var churnMonthly = TallyTable()
    /// `churn_daily` (``ChurnReport/tally``).
    public var churnDaily = TallyTable()
    /// `expiration_reasons`.
    public var expirationReasons = TallyTable()
    /// `offer_usage`.
    public var offerUsage = TallyTable()
    /// `retention_cohorts`.
    public var retentionCohorts = TallyTable()
    /// `events_daily`.
    public var eventsDaily = TallyTable()
    /// The money tables.
    public var money = Money()

    /// No counts.
    public init() {}

    /// The tallies of `model`, the independent tables computed concurrently (they only read the model).
    public static func make(_ model: SubscriptionModel, calendar: ReportCalendar, context: MoneyContext) async -> ReportTallies {
        let timelines = model.timelines
        let months = calendar.months(from: earliestPurchase(timelines))
        async let monthly = ChurnReport(periods: months, timelines: timelines).tally
        async let money = Self.money(timelines, calendar: calendar, context: context, months: months)
        async let daily = ChurnReport(periods: calendar.days(count: 90), timelines: timelines).tally
        async let expiration = ExpirationReasonsReport.tally(timelines)
        async let offers = OfferUsageReport.tally(timelines)
        async let cohorts = RetentionCohortsReport.tally(timelines, periods: months, asOf: calendar.asOf)
        var tallies = ReportTallies()
        tallies.subscriptions = timelines.count
        tallies.future = model.future
        tallies.otherProductTypes = model.otherProductTypes
        tallies.productGroups = model.datedProductGroups
        for timeline in timelines {
            if timeline.isFamilyShared {
                tallies.familyShared += 1
            } else {
                tallies.statuses[timeline.status, default: 0] += 1
                if let purchase = timeline.transactions.first?.purchaseDate { tallies.firstPurchase = min(tallies.firstPurchase, purchase) }
            }
        }
        tallies.firstCharge = firstCharge(timelines)
        tallies.firstPaidSale = firstPaidSale(timelines)
        tallies.eventsDaily = EventsDailyReport.tally(model.notificationEvents, calendar: calendar)
        tallies.churnMonthly = await monthly
        tallies.churnDaily = await daily
        tallies.expirationReasons = await expiration
        tallies.offerUsage = await offers
        tallies.retentionCohorts = await cohorts
        tallies.money = await money
        return tallies
    }

    /// The money counters of `timelines` (sales only) through `context`, monthly ones over `months`.
    public static func money(_ timelines: [SubscriptionTimeline], calendar: ReportCalendar, context: MoneyContext, months: [ReportPeriod])
        -> Money
    {
        var revenueMonthly = RevenueReport(periods: months)
        var revenueDaily = RevenueReport(periods: calendar.days(count: 90))
        var ltv = LTVCohortsReport(months: months, calendar: calendar)
        for timeline in timelines where timeline.isSale {
            let events = timeline.moneyEvents(context)
            revenueMonthly.add(events, of: timeline, context: context)
            revenueDaily.add(events, of: timeline, context: context)
            ltv.add(events, of: timeline, context: context)
        }
        var money = Money()
        money.revenueMonthly = revenueMonthly.tally
        money.revenueDaily = revenueDaily.tally
        money.ltv = ltv.tally
        money.mrr = MRRReport(periods: months, timelines: timelines, context: context).tally
        return money
    }

    /// The earliest purchase of any subscription (`Int64.max` when none): every table's months start at or after it.
    public static func earliestPurchase(_ timelines: [SubscriptionTimeline]) -> Int64 {
        timelines.reduce(Int64.max) { min($0, $1.transactions.first?.purchaseDate ?? .max) }
    }

    /// The first charge (`price > 0` with a currency) of a sale; `Int64.max` when none.
    public static func firstCharge(_ timelines: [SubscriptionTimeline]) -> Int64 {
        var first = Int64.max
        for timeline in timelines where timeline.isSale {
            for transaction in timeline.transactions where (transaction.price ?? 0) > 0 && transaction.currency != nil {
                first = min(first, transaction.purchaseDate)
            }
        }
        return first
    }

    /// The first paid purchase of a sale; `Int64.max` when none.
    public static func firstPaidSale(_ timelines: [SubscriptionTimeline]) -> Int64 {
        var first = Int64.max
        for timeline in timelines where timeline.isSale {
            if let purchase = timeline.transactions.first(where: \.isPaid)?.purchaseDate { first = min(first, purchase) }
        }
        return first
    }

    /// Adds `other`'s counts (a shard's): sums, minimums of the first instants, the later product groups.
    public mutating func add(_ other: ReportTallies) {
        subscriptions += other.subscriptions
        future += other.future
        otherProductTypes += other.otherProductTypes
        familyShared += other.familyShared
        for (status, count) in other.statuses { statuses[status, default: 0] += count }
        for (product, group) in other.productGroups {
            productGroups[product, default: DatedProductGroup(purchaseDate: .min, group: "")].combine(group)
        }
        firstPurchase = min(firstPurchase, other.firstPurchase)
        firstCharge = min(firstCharge, other.firstCharge)
        firstPaidSale = min(firstPaidSale, other.firstPaidSale)
        churnMonthly.add(other.churnMonthly)
        churnDaily.add(other.churnDaily)
        expirationReasons.add(other.expirationReasons)
        offerUsage.add(other.offerUsage)
        retentionCohorts.add(other.retentionCohorts)
        eventsDaily.add(other.eventsDaily)
        money.add(other.money)
    }

    /// The tallies as one JSON object (the partial's `tallies.json`, docs/sharding.md).
    public var json: JSONValue {
        let statusPairs = SubscriptionStatus.allCases.compactMap { status in
            statuses[status].map { (status.rawValue, JSONValue.integer(Int64($0))) }
        }
        let groups = productGroups.keys.sorted(by: CodePointOrder.less).compactMap { product in
            productGroups[product].map {
                JSONText.array([.string(product), .integer($0.purchaseDate), .string($0.group)])
            }
        }
        return JSONText.object([
            ("subscriptions", .integer(Int64(subscriptions))), ("future", .integer(Int64(future))),
            ("otherProductTypes", .integer(Int64(otherProductTypes))), ("familyShared", .integer(Int64(familyShared))),
            ("statuses", JSONText.object(statusPairs)), ("productGroups", JSONText.array(groups)),
            ("firstPurchase", .integer(firstPurchase)), ("firstCharge", .integer(firstCharge)), ("firstPaidSale", .integer(firstPaidSale)),
            ("churnMonthly", churnMonthly.json), ("churnDaily", churnDaily.json), ("expirationReasons", expirationReasons.json),
            ("offerUsage", offerUsage.json), ("retentionCohorts", retentionCohorts.json), ("eventsDaily", eventsDaily.json),
            ("revenueMonthly", money.revenueMonthly.json), ("revenueDaily", money.revenueDaily.json), ("mrrMonthly", money.mrr.json),
            ("ltvCohorts", money.ltv.json),
        ])
    }

    /// The tallies `json` (``json``) holds; `nil` when a member is missing or of another shape.
    public init?(json: JSONValue) {
        func integer(_ key: String) -> Int64? {
            if case .integer(let value)? = json[key] { return value }
            return nil
        }
        func table(_ key: String) -> TallyTable? { json[key].flatMap(TallyTable.init(json:)) }
        guard let subscriptions = integer("subscriptions"), let future = integer("future"),
            let otherProductTypes = integer("otherProductTypes"), let familyShared = integer("familyShared"),
            let firstPurchase = integer("firstPurchase"), let firstCharge = integer("firstCharge"),
            let firstPaidSale = integer("firstPaidSale"), let statusMembers = json["statuses"]?.objectMembers,
            case .array(let groups)? = json["productGroups"], let churnMonthly = table("churnMonthly"),
            let churnDaily = table("churnDaily"),
            let expirationReasons = table("expirationReasons"), let offerUsage = table("offerUsage"),
            let retentionCohorts = table("retentionCohorts"), let eventsDaily = table("eventsDaily"),
            let revenueMonthly = table("revenueMonthly"), let revenueDaily = table("revenueDaily"), let mrr = table("mrrMonthly"),
            let ltv = table("ltvCohorts")
        else { return nil }
        self.subscriptions = Int(subscriptions)
        self.future = Int(future)
        self.otherProductTypes = Int(otherProductTypes)
        self.familyShared = Int(familyShared)
        (self.firstPurchase, self.firstCharge, self.firstPaidSale) = (firstPurchase, firstCharge, firstPaidSale)
        for member in statusMembers {
            guard let status = SubscriptionStatus(rawValue: member.key), case .integer(let count) = member.value else { return nil }
            statuses[status] = Int(count)
        }
        for entry in groups {
            guard case .array(let cells) = entry.value, cells.count == 3, case .string(let product) = cells[0].value,
                case .integer(let purchaseDate) = cells[1].value, case .string(let group) = cells[2].value
            else { return nil }
            productGroups[product] = DatedProductGroup(purchaseDate: purchaseDate, group: group)
        }
        (self.churnMonthly, self.churnDaily, self.expirationReasons) = (churnMonthly, churnDaily, expirationReasons)
        (self.offerUsage, self.retentionCohorts, self.eventsDaily) = (offerUsage, retentionCohorts, eventsDaily)
        money.revenueMonthly = revenueMonthly
        money.revenueDaily = revenueDaily
        money.mrr = mrr
        money.ltv = ltv
    }
}
