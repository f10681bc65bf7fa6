/// A decoded signed renewal info (`JWSRenewalInfoDecodedPayload`), Apple keys verbatim.
///
/// Dates are epoch milliseconds, `renewalPrice` is in milliunits of `currency`. Enum fields keep the raw
/// value with a typed view that is `nil` when unknown.
public struct JWSRenewalInfoDecodedPayload: Sendable, Equatable {
    /// The reason the subscription expired. Raw wire value; see `expirationIntent`.
    public var rawExpirationIntent: Int32?
    /// The typed view of `rawExpirationIntent`; `nil` when absent or unknown to this version.
    public var expirationIntent: ExpirationIntent? { rawExpirationIntent.flatMap { ExpirationIntent(rawValue: $0) } }
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// The product identifier of the product that will renew at the next billing period.
    public var autoRenewProductId: String?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?
    /// The renewal status of the auto-renewable subscription. Raw wire value; see `autoRenewStatus`.
    public var rawAutoRenewStatus: Int32?
    /// The typed view of `rawAutoRenewStatus`; `nil` when absent or unknown to this version.
    public var autoRenewStatus: AutoRenewStatus? { rawAutoRenewStatus.flatMap { AutoRenewStatus(rawValue: $0) } }
    /// A Boolean value that indicates whether the App Store is attempting to automatically renew an expired subscr…
    public var isInBillingRetryPeriod: Bool?
    /// The status that indicates whether the auto-renewable subscription is subject to a price increase. Raw wire value; see `priceIncreaseStatus`.
    public var rawPriceIncreaseStatus: Int32?
    /// The typed view of `rawPriceIncreaseStatus`; `nil` when absent or unknown to this version.
    public var priceIncreaseStatus: PriceIncreaseStatus? { rawPriceIncreaseStatus.flatMap { PriceIncreaseStatus(rawValue: $0) } }
    /// The time when the billing grace period for subscription renewals expires. Epoch milliseconds.
    public var gracePeriodExpiresDate: Int64?
    /// The type of subscription offer. Raw wire value; see `offerType`.
    public var rawOfferType: Int32?
    /// The typed view of `rawOfferType`; `nil` when absent or unknown to this version.
    public var offerType: OfferType? { rawOfferType.flatMap { OfferType(rawValue: $0) } }
    /// The offer code or the promotional offer identifier.
    public var offerIdentifier: String?
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature data. Epoch milliseconds.
    public var signedDate: Int64?
    /// The server environment, either sandbox or production. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// The earliest start date of a subscription in a series of auto-renewable subscription purchases that ignores… Epoch milliseconds.
    public var recentSubscriptionStartDate: Int64?
    /// The UNIX time, in milliseconds, when the most recent auto-renewable subscription purchase expires. Epoch milliseconds.
    public var renewalDate: Int64?
    /// The currency code for the renewalPrice of the subscription.
    public var currency: String?
    /// The renewal price, in milliunits, of the auto-renewable subscription that renews at the next billing period.
    public var renewalPrice: Int64?
    /// The payment mode you configure for the offer. Raw wire value; see `offerDiscountType`.
    public var rawOfferDiscountType: String?
    /// The typed view of `rawOfferDiscountType`; `nil` when absent or unknown to this version.
    public var offerDiscountType: OfferDiscountType? { rawOfferDiscountType.flatMap { OfferDiscountType(rawValue: $0) } }
    /// An array of win-back offer identifiers that a customer is eligible to redeem, which sorts the identifiers t…
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID that an app optionally generates to map a customer’s in-app purchase with its resulting App Store … Any string; an empty string is read as absent.
    public var appAccountToken: String?
    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer.
    public var offerPeriod: String?
    /// Renewal information that is present only for Advanced Commerce SKUs. Kept as JSON; not interpreted by Winback.
    public var advancedCommerceInfo: JSONValue?
    /// How a 12-month commitment renews (`commitmentAutoRenewStatus`, …).
    public var commitmentInfo: RenewalCommitmentInfo?
    /// (doc: `renewalBillingPlanType`) Raw wire value; see `renewalBillingPlanType`.
    public var rawRenewalBillingPlanType: String?
    /// The typed view of `rawRenewalBillingPlanType`; `nil` when absent or unknown to this version.
    public var renewalBillingPlanType: RenewalBillingPlanType? {
        rawRenewalBillingPlanType.flatMap { RenewalBillingPlanType(rawValue: $0) }
    }
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "expirationIntent": rawExpirationIntent = try FieldValue.int32(member.value, field: prefix + "expirationIntent")
            case "originalTransactionId":
                originalTransactionId = try FieldValue.string(member.value, field: prefix + "originalTransactionId")
            case "autoRenewProductId": autoRenewProductId = try FieldValue.string(member.value, field: prefix + "autoRenewProductId")
            case "productId": productId = try FieldValue.string(member.value, field: prefix + "productId")
            case "autoRenewStatus": rawAutoRenewStatus = try FieldValue.int32(member.value, field: prefix + "autoRenewStatus")
            case "isInBillingRetryPeriod":
                isInBillingRetryPeriod = try FieldValue.bool(member.value, field: prefix + "isInBillingRetryPeriod")
            case "priceIncreaseStatus": rawPriceIncreaseStatus = try FieldValue.int32(member.value, field: prefix + "priceIncreaseStatus")
            case "gracePeriodExpiresDate":
                gracePeriodExpiresDate = try FieldValue.instant(member.value, field: prefix + "gracePeriodExpiresDate")
            case "offerType": rawOfferType = try FieldValue.int32(member.value, field: prefix + "offerType")
            case "offerIdentifier": offerIdentifier = try FieldValue.string(member.value, field: prefix + "offerIdentifier")
            case "signedDate": signedDate = try FieldValue.instant(member.value, field: prefix + "signedDate")
            case "environment": rawEnvironment = try FieldValue.string(member.value, field: prefix + "environment")
            case "recentSubscriptionStartDate":
                recentSubscriptionStartDate = try FieldValue.instant(member.value, field: prefix + "recentSubscriptionStartDate")
            case "renewalDate": renewalDate = try FieldValue.instant(member.value, field: prefix + "renewalDate")
            case "currency": currency = try FieldValue.string(member.value, field: prefix + "currency")
            case "renewalPrice": renewalPrice = try FieldValue.int64(member.value, field: prefix + "renewalPrice")
            case "offerDiscountType": rawOfferDiscountType = try FieldValue.string(member.value, field: prefix + "offerDiscountType")
            case "eligibleWinBackOfferIds":
                eligibleWinBackOfferIds = try FieldValue.stringArray(member.value, field: prefix + "eligibleWinBackOfferIds")
            case "appAccountToken": appAccountToken = try FieldValue.token(member.value, field: prefix + "appAccountToken")
            case "appTransactionId": appTransactionId = try FieldValue.string(member.value, field: prefix + "appTransactionId")
            case "offerPeriod": offerPeriod = try FieldValue.string(member.value, field: prefix + "offerPeriod")
            case "advancedCommerceInfo":
                advancedCommerceInfo = try FieldValue.rawObject(member.value, field: prefix + "advancedCommerceInfo")
            case "commitmentInfo":
                commitmentInfo = try FieldValue.nested(
                    member.value, field: prefix + "commitmentInfo", as: RenewalCommitmentInfo.init(members:prefix:))
            case "renewalBillingPlanType":
                rawRenewalBillingPlanType = try FieldValue.string(member.value, field: prefix + "renewalBillingPlanType")
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = ExpirationIntent.unknownValueWarning(rawExpirationIntent, field: prefix + "expirationIntent") {
            warnings.append(warning)
        }
        if let warning = AutoRenewStatus.unknownValueWarning(rawAutoRenewStatus, field: prefix + "autoRenewStatus") {
            warnings.append(warning)
        }
        if let warning = PriceIncreaseStatus.unknownValueWarning(rawPriceIncreaseStatus, field: prefix + "priceIncreaseStatus") {
            warnings.append(warning)
        }
        if let warning = OfferType.unknownValueWarning(rawOfferType, field: prefix + "offerType") { warnings.append(warning) }
        if let warning = AppStoreEnvironment.unknownValueWarning(rawEnvironment, field: prefix + "environment") { warnings.append(warning) }
        if let warning = OfferDiscountType.unknownValueWarning(rawOfferDiscountType, field: prefix + "offerDiscountType") {
            warnings.append(warning)
        }
        if let warning = RenewalBillingPlanType.unknownValueWarning(rawRenewalBillingPlanType, field: prefix + "renewalBillingPlanType") {
            warnings.append(warning)
        }
        if let commitmentInfo { warnings += commitmentInfo.unknownEnumValues(prefix: prefix + "commitmentInfo.") }
        return warnings
    }
}
