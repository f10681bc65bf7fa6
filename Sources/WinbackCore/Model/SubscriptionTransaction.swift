/// The fields of a transaction the subscription model and reports use, kept compact (shared strings,
/// no unused fields). Dates are epoch milliseconds.
public struct SubscriptionTransaction: Sendable, Equatable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var subscriptionGroupId: String?
    /// `type` raw value (`Auto-Renewable Subscription`, …).
    public var type: String { didSet { isAutoRenewable = type == ProductType.autoRenewableSubscription.rawValue } }
    public var purchaseDate: Int64
    /// Present for auto-renewable subscriptions (required by verification).
    public var expiresDate: Int64
    public var revocationDate: Int64?
    public var signedDate: Int64
    public var isUpgraded: Bool
    public var offerType: Int32?
    public var offerIdentifier: String?
    public var offerDiscountType: String? { didSet { isPaid = offerDiscountType != OfferDiscountType.freeTrial.rawValue } }
    public var offerPeriod: String?
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var storefront: String?
    /// `inAppOwnershipType` raw value.
    public var ownership: String? { didSet { isFamilyShared = ownership == InAppOwnershipType.familyShared.rawValue } }

    /// Whether this is an auto-renewable subscription transaction (the only kind that builds subscriptions).
    /// Derived fields are kept stored: the model asks them millions of times.
    public private(set) var isAutoRenewable = false

    /// Paid: the offer discount is not a free trial (SPEC §5).
    public private(set) var isPaid = true

    /// Shared through Family Sharing.
    public private(set) var isFamilyShared = false

    private mutating func deriveFlags() {
        isAutoRenewable = type == ProductType.autoRenewableSubscription.rawValue
        isPaid = offerDiscountType != OfferDiscountType.freeTrial.rawValue
        isFamilyShared = ownership == InAppOwnershipType.familyShared.rawValue
    }

    public init(
        transactionId: String, originalTransactionId: String, productId: String, subscriptionGroupId: String? = nil,
        type: String = ProductType.autoRenewableSubscription.rawValue, purchaseDate: Int64, expiresDate: Int64,
        revocationDate: Int64? = nil, signedDate: Int64 = 0, isUpgraded: Bool = false, offerType: Int32? = nil,
        offerIdentifier: String? = nil, offerDiscountType: String? = nil, offerPeriod: String? = nil,
        appAccountToken: String? = nil, appTransactionId: String? = nil, storefront: String? = nil, ownership: String? = "PURCHASED"
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.subscriptionGroupId = subscriptionGroupId
        self.type = type
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.signedDate = signedDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.storefront = storefront
        self.ownership = ownership
        deriveFlags()
    }

    /// The compact form of a verified payload (which has `transactionId`, `originalTransactionId`,
    /// `productId`, `purchaseDate`, `type`, `signedDate`; `expiresDate` for subscriptions).
    public init(_ payload: JWSTransactionDecodedPayload, interner: inout StringInterner) {
        transactionId = payload.transactionId ?? ""
        originalTransactionId = payload.originalTransactionId ?? ""
        productId = interner.intern(payload.productId ?? "")
        subscriptionGroupId = interner.intern(payload.subscriptionGroupIdentifier)
        type = interner.intern(payload.rawType ?? "")
        purchaseDate = payload.purchaseDate ?? 0
        expiresDate = payload.expiresDate ?? payload.purchaseDate ?? 0
        revocationDate = payload.revocationDate
        signedDate = payload.signedDate ?? 0
        isUpgraded = payload.isUpgraded ?? false
        offerType = payload.rawOfferType
        offerIdentifier = interner.intern(payload.offerIdentifier)
        offerDiscountType = interner.intern(payload.rawOfferDiscountType)
        offerPeriod = interner.intern(payload.offerPeriod)
        appAccountToken = payload.appAccountToken?.lowercased()
        appTransactionId = payload.appTransactionId
        storefront = interner.intern(payload.storefront)
        ownership = interner.intern(payload.rawInAppOwnershipType)
        deriveFlags()
    }
}
