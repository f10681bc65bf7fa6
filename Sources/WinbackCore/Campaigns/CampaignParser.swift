import WinbackAnalytics
import WinbackAppStore

/// Validates the `campaigns` of the config; every error names the campaign and the key (exit 64).
public enum CampaignParser {
    /// Validates the config's `campaigns` objects; the first problem names the campaign and key (exit 64).
    public static func parse(_ values: [JSONValue]) throws(ConfigError) -> [Campaign] {
        var warnings: [String] = []
        return try parse(values, warnings: &warnings)
    }

    /// Validates the config's `campaigns` objects, adding a deprecation warning per withdrawn rule in use.
    public static func parse(_ values: [JSONValue], warnings: inout [String]) throws(ConfigError) -> [Campaign] {
        var campaigns: [Campaign] = []
        var seen: Set<String> = []
        for (index, value) in values.enumerated() {
            let campaign = try parse(value, key: "campaigns[\(index)]", warnings: &warnings)
            guard seen.insert(campaign.id).inserted else {
                throw ConfigError(
                    key: "campaigns[\(index)] ('\(campaign.id)').id", message: "expected a unique id, found '\(campaign.id)' twice")
            }
            campaigns.append(campaign)
        }
        return campaigns
    }

    static func parse(_ value: JSONValue, key: String, warnings: inout [String]) throws(ConfigError) -> Campaign {
        try CampaignKeys.check(value, key: key)
        let id = try ConfigObject(value, key: key).string("id")
        let name = "\(key) ('\(id)')"
        let object = try ConfigObject(value, key: name)
        let audienceText = try object.string("audience")
        guard let audience = Audience(rawValue: audienceText) else {
            throw ConfigError(
                key: "\(name).audience",
                message: "expected one of \(Audience.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")), found '\(audienceText)'")
        }
        var campaign = Campaign(id: id, audience: audience)

        if let offerValue = object.optional("offer") {
            let offer = try ConfigObject(offerValue, key: "\(name).offer")
            campaign.offerProductId = try offer.optionalString("productId")
            campaign.offerIdentifier = try offer.optionalString("offerIdentifier")
            if offer.optional("offerIdentifiers") != nil {
                let identifiers = try offer.stringArray("offerIdentifiers")
                guard campaign.offerIdentifier == nil else {
                    throw ConfigError(
                        key: "\(name).offer.offerIdentifiers",
                        message:
                            "expected offerIdentifier or offerIdentifiers, not both (offerIdentifier is '\(campaign.offerIdentifier ?? "")')"
                    )
                }
                guard !identifiers.isEmpty, !identifiers.contains("") else {
                    throw ConfigError(key: "\(name).offer.offerIdentifiers", message: "expected a non-empty list of non-empty offer ids")
                }
                campaign.offerIdentifiers = identifiers
            }
            if let typeText = try offer.optionalString("type") {
                guard let kind = OfferKind(rawValue: typeText) else {
                    throw ConfigError(
                        key: "\(name).offer.type",
                        message:
                            "expected 'promotional', 'win_back' or 'offer_code' (or, for retention messaging, 'alternate_product' or 'message'), found '\(typeText)'"
                    )
                }
                campaign.offerKind = kind
            }
            campaign.billingPlanType = try offer.optionalString("billingPlanType")
            campaign.offerCodesFile = try offer.optionalString("codes")
            campaign.customCode = try offer.optionalString("customCode")
        }
        try checkRetentionMessaging(&campaign, object: object, name: name)
        try checkOfferCode(campaign, object: object, name: name)
        if campaign.offerIdentifiers != nil, campaign.offerKind != .winBack {
            throw ConfigError(
                key: "\(name).offer.offerIdentifiers",
                message:
                    "expected offer.type 'win_back' (a preference among Apple's eligible win-back offers), found '\(campaign.offerKind.rawValue)'"
            )
        }
        if campaign.offerKind == .winBack {
            guard audience == .winBack else {
                throw ConfigError(
                    key: "\(name).offer.type",
                    message: "expected audience 'win_back' for an Apple win-back offer, found '\(audience.rawValue)'")
            }
            if let signatures = object.optional("signatures"), signatures != .array([]) {
                throw ConfigError(
                    key: "\(name).signatures",
                    message:
                        "expected none: Apple win-back offers are redeemed with StoreKit's win-back purchase option, without a signature")
            }
        }
        if let holdout = object.optional("holdoutPercent") {
            let percent = try object.number("holdoutPercent")
            guard (0...100).contains(percent) else {
                throw ConfigError(
                    key: "\(name).holdoutPercent", message: "expected a number from 0 to 100, found \(FieldValue.describe(holdout))")
            }
            campaign.holdoutPercent = percent
        }
        if object.optional("cooldownDays") != nil {
            let days = try object.integer("cooldownDays")
            guard days >= 0 else { throw ConfigError(key: "\(name).cooldownDays", message: "expected an integer >= 0, found \(days)") }
            campaign.cooldownDays = days
        }
        if object.optional("maxOffers") != nil {
            let cap = try object.integer("maxOffers")
            guard cap >= 0 else { throw ConfigError(key: "\(name).maxOffers", message: "expected an integer >= 0, found \(cap)") }
            campaign.maxOffers = Int(cap)
        }
        if object.optional("plannedAccounts") != nil {
            let planned = try object.integer("plannedAccounts")
            guard planned >= 1, planned <= 1_000_000_000 else {
                throw ConfigError(key: "\(name).plannedAccounts", message: "expected an integer from 1 to 1000000000, found \(planned)")
            }
            campaign.plannedAccounts = Int(planned)
        }
        if campaign.isSigned {
            let texts = try object.stringArray("signatures")
            var kinds: [SignatureKind] = []
            for text in texts {
                guard let kind = SignatureKind(rawValue: text) else {
                    throw ConfigError(key: "\(name).signatures", message: "expected values from 'v1', 'v2', 'intro', found '\(text)'")
                }
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            guard !kinds.isEmpty else {
                throw ConfigError(key: "\(name).signatures", message: "expected a non-empty subset of 'v1', 'v2', 'intro', found []")
            }
            campaign.signatures = kinds
            let allow = try object.optionalBool("allowIntroductoryOffer")
            if kinds.contains(.intro), allow == nil {
                throw ConfigError(
                    key: "\(name).allowIntroductoryOffer",
                    message: "expected true or false (required when signatures has 'intro'), found none")
            }
            if !kinds.contains(.intro), allow != nil {
                throw ConfigError(
                    key: "\(name).allowIntroductoryOffer", message: "expected no value (signatures has no 'intro'), found \(allow == true)")
            }
            campaign.allowIntroductoryOffer = allow
            let isIntroOnly = kinds == [.intro]
            if campaign.offerIdentifier == nil, !isIntroOnly {
                throw ConfigError(
                    key: "\(name).offer.offerIdentifier",
                    message: "expected a string (required for a \(audience.rawValue) campaign that signs v1 or v2), found none")
            }
        }
        campaign.rules = try rules(
            object.optional("rules"), audience: audience, offerKind: campaign.offerKind, key: "\(name).rules", warnings: &warnings)
        return campaign
    }

    /// A Retention Messaging campaign (docs/retention-messaging.md) names its approved message (a UUID) and offers a promotional
    /// offer (signed at request time: `signatures` absent or `["v2"]`), an alternate product (`offer.productId`,
    /// no `offerIdentifier`, optional `billingPlanType`) or the message alone; the two Retention Messaging
    /// offer types and `messageIdentifier` belong to that channel only.
    static func checkRetentionMessaging(_ campaign: inout Campaign, object: ConfigObject, name: String) throws(ConfigError) {
        if let text = try object.optionalString("channel") {
            guard let channel = CampaignChannel(rawValue: text) else {
                throw ConfigError(key: "\(name).channel", message: "expected 'offers' or 'retention_messaging', found '\(text)'")
            }
            campaign.channel = channel
        }
        let message = try object.optionalString("messageIdentifier")
        guard campaign.channel == .retentionMessaging else {
            if message != nil {
                throw ConfigError(
                    key: "\(name).messageIdentifier", message: "expected channel 'retention_messaging' for a message, found 'offers'")
            }
            if campaign.offerKind == .alternateProduct || campaign.offerKind == .message {
                throw ConfigError(
                    key: "\(name).offer.type",
                    message: "expected channel 'retention_messaging' for '\(campaign.offerKind.rawValue)', found 'offers'")
            }
            if campaign.billingPlanType != nil {
                throw ConfigError(
                    key: "\(name).offer.billingPlanType",
                    message: "expected offer.type 'alternate_product', found '\(campaign.offerKind.rawValue)'")
            }
            return
        }
        guard let message, isUUID(message) else {
            throw ConfigError(
                key: "\(name).messageIdentifier",
                message:
                    "expected the UUID of an approved retention message (required by channel 'retention_messaging'), found \(message.map { "'\($0)'" } ?? "none")"
            )
        }
        campaign.messageIdentifier = message
        switch campaign.offerKind {
        case .promotional:
            if let signatures = object.optional("signatures"), signatures != .array([]) {
                guard case .array(let items) = signatures, items.count == 1, items[0].value == .string("v2") else {
                    throw ConfigError(
                        key: "\(name).signatures",
                        message: "expected none or [\"v2\"]: a retention message's offer is a V2 JWS signed when asked")
                }
            }
            guard campaign.offerIdentifier?.isEmpty == false else {
                throw ConfigError(key: "\(name).offer.offerIdentifier", message: "expected the promotional offer's id, found none")
            }
            campaign.signatures = [.v2]
        case .alternateProduct:
            guard campaign.offerProductId?.isEmpty == false else {
                throw ConfigError(
                    key: "\(name).offer.productId",
                    message: "expected the product to switch to (required by 'alternate_product'), found none")
            }
            if campaign.offerIdentifier != nil {
                throw ConfigError(
                    key: "\(name).offer.offerIdentifier",
                    message: "expected none for 'alternate_product', found '\(campaign.offerIdentifier ?? "")'")
            }
        case .message:
            break
        case .winBack, .offerCode:
            throw ConfigError(
                key: "\(name).offer.type",
                message:
                    "expected 'promotional', 'alternate_product' or 'message' for channel 'retention_messaging', found '\(campaign.offerKind.rawValue)'"
            )
        }
        if campaign.billingPlanType != nil, campaign.offerKind != .alternateProduct {
            throw ConfigError(
                key: "\(name).offer.billingPlanType",
                message: "expected offer.type 'alternate_product', found '\(campaign.offerKind.rawValue)'")
        }
    }

    /// Whether `text` is a UUID (`8-4-4-4-12` hex digits, any case).
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// An offer-code campaign (docs/campaigns.md) names its reference name and exactly one of a code pool and a custom
    /// code, and signs nothing; `codes` and `customCode` belong to offer codes only.
    static func checkOfferCode(_ campaign: Campaign, object: ConfigObject, name: String) throws(ConfigError) {
        guard campaign.offerKind == .offerCode else {
            for key in ["codes", "customCode"] where (key == "codes" ? campaign.offerCodesFile : campaign.customCode) != nil {
                throw ConfigError(
                    key: "\(name).offer.\(key)", message: "expected offer.type 'offer_code', found '\(campaign.offerKind.rawValue)'")
            }
            return
        }
        guard campaign.offerIdentifier?.isEmpty == false else {
            throw ConfigError(
                key: "\(name).offer.offerIdentifier",
                message: "expected the offer code's reference name (what Apple writes into a redeeming transaction), found none")
        }
        switch (campaign.offerCodesFile, campaign.customCode) {
        case (nil, nil):
            throw ConfigError(
                key: "\(name).offer.codes",
                message: "expected a code pool file (codes) or one customCode for an offer-code campaign, found none")
        case (.some, .some):
            throw ConfigError(key: "\(name).offer.customCode", message: "expected codes or customCode, not both")
        case (.some(let file), nil) where file.isEmpty:
            throw ConfigError(key: "\(name).offer.codes", message: "expected a file path, found ''")
        case (nil, .some(let code)) where code.isEmpty:
            throw ConfigError(key: "\(name).offer.customCode", message: "expected a code, found ''")
        default: break
        }
        if let signatures = object.optional("signatures"), signatures != .array([]) {
            throw ConfigError(
                key: "\(name).signatures", message: "expected none: offer codes are redeemed from their URL, without a signature")
        }
    }

    /// The withdrawn rule `requireAppleEligibility` (docs/notifications-and-commitments.md): `true` on a promotional offer is an error that
    /// says what to use instead; any other use is a deprecation warning.
    static func checkWithdrawnAppleEligibility(
        _ required: Bool, offerKind: OfferKind, key: String, warnings: inout [String]
    ) throws(ConfigError) {
        let rule = "\(key).requireAppleEligibility"
        switch (required, offerKind) {
        case (true, .promotional), (true, .offerCode), (true, .alternateProduct), (true, .message):
            throw ConfigError(
                key: rule,
                message:
                    "withdrawn: a promotional offer cannot require Apple's win-back eligibility; use offer.type \"win_back\" for Apple's win-back offers (unsigned, eligibility from eligibleWinBackOfferIds)"
            )
        case (true, .winBack):
            warnings.append("warning: \(rule) is withdrawn and redundant: offer.type \"win_back\" already requires Apple's eligibility")
        case (false, _):
            warnings.append("warning: \(rule) is withdrawn and ignored; remove it (Apple's win-back offers: offer.type \"win_back\")")
        }
    }

    static func rules(
        _ value: JSONValue?, audience: Audience, offerKind: OfferKind, key: String, warnings: inout [String]
    ) throws(ConfigError) -> CampaignRules {
        var rules = CampaignRules()
        let object = try ConfigObject(value ?? .object([]), key: key)
        if let minPaid = try object.optionalInteger("minPaidDays") { rules.minPaidDays = minPaid }
        if let minDays = try object.optionalInteger("minDaysSinceLapse") { rules.minDaysSinceLapse = minDays }
        if let maxDays = try object.optionalInteger("maxDaysSinceLapse") { rules.maxDaysSinceLapse = maxDays }
        rules.maxDaysToExpiry = try object.optionalInteger("maxDaysToExpiry")
        rules.maxDaysSinceAutoRenewDisabled = try object.optionalInteger("maxDaysSinceAutoRenewDisabled")
        if let days = rules.maxDaysSinceAutoRenewDisabled, days < 0 {
            throw ConfigError(key: "\(key).maxDaysSinceAutoRenewDisabled", message: "expected an integer >= 0, found \(days)")
        }
        if object.optional("maxRenewalProbability") != nil {
            let probability = try object.number("maxRenewalProbability")
            guard probability >= 0, probability <= 1 else {
                throw ConfigError(key: "\(key).maxRenewalProbability", message: "expected a number from 0 to 1, found \(probability)")
            }
            rules.maxRenewalProbability = Int64((probability * 1_000_000).rounded())
        }
        if object.optional("minExpectedProceeds12m") != nil {
            let amount = try object.number("minExpectedProceeds12m")
            guard amount >= 0, amount < 1e12 else {
                throw ConfigError(
                    key: "\(key).minExpectedProceeds12m", message: "expected an amount >= 0 in the reporting currency, found \(amount)")
            }
            rules.minExpectedProceeds12m = Int64((amount * 1000).rounded())
        }
        if audience == .winBack, rules.usesRenewalOutlook {
            throw ConfigError(
                key: "\(key).\(rules.maxRenewalProbability != nil ? "maxRenewalProbability" : "minExpectedProceeds12m")",
                message: "applies to audiences with a current subscription (retention, price_increase, billing_issue), not win_back")
        }
        rules.storefronts = try object.optional("storefronts").map { _ throws(ConfigError) in Set(try object.stringArray("storefronts")) }
        rules.productIds = try object.optional("productIds").map { _ throws(ConfigError) in Set(try object.stringArray("productIds")) }
        switch audience {
        case .winBack:
            let reasons = try object.stringArray("lapseReasons")
            for reason in reasons {
                guard let parsed = LapseReason(rawValue: reason) else {
                    throw ConfigError(
                        key: "\(key).lapseReasons",
                        message:
                            "expected values from \(LapseReason.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")), found '\(reason)'"
                    )
                }
                rules.lapseReasons.insert(parsed)
            }
        case .retention, .priceIncrease:
            guard let maxDays = rules.maxDaysToExpiry else {
                throw ConfigError(
                    key: "\(key).maxDaysToExpiry", message: "expected an integer (required for \(audience.rawValue)), found none")
            }
            guard maxDays >= 0 else {
                throw ConfigError(key: "\(key).maxDaysToExpiry", message: "expected an integer >= 0, found \(maxDays)")
            }
        case .billingIssue:
            break
        }
        if let required = try object.optionalBool("requireAppleEligibility") {
            try checkWithdrawnAppleEligibility(required, offerKind: offerKind, key: key, warnings: &warnings)
        }
        return rules
    }
}
