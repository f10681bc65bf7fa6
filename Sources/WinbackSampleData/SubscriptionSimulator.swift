import WinbackAppStore
import WinbackCore
import WinbackCrypto

/// Simulates realistic subscription lifecycles up to an anchor instant: free trials and pay-as-you-go
/// introductory offers, offer codes, promotional and win-back offers (with `offerPeriod`), renewals,
/// voluntary cancels, billing retry and grace (recovered or not), price-increase non-consent, product
/// unavailable, refunds (re-signed later with `revocationDate`), family sharing, upgrades, resubscribes
/// after a lapse, auto-renew turned off (with its `DID_CHANGE_RENEWAL_STATUS` notification) and, from
/// ``billingPlansLaunch``, the annual plan billed up front or monthly with a 12-month commitment
/// (`billingPlanType`, `commitmentInfo`). Deterministic for a seed.
public struct SubscriptionSimulator {
    /// One day in ms.
    public static let day: Int64 = 86_400_000
    /// One hour in ms.
    public static let hour: Int64 = 3_600_000
    /// When the annual plan gained billing plans (Apple's 12-month commitments, 2026-05): annual
    /// transactions purchased from then on carry `billingPlanType`.
    public static let billingPlansLaunch: Int64 = InstantFormat.days(year: 2026, month: 5, day: 1) * day
    /// The monthly instalment of the annual plan billed monthly, in milliunits (12 of them cost more than
    /// the up-front price).
    public static let commitmentInstalment: Int64 = 5490

    /// The app's bundle identifier written into payloads.
    public var bundleId: String
    /// The environment written into payloads.
    public var environment: String
    /// The app's Apple id written into payloads.
    public var appAppleId: Int64
    /// The simulated "now": nothing is purchased at or after it.
    public var anchor: Int64
    private var random: SeededRandom
    private var nextTransaction: Int64 = 2_000_000_900_000_000
    /// The share (0–1) of subscriptions with an app account token whose customer already has another
    /// subscription: the token of an earlier one is used again (accounts across shards, docs/sharding.md). With 0
    /// (the default) no random number is drawn for it, so the sample stays as it was.
    public var sharedAccountShare = 0.0
    /// The tokens given so far, when ``sharedAccountShare`` is above 0.
    private var tokens: [String] = []

    static let storefronts: [(String, String, String)] = [
        ("USA", "143441", "USD"), ("GBR", "143444", "GBP"), ("DEU", "143443", "EUR"), ("FRA", "143442", "EUR"),
        ("JPN", "143462", "JPY"), ("CAN", "143455", "CAD"),
    ]

    /// A simulator from `seed`; `anchor` (epoch ms) is the simulated "now": nothing is signed after it.
    public init(seed: UInt64, bundleId: String, environment: String, appAppleId: Int64, anchor: Int64) {
        self.random = SeededRandom(seed: seed)
        self.bundleId = bundleId
        self.environment = environment
        self.appAppleId = appAppleId
        self.anchor = anchor
    }

    /// A simulator of the sample app (``SampleDataGenerator``'s bundle id, environment, app id and "now").
    public init(sampleSeed seed: UInt64) {
        self.init(
            seed: seed, bundleId: SampleDataGenerator.bundleId, environment: SampleDataGenerator.environment,
            appAppleId: SampleDataGenerator.appAppleId, anchor: SampleDataGenerator.anchor)
    }

    /// The days of the sample's campaign history (`jobs/campaign-history.sh` runs each before the sample day):
    /// weekly from 2026-10-01 to 2026-11-12, as epoch ms of their starts (UTC).
    public static let campaignHistory: [Int64] = (0..<7).map { week in
        (InstantFormat.days(year: 2026, month: 10, day: 1) + 7 * Int64(week)) * day
    }

    /// The campaign the history measures (`winback-voluntary` of the sample config, 30 % holdout).
    static let historyCampaign = (id: "winback-voluntary", holdoutPercent: 30.0)

    /// The sample config's offer-code campaign (`winback-offer-code`, the history campaign's rules, 20 % holdout)
    /// and the reference name its redemptions carry.
    static let codeCampaign = (id: "winback-offer-code", holdoutPercent: 20.0, offerIdentifier: "winback.code.3months")

    /// Whether, and when, an account whose voluntary lapse at `lapse` the history's first eligible day
    /// selects comes back: within 20 days of the selection, a treated account with probability 0.35 and
    /// Apple's win-back offer, a held-out one with 0.10 and no offer. `nil` for lapses the history does not
    /// select (too recent, more than a year old, or after it).
    private mutating func campaignComeback(lapse: Int64, accountKey: String) -> (date: Int64, withOffer: Bool, withCode: Bool)? {
        // Selected on the first history day S with at least 7 days since the lapse at T = S + 1 day.
        guard let selection = Self.campaignHistory.first(where: { $0 + Self.day - lapse >= 7 * Self.day }),
            selection + Self.day - lapse <= 365 * Self.day
        else { return nil }
        let isTreated = !CampaignSelector.isHoldout(
            bucket: HoldoutHash.bucket("\(Self.historyCampaign.id):\(accountKey.lowercased())"),
            holdoutPercent: Self.historyCampaign.holdoutPercent)
        guard random.chance(isTreated ? 0.6 : 0.1) else { return nil }
        let date = selection + Self.day + random.int(in: 0...(20 * Self.day - 1))
        // Half of the accounts the offer-code campaign (same rules) also treats redeem its code instead: decided
        // by that campaign's hash, so the random stream, and every other record, stays as it was.
        let codeBucket = HoldoutHash.bucket("\(Self.codeCampaign.id):\(accountKey.lowercased())")
        let withCode =
            isTreated && !CampaignSelector.isHoldout(bucket: codeBucket, holdoutPercent: Self.codeCampaign.holdoutPercent)
            && (codeBucket >> 32) % 2 == 0
        return date < anchor ? (date, isTreated, withCode) : nil
    }

    /// The storefront-currency price of a US price (milliunits): about the exchange rate, at a local price
    /// point (a whole number of yen in tens; `.99` elsewhere).
    public static func localPrice(_ usd: Int64, currency: String) -> Int64 {
        let factor: (Int64, Int64) = ["GBP": (9, 10), "JPY": (150, 1), "CAD": (14, 10)][currency] ?? (1, 1)
        let local = usd * factor.0 / factor.1
        if currency == "JPY" { return max(10_000, (local + 5_000) / 10_000 * 10_000) }
        return max(990, (local + 500) / 1000 * 1000 - 10)
    }

    private mutating func newTransactionId() -> String {
        nextTransaction += random.int(in: 1...40)
        return String(nextTransaction)
    }

    private enum PeriodKind {
        /// `winBack` with `code`: the same discount redeemed through the sample's offer-code campaign (docs/campaigns.md).
        case freeTrial, payAsYouGo(remaining: Int), offerCode, regular, promotional, winBack(remaining: Int, code: Bool)
    }

    /// Simulates subscription number `index`.
    public mutating func simulate(index: Int) -> SimulatedSubscription {
        var product = random.weighted([(SampleProduct.monthly, 0.6), (SampleProduct.annual, 0.25), (SampleProduct.proMonthly, 0.15)])
        let storefront = Self.storefronts[Int(random.int(in: 0...Int64(Self.storefronts.count - 1)))]
        var token: String? = random.chance(0.8) ? random.uuid() : nil
        if sharedAccountShare > 0, let fresh = token {
            if !tokens.isEmpty, random.chance(sharedAccountShare) {
                token = tokens[Int(random.int(in: 0...Int64(tokens.count - 1)))]
            } else {
                tokens.append(fresh)
            }
        }
        let isFamily = random.chance(0.04)
        let appTransactionId = String(704_289_575_346_000_000 + Int64(index) * 7919)
        let start = anchor - random.int(in: 3...720) * Self.day - random.int(in: 0...(Self.day - 1))
        let originalTransactionId = newTransactionId()
        var subscription = SimulatedSubscription(originalTransactionId: originalTransactionId)
        var webOrder = 2_000_000_077_000_000 + Int64(index) * 1000

        var kind: PeriodKind = random.weighted([
            (.freeTrial, 0.35), (.payAsYouGo(remaining: 3), 0.1), (.offerCode, 0.05), (.regular, 0.5),
        ])
        if product.months == 12, case .payAsYouGo = kind { kind = .regular }
        // A third of the annual subscribers who start after the launch pay monthly over a 12-month commitment.
        let billsMonthly = product == .annual && start >= Self.billingPlansLaunch && random.chance(0.35)
        if billsMonthly { kind = .regular }
        var commitmentStart = start
        var commitmentAutoRenew: Int64 = 1
        var purchase = start
        var reason = "PURCHASE"
        var hasUpgraded = false
        var renewal: [(String, JSONValue)] = []
        var lapsedIntent: Int64? = nil
        var autoRenew: Int64 = 1
        var inRetry = false
        var graceExpires: Int64? = nil
        var eligibleWinBack: [String]? = nil
        var priceIncreasePending = false
        var recentStart = start

        func offerFields(_ kind: PeriodKind) -> (Int64?, String?, String?, String?, Int64) {
            switch kind {
            case .freeTrial: return (1, nil, "FREE_TRIAL", "P1W", 0)
            case .payAsYouGo: return (1, nil, "PAY_AS_YOU_GO", "P3M", product.price / 2)
            case .offerCode: return (3, "CODE-AUTUMN", "PAY_UP_FRONT", "P1M", product.price / 4)
            case .promotional: return (2, "retention.monthly.1", "PAY_AS_YOU_GO", "P1M", product.price / 2)
            case .winBack(_, true): return (3, Self.codeCampaign.offerIdentifier, "PAY_AS_YOU_GO", "P3M", product.price / 2)
            case .winBack: return (4, "winback.monthly.50off", "PAY_AS_YOU_GO", "P3M", product.price / 2)
            case .regular: return (nil, nil, nil, nil, product.price)
            }
        }

        while purchase < anchor {
            let expires: Int64
            switch kind {
            case .freeTrial: expires = purchase + 7 * Self.day
            default: expires = InstantFormat.addingMonths(purchase, billsMonthly ? 1 : product.months)
            }
            var (offerType, offerIdentifier, discount, offerPeriod, price) = offerFields(kind)
            if billsMonthly { price = Self.commitmentInstalment }
            if price > 0 { price = Self.localPrice(price, currency: storefront.2) }
            let transactionId = subscription.transactions.isEmpty ? originalTransactionId : newTransactionId()
            webOrder += 1
            var fields: [(String, JSONValue)] = [
                ("transactionId", .string(transactionId)), ("originalTransactionId", .string(originalTransactionId)),
                ("webOrderLineItemId", .string(String(webOrder))), ("bundleId", .string(bundleId)),
                ("productId", .string(product.productId)), ("subscriptionGroupIdentifier", .string(product.groupId)),
                ("purchaseDate", .integer(purchase)), ("originalPurchaseDate", .integer(start)),
                ("expiresDate", .integer(expires)), ("quantity", .integer(1)), ("type", .string("Auto-Renewable Subscription")),
            ]
            if let token { fields.append(("appAccountToken", .string(token))) }
            fields.append(("inAppOwnershipType", .string(isFamily ? "FAMILY_SHARED" : "PURCHASED")))
            let signedDate = min(purchase + random.int(in: 1...(2 * Self.hour)), anchor - 1)
            fields.append(("signedDate", .integer(signedDate)))
            if let offerType { fields.append(("offerType", .integer(offerType))) }
            if let offerIdentifier { fields.append(("offerIdentifier", .string(offerIdentifier))) }
            fields += [
                ("environment", .string(environment)), ("storefront", .string(storefront.0)), ("storefrontId", .string(storefront.1)),
                ("transactionReason", .string(reason)), ("currency", .string(storefront.2)), ("price", .integer(price)),
            ]
            if let discount { fields.append(("offerDiscountType", .string(discount))) }
            fields.append(("appTransactionId", .string(appTransactionId)))
            if let offerPeriod { fields.append(("offerPeriod", .string(offerPeriod))) }
            if billsMonthly {
                let period = Int64(subscription.transactions.count) % 12 + 1
                if period == 1 { commitmentStart = purchase }
                fields += [
                    ("billingPlanType", .string(BillingPlanType.monthly.rawValue)),
                    (
                        "commitmentInfo",
                        JSONText.object([
                            ("billingPeriodNumber", .integer(period)),
                            ("commitmentExpiresDate", .integer(InstantFormat.addingMonths(commitmentStart, 12))),
                            ("commitmentPrice", .integer(12 * price)), ("totalBillingPeriods", .integer(12)),
                        ])
                    ),
                ]
            } else if product == .annual, purchase >= Self.billingPlansLaunch {
                fields.append(("billingPlanType", .string(BillingPlanType.billedUpfront.rawValue)))
            }
            subscription.transactions.append(JSONText.object(fields))
            if subscription.transactions.count == 1 || reason == "PURCHASE", random.chance(0.12) {
                subscription.notifications.append(
                    SampleNotification(
                        notificationType: "SUBSCRIBED", subtype: subscription.transactions.count == 1 ? "INITIAL_BUY" : "RESUBSCRIBE",
                        signedDate: signedDate, transaction: JSONText.object(fields), renewalInfo: nil, status: 1))
            }
            reason = "RENEWAL"

            // Upgrade mid-period: this transaction is replaced by an annual one 10 days in.
            if !hasUpgraded, product == .monthly, case .regular = kind, random.chance(0.04), purchase + 10 * Self.day < anchor {
                hasUpgraded = true
                let last = subscription.transactions.count - 1
                subscription.transactions[last] = JSONText.object(fields + [("isUpgraded", .bool(true))])
                product = .annual
                purchase += 10 * Self.day
                reason = "PURCHASE"
                kind = .regular
                continue
            }
            if expires >= anchor {
                // Active at the anchor; a commitment's renewal is decided at its end, not each month.
                if billsMonthly {
                    if random.chance(0.15) { commitmentAutoRenew = 0 }
                } else if random.chance(0.1) {
                    autoRenew = 0
                }
                if !billsMonthly, random.chance(0.08) { priceIncreasePending = true }
                break
            }
            let hazard: Double
            switch kind {
            case .freeTrial: hazard = 0.4
            case .payAsYouGo, .winBack: hazard = 0.12
            default: hazard = billsMonthly ? 0.02 : product.months == 12 ? 0.3 : 0.07
            }
            if random.chance(hazard) {
                // Inside a commitment the customer cannot cancel; only a payment can fail.
                let churn =
                    billsMonthly
                    ? "billing"
                    : random.weighted([
                        ("voluntary", 0.55), ("billing", 0.25), ("price", 0.08), ("unavailable", 0.04), ("other", 0.03), ("refund", 0.05),
                    ])
                switch churn {
                case "billing":
                    if expires + 60 * Self.day > anchor {
                        inRetry = true
                        lapsedIntent = 2
                        graceExpires = expires + 16 * Self.day
                        autoRenew = 1
                    } else if random.chance(0.5) {
                        purchase = expires + random.int(in: 1...10) * Self.day
                        kind = .regular
                        continue
                    } else {
                        lapsedIntent = 2
                        autoRenew = 0
                    }
                case "refund":
                    let revocation = purchase + random.int(in: 1...max(1, (expires - purchase) / Self.day - 1)) * Self.day
                    // A third of refunds are prorated (Apple's REFUND_PRORATED, a share of the price).
                    let prorated: Int64? = random.chance(0.33) ? random.int(in: 10...90) * 1000 : nil
                    if revocation < anchor {
                        let last = subscription.transactions.count - 1
                        let revoked = JSONText.object(
                            (subscription.transactions[last].objectMembers ?? []).map { member in
                                (member.key, member.key == "signedDate" ? .integer(min(revocation + Self.hour, anchor - 1)) : member.value)
                            } + [
                                ("revocationReason", .integer(random.chance(0.5) ? 1 : 0)), ("revocationDate", .integer(revocation)),
                                ("revocationType", .string(prorated == nil ? "REFUND_FULL" : "REFUND_PRORATED")),
                                ("revocationPercentage", .integer(prorated ?? 100_000)),
                            ])
                        subscription.resigned.append(revoked)
                        subscription.notifications.append(
                            SampleNotification(
                                notificationType: "REFUND", subtype: nil, signedDate: min(revocation + Self.hour, anchor - 1),
                                transaction: revoked, renewalInfo: nil, status: 5))
                    }
                    lapsedIntent = 1
                    autoRenew = 0
                default:
                    lapsedIntent = ["voluntary": 1, "price": 3, "unavailable": 4, "other": 5][churn] ?? 1
                    autoRenew = 0
                    if churn == "voluntary", random.chance(0.6) {
                        eligibleWinBack =
                            random.chance(0.5) ? ["winback.monthly.50off", "winback.annual.1mfree"] : ["winback.monthly.50off"]
                    }
                    // A lapse the win-back campaign's history selects (its reasons): treated accounts come back more often.
                    if ["voluntary", "price", "other"].contains(churn), !isFamily,
                        let comeback = campaignComeback(lapse: expires, accountKey: token ?? originalTransactionId)
                    {
                        purchase = comeback.date
                        recentStart = comeback.date
                        reason = "PURCHASE"
                        kind = comeback.withOffer ? .winBack(remaining: 3, code: comeback.withCode) : .regular
                        lapsedIntent = nil
                        autoRenew = 1
                        eligibleWinBack = nil
                        continue
                    }
                    if random.chance(0.25) {
                        let resubscribe = expires + random.int(in: 20...200) * Self.day
                        if resubscribe < anchor {
                            purchase = resubscribe
                            recentStart = resubscribe
                            reason = "PURCHASE"
                            kind = random.chance(0.5) ? .winBack(remaining: 3, code: false) : .regular
                            lapsedIntent = nil
                            autoRenew = 1
                            eligibleWinBack = nil
                            continue
                        }
                    }
                }
                break
            }
            purchase = expires
            switch kind {
            case .payAsYouGo(let remaining) where remaining > 1: kind = .payAsYouGo(remaining: remaining - 1)
            case .winBack(let remaining, let code) where remaining > 1: kind = .winBack(remaining: remaining - 1, code: code)
            default: kind = random.chance(0.05) ? .promotional : .regular
            }
        }

        guard random.chance(0.94), let last = subscription.transactions.last else { return subscription }
        let lastExpires: Int64
        if case .integer(let value)? = last["expiresDate"] { lastExpires = value } else { lastExpires = anchor }
        // The customer turned auto-renew off during the last period: most such switches arrive as a notification.
        if autoRenew == 0 || commitmentAutoRenew == 0, lapsedIntent == nil || lapsedIntent == 1,
            case .integer(let lastPurchase)? = last["purchaseDate"],
            random.chance(0.9)
        {
            let latest = min(lastExpires, anchor) - 1
            let switched = lastPurchase + random.int(in: 0...max(0, latest - lastPurchase))
            subscription.notifications.append(
                SampleNotification(
                    notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signedDate: switched,
                    transaction: last, renewalInfo: nil, status: lastExpires > anchor ? 1 : 2))
        }
        let renewalSigned = min(max(lastExpires - 2 * Self.day, anchor - 5 * Self.day), anchor - 1) + random.int(in: 0...Self.hour)
        renewal.append(("originalTransactionId", .string(originalTransactionId)))
        if let lapsedIntent { renewal.insert(("expirationIntent", .integer(lapsedIntent)), at: 0) }
        renewal += [
            ("autoRenewProductId", .string(product.productId)), ("productId", .string(product.productId)),
            ("autoRenewStatus", .integer(autoRenew)), ("isInBillingRetryPeriod", .bool(inRetry)),
        ]
        if priceIncreasePending { renewal.append(("priceIncreaseStatus", .integer(0))) }
        if let graceExpires { renewal.append(("gracePeriodExpiresDate", .integer(graceExpires))) }
        renewal += [
            ("signedDate", .integer(min(renewalSigned, anchor - 1))), ("environment", .string(environment)),
            ("recentSubscriptionStartDate", .integer(recentStart)), ("renewalDate", .integer(lastExpires)),
            ("currency", .string(storefront.2)),
            ("renewalPrice", .integer(Self.localPrice(billsMonthly ? Self.commitmentInstalment : product.price, currency: storefront.2))),
        ]
        if let eligibleWinBack { renewal.append(("eligibleWinBackOfferIds", JSONText.array(eligibleWinBack.map { .string($0) }))) }
        if billsMonthly {
            let commitmentExpires = InstantFormat.addingMonths(commitmentStart, 12)
            renewal += [
                ("renewalBillingPlanType", .string(RenewalBillingPlanType.monthly.rawValue)),
                (
                    "commitmentInfo",
                    JSONText.object([
                        ("commitmentAutoRenewProductId", .string(product.productId)),
                        ("commitmentAutoRenewStatus", .integer(commitmentAutoRenew)),
                        ("commitmentRenewalBillingPlanType", .string(RenewalBillingPlanType.monthly.rawValue)),
                        ("commitmentRenewalDate", .integer(commitmentExpires)),
                        ("commitmentRenewalPrice", .integer(12 * Self.localPrice(Self.commitmentInstalment, currency: storefront.2))),
                    ])
                ),
            ]
        } else if product == .annual, lastExpires >= Self.billingPlansLaunch {
            renewal.append(("renewalBillingPlanType", .string(RenewalBillingPlanType.billedUpfront.rawValue)))
        }
        if let token { renewal.append(("appAccountToken", .string(token))) }
        renewal.append(("appTransactionId", .string(appTransactionId)))
        subscription.renewalInfo = JSONText.object(renewal)
        return subscription
    }
}
