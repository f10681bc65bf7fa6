import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto

@Suite struct CampaignSelectorTests {
    static let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)

    /// Buckets computed independently: int.from_bytes(sha256(f"{campaign}:{key}").digest()[:8], "big") % 10000.
    @Test(arguments: [
        ("winback-q4", "7e3fb20b-4cdb-47cc-936d-99d65f608138", UInt64(3_254_310_956_998_151_386), 1386),
        ("winback-q4", "2000000900000010", 16_937_359_626_844_955_526, 5526),
        ("retain", "a", 14_099_449_417_622_809_871, 9871),
        ("billing", "2000000900000221", 17_616_222_158_698_256_003, 6003),
    ])
    func holdoutHashMatchesTheRule(_ campaign: String, _ key: String, _ hash: UInt64, _ bucket: Int) {
        #expect(HoldoutHash.bucket("\(campaign):\(key)") == hash)
        #expect(Int(hash % 10_000) == bucket)
        let inside = Campaign(id: campaign, audience: .billingIssue, holdoutPercent: Double(bucket + 1) / 100)
        let outside = Campaign(id: campaign, audience: .billingIssue, holdoutPercent: Double(bucket) / 100)
        #expect(Self.selector.isHoldout(inside, accountKey: key))
        #expect(!Self.selector.isHoldout(outside, accountKey: key))
    }

    static func timelines() throws -> ([SubscriptionTimeline], Int64) {
        let (model, calendar) = try HandCheckedReportTests.model()
        return (model.timelines, calendar.asOf)
    }

    static func winBack(_ configure: (inout CampaignRules) -> Void) -> Campaign {
        var rules = CampaignRules()
        rules.lapseReasons = [.voluntary]
        configure(&rules)
        return Campaign(id: "wb", audience: .winBack, offerIdentifier: "wb.offer", rules: rules, signatures: [.v1])
    }

    /// A subscription of one transaction, lapsed voluntarily 20 days before `asOf` after `paidDays` paid days.
    static func lapsed(_ id: String, token: String?, paidDays: Int64, asOf: Int64) -> SubscriptionTimeline {
        let transaction = SubscriptionTransaction(
            transactionId: id + "t", originalTransactionId: id, productId: "m", purchaseDate: asOf - (paidDays + 20) * InstantFormat.day,
            expiresDate: asOf - 20 * InstantFormat.day, appAccountToken: token)
        return SubscriptionTimeline(
            transactions: [transaction], renewal: RenewalState(originalTransactionId: id, expirationIntent: 1), asOf: asOf,
            graceMilliseconds: 0)
    }

    static func rules(_ configure: (inout CampaignRules) -> Void) -> CampaignRules {
        var rules = CampaignRules()
        rules.lapseReasons = [.voluntary]
        configure(&rules)
        return rules
    }

    static let ruleCases: [(String, CampaignRules, [String])] = [
        ("any voluntary lapse", rules { _ in }, ["10", "2", "3"]),
        ("at least 30 consecutive paid days", rules { $0.minPaidDays = 30 }, ["10", "3"]),
        ("lapsed at least 14 days ago", rules { $0.minDaysSinceLapse = 14 }, ["2", "3"]),
        ("lapsed at most 30 days ago", rules { $0.maxDaysSinceLapse = 30 }, ["10", "3"]),
        ("billing errors too", rules { $0.lapseReasons = [.voluntary, .billingError] }, ["10", "2", "3", "5"]),
        ("product filter", rules { $0.productIds = ["a"] }, []),
        ("empty storefront list selects nothing", rules { $0.storefronts = [] }, []),
    ]

    @Test(arguments: ruleCases)
    func winBackRules(_ name: String, _ rules: CampaignRules, _ expected: [String]) throws {
        let (timelines, asOf) = try Self.timelines()
        var campaign = Self.winBack { _ in }
        campaign.rules = rules
        let selected = Self.selector.select(campaign, timelines: timelines, asOf: asOf, coolingDown: [])
        #expect(selected.map(\.accountKey) == expected, "\(name)")
    }

    @Test func winBackRowCarriesDaysSinceLapseAndReason() throws {
        let (timelines, asOf) = try Self.timelines()
        let selected = Self.selector.select(Self.winBack { _ in }, timelines: timelines, asOf: asOf, coolingDown: [])
        #expect(
            selected.first { $0.accountKey == "3" }?.row.cells == [
                "wb", "3", "3", "treatment", "win_back", "m", "wb.offer", "59", "24", nil, "voluntary",
            ])
    }

    /// A subscription that lapsed voluntarily 30 days before the as-of day, whose renewal info lists `listed` as
    /// eligible win-back offers; and that as-of day.
    static func lapsedListing(_ listed: [String]?) -> (SubscriptionTimeline, Int64) {
        let lapsed = SubscriptionTransaction(
            transactionId: "t1", originalTransactionId: "o1", productId: "m", purchaseDate: 0, expiresDate: 30 * InstantFormat.day)
        let renewal = RenewalState(originalTransactionId: "o1", expirationIntent: 1, eligibleWinBackOfferIds: listed)
        let asOf = 60 * InstantFormat.day
        return (SubscriptionTimeline(transactions: [lapsed], renewal: renewal, asOf: asOf, graceMilliseconds: 0), asOf)
    }

    /// The win-back campaign of these tests as an unsigned Apple win-back offer.
    static func appleWinBack() -> Campaign {
        var campaign = winBack { _ in }
        campaign.offerKind = .winBack
        campaign.signatures = []
        return campaign
    }

    /// An Apple win-back offer (docs/notifications-and-commitments.md) reaches only accounts whose renewal info lists it; with a null
    /// `offerIdentifier`, any listed offer, and the account's offer is Apple's first id.
    @Test(
        arguments: [
            ("wb.offer", ["other", "wb.offer"], true, "wb.offer"), ("wb.offer", ["other"], false, nil),
            ("wb.offer", nil, false, nil), (nil, ["first", "second"], true, "first"), (nil, [], false, nil),
        ] as [(String?, [String]?, Bool, String?)])
    func appleWinBackOffersNeedAppleEligibility(offer: String?, listed: [String]?, isSelected: Bool, offerOfAccount: String?) {
        let (timeline, asOf) = Self.lapsedListing(listed)
        var campaign = Self.appleWinBack()
        campaign.offerIdentifier = offer
        let selected = Self.selector.select(campaign, timelines: [timeline], asOf: asOf, coolingDown: [])
        #expect(selected.map(\.accountKey) == (isSelected ? ["o1"] : []))
        #expect(selected.first?.offerIdentifier == offerOfAccount)
        #expect(selected.first?.offerKind == (isSelected ? .winBack : nil))
        #expect(selected.first?.eligibleWinBackOfferIds == (isSelected ? listed : nil))
        // The same accounts as a promotional offer are selected whatever Apple lists.
        campaign.offerKind = .promotional
        #expect(Self.selector.select(campaign, timelines: [timeline], asOf: asOf, coolingDown: []).map(\.accountKey) == ["o1"])
    }

    /// `offer.offerIdentifiers` (docs/campaigns.md): the account's offer is the first id of Apple's list (best first)
    /// that the campaign allows; an account whose list has none of them does not qualify.
    @Test(
        arguments: [
            (["plan.12m", "plan.1m"], ["other", "plan.1m", "plan.12m"], "plan.1m"), (["plan.12m"], ["other", "plan.12m"], "plan.12m"),
            (["plan.12m"], ["other"], nil), (["plan.12m"], [], nil),
        ] as [([String], [String], String?)])
    func winBackPreferencesFollowApplesOrder(allowed: [String], listed: [String], offerOfAccount: String?) {
        let (timeline, asOf) = Self.lapsedListing(listed)
        var campaign = Self.appleWinBack()
        campaign.offerIdentifier = nil
        campaign.offerIdentifiers = allowed
        let selected = Self.selector.select(campaign, timelines: [timeline], asOf: asOf, coolingDown: [])
        #expect(selected.map(\.accountKey) == (offerOfAccount == nil ? [] : ["o1"]))
        #expect(selected.first?.offerIdentifier == offerOfAccount)
    }

    @Test func oneConsiderationPerAccountCooldownAndCap() {
        let asOf = 100 * InstantFormat.day
        func subscription(_ id: String, token: String?, paidDays: Int64) -> SubscriptionTimeline {
            Self.lapsed(id, token: token, paidDays: paidDays, asOf: asOf)
        }
        let timelines = [
            subscription("1", token: "AAAA", paidDays: 10), subscription("2", token: "aaaa", paidDays: 40),
            subscription("3", token: nil, paidDays: 30),
            subscription("4", token: "bbbb", paidDays: 50),
        ]
        let campaign = Self.winBack { _ in }
        let all = Self.selector.select(campaign, timelines: timelines, asOf: asOf, coolingDown: [])
        #expect(all.map(\.accountKey) == ["3", "aaaa", "bbbb"])
        #expect(all.first { $0.accountKey == "aaaa" }?.originalTransactionId == "2")
        let cooled = Self.selector.select(campaign, timelines: timelines, asOf: asOf, coolingDown: ["bbbb"])
        #expect(cooled.map(\.accountKey) == ["3", "aaaa"])
        var capped = campaign
        capped.maxOffers = 2
        #expect(Self.selector.select(capped, timelines: timelines, asOf: asOf, coolingDown: []).map(\.accountKey) == ["aaaa", "bbbb"])
        // The key and the offer's token are the lower-cased token, beyond ASCII too; a lower-case one is kept as is.
        for (token, key) in [("AbCd-É", "abcd-é"), ("abcd-é", "abcd-é"), ("ab", "ab")] {
            let mixed = Self.selector.select(
                campaign, timelines: [subscription("5", token: token, paidDays: 10)], asOf: asOf, coolingDown: [])
            #expect(mixed.map(\.accountKey) == [key])
            #expect(mixed.map(\.appAccountToken) == [key])
        }
    }

    /// An account's subscriptions are found wherever they sit in the timelines; the one with the most paid days,
    /// then the smallest `originalTransactionId` (as a number), speaks for it; accounts come out by code point.
    @Test func oneSubscriptionPerAccountWhereverItsSubscriptionsAre() {
        let asOf = 100 * InstantFormat.day
        func subscription(_ id: String, token: String?, paidDays: Int64) -> SubscriptionTimeline {
            Self.lapsed(id, token: token, paidDays: paidDays, asOf: asOf)
        }
        let timelines = [
            subscription("10", token: "é-account", paidDays: 30), subscription("20", token: "z-account", paidDays: 5),
            subscription("9", token: "É-ACCOUNT", paidDays: 30), subscription("30", token: "z-account", paidDays: 6),
            subscription("40", token: nil, paidDays: 1), subscription("5", token: "é-account", paidDays: 29),
        ]
        let selected = Self.selector.select(Self.winBack { _ in }, timelines: timelines, asOf: asOf, coolingDown: [])
        #expect(selected.map(\.accountKey) == ["40", "z-account", "é-account"])
        #expect(selected.map(\.originalTransactionId) == ["40", "30", "9"])
        var capped = Self.winBack { _ in }
        capped.maxOffers = 2
        let kept = Self.selector.select(capped, timelines: timelines, asOf: asOf, coolingDown: [])
        #expect(kept.map(\.accountKey) == ["z-account", "é-account"])
    }

    @Test func retentionAndPriceIncreaseNeedRenewalState() {
        let asOf = 100 * InstantFormat.day
        let active = SubscriptionTransaction(
            transactionId: "t", originalTransactionId: "o", productId: "m", purchaseDate: asOf - 25 * InstantFormat.day,
            expiresDate: asOf + 5 * InstantFormat.day + 1)
        let retention = Campaign(
            id: "r", audience: .retention, offerIdentifier: "r.offer",
            rules: {
                var rules = CampaignRules(); rules.maxDaysToExpiry = 7; return rules
            }(), signatures: [.v2])
        let priceIncrease = Campaign(
            id: "p", audience: .priceIncrease, offerIdentifier: "p.offer", rules: retention.rules, signatures: [.v2])
        let cases: [(RenewalState?, Campaign, Bool)] = [
            (RenewalState(originalTransactionId: "o", autoRenewStatus: 0), retention, true),
            (RenewalState(originalTransactionId: "o", autoRenewStatus: 1), retention, false),
            (nil, retention, false),
            (RenewalState(originalTransactionId: "o", autoRenewStatus: 1, priceIncreaseStatus: 0), priceIncrease, true),
            (RenewalState(originalTransactionId: "o", autoRenewStatus: 1, priceIncreaseStatus: 1), priceIncrease, false),
        ]
        for (renewal, campaign, isSelected) in cases {
            let timeline = SubscriptionTimeline(transactions: [active], renewal: renewal, asOf: asOf, graceMilliseconds: 0)
            let selected = Self.selector.select(campaign, timelines: [timeline], asOf: asOf, coolingDown: [])
            #expect(selected.isEmpty != isSelected)
            if isSelected { #expect(selected.first?.daysToExpiry == 5) }
        }
    }

    /// A transaction in a 12-month commitment (docs/notifications-and-commitments.md): days to expiry count to the commitment's end,
    /// and the commitment's auto-renew status, when present, decides whether it renews.
    @Test(arguments: [
        (Int32(1), Int32?.some(0), Audience.retention, Int64(120), Int64?.some(100)),
        (1, 0, .retention, 7, nil),
        (0, 1, .retention, 120, nil),
        (0, nil, .retention, 120, 100),
        (0, 1, .priceIncrease, 120, 100),
        (1, 0, .priceIncrease, 120, nil),
    ])
    func commitmentsRenewAtTheirEnd(
        autoRenewStatus: Int32, commitmentAutoRenewStatus: Int32?, audience: Audience, maxDaysToExpiry: Int64, daysToExpiry: Int64?
    ) {
        let asOf = 100 * InstantFormat.day
        let instalment = SubscriptionTransaction(
            transactionId: "t", originalTransactionId: "o", productId: "a", purchaseDate: asOf - 25 * InstantFormat.day,
            expiresDate: asOf + 5 * InstantFormat.day + 1, billingPlanType: "MONTHLY",
            commitment: TransactionCommitmentInfo(
                billingPeriodNumber: 4, commitmentExpiresDate: asOf + 100 * InstantFormat.day + 1, totalBillingPeriods: 12))
        let renewal = RenewalState(
            originalTransactionId: "o", autoRenewStatus: autoRenewStatus, priceIncreaseStatus: 0, renewalBillingPlanType: "MONTHLY",
            commitmentAutoRenewStatus: commitmentAutoRenewStatus)
        var rules = CampaignRules()
        rules.maxDaysToExpiry = maxDaysToExpiry
        let campaign = Campaign(id: "c", audience: audience, offerIdentifier: "offer", rules: rules, signatures: [.v2])
        let timeline = SubscriptionTimeline(transactions: [instalment], renewal: renewal, asOf: asOf, graceMilliseconds: 0)
        let selected = Self.selector.select(campaign, timelines: [timeline], asOf: asOf, coolingDown: [])
        #expect(selected.map(\.daysToExpiry) == (daysToExpiry.map { [$0] } ?? []))
    }

    @Test(arguments: [
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"offerIdentifier": "o"}, "signatures": ["v1"], "rules": {}}]"#,
            "campaigns[0] ('x').rules.lapseReasons", "required key is missing"
        ),
        (
            #"[{"id": "x", "audience": "winback", "signatures": ["v1"]}]"#,
            "campaigns[0] ('x').audience", "expected one of 'win_back', 'retention', 'price_increase', 'billing_issue', found 'winback'"
        ),
        (
            #"[{"id": "x", "audience": "retention", "offer": {"offerIdentifier": "o"}, "signatures": ["v3"], "rules": {"maxDaysToExpiry": 3}}]"#,
            "campaigns[0] ('x').signatures", "expected values from 'v1', 'v2', 'intro', found 'v3'"
        ),
        (
            #"[{"id": "x", "audience": "retention", "offer": {"offerIdentifier": "o"}, "signatures": ["intro"], "rules": {"maxDaysToExpiry": 3}}]"#,
            "campaigns[0] ('x').allowIntroductoryOffer", "expected true or false (required when signatures has 'intro'), found none"
        ),
        (
            #"[{"id": "x", "audience": "retention", "signatures": ["v2"], "rules": {"maxDaysToExpiry": 3}}]"#,
            "campaigns[0] ('x').offer.offerIdentifier",
            "expected a string (required for a retention campaign that signs v1 or v2), found none"
        ),
        (
            #"[{"id": "x", "audience": "billing_issue", "holdoutPercent": 120}]"#,
            "campaigns[0] ('x').holdoutPercent", "expected a number from 0 to 100, found 120 (integer)"
        ),
        (
            #"[{"id": "x", "audience": "billing_issue"}, {"id": "x", "audience": "billing_issue"}]"#,
            "campaigns[1] ('x').id", "expected a unique id, found 'x' twice"
        ),
        // docs/notifications-and-commitments.md: the withdrawn rule on a promotional offer says what to use instead.
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"offerIdentifier": "o"}, "signatures": ["v2"], "rules": {"lapseReasons": ["voluntary"], "requireAppleEligibility": true}}]"#,
            "campaigns[0] ('x').rules.requireAppleEligibility",
            "withdrawn: a promotional offer cannot require Apple's win-back eligibility; use offer.type \"win_back\" for Apple's win-back offers (unsigned, eligibility from eligibleWinBackOfferIds)"
        ),
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"type": "win_back", "offerIdentifier": "o"}, "signatures": ["v2"], "rules": {"lapseReasons": ["voluntary"]}}]"#,
            "campaigns[0] ('x').signatures",
            "expected none: Apple win-back offers are redeemed with StoreKit's win-back purchase option, without a signature"
        ),
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"type": "win_back", "offerIdentifier": "o", "offerIdentifiers": ["o"]}, "rules": {"lapseReasons": ["voluntary"]}}]"#,
            "campaigns[0] ('x').offer.offerIdentifiers", "expected offerIdentifier or offerIdentifiers, not both (offerIdentifier is 'o')"
        ),
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"offerIdentifiers": ["o"]}, "signatures": ["v2"], "rules": {"lapseReasons": ["voluntary"]}}]"#,
            "campaigns[0] ('x').offer.offerIdentifiers",
            "expected offer.type 'win_back' (a preference among Apple's eligible win-back offers), found 'promotional'"
        ),
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"type": "win_back", "offerIdentifiers": []}, "rules": {"lapseReasons": ["voluntary"]}}]"#,
            "campaigns[0] ('x').offer.offerIdentifiers", "expected a non-empty list of non-empty offer ids"
        ),
        (
            #"[{"id": "x", "audience": "retention", "offer": {"type": "win_back", "offerIdentifier": "o"}, "rules": {"maxDaysToExpiry": 3}}]"#,
            "campaigns[0] ('x').offer.type", "expected audience 'win_back' for an Apple win-back offer, found 'retention'"
        ),
        (
            #"[{"id": "x", "audience": "win_back", "offer": {"type": "winback"}, "rules": {"lapseReasons": ["voluntary"]}}]"#,
            "campaigns[0] ('x').offer.type",
            "expected 'promotional', 'win_back' or 'offer_code' (or, for retention messaging, 'alternate_product' or 'message'), found 'winback'"
        ),
    ])
    func invalidCampaignsNameTheCampaignAndKey(_ text: String, _ key: String, _ message: String) throws {
        guard case .array(let elements) = try JSONParser.parse(text) else { return }
        #expect(throws: ConfigError(key: key, message: message)) { try CampaignParser.parse(elements.map(\.value)) }
    }

    /// A win-back offer needs no signatures or offer identifier; the withdrawn rule only warns on it, and
    /// `false` anywhere is ignored with a warning.
    @Test func appleWinBackCampaignsParseAndTheWithdrawnRuleWarns() throws {
        let text = #"""
            [{"id": "a", "audience": "win_back", "offer": {"type": "win_back"}, "rules": {"lapseReasons": ["voluntary"], "requireAppleEligibility": true}},
             {"id": "b", "audience": "win_back", "offer": {"type": "win_back", "offerIdentifier": "o"}, "signatures": [], "rules": {"lapseReasons": ["voluntary"]}},
             {"id": "c", "audience": "win_back", "offer": {"offerIdentifier": "o"}, "signatures": ["v2"], "rules": {"lapseReasons": ["voluntary"], "requireAppleEligibility": false}}]
            """#
        guard case .array(let elements) = try JSONParser.parse(text) else { return }
        var warnings: [String] = []
        let campaigns = try CampaignParser.parse(elements.map(\.value), warnings: &warnings)
        #expect(campaigns.map(\.offerKind) == [.winBack, .winBack, .promotional])
        #expect(campaigns.map(\.isSigned) == [false, false, true])
        #expect(campaigns.first?.offerIdentifier == nil && campaigns.first?.signatures == [])
        #expect(
            warnings == [
                "warning: campaigns[0] ('a').rules.requireAppleEligibility is withdrawn and redundant: offer.type \"win_back\" already requires Apple's eligibility",
                "warning: campaigns[2] ('c').rules.requireAppleEligibility is withdrawn and ignored; remove it (Apple's win-back offers: offer.type \"win_back\")",
            ])
    }

    @Test func introOnlyCampaignMayOmitTheOfferIdentifier() throws {
        guard
            case .array(let elements) = try JSONParser.parse(
                #"[{"id": "i", "audience": "retention", "signatures": ["intro"], "allowIntroductoryOffer": true, "rules": {"maxDaysToExpiry": 3}}]"#
            )
        else { return }
        let campaigns = try CampaignParser.parse(elements.map(\.value))
        #expect(campaigns.first?.offerIdentifier == nil)
        #expect(campaigns.first?.allowIntroductoryOffer == true)
    }
}
