/// The fields of the latest renewal info the model and reports use (`R` in SPEC §5).
public struct RenewalState: Sendable, Equatable {
    /// The subscription's `originalTransactionId` in compact form (the deduplicator's key): a 16-digit id
    /// as a `String` would be a heap object per renewal info.
    public var originalId: CompactIdentifier
    /// The `originalTransactionId` as Apple wrote it.
    public var originalTransactionId: String {
        get { originalId.string }
        set { originalId = CompactIdentifier(newValue) }
    }
    /// Apple's `signedDate`, epoch ms.
    public var signedDate: Int64
    /// Apple's `autoRenewStatus` (1 on, 0 off).
    public var autoRenewStatus: Int32?
    /// Apple's `autoRenewProductId`: the product the next renewal would be.
    public var autoRenewProductId: String?
    /// Apple's `expirationIntent` raw value (1 voluntary … 5 other).
    public var expirationIntent: Int32?
    /// Absent reads as false (SPEC §10).
    public var isInBillingRetryPeriod: Bool?
    /// Apple's `gracePeriodExpiresDate`, epoch ms.
    public var gracePeriodExpiresDate: Int64?
    /// Apple's `priceIncreaseStatus` (0 not responded, 1 consented).
    public var priceIncreaseStatus: Int32?
    /// Apple's `eligibleWinBackOfferIds`.
    public var eligibleWinBackOfferIds: [String]?

    /// A renewal state from its fields (tests and the simulator); epoch-ms instants.
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

    /// A renewal state keyed by an id already in compact form.
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
