import WinbackAppStore

/// The fields of a transaction the subscription model and reports use, kept compact: the
/// low-cardinality fields live in a shared ``TransactionAttributes``, per-subscription strings are shared
/// among the subscription's transactions (``Deduplicator``), no unused fields. Dates are epoch milliseconds.
/// 80 bytes inline, no heap of its own.
public struct SubscriptionTransaction: Sendable, Equatable {
    /// `transactionId`, compact.
    public var transactionIdentifier: CompactIdentifier
    // The flags and the offer type sit in the identifier's tail padding, declared before the 8-byte fields.
    /// ``upgraded`` and ``hasOfferType``.
    private var flags: UInt8
    /// `offerType` when ``hasOfferType`` is set (an optional would take 8 bytes with padding).
    private var offerTypeRaw: Int32
    private static let upgraded: UInt8 = 1
    private static let hasOfferType: UInt8 = 2
    /// Apple's `transactionId`.
    public var transactionId: String {
        get { transactionIdentifier.string }
        set { transactionIdentifier = CompactIdentifier(newValue) }
    }
    /// Apple's `originalTransactionId`: the subscription's id.
    public var originalTransactionId: String {
        get { identity.originalTransactionId }
        set {
            identity = SubscriptionIdentity(
                originalTransactionId: newValue, appAccountToken: appAccountToken, appTransactionId: appTransactionId)
        }
    }
    /// Apple's `purchaseDate`, epoch ms.
    public var purchaseDate: Int64
    /// Present for auto-renewable subscriptions (required by verification).
    public var expiresDate: Int64
    /// `Int64.min` when absent (an optional would take 16 bytes with padding).
    private var revocationMilliseconds: Int64
    /// Apple's `revocationDate`, epoch ms; `nil` when not revoked.
    public var revocationDate: Int64? {
        get { revocationMilliseconds == .min ? nil : revocationMilliseconds }
        set { revocationMilliseconds = newValue ?? .min }
    }
    /// Apple's `signedDate`, epoch ms.
    public var signedDate: Int64
    /// `Int64.min` when absent.
    private var commitmentExpiresMilliseconds: Int64
    /// Apple's `commitmentInfo.commitmentExpiresDate`, epoch ms: when the 12-month commitment this
    /// transaction pays into ends; `nil` for a plan without commitment.
    public var commitmentExpiresDate: Int64? {
        get { commitmentExpiresMilliseconds == .min ? nil : commitmentExpiresMilliseconds }
        set { commitmentExpiresMilliseconds = newValue ?? .min }
    }
    /// Apple's `offerType` raw value (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    public var offerType: Int32? {
        get { flags & Self.hasOfferType != 0 ? offerTypeRaw : nil }
        set {
            offerTypeRaw = newValue ?? 0
            flags = newValue == nil ? flags & ~Self.hasOfferType : flags | Self.hasOfferType
        }
    }
    /// Apple's `isUpgraded`: the transaction was superseded by an upgrade.
    public var isUpgraded: Bool {
        get { flags & Self.upgraded != 0 }
        set { flags = newValue ? flags | Self.upgraded : flags & ~Self.upgraded }
    }
    /// Apple's `appAccountToken`, lower-cased; `nil` when absent or empty.
    public var appAccountToken: String? {
        get { identity.appAccountToken }
        set {
            identity = SubscriptionIdentity(
                originalTransactionId: originalTransactionId, appAccountToken: newValue, appTransactionId: appTransactionId)
        }
    }
    /// Apple's `appTransactionId`.
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

    /// Apple's `productId`.
    public var productId: String {
        get { attributes.productId }
        set { attributes = attributes.with(productId: newValue) }
    }
    /// Apple's `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String? {
        get { attributes.subscriptionGroupIdentifier }
        set { attributes = attributes.with(subscriptionGroupIdentifier: .some(newValue)) }
    }
    /// `type` raw value (`Auto-Renewable Subscription`, …).
    public var type: String {
        get { attributes.type }
        set { attributes = attributes.with(type: newValue) }
    }
    /// Apple's `offerIdentifier`.
    public var offerIdentifier: String? {
        get { attributes.offerIdentifier }
        set { attributes = attributes.with(offerIdentifier: .some(newValue)) }
    }
    /// Apple's `offerDiscountType` raw value (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, …).
    public var offerDiscountType: String? {
        get { attributes.offerDiscountType }
        set { attributes = attributes.with(offerDiscountType: .some(newValue)) }
    }
    /// Apple's `offerPeriod` (ISO 8601 duration, e.g. `P1M`).
    public var offerPeriod: String? {
        get { attributes.offerPeriod }
        set { attributes = attributes.with(offerPeriod: .some(newValue)) }
    }
    /// Apple's `storefront` (ISO 3166-1 alpha-3).
    public var storefront: String? {
        get { attributes.storefront }
        set { attributes = attributes.with(storefront: .some(newValue)) }
    }
    /// `inAppOwnershipType` raw value.
    public var inAppOwnershipType: String? {
        get { attributes.inAppOwnershipType }
        set { attributes = attributes.with(inAppOwnershipType: .some(newValue)) }
    }

    /// `billingPlanType` raw value (`BILLED_UPFRONT`, `MONTHLY`).
    public var billingPlanType: String? {
        get { attributes.billingPlanType }
        set { attributes = attributes.with(billingPlanType: .some(newValue)) }
    }
    /// Apple's `commitmentInfo.billingPeriodNumber` (from 1).
    public var commitmentBillingPeriodNumber: Int32? {
        get { attributes.commitmentBillingPeriodNumber }
        set { attributes = attributes.with(commitmentBillingPeriodNumber: .some(newValue)) }
    }
    /// Apple's `commitmentInfo.totalBillingPeriods`.
    public var commitmentTotalBillingPeriods: Int32? {
        get { attributes.commitmentTotalBillingPeriods }
        set { attributes = attributes.with(commitmentTotalBillingPeriods: .some(newValue)) }
    }

    /// Apple's `price`: milliunits of ``currency``.
    public var price: Int64? {
        get { attributes.price }
        set { attributes = attributes.with(price: .some(newValue)) }
    }
    /// Apple's `currency` (ISO 4217).
    public var currency: String? {
        get { attributes.currency }
        set { attributes = attributes.with(currency: .some(newValue)) }
    }
    /// Apple's `revocationPercentage` (milliunits of a percent: 100000 = all of it).
    public var revocationPercentage: Int32? {
        get { attributes.revocationPercentage }
        set { attributes = attributes.with(revocationPercentage: .some(newValue)) }
    }

    /// Whether this is an auto-renewable subscription transaction (the only kind that builds subscriptions).
    public var isAutoRenewable: Bool { attributes.isAutoRenewable }
    /// Paid: the offer discount is not a free trial (README: The model in brief).
    public var isPaid: Bool { attributes.isPaid }
    /// Shared through Family Sharing.
    public var isFamilyShared: Bool { attributes.isFamilyShared }

    /// A transaction from its fields (tests and the sample simulator); epoch-ms instants.
    public init(
        transactionId: String, originalTransactionId: String, productId: String, subscriptionGroupIdentifier: String? = nil,
        type: String = ProductType.autoRenewableSubscription.rawValue, purchaseDate: Int64, expiresDate: Int64,
        revocationDate: Int64? = nil, signedDate: Int64 = 0, isUpgraded: Bool = false, offerType: Int32? = nil,
        offerIdentifier: String? = nil, offerDiscountType: String? = nil, offerPeriod: String? = nil,
        appAccountToken: String? = nil, appTransactionId: String? = nil, storefront: String? = nil,
        inAppOwnershipType: String? = "PURCHASED", billingPlanType: String? = nil, commitment: TransactionCommitmentInfo? = nil,
        price: Int64? = nil, currency: String? = nil, revocationPercentage: Int32? = nil
    ) {
        self.init(
            transactionIdentifier: CompactIdentifier(transactionId),
            identity: SubscriptionIdentity(
                originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: appTransactionId),
            purchaseDate: purchaseDate, expiresDate: expiresDate, revocationDate: revocationDate, signedDate: signedDate,
            isUpgraded: isUpgraded, offerType: offerType, commitmentExpiresDate: commitment?.commitmentExpiresDate,
            attributes: TransactionAttributes(
                productId: productId, subscriptionGroupIdentifier: subscriptionGroupIdentifier, type: type,
                offerIdentifier: offerIdentifier,
                offerDiscountType: offerDiscountType, offerPeriod: offerPeriod, storefront: storefront,
                inAppOwnershipType: inAppOwnershipType, billingPlanType: billingPlanType,
                commitmentBillingPeriodNumber: commitment?.billingPeriodNumber,
                commitmentTotalBillingPeriods: commitment?.totalBillingPeriods, price: price, currency: currency,
                revocationPercentage: revocationPercentage))
    }

    /// A transaction from its compact parts; `attributes` interned where many are kept (the ingest's fast decoder).
    public init(
        transactionIdentifier: CompactIdentifier, identity: SubscriptionIdentity, purchaseDate: Int64, expiresDate: Int64,
        revocationDate: Int64?, signedDate: Int64, isUpgraded: Bool, offerType: Int32?, commitmentExpiresDate: Int64? = nil,
        attributes: TransactionAttributes
    ) {
        self.transactionIdentifier = transactionIdentifier
        self.flags = (isUpgraded ? Self.upgraded : 0) | (offerType == nil ? 0 : Self.hasOfferType)
        self.offerTypeRaw = offerType ?? 0
        self.identity = identity
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationMilliseconds = revocationDate ?? .min
        self.signedDate = signedDate
        self.commitmentExpiresMilliseconds = commitmentExpiresDate ?? .min
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
        commitmentExpiresMilliseconds = payload.commitmentInfo?.commitmentExpiresDate ?? .min
        flags = (payload.isUpgraded ?? false ? Self.upgraded : 0) | (payload.rawOfferType == nil ? 0 : Self.hasOfferType)
        offerTypeRaw = payload.rawOfferType ?? 0
        attributes = intern(
            TransactionAttributes(
                productId: payload.productId ?? "", subscriptionGroupIdentifier: payload.subscriptionGroupIdentifier,
                type: payload.rawType ?? "",
                offerIdentifier: payload.offerIdentifier, offerDiscountType: payload.rawOfferDiscountType, offerPeriod: payload.offerPeriod,
                storefront: payload.storefront, inAppOwnershipType: payload.rawInAppOwnershipType,
                billingPlanType: payload.rawBillingPlanType, commitmentBillingPeriodNumber: payload.commitmentInfo?.billingPeriodNumber,
                commitmentTotalBillingPeriods: payload.commitmentInfo?.totalBillingPeriods, price: payload.price,
                currency: payload.currency,
                revocationPercentage: payload.revocationPercentage))
    }

    /// Shares the identity of `sibling` (a transaction of the same subscription) when equal.
    public mutating func shareIdentity(with sibling: SubscriptionTransaction) {
        if identity == sibling.identity { identity = sibling.identity }
    }

    /// Equal when every field is equal (attributes by value).
    public static func == (a: SubscriptionTransaction, b: SubscriptionTransaction) -> Bool {
        a.transactionIdentifier == b.transactionIdentifier && a.identity == b.identity && a.purchaseDate == b.purchaseDate
            && a.expiresDate == b.expiresDate && a.revocationMilliseconds == b.revocationMilliseconds && a.signedDate == b.signedDate
            && a.commitmentExpiresMilliseconds == b.commitmentExpiresMilliseconds
            && a.offerType == b.offerType && a.isUpgraded == b.isUpgraded && a.attributes == b.attributes
    }

    /// Whether purchase, expiry and revocation lie in ``FieldValue/instantRange`` (ingest accepts no other).
    var hasInstantsInRange: Bool {
        let range = FieldValue.instantRange
        return range.contains(purchaseDate) && range.contains(expiresDate)
            && (revocationMilliseconds == .min || range.contains(revocationMilliseconds))
            && (commitmentExpiresMilliseconds == .min || range.contains(commitmentExpiresMilliseconds))
    }

    /// Clamps purchase, expiry and revocation into ``FieldValue/instantRange``: a transaction built in code
    /// can hold any Int64, and the model's period arithmetic must not overflow on it.
    mutating func clampInstants() {
        let range = FieldValue.instantRange
        purchaseDate = min(max(purchaseDate, range.lowerBound), range.upperBound)
        expiresDate = min(max(expiresDate, range.lowerBound), range.upperBound)
        if revocationMilliseconds != .min {
            revocationMilliseconds = min(max(revocationMilliseconds, range.lowerBound), range.upperBound)
        }
        if commitmentExpiresMilliseconds != .min {
            commitmentExpiresMilliseconds = min(max(commitmentExpiresMilliseconds, range.lowerBound), range.upperBound)
        }
    }
}
