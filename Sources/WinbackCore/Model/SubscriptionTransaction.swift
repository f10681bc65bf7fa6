/// The fields of a transaction the subscription model and reports use, kept compact: the
/// low-cardinality fields live in a shared ``TransactionAttributes``, per-subscription strings are shared
/// among the subscription's transactions (``Deduplicator``), no unused fields. Dates are epoch milliseconds.
/// 80 bytes inline, no heap of its own.
public struct SubscriptionTransaction: Sendable, Equatable {
    /// `transactionId`, compact.
    public var transactionIdentifier: CompactIdentifier
    public var transactionId: String {
        get { transactionIdentifier.string }
        set { transactionIdentifier = CompactIdentifier(newValue) }
    }
    public var originalTransactionId: String {
        get { identity.originalTransactionId }
        set {
            identity = SubscriptionIdentity(
                originalTransactionId: newValue, appAccountToken: appAccountToken, appTransactionId: appTransactionId)
        }
    }
    public var purchaseDate: Int64
    /// Present for auto-renewable subscriptions (required by verification).
    public var expiresDate: Int64
    /// `Int64.min` when absent (an optional would take 16 bytes with padding).
    private var revocationMilliseconds: Int64
    public var revocationDate: Int64? {
        get { revocationMilliseconds == .min ? nil : revocationMilliseconds }
        set { revocationMilliseconds = newValue ?? .min }
    }
    public var signedDate: Int64
    public var offerType: Int32?
    public var isUpgraded: Bool
    public var appAccountToken: String? {
        get { identity.appAccountToken }
        set {
            identity = SubscriptionIdentity(
                originalTransactionId: originalTransactionId, appAccountToken: newValue, appTransactionId: appTransactionId)
        }
    }
    public var appTransactionId: String? {
        get { identity.appTransactionId }
        set {
            identity = SubscriptionIdentity(
                originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: newValue)
        }
    }
    /// The shared per-subscription identifiers.
    public private(set) var identity: SubscriptionIdentity
    /// The shared product, group, type, offer, storefront and ownership fields.
    public private(set) var attributes: TransactionAttributes

    public var productId: String {
        get { attributes.productId }
        set { attributes = attributes.with(productId: newValue) }
    }
    public var subscriptionGroupId: String? {
        get { attributes.subscriptionGroupId }
        set { attributes = attributes.with(subscriptionGroupId: .some(newValue)) }
    }
    /// `type` raw value (`Auto-Renewable Subscription`, …).
    public var type: String {
        get { attributes.type }
        set { attributes = attributes.with(type: newValue) }
    }
    public var offerIdentifier: String? {
        get { attributes.offerIdentifier }
        set { attributes = attributes.with(offerIdentifier: .some(newValue)) }
    }
    public var offerDiscountType: String? {
        get { attributes.offerDiscountType }
        set { attributes = attributes.with(offerDiscountType: .some(newValue)) }
    }
    public var offerPeriod: String? {
        get { attributes.offerPeriod }
        set { attributes = attributes.with(offerPeriod: .some(newValue)) }
    }
    public var storefront: String? {
        get { attributes.storefront }
        set { attributes = attributes.with(storefront: .some(newValue)) }
    }
    /// `inAppOwnershipType` raw value.
    public var ownership: String? {
        get { attributes.ownership }
        set { attributes = attributes.with(ownership: .some(newValue)) }
    }

    /// Whether this is an auto-renewable subscription transaction (the only kind that builds subscriptions).
    public var isAutoRenewable: Bool { attributes.isAutoRenewable }
    /// Paid: the offer discount is not a free trial (SPEC §5).
    public var isPaid: Bool { attributes.isPaid }
    /// Shared through Family Sharing.
    public var isFamilyShared: Bool { attributes.isFamilyShared }

    public init(
        transactionId: String, originalTransactionId: String, productId: String, subscriptionGroupId: String? = nil,
        type: String = ProductType.autoRenewableSubscription.rawValue, purchaseDate: Int64, expiresDate: Int64,
        revocationDate: Int64? = nil, signedDate: Int64 = 0, isUpgraded: Bool = false, offerType: Int32? = nil,
        offerIdentifier: String? = nil, offerDiscountType: String? = nil, offerPeriod: String? = nil,
        appAccountToken: String? = nil, appTransactionId: String? = nil, storefront: String? = nil, ownership: String? = "PURCHASED"
    ) {
        self.init(
            transactionIdentifier: CompactIdentifier(transactionId),
            identity: SubscriptionIdentity(
                originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: appTransactionId),
            purchaseDate: purchaseDate, expiresDate: expiresDate, revocationDate: revocationDate, signedDate: signedDate,
            isUpgraded: isUpgraded, offerType: offerType,
            attributes: TransactionAttributes(
                productId: productId, subscriptionGroupId: subscriptionGroupId, type: type, offerIdentifier: offerIdentifier,
                offerDiscountType: offerDiscountType, offerPeriod: offerPeriod, storefront: storefront, ownership: ownership))
    }

    /// A transaction from its compact parts; `attributes` interned where many are kept (the ingest's fast decoder).
    public init(
        transactionIdentifier: CompactIdentifier, identity: SubscriptionIdentity, purchaseDate: Int64, expiresDate: Int64,
        revocationDate: Int64?, signedDate: Int64, isUpgraded: Bool, offerType: Int32?, attributes: TransactionAttributes
    ) {
        self.transactionIdentifier = transactionIdentifier
        self.identity = identity
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationMilliseconds = revocationDate ?? .min
        self.signedDate = signedDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.attributes = attributes
    }

    /// The compact form of a verified payload (which has `transactionId`, `originalTransactionId`,
    /// `productId`, `purchaseDate`, `type`, `signedDate`; `expiresDate` for subscriptions). `attributes`
    /// returns the shared instance equal to the one it is given.
    public init(_ payload: JWSTransactionDecodedPayload, attributes intern: (TransactionAttributes) -> TransactionAttributes) {
        transactionIdentifier = CompactIdentifier(payload.transactionId ?? "")
        identity = SubscriptionIdentity(
            originalTransactionId: payload.originalTransactionId ?? "", appAccountToken: payload.appAccountToken?.lowercased(),
            appTransactionId: payload.appTransactionId)
        purchaseDate = payload.purchaseDate ?? 0
        expiresDate = payload.expiresDate ?? payload.purchaseDate ?? 0
        revocationMilliseconds = payload.revocationDate ?? .min
        signedDate = payload.signedDate ?? 0
        isUpgraded = payload.isUpgraded ?? false
        offerType = payload.rawOfferType
        attributes = intern(
            TransactionAttributes(
                productId: payload.productId ?? "", subscriptionGroupId: payload.subscriptionGroupIdentifier, type: payload.rawType ?? "",
                offerIdentifier: payload.offerIdentifier, offerDiscountType: payload.rawOfferDiscountType, offerPeriod: payload.offerPeriod,
                storefront: payload.storefront, ownership: payload.rawInAppOwnershipType))
    }

    /// Shares the identity of `sibling` (a transaction of the same subscription) when equal.
    public mutating func shareIdentity(with sibling: SubscriptionTransaction) {
        if identity == sibling.identity { identity = sibling.identity }
    }

    public static func == (a: SubscriptionTransaction, b: SubscriptionTransaction) -> Bool {
        a.transactionIdentifier == b.transactionIdentifier && a.identity == b.identity && a.purchaseDate == b.purchaseDate
            && a.expiresDate == b.expiresDate && a.revocationMilliseconds == b.revocationMilliseconds && a.signedDate == b.signedDate
            && a.offerType == b.offerType && a.isUpgraded == b.isUpgraded && a.attributes == b.attributes
    }
}
