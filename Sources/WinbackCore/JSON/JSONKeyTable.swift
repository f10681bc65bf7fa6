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

    /// Keys by UTF-8 length, with their bytes.
    private static let byLength: [[(bytes: [UInt8], key: String)]] = {
        var table = Array(repeating: [(bytes: [UInt8], key: String)](), count: 33)
        for key in keys where key.utf8.count < table.count { table[key.utf8.count].append((Array(key.utf8), key)) }
        return table
    }()

    /// The shared string equal to `bytes`, if it is one of the keys.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count < byLength.count else { return nil }
        for candidate in byLength[bytes.count] where candidate.bytes.withUnsafeBufferPointer({ stored in
            var offset = bytes.count - 1
            while offset >= 0, stored[offset] == bytes[offset] { offset -= 1 }
            return offset < 0
        }) {
            return candidate.key
        }
        return nil
    }
}
