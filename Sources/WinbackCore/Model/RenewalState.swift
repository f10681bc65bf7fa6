/// The fields of the latest renewal info the model and reports use (`R` in SPEC §5).
public struct RenewalState: Sendable, Equatable {
    /// The subscription's `originalTransactionId` in compact form (the deduplicator's key): a 16-digit id
    /// as a `String` was a heap object per renewal info, ~100 MB at 1.6 M subscriptions.
    public var originalId: CompactIdentifier
    /// The `originalTransactionId` as Apple wrote it.
    public var originalTransactionId: String {
        get { originalId.string }
        set { originalId = CompactIdentifier(newValue) }
    }
    public var signedDate: Int64
    public var autoRenewStatus: Int32?
    public var autoRenewProductId: String?
    public var expirationIntent: Int32?
    /// Absent reads as false (SPEC §10).
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Int64?
    public var priceIncreaseStatus: Int32?
    public var eligibleWinBackOfferIds: [String]?

    public init(
        originalTransactionId: String, signedDate: Int64 = 0, autoRenewStatus: Int32? = nil, autoRenewProductId: String? = nil,
        expirationIntent: Int32? = nil, isInBillingRetryPeriod: Bool? = nil, gracePeriodExpiresDate: Int64? = nil,
        priceIncreaseStatus: Int32? = nil, eligibleWinBackOfferIds: [String]? = nil
    ) {
        self.init(
            originalId: CompactIdentifier(originalTransactionId), signedDate: signedDate, autoRenewStatus: autoRenewStatus,
            autoRenewProductId: autoRenewProductId, expirationIntent: expirationIntent, isInBillingRetryPeriod: isInBillingRetryPeriod,
            gracePeriodExpiresDate: gracePeriodExpiresDate, priceIncreaseStatus: priceIncreaseStatus,
            eligibleWinBackOfferIds: eligibleWinBackOfferIds)
    }

    public init(
        originalId: CompactIdentifier, signedDate: Int64 = 0, autoRenewStatus: Int32? = nil, autoRenewProductId: String? = nil,
        expirationIntent: Int32? = nil, isInBillingRetryPeriod: Bool? = nil, gracePeriodExpiresDate: Int64? = nil,
        priceIncreaseStatus: Int32? = nil, eligibleWinBackOfferIds: [String]? = nil
    ) {
        self.originalId = originalId
        self.signedDate = signedDate
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceIncreaseStatus = priceIncreaseStatus
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
    }

    /// The state of `payload`, with `autoRenewProductId` given (an interned copy of the payload's).
    public init(_ payload: JWSRenewalInfoDecodedPayload, autoRenewProductId: String?) {
        self.init(
            originalTransactionId: payload.originalTransactionId ?? "", signedDate: payload.signedDate ?? 0,
            autoRenewStatus: payload.rawAutoRenewStatus, autoRenewProductId: autoRenewProductId,
            expirationIntent: payload.rawExpirationIntent, isInBillingRetryPeriod: payload.isInBillingRetryPeriod,
            gracePeriodExpiresDate: payload.gracePeriodExpiresDate, priceIncreaseStatus: payload.rawPriceIncreaseStatus,
            eligibleWinBackOfferIds: payload.eligibleWinBackOfferIds)
    }

    /// `isInBillingRetryPeriod`, absent = false.
    public var isInBillingRetry: Bool { isInBillingRetryPeriod ?? false }
}
