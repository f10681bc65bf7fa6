import WinbackAppStore

/// The low-cardinality fields of a transaction (product, group, type, offer, storefront, ownership, billing
/// plan, commitment period, price, currency, refunded share) in one shared immutable object: a nightly run
/// has millions of transactions but only thousands of distinct combinations, so each transaction holds one
/// 8-byte reference instead of nine strings.
public final class TransactionAttributes: Hashable, Sendable {
    /// Apple's `productId`.
    public let productId: String
    /// Apple's `subscriptionGroupIdentifier`.
    public let subscriptionGroupIdentifier: String?
    /// `type` raw value (`Auto-Renewable Subscription`, …).
    public let type: String
    /// Apple's `offerIdentifier`.
    public let offerIdentifier: String?
    /// `offerDiscountType` raw value.
    public let offerDiscountType: String?
    /// Apple's `offerPeriod` (ISO 8601 duration).
    public let offerPeriod: String?
    /// Apple's `storefront`.
    public let storefront: String?
    /// `inAppOwnershipType` raw value.
    public let inAppOwnershipType: String?
    /// `billingPlanType` raw value (`BILLED_UPFRONT`, `MONTHLY`); `nil` when absent.
    public let billingPlanType: String?
    /// `commitmentInfo.billingPeriodNumber`: which billing period of a commitment this transaction pays (from 1).
    public let commitmentBillingPeriodNumber: Int32?
    /// `commitmentInfo.totalBillingPeriods`: the commitment's number of billing periods (12 for a year billed monthly).
    public let commitmentTotalBillingPeriods: Int32?
    /// Apple's `price`: milliunits of ``currency`` (4990 = 4.99).
    public let price: Int64?
    /// Apple's `currency` (ISO 4217).
    public let currency: String?
    /// Apple's `revocationPercentage`: the refunded share in milliunits of a percent (50000 = 50 %).
    public let revocationPercentage: Int32?

    /// Whether this is an auto-renewable subscription transaction (the only kind that builds subscriptions).
    public let isAutoRenewable: Bool
    /// Paid: the offer discount is not a free trial (README: The model in brief).
    public let isPaid: Bool
    /// Shared through Family Sharing.
    public let isFamilyShared: Bool
    /// The fields' hash, computed once on the thread that builds the value (interning then costs one
    /// lookup under ``PayloadCompactor``'s lock, not eight string hashes).
    private let fieldsHash: Int

    /// Attributes from their fields (raw values as Apple writes them).
    public init(
        productId: String, subscriptionGroupIdentifier: String?, type: String, offerIdentifier: String?, offerDiscountType: String?,
        offerPeriod: String?, storefront: String?, inAppOwnershipType: String?, billingPlanType: String? = nil,
        commitmentBillingPeriodNumber: Int32? = nil, commitmentTotalBillingPeriods: Int32? = nil, price: Int64? = nil,
        currency: String? = nil, revocationPercentage: Int32? = nil
    ) {
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.type = type
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.storefront = storefront
        self.inAppOwnershipType = inAppOwnershipType
        self.billingPlanType = billingPlanType
        self.commitmentBillingPeriodNumber = commitmentBillingPeriodNumber
        self.commitmentTotalBillingPeriods = commitmentTotalBillingPeriods
        self.price = price
        self.currency = currency
        self.revocationPercentage = revocationPercentage
        isAutoRenewable = type == ProductType.autoRenewableSubscription.rawValue
        isPaid = offerDiscountType != OfferDiscountType.freeTrial.rawValue
        isFamilyShared = inAppOwnershipType == InAppOwnershipType.familyShared.rawValue
        var hasher = Hasher()
        hasher.combine(productId)
        hasher.combine(subscriptionGroupIdentifier)
        hasher.combine(type)
        hasher.combine(offerIdentifier)
        hasher.combine(offerDiscountType)
        hasher.combine(offerPeriod)
        hasher.combine(storefront)
        hasher.combine(inAppOwnershipType)
        hasher.combine(billingPlanType)
        hasher.combine(commitmentBillingPeriodNumber)
        hasher.combine(commitmentTotalBillingPeriods)
        hasher.combine(price)
        hasher.combine(currency)
        hasher.combine(revocationPercentage)
        fieldsHash = hasher.finalize()
    }

    /// A distinct object with the same fields (a worker cache's own copy, so no other core touches it).
    public func copy() -> TransactionAttributes {
        TransactionAttributes(
            productId: productId, subscriptionGroupIdentifier: subscriptionGroupIdentifier, type: type, offerIdentifier: offerIdentifier,
            offerDiscountType: offerDiscountType, offerPeriod: offerPeriod, storefront: storefront, inAppOwnershipType: inAppOwnershipType,
            billingPlanType: billingPlanType, commitmentBillingPeriodNumber: commitmentBillingPeriodNumber,
            commitmentTotalBillingPeriods: commitmentTotalBillingPeriods, price: price, currency: currency,
            revocationPercentage: revocationPercentage)
    }

    /// A copy with one field changed (for the transaction's setters).
    func with(
        productId: String? = nil, subscriptionGroupIdentifier: String?? = nil, type: String? = nil, offerIdentifier: String?? = nil,
        offerDiscountType: String?? = nil, offerPeriod: String?? = nil, storefront: String?? = nil, inAppOwnershipType: String?? = nil,
        billingPlanType: String?? = nil, commitmentBillingPeriodNumber: Int32?? = nil, commitmentTotalBillingPeriods: Int32?? = nil,
        price: Int64?? = nil, currency: String?? = nil, revocationPercentage: Int32?? = nil
    ) -> TransactionAttributes {
        TransactionAttributes(
            productId: productId ?? self.productId,
            subscriptionGroupIdentifier: subscriptionGroupIdentifier ?? self.subscriptionGroupIdentifier,
            type: type ?? self.type,
            offerIdentifier: offerIdentifier ?? self.offerIdentifier, offerDiscountType: offerDiscountType ?? self.offerDiscountType,
            offerPeriod: offerPeriod ?? self.offerPeriod, storefront: storefront ?? self.storefront,
            inAppOwnershipType: inAppOwnershipType ?? self.inAppOwnershipType, billingPlanType: billingPlanType ?? self.billingPlanType,
            commitmentBillingPeriodNumber: commitmentBillingPeriodNumber ?? self.commitmentBillingPeriodNumber,
            commitmentTotalBillingPeriods: commitmentTotalBillingPeriods ?? self.commitmentTotalBillingPeriods, price: price ?? self.price,
            currency: currency ?? self.currency, revocationPercentage: revocationPercentage ?? self.revocationPercentage)
    }

    /// Equal when every field is equal (the same object, or another with the same spelling).
    public static func == (a: TransactionAttributes, b: TransactionAttributes) -> Bool {
        a === b
            || (a.productId == b.productId && a.subscriptionGroupIdentifier == b.subscriptionGroupIdentifier && a.type == b.type
                && a.offerIdentifier == b.offerIdentifier && a.offerDiscountType == b.offerDiscountType && a.offerPeriod == b.offerPeriod
                && a.storefront == b.storefront && a.inAppOwnershipType == b.inAppOwnershipType && a.billingPlanType == b.billingPlanType
                && a.commitmentBillingPeriodNumber == b.commitmentBillingPeriodNumber
                && a.commitmentTotalBillingPeriods == b.commitmentTotalBillingPeriods && a.price == b.price && a.currency == b.currency
                && a.revocationPercentage == b.revocationPercentage)
    }

    /// Hashes every field, so equal attributes from different workers hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fieldsHash)
    }
}
