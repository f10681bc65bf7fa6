/// Apple's object keys longer than 15 UTF-8 bytes, handed out as shared strings by the parser.
///
/// Swift stores strings up to 15 bytes inline; a longer key such as `originalTransactionId` costs a heap
/// allocation every time it is parsed, about ten per transaction. These keys are string literals, so
/// returning them allocates nothing and the decoders' `switch` compares them cheaply.
enum JSONKeyTable {
    static let keys: [String] = [
        "advancedCommerceInfo", "appTransactionId", "autoRenewProductId", "consumptionRequestReason", "eligibleWinBackOfferIds",
        "expirationIntent", "externalPurchaseId", "externalPurchaseToken", "gracePeriodExpiresDate", "inAppOwnershipType",
        "isInBillingRetryPeriod", "lastTransactions", "notificationType", "notificationUUID", "offerDiscountType", "originalPurchaseDate",
        "originalTransactionId", "priceIncreaseStatus", "recentSubscriptionStartDate", "renewalBillingPlanType", "requestIdentifier",
        "revocationPercentage", "revocationReason", "signedAppTransactionInfo", "signedRenewalInfo", "signedTransactionInfo",
        "signedTransactions", "storefrontCountryCodes", "subscriptionGroupIdentifier", "tokenCreationDate", "transactionReason",
        "webOrderLineItemId",
    ]

    private static let table = FlatKeyTable(keys)

    /// The shared string equal to `bytes`, if it is one of the keys.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        table.index(of: bytes).map { keys[$0] }
    }
}
