import Testing
import WinbackCore

@Suite struct DeduplicatorTests {
    static func transaction(_ id: String, signedDate: Int64, revoked: Int64? = nil) -> AcceptedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = id
        transaction.originalTransactionId = id
        transaction.productId = "p"
        transaction.signedDate = signedDate
        transaction.revocationDate = revoked
        return .transaction(transaction)
    }

    @Test func latestSignedDateWinsAndTiesGoToTheLaterRecord() {
        var deduplicator = Deduplicator()
        deduplicator.add(Self.transaction("1", signedDate: 10))
        deduplicator.add(Self.transaction("1", signedDate: 30, revoked: 25))
        deduplicator.add(Self.transaction("1", signedDate: 20))
        deduplicator.add(Self.transaction("2", signedDate: 5))
        deduplicator.add(Self.transaction("2", signedDate: 5, revoked: 4))
        #expect(deduplicator.transactions["1"]?.revocationDate == 25)
        #expect(deduplicator.transactions["2"]?.revocationDate == 4)
        #expect(deduplicator.duplicates == 3)
    }

    @Test func renewalInfosDeduplicateByOriginalTransactionId() {
        var deduplicator = Deduplicator()
        for (date, status) in [(Int64(3), Int32(1)), (1, 0)] {
            var renewal = JWSRenewalInfoDecodedPayload()
            renewal.originalTransactionId = "7"
            renewal.signedDate = date
            renewal.rawAutoRenewStatus = status
            deduplicator.add(.renewalInfo(renewal))
        }
        #expect(deduplicator.renewalInfos["7"]?.autoRenewStatus == 1)
        #expect(deduplicator.duplicates == 1)
    }
}
