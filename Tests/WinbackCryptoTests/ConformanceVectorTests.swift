import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackTestSupport

@Suite struct ConformanceVectorTests {
    /// The outcome each of the 23 negative cases must give (conformance/README.md).
    static let expectedOutcomes: [RejectCode?] = [
        .missingAppleOID, .missingAppleOID, .missingAppleOID, .untrustedChain,
        .invalidChainLength, .invalidChainLength, .invalidChainLength, .unsupportedAlgorithm,
        nil, .malformedJWS, .malformedJWS, .malformedJWS, .malformedJWS,
        .invalidSignature, .invalidSignature, nil, .invalidCertificate, .invalidCertificate,
        nil, .certificateExpired, .certificateExpired, .missingField, .missingField,
    ]

    static let cases: [ConformanceVectors.Case] = (try? ConformanceVectors().negativeCases) ?? []

    @Test func everyNegativeCaseHasAnExpectedOutcome() {
        #expect(Self.cases.count == 23)
        #expect(Self.expectedOutcomes.count == Self.cases.count)
    }

    @Test(arguments: cases)
    func negativeCaseGivesOurRejectCode(_ vector: ConformanceVectors.Case) async throws {
        let vectors = try ConformanceVectors()
        let verifier = try vectors.verifier(rootBase64: vector.rootBase64)
        let expected = Self.expectedOutcomes[vector.index]
        do {
            _ = try await verifier.verify(vector.jws, as: .transaction)
            #expect(expected == nil, "accepted, expected \(String(describing: expected))")
        } catch {
            #expect(error.code == expected, "\(error.message)")
        }
        // A worker's scratch (its copies of the header entries, signature and payload buffers) changes nothing
        // about the outcome: a header met first through the shared cache, then through the scratch's copy.
        let scratch = VerifierScratch()
        for _ in 0..<2 {
            do {
                _ = try await verifier.verify(RecordText(vector.jws), as: .transaction, scratch: scratch)
                #expect(expected == nil, "accepted through a scratch, expected \(String(describing: expected))")
            } catch {
                #expect(error.code == expected, "through a scratch: \(error.message)")
            }
        }
    }

    /// After the first record with a header, the digest continues from the header's cached SHA-256 state:
    /// records with that header still verify, and another record's payload under this signature does not.
    @Test func cachedHeaderStateGivesTheSameOutcomes() async throws {
        let vectors = try ConformanceVectors()
        let verifier = try vectors.verifier()
        let transaction = vectors.string("signed_transaction")
        let renewal = vectors.string("signed_renewal_info")
        let transactionParts = transaction.split(separator: ".")
        let renewalParts = renewal.split(separator: ".")
        try #require(transactionParts.count == 3 && renewalParts.count == 3 && transactionParts[0] == renewalParts[0])
        for _ in 0..<2 {
            _ = try await verifier.verify(transaction, as: .transaction)
            _ = try await verifier.verify(renewal, as: .renewalInfo)
        }
        let swapped = [renewalParts[0], renewalParts[1], transactionParts[2]].joined(separator: ".")
        do {
            _ = try await verifier.verify(swapped, as: .renewalInfo)
            Issue.record("a payload verified under another payload's signature")
        } catch {
            #expect(error.code == .invalidSignature)
        }
    }

    /// A worker's scratch decodes each signature into the one signature value it keeps: a record after a bad
    /// one is checked against its own bytes, and a segment the scratch does not take (padded, short, a
    /// character outside the alphabet) is judged as without a scratch.
    @Test func aScratchsReusedSignatureIsEachRecordsOwn() async throws {
        let vectors = try ConformanceVectors()
        let verifier = try vectors.verifier()
        let scratch = VerifierScratch()
        let transaction = vectors.string("signed_transaction")
        let renewal = vectors.string("signed_renewal_info")
        let signature = try #require(transaction.split(separator: ".").last)
        #expect(signature.utf8.count == 86)
        let head = String(transaction.dropLast(86))
        func flipped(_ offset: Int) -> String {
            let index = signature.index(signature.startIndex, offsetBy: offset)
            return head + signature[..<index] + (signature[index] == "A" ? "B" : "A") + signature[signature.index(after: index)...]
        }
        let sequence: [(String, PayloadKind, RejectCode?)] = [
            (transaction, .transaction, nil),
            (flipped(40), .transaction, .invalidSignature),
            (renewal, .renewalInfo, nil),
            (head + signature.dropLast() + "*", .transaction, .malformedJWS),
            (transaction + "==", .transaction, nil),
            (head + signature.dropLast(2), .transaction, .invalidSignature),
            (flipped(0), .transaction, .invalidSignature),
            (transaction, .transaction, nil),
        ]
        for (jws, kind, expected) in sequence {
            do {
                _ = try await verifier.verify(RecordText(jws), as: kind, scratch: scratch)
                #expect(expected == nil, "accepted \(jws.suffix(90)), expected \(String(describing: expected))")
            } catch {
                #expect(error.code == expected, "\(jws.suffix(90)): \(error.message)")
            }
        }
    }

    @Test func signedTransactionVerifiesAndDecodesToTheListedFields() async throws {
        let vectors = try ConformanceVectors()
        let (payload, warnings) = try await vectors.verifier().verify(vectors.string("signed_transaction"), as: .transaction)
        guard case .transaction(let transaction) = payload else {
            Issue.record("not a transaction")
            return
        }
        #expect(warnings.isEmpty)
        let expected = try #require(vectors.json["signed_transaction_payload"])
        let expectedTransaction = try JWSTransactionDecodedPayload(members: try #require(expected.objectMembers))
        #expect(transaction == expectedTransaction)
        #expect(transaction.transactionId == "2000000812345678")
        #expect(transaction.offerType == .winBackOffer)
        #expect(transaction.offerPeriod == "P3M")
        #expect(transaction.price == 4990)
        #expect(transaction.expiresDate == 1_794_488_404_214)
        #expect(transaction.type == .autoRenewableSubscription)
        #expect(transaction.unknownFields.isEmpty)
    }

    @Test func signedRenewalInfoVerifiesAndDecodesToTheListedFields() async throws {
        let vectors = try ConformanceVectors()
        let (payload, _) = try await vectors.verifier().verify(vectors.string("signed_renewal_info"), as: .renewalInfo)
        guard case .renewalInfo(let renewalInfo) = payload else {
            Issue.record("not a renewal info")
            return
        }
        let expected = try #require(vectors.json["signed_renewal_info_payload"]?.objectMembers)
        #expect(renewalInfo == (try JWSRenewalInfoDecodedPayload(members: expected)))
        #expect(renewalInfo.eligibleWinBackOfferIds == ["winback.monthly.50off", "winback.annual.1mfree"])
        #expect(renewalInfo.expirationIntent == .customerCancelled)
        #expect(renewalInfo.autoRenewStatus == .off)
    }

    @Test func signedNotificationVerifies() async throws {
        let vectors = try ConformanceVectors()
        let (payload, _) = try await vectors.verifier().verify(vectors.string("signed_notification"), as: .notification)
        guard case .notification(let notification) = payload else {
            Issue.record("not a notification")
            return
        }
        #expect(notification.data?.bundleId == "com.example.winback")
        #expect(notification.signedDate != nil)
    }

    @Test func oneChainValidationPerDistinctChain() async throws {
        let vectors = try ConformanceVectors()
        let verifier = try vectors.verifier()
        for _ in 0..<5 {
            _ = try await verifier.verify(vectors.string("signed_transaction"), as: .transaction)
            _ = try await verifier.verify(vectors.string("signed_renewal_info"), as: .renewalInfo)
        }
        #expect(verifier.chains.validations == 1)
    }
}
