/// A decoded signed transaction (`JWSTransactionDecodedPayload`), Apple keys verbatim.
///
/// Dates are epoch milliseconds, `price` is in milliunits of `currency` (4990 = 4.99). Every field is
/// optional on the wire; enum fields keep the raw value with a typed view that is `nil` when unknown.
public struct JWSTransactionDecodedPayload: Sendable, Equatable {
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// The unique identifier for a transaction such as an in-app purchase, restored in-app purchase, or subscripti…
    public var transactionId: String?
    /// The unique identifier of subscription-purchase events across devices, including renewals.
    public var webOrderLineItemId: String?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?
    /// The identifier of the subscription group that the subscription belongs to.
    public var subscriptionGroupIdentifier: String?
    /// The time that the App Store charged the user’s account for an in-app purchase, a restored in-app purchase, … Epoch milliseconds.
    public var purchaseDate: Int64?
    /// The purchase date of the transaction associated with the original transaction identifier. Epoch milliseconds.
    public var originalPurchaseDate: Int64?
    /// The UNIX time, in milliseconds, an auto-renewable subscription expires or renews. Epoch milliseconds.
    public var expiresDate: Int64?
    /// The number of consumable products purchased.
    public var quantity: Int32?
    /// The type of the in-app purchase. Raw wire value; see `type`.
    public var rawType: String?
    /// The typed view of `rawType`; `nil` when absent or unknown to this version.
    public var type: ProductType? { rawType.flatMap { ProductType(rawValue: $0) } }
    /// The UUID that an app optionally generates to map a customer’s in-app purchase with its resulting App Store … Any string; an empty string is read as absent.
    public var appAccountToken: String?
    /// A string that describes whether the transaction was purchased by the user, or is available to them through … Raw wire value; see `inAppOwnershipType`.
    public var rawInAppOwnershipType: String?
    /// The typed view of `rawInAppOwnershipType`; `nil` when absent or unknown to this version.
    public var inAppOwnershipType: InAppOwnershipType? { rawInAppOwnershipType.flatMap { InAppOwnershipType(rawValue: $0) } }
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature data. Epoch milliseconds.
    public var signedDate: Int64?
    /// The reason that the App Store refunded the transaction or revoked it from Family Sharing. Raw wire value; see `revocationReason`.
    public var rawRevocationReason: Int32?
    /// The typed view of `rawRevocationReason`; `nil` when absent or unknown to this version.
    public var revocationReason: RevocationReason? { rawRevocationReason.flatMap { RevocationReason(rawValue: $0) } }
    /// The UNIX time, in milliseconds, that Apple Support refunded a transaction. Epoch milliseconds.
    public var revocationDate: Int64?
    /// The Boolean value that indicates whether the user upgraded to another subscription.
    public var isUpgraded: Bool?
    /// A value that represents the promotional offer type. Raw wire value; see `offerType`.
    public var rawOfferType: Int32?
    /// The typed view of `rawOfferType`; `nil` when absent or unknown to this version.
    public var offerType: OfferType? { rawOfferType.flatMap { OfferType(rawValue: $0) } }
    /// The identifier that contains the offer code or the promotional offer identifier.
    public var offerIdentifier: String?
    /// The server environment, either sandbox or production. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// The three-letter code that represents the country or region associated with the App Store storefront for th…
    public var storefront: String?
    /// An Apple-defined value that uniquely identifies the App Store storefront associated with the purchase.
    public var storefrontId: String?
    /// The reason for the purchase transaction, which indicates whether it’s a customer’s purchase or a renewal fo… Raw wire value; see `transactionReason`.
    public var rawTransactionReason: String?
    /// The typed view of `rawTransactionReason`; `nil` when absent or unknown to this version.
    public var transactionReason: TransactionReason? { rawTransactionReason.flatMap { TransactionReason(rawValue: $0) } }
    /// The three-letter ISO 4217 currency code for the price of the product.
    public var currency: String?
    /// The price, in milliunits, of the in-app purchase or subscription offer that you configured in App Store Con…
    public var price: Int64?
    /// The payment mode you configure for the offer. Raw wire value; see `offerDiscountType`.
    public var rawOfferDiscountType: String?
    /// The typed view of `rawOfferDiscountType`; `nil` when absent or unknown to this version.
    public var offerDiscountType: OfferDiscountType? { rawOfferDiscountType.flatMap { OfferDiscountType(rawValue: $0) } }
    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer.
    public var offerPeriod: String?
    /// The type of the refund or revocation that applies to the transaction. Raw wire value; see `revocationType`.
    public var rawRevocationType: String?
    /// The typed view of `rawRevocationType`; `nil` when absent or unknown to this version.
    public var revocationType: RevocationType? { rawRevocationType.flatMap { RevocationType(rawValue: $0) } }
    /// The percentage, in milliunits, of the transaction that the App Store has refunded or revoked.
    public var revocationPercentage: Int32?
    /// Transaction information that is present only for Advanced Commerce SKUs. Kept as JSON; not interpreted by Winback.
    public var advancedCommerceInfo: JSONValue?
    /// (doc: `billingPlanType`) Raw wire value; see `billingPlanType`.
    public var rawBillingPlanType: String?
    /// The typed view of `rawBillingPlanType`; `nil` when absent or unknown to this version.
    public var billingPlanType: BillingPlanType? { rawBillingPlanType.flatMap { BillingPlanType(rawValue: $0) } }
    /// The commitment a monthly-billed 12-month plan pays into (`billingPeriodNumber` of `totalBillingPeriods`).
    public var commitmentInfo: TransactionCommitmentInfo?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "originalTransactionId":
                originalTransactionId = try FieldValue.string(member.value, field: prefix + "originalTransactionId")
            case "transactionId": transactionId = try FieldValue.string(member.value, field: prefix + "transactionId")
            case "webOrderLineItemId": webOrderLineItemId = try FieldValue.string(member.value, field: prefix + "webOrderLineItemId")
            case "bundleId": bundleId = try FieldValue.string(member.value, field: prefix + "bundleId")
            case "productId": productId = try FieldValue.string(member.value, field: prefix + "productId")
            case "subscriptionGroupIdentifier":
                subscriptionGroupIdentifier = try FieldValue.string(member.value, field: prefix + "subscriptionGroupIdentifier")
            case "purchaseDate": purchaseDate = try FieldValue.instant(member.value, field: prefix + "purchaseDate")
            case "originalPurchaseDate": originalPurchaseDate = try FieldValue.instant(member.value, field: prefix + "originalPurchaseDate")
            case "expiresDate": expiresDate = try FieldValue.instant(member.value, field: prefix + "expiresDate")
            case "quantity": quantity = try FieldValue.int32(member.value, field: prefix + "quantity")
            case "type": rawType = try FieldValue.string(member.value, field: prefix + "type")
            case "appAccountToken": appAccountToken = try FieldValue.token(member.value, field: prefix + "appAccountToken")
            case "inAppOwnershipType": rawInAppOwnershipType = try FieldValue.string(member.value, field: prefix + "inAppOwnershipType")
            case "signedDate": signedDate = try FieldValue.instant(member.value, field: prefix + "signedDate")
            case "revocationReason": rawRevocationReason = try FieldValue.int32(member.value, field: prefix + "revocationReason")
            case "revocationDate": revocationDate = try FieldValue.instant(member.value, field: prefix + "revocationDate")
            case "isUpgraded": isUpgraded = try FieldValue.bool(member.value, field: prefix + "isUpgraded")
            case "offerType": rawOfferType = try FieldValue.int32(member.value, field: prefix + "offerType")
            case "offerIdentifier": offerIdentifier = try FieldValue.string(member.value, field: prefix + "offerIdentifier")
            case "environment": rawEnvironment = try FieldValue.string(member.value, field: prefix + "environment")
            case "storefront": storefront = try FieldValue.string(member.value, field: prefix + "storefront")
            case "storefrontId": storefrontId = try FieldValue.string(member.value, field: prefix + "storefrontId")
            case "transactionReason": rawTransactionReason = try FieldValue.string(member.value, field: prefix + "transactionReason")
            case "currency": currency = try FieldValue.string(member.value, field: prefix + "currency")
            case "price": price = try FieldValue.int64(member.value, field: prefix + "price")
            case "offerDiscountType": rawOfferDiscountType = try FieldValue.string(member.value, field: prefix + "offerDiscountType")
            case "appTransactionId": appTransactionId = try FieldValue.string(member.value, field: prefix + "appTransactionId")
            case "offerPeriod": offerPeriod = try FieldValue.string(member.value, field: prefix + "offerPeriod")
            case "revocationType": rawRevocationType = try FieldValue.string(member.value, field: prefix + "revocationType")
            case "revocationPercentage": revocationPercentage = try FieldValue.int32(member.value, field: prefix + "revocationPercentage")
            case "advancedCommerceInfo":
                advancedCommerceInfo = try FieldValue.rawObject(member.value, field: prefix + "advancedCommerceInfo")
            case "billingPlanType": rawBillingPlanType = try FieldValue.string(member.value, field: prefix + "billingPlanType")
            case "commitmentInfo":
                commitmentInfo = try FieldValue.nested(
                    member.value, field: prefix + "commitmentInfo", as: TransactionCommitmentInfo.init(members:prefix:))
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = ProductType.unknownValueWarning(rawType, field: prefix + "type") { warnings.append(warning) }
        if let warning = InAppOwnershipType.unknownValueWarning(rawInAppOwnershipType, field: prefix + "inAppOwnershipType") {
            warnings.append(warning)
        }
        if let warning = RevocationReason.unknownValueWarning(rawRevocationReason, field: prefix + "revocationReason") {
            warnings.append(warning)
        }
        if let warning = OfferType.unknownValueWarning(rawOfferType, field: prefix + "offerType") { warnings.append(warning) }
        if let warning = AppStoreEnvironment.unknownValueWarning(rawEnvironment, field: prefix + "environment") { warnings.append(warning) }
        if let warning = TransactionReason.unknownValueWarning(rawTransactionReason, field: prefix + "transactionReason") {
            warnings.append(warning)
        }
        if let warning = OfferDiscountType.unknownValueWarning(rawOfferDiscountType, field: prefix + "offerDiscountType") {
            warnings.append(warning)
        }
        if let warning = RevocationType.unknownValueWarning(rawRevocationType, field: prefix + "revocationType") {
            warnings.append(warning)
        }
        if let warning = BillingPlanType.unknownValueWarning(rawBillingPlanType, field: prefix + "billingPlanType") {
            warnings.append(warning)
        }
        return warnings
    }
}
