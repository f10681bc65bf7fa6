/// The low-cardinality fields of a transaction (product, group, type, offer, storefront, ownership) in
/// one shared immutable object: a nightly run has millions of transactions but only thousands of distinct
/// combinations, so each transaction holds one 8-byte reference instead of eight strings (128 bytes).
public final class TransactionAttributes: Hashable, Sendable {
    public let productId: String
    public let subscriptionGroupId: String?
    /// `type` raw value (`Auto-Renewable Subscription`, …).
    public let type: String
    public let offerIdentifier: String?
    /// `offerDiscountType` raw value.
    public let offerDiscountType: String?
    public let offerPeriod: String?
    public let storefront: String?
    /// `inAppOwnershipType` raw value.
    public let ownership: String?

    /// Whether this is an auto-renewable subscription transaction (the only kind that builds subscriptions).
    public let isAutoRenewable: Bool
    /// Paid: the offer discount is not a free trial (SPEC §5).
    public let isPaid: Bool
    /// Shared through Family Sharing.
    public let isFamilyShared: Bool
    /// The fields' hash, computed once on the thread that builds the value (interning then costs one
    /// lookup under ``PayloadCompactor``'s lock, not eight string hashes).
    private let fieldsHash: Int

    public init(
        productId: String, subscriptionGroupId: String?, type: String, offerIdentifier: String?, offerDiscountType: String?,
        offerPeriod: String?, storefront: String?, ownership: String?
    ) {
        self.productId = productId
        self.subscriptionGroupId = subscriptionGroupId
        self.type = type
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.storefront = storefront
        self.ownership = ownership
        isAutoRenewable = type == ProductType.autoRenewableSubscription.rawValue
        isPaid = offerDiscountType != OfferDiscountType.freeTrial.rawValue
        isFamilyShared = ownership == InAppOwnershipType.familyShared.rawValue
        var hasher = Hasher()
        hasher.combine(productId)
        hasher.combine(subscriptionGroupId)
        hasher.combine(type)
        hasher.combine(offerIdentifier)
        hasher.combine(offerDiscountType)
        hasher.combine(offerPeriod)
        hasher.combine(storefront)
        hasher.combine(ownership)
        fieldsHash = hasher.finalize()
    }

    /// A distinct object with the same fields (a worker cache's own copy, so no other core touches it).
    public func copy() -> TransactionAttributes {
        TransactionAttributes(
            productId: productId, subscriptionGroupId: subscriptionGroupId, type: type, offerIdentifier: offerIdentifier,
            offerDiscountType: offerDiscountType, offerPeriod: offerPeriod, storefront: storefront, ownership: ownership)
    }

    /// A copy with one field changed (for the transaction's setters).
    func with(
        productId: String? = nil, subscriptionGroupId: String?? = nil, type: String? = nil, offerIdentifier: String?? = nil,
        offerDiscountType: String?? = nil, offerPeriod: String?? = nil, storefront: String?? = nil, ownership: String?? = nil
    ) -> TransactionAttributes {
        TransactionAttributes(
            productId: productId ?? self.productId, subscriptionGroupId: subscriptionGroupId ?? self.subscriptionGroupId,
            type: type ?? self.type,
            offerIdentifier: offerIdentifier ?? self.offerIdentifier, offerDiscountType: offerDiscountType ?? self.offerDiscountType,
            offerPeriod: offerPeriod ?? self.offerPeriod, storefront: storefront ?? self.storefront, ownership: ownership ?? self.ownership)
    }

    public static func == (a: TransactionAttributes, b: TransactionAttributes) -> Bool {
        a === b
            || (a.productId == b.productId && a.subscriptionGroupId == b.subscriptionGroupId && a.type == b.type
                && a.offerIdentifier == b.offerIdentifier && a.offerDiscountType == b.offerDiscountType && a.offerPeriod == b.offerPeriod
                && a.storefront == b.storefront && a.ownership == b.ownership)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fieldsHash)
    }
}
