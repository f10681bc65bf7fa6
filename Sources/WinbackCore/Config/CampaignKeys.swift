import WinbackAppStore

/// The keys a campaign object, its `offer` and its `rules` may hold (docs/campaigns.md); anything else is an error.
public enum CampaignKeys {
    /// The keys a campaign object may have.
    public static let campaign: Set<String> = [
        "id", "audience", "offer", "rules", "holdoutPercent", "cooldownDays", "maxOffers", "plannedAccounts", "signatures",
        "allowIntroductoryOffer", "channel", "messageIdentifier",
    ]
    /// The keys of a campaign's `offer` object.
    public static let offer: Set<String> = [
        "type", "productId", "offerIdentifier", "offerIdentifiers", "codes", "customCode", "billingPlanType",
    ]
    /// The keys of a campaign's `rules` object.
    public static let rules: Set<String> = [
        "minPaidDays", "minDaysSinceLapse", "maxDaysSinceLapse", "lapseReasons", "requireAppleEligibility", "maxDaysSinceAutoRenewDisabled",
        "maxDaysToExpiry", "storefronts", "productIds", "maxRenewalProbability", "minExpectedProceeds12m",
    ]

    /// Throws for a non-object campaign or an unknown key at any of its levels.
    public static func check(_ value: JSONValue, key: String) throws(ConfigError) {
        let name = value["id"]?.stringValue.map { "\(key) ('\($0)')" } ?? key
        let campaign = try ConfigObject(value, key: name)
        try campaign.allowOnly(self.campaign)
        if let offer = campaign.optional("offer") {
            try ConfigObject(offer, key: "\(name).offer").allowOnly(self.offer)
        }
        if let rules = campaign.optional("rules") {
            try ConfigObject(rules, key: "\(name).rules").allowOnly(self.rules)
        }
        _ = try campaign.required("id")
    }
}
