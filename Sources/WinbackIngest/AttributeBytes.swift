import WinbackAnalytics

/// A transaction's ``TransactionAttributes`` fields as UTF-8 bytes read in place from a payload (`nil`
/// = absent) and its commitment period numbers, so ``PayloadCompactor`` can find the shared instance
/// without building nine strings.
/// Valid only while the payload's bytes are.
struct AttributeBytes {
    var productId: UnsafeBufferPointer<UInt8>
    var subscriptionGroupIdentifier: UnsafeBufferPointer<UInt8>?
    var type: UnsafeBufferPointer<UInt8>
    var offerIdentifier: UnsafeBufferPointer<UInt8>?
    var offerDiscountType: UnsafeBufferPointer<UInt8>?
    var offerPeriod: UnsafeBufferPointer<UInt8>?
    var storefront: UnsafeBufferPointer<UInt8>?
    var inAppOwnershipType: UnsafeBufferPointer<UInt8>?
    var billingPlanType: UnsafeBufferPointer<UInt8>?
    var commitmentBillingPeriodNumber: Int32?
    var commitmentTotalBillingPeriods: Int32?
    var price: Int64?
    var currency: UnsafeBufferPointer<UInt8>?
    var revocationPercentage: Int32?

    /// FNV-1a over each field's presence, length and bytes (a number's presence and value).
    func hash() -> UInt64 {
        var hash = ByteSpelling.emptyHash
        func mix(_ field: UnsafeBufferPointer<UInt8>?) {
            guard let field else {
                hash = ByteSpelling.mix(hash, 0xFF)
                return
            }
            hash = ByteSpelling.mix(ByteSpelling.mix(hash, UInt64(field.count)), field)
        }
        mix(productId)
        mix(subscriptionGroupIdentifier)
        mix(type)
        mix(offerIdentifier)
        mix(offerDiscountType)
        mix(offerPeriod)
        mix(storefront)
        mix(inAppOwnershipType)
        mix(billingPlanType)
        mix(currency)
        for number in [commitmentBillingPeriodNumber, commitmentTotalBillingPeriods, revocationPercentage] {
            hash = ByteSpelling.mix(hash, number.map { UInt64(UInt32(bitPattern: $0)) } ?? 0x1_0000_0000)
        }
        hash = ByteSpelling.mix(ByteSpelling.mix(hash, price == nil ? 0 : 1), UInt64(bitPattern: price ?? 0))
        return hash
    }

    /// Whether `attributes` has exactly these fields.
    func spell(_ attributes: TransactionAttributes) -> Bool {
        let same = ByteSpelling.matches
        return same(attributes.productId, productId) && same(attributes.type, type)
            && same(attributes.subscriptionGroupIdentifier, subscriptionGroupIdentifier)
            && same(attributes.offerIdentifier, offerIdentifier)
            && same(attributes.offerDiscountType, offerDiscountType) && same(attributes.offerPeriod, offerPeriod)
            && same(attributes.storefront, storefront) && same(attributes.inAppOwnershipType, inAppOwnershipType)
            && same(attributes.billingPlanType, billingPlanType)
            && attributes.commitmentBillingPeriodNumber == commitmentBillingPeriodNumber
            && attributes.commitmentTotalBillingPeriods == commitmentTotalBillingPeriods && attributes.price == price
            && same(attributes.currency, currency) && attributes.revocationPercentage == revocationPercentage
    }

    /// The attributes with these fields as strings.
    func attributes() -> TransactionAttributes {
        func string(_ bytes: UnsafeBufferPointer<UInt8>?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
        return TransactionAttributes(
            productId: String(decoding: productId, as: UTF8.self), subscriptionGroupIdentifier: string(subscriptionGroupIdentifier),
            type: String(decoding: type, as: UTF8.self), offerIdentifier: string(offerIdentifier),
            offerDiscountType: string(offerDiscountType),
            offerPeriod: string(offerPeriod), storefront: string(storefront), inAppOwnershipType: string(inAppOwnershipType),
            billingPlanType: string(billingPlanType), commitmentBillingPeriodNumber: commitmentBillingPeriodNumber,
            commitmentTotalBillingPeriods: commitmentTotalBillingPeriods, price: price, currency: string(currency),
            revocationPercentage: revocationPercentage)
    }
}
