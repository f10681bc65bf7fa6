import WinbackAppStore

/// The fields of the latest renewal info the model and reports use (`R` in README: The model in brief).
public struct RenewalState: Sendable, Equatable {
    /// The subscription's `originalTransactionId` in compact form (the deduplicator's key): a 16-digit id
    /// as a `String` would be a heap object per renewal info.
    public var originalId: CompactIdentifier
    /// The `originalTransactionId` as Apple wrote it.
    public var originalTransactionId: String {
        get { originalId.string }
        set { originalId = CompactIdentifier(newValue) }
    }
    // Declared small fields first, so they share the identifier's tail padding: 112 bytes, not 120.
    /// Absent reads as false (README: The model in brief).
    public var isInBillingRetryPeriod: Bool?
    /// Apple's `autoRenewStatus` (1 on, 0 off).
    public var autoRenewStatus: Int32?
    /// Apple's `expirationIntent` raw value (1 voluntary … 5 other).
    public var expirationIntent: Int32?
    /// Apple's `priceIncreaseStatus` (0 not responded, 1 consented).
    public var priceIncreaseStatus: Int32?
    /// Apple's `commitmentInfo.commitmentAutoRenewStatus` (1 on, 0 off): whether a 12-month commitment
    /// renews into another when it ends.
    public var commitmentAutoRenewStatus: Int32?
    /// Apple's `signedDate`, epoch ms.
    public var signedDate: Int64
    /// `Int64.min` when absent (an optional would take 16 bytes with padding).
    private var gracePeriodExpiresMilliseconds: Int64
    /// Apple's `gracePeriodExpiresDate`, epoch ms.
    public var gracePeriodExpiresDate: Int64? {
        get { gracePeriodExpiresMilliseconds == .min ? nil : gracePeriodExpiresMilliseconds }
        set { gracePeriodExpiresMilliseconds = newValue ?? .min }
    }
    /// Apple's `autoRenewProductId`: the product the next renewal would be.
    public var autoRenewProductId: String?
    /// `renewalBillingPlanType` raw value: how the next renewal is billed (`BILLED_UPFRONT`, `MONTHLY`).
    public var renewalBillingPlanType: String?
    /// Apple's `eligibleWinBackOfferIds`.
    public var eligibleWinBackOfferIds: [String]?

    /// A renewal state from its fields (tests and the simulator); epoch-ms instants.
    public init(
        originalTransactionId: String, signedDate: Int64 = 0, autoRenewStatus: Int32? = nil, autoRenewProductId: String? = nil,
        expirationIntent: Int32? = nil, isInBillingRetryPeriod: Bool? = nil, gracePeriodExpiresDate: Int64? = nil,
        priceIncreaseStatus: Int32? = nil, eligibleWinBackOfferIds: [String]? = nil, renewalBillingPlanType: String? = nil,
        commitmentAutoRenewStatus: Int32? = nil
    ) {
        self.init(
            originalId: CompactIdentifier(originalTransactionId), signedDate: signedDate, autoRenewStatus: autoRenewStatus,
            autoRenewProductId: autoRenewProductId, expirationIntent: expirationIntent, isInBillingRetryPeriod: isInBillingRetryPeriod,
            gracePeriodExpiresDate: gracePeriodExpiresDate, priceIncreaseStatus: priceIncreaseStatus,
            eligibleWinBackOfferIds: eligibleWinBackOfferIds, renewalBillingPlanType: renewalBillingPlanType,
            commitmentAutoRenewStatus: commitmentAutoRenewStatus)
    }

    /// A renewal state keyed by an id already in compact form.
    public init(
        originalId: CompactIdentifier, signedDate: Int64 = 0, autoRenewStatus: Int32? = nil, autoRenewProductId: String? = nil,
        expirationIntent: Int32? = nil, isInBillingRetryPeriod: Bool? = nil, gracePeriodExpiresDate: Int64? = nil,
        priceIncreaseStatus: Int32? = nil, eligibleWinBackOfferIds: [String]? = nil, renewalBillingPlanType: String? = nil,
        commitmentAutoRenewStatus: Int32? = nil
    ) {
        self.originalId = originalId
        self.signedDate = signedDate
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresMilliseconds = gracePeriodExpiresDate ?? .min
        self.priceIncreaseStatus = priceIncreaseStatus
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.renewalBillingPlanType = renewalBillingPlanType
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
    }

    /// The state of `payload`, with `autoRenewProductId` given (an interned copy of the payload's).
    public init(_ payload: JWSRenewalInfoDecodedPayload, autoRenewProductId: String?) {
        self.init(
            originalTransactionId: payload.originalTransactionId ?? "", signedDate: payload.signedDate ?? 0,
            autoRenewStatus: payload.rawAutoRenewStatus, autoRenewProductId: autoRenewProductId,
            expirationIntent: payload.rawExpirationIntent, isInBillingRetryPeriod: payload.isInBillingRetryPeriod,
            gracePeriodExpiresDate: payload.gracePeriodExpiresDate, priceIncreaseStatus: payload.rawPriceIncreaseStatus,
            eligibleWinBackOfferIds: payload.eligibleWinBackOfferIds, renewalBillingPlanType: payload.rawRenewalBillingPlanType,
            commitmentAutoRenewStatus: payload.commitmentInfo?.rawCommitmentAutoRenewStatus)
    }

    /// The auto-renew status that decides whether the subscription renews past `latest` (`X`) (docs/notifications-and-commitments.md):
    /// for a transaction in a 12-month commitment (it carries `commitmentExpiresDate`), the commitment's
    /// `commitmentAutoRenewStatus` when present; otherwise `autoRenewStatus`.
    public func effectiveAutoRenewStatus(latest: SubscriptionTransaction) -> Int32? {
        if latest.commitmentExpiresDate != nil, let commitmentAutoRenewStatus { return commitmentAutoRenewStatus }
        return autoRenewStatus
    }

    /// `isInBillingRetryPeriod`, absent = false.
    public var isInBillingRetry: Bool { isInBillingRetryPeriod ?? false }
}
