import Testing

@testable import WinbackAnalytics
@testable import WinbackAppStore
@testable import WinbackIngest

@Suite struct DeduplicatorTests {
    /// A transaction of subscription `subscription` (its own id when `nil`).
    static func transaction(_ id: String, of subscription: String? = nil, signedDate: Int64, revoked: Int64? = nil) -> AcceptedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = id
        transaction.originalTransactionId = subscription ?? id
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
        #expect(deduplicator.transaction("1", of: "1")?.revocationDate == 25)
        #expect(deduplicator.transaction("2", of: "2")?.revocationDate == 4)
        #expect(deduplicator.duplicates == 3)
        #expect(deduplicator.transactionCount == 2)
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
        #expect(deduplicator.renewalInfos[CompactIdentifier("7")]?.autoRenewStatus == 1)
        #expect(deduplicator.duplicates == 1)
    }
}

@Suite struct PayloadCompactorTests {
    @Test func concurrentCallersShareOneAttributesObjectPerCombination() async {
        let compactor = PayloadCompactor()
        let kept = await withTaskGroup(of: [KeptPayload].self) { group in
            for task in 0..<4 {
                group.addTask {
                    (0..<200).map { index in
                        var transaction = JWSTransactionDecodedPayload()
                        transaction.transactionId = "\(task * 1000 + index)"
                        transaction.originalTransactionId = "1"
                        transaction.productId = index.isMultiple(of: 2) ? "p.monthly" : "p.yearly"
                        transaction.storefront = "USA"
                        return compactor.keep(.transaction(transaction))
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let attributes = kept.compactMap { kept -> TransactionAttributes? in
            if case .transaction(let transaction) = kept { return transaction.attributes }
            return nil
        }
        #expect(attributes.count == 800)
        #expect(Set(attributes.map(ObjectIdentifier.init)).count == 2)
    }

    @Test func attributesReadFromBytesAreTheSharedInstance() {
        let compactor = PayloadCompactor()
        func attributes(storefront: String?, offerPeriod: String? = nil) -> TransactionAttributes {
            compactor.intern(
                TransactionAttributes(
                    productId: "p.monthly", subscriptionGroupIdentifier: "g", type: "Auto-Renewable Subscription", offerIdentifier: nil,
                    offerDiscountType: nil, offerPeriod: offerPeriod, storefront: storefront, inAppOwnershipType: "PURCHASED"))
        }
        func fromBytes(storefront: String?, offerPeriod: String? = nil) -> TransactionAttributes {
            func with(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> TransactionAttributes) -> TransactionAttributes {
                guard let text else { return body(nil) }
                return Array(text.utf8).withUnsafeBufferPointer { body($0) }
            }
            return with("p.monthly") { product in
                with("g") { group in
                    with("Auto-Renewable Subscription") { type in
                        with(storefront) { storefront in
                            with(offerPeriod) { period in
                                with("PURCHASED") { inAppOwnershipType in
                                    compactor.intern(
                                        AttributeBytes(
                                            productId: product!, subscriptionGroupIdentifier: group, type: type!, offerIdentifier: nil,
                                            offerDiscountType: nil,
                                            offerPeriod: period, storefront: storefront, inAppOwnershipType: inAppOwnershipType))
                                }
                            }
                        }
                    }
                }
            }
        }
        let usa = attributes(storefront: "USA")
        #expect(fromBytes(storefront: "USA") === usa)
        #expect(fromBytes(storefront: "USA") === usa)
        // Not found by bytes: built once, then shared both ways.
        let france = fromBytes(storefront: "FRA")
        #expect(france !== usa && france.storefront == "FRA")
        #expect(attributes(storefront: "FRA") === france)
        // Absent and empty are different fields, as are the same bytes in another field.
        #expect(fromBytes(storefront: nil) !== fromBytes(storefront: ""))
        #expect(fromBytes(storefront: nil, offerPeriod: "USA") !== usa)
        #expect(fromBytes(storefront: nil).storefront == nil && fromBytes(storefront: "").storefront == "")
    }

    /// A worker cache answers from its own copies: equal to the compactor's shared instance (so `==` and hashing
    /// see one combination), the same object each time within the cache, another object in another cache.
    @Test func aLaneKeepsItsOwnCopyOfEachCombination() {
        let compactor = PayloadCompactor()
        func fields<T>(_ storefront: String, _ body: (AttributeBytes) -> T) -> T {
            let (product, type, front) = (Array("p.monthly".utf8), Array("Auto-Renewable Subscription".utf8), Array(storefront.utf8))
            return product.withUnsafeBufferPointer { p in
                type.withUnsafeBufferPointer { t in
                    front.withUnsafeBufferPointer { f in
                        body(
                            AttributeBytes(
                                productId: p, subscriptionGroupIdentifier: nil, type: t, offerIdentifier: nil, offerDiscountType: nil,
                                offerPeriod: nil,
                                storefront: f, inAppOwnershipType: nil))
                    }
                }
            }
        }
        let app = AppIdentity(bundleId: "com.example", appAppleId: nil, environment: "Sandbox")
        let (one, two) = (WorkerCache(app: app, compactor: compactor), WorkerCache(app: app, compactor: compactor))
        var sharedCalls = 0
        func viaCache(_ cache: WorkerCache, _ storefront: String) -> TransactionAttributes {
            fields(storefront) { bytes in
                if let own = cache.attributes(bytes, hash: bytes.hash()) { return own }
                sharedCalls += 1
                return cache.adopt(compactor.intern(bytes), hash: bytes.hash())
            }
        }
        let shared = fields("USA") { compactor.intern($0) }
        let first = viaCache(one, "USA")
        #expect(first == shared && first !== shared && first.hashValue == shared.hashValue)
        #expect(viaCache(one, "USA") === first)
        let other = viaCache(two, "USA")
        #expect(other == shared && other !== first)
        #expect(viaCache(one, "FRA").storefront == "FRA" && viaCache(one, "FRA") !== first)
        #expect(sharedCalls == 3)  // once per worker cache and combination

        let product = Array("com.example.yearly".utf8)
        let ids = product.withUnsafeBufferPointer { bytes in
            (compactor.internProductId(bytes, cache: one), one.productId(bytes, hash: ByteSpelling.hash(bytes)))
        }
        #expect(ids.0 == "com.example.yearly" && ids.1 == "com.example.yearly", "the worker cache keeps the product id it was given")
        #expect(Array("com.example.monthly".utf8).withUnsafeBufferPointer { one.productId($0, hash: ByteSpelling.hash($0)) } == nil)
    }

    @Test func recentIdentitiesAreReusedOnlyForTheSameFields() {
        var recent = RecentIdentities()
        var made = 0
        func identity(_ original: String, token: String?, app: String?) -> SubscriptionIdentity {
            func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }
            let (o, t, a) = (Array(original.utf8), bytes(token), bytes(app))
            return o.withUnsafeBufferPointer { o in
                func with(_ array: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>?) -> SubscriptionIdentity) -> SubscriptionIdentity {
                    guard let array else { return body(nil) }
                    return array.withUnsafeBufferPointer { body($0) }
                }
                return with(t) { t in
                    with(a) { a in
                        recent.identity(originalTransactionId: o, appAccountToken: t, appTransactionId: a) {
                            made += 1
                            let token = token.flatMap { $0.isEmpty ? nil : $0.lowercased() }
                            return SubscriptionIdentity(originalTransactionId: original, appAccountToken: token, appTransactionId: app)
                        }
                    }
                }
            }
        }
        let first = identity("2000000000000001", token: "ABCDEF01-0000-0000-0000-000000000000", app: "7")
        #expect(identity("2000000000000001", token: "abcdef01-0000-0000-0000-000000000000", app: "7") === first)
        #expect(made == 1)
        #expect(first.appAccountToken == "abcdef01-0000-0000-0000-000000000000")
        // Any other field value is a new identity (and then the recent one for that subscription).
        let otherApp = identity("2000000000000001", token: "ABCDEF01-0000-0000-0000-000000000000", app: "8")
        #expect(otherApp !== first && otherApp.appTransactionId == "8")
        #expect(identity("2000000000000001", token: nil, app: "8").appAccountToken == nil)
        #expect(identity("2000000000000001", token: "", app: "8").appAccountToken == nil)
        #expect(identity("2000000000000001", token: "", app: nil).appTransactionId == nil)
        #expect(identity("2000000000000002", token: "", app: nil).originalTransactionId == "2000000000000002")
        #expect(made == 5)
    }

    @Test func payloadsWithoutTheirKeysAreIgnored() {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = "1"
        #expect(PayloadCompactor().keep(.transaction(transaction)) == .ignored)
        #expect(PayloadCompactor().keep(.renewalInfo(JWSRenewalInfoDecodedPayload())) == .ignored)
    }
}

@Suite struct CompactIdentifierTests {
    @Test(arguments: ["2000000900000010", "0", "18446744073709551615", "007", "18446744073709551616", "abc", "", "12a", "１２"])
    func printsBackExactlyAsWritten(_ text: String) {
        #expect(CompactIdentifier(text).string == text)
    }

    @Test(arguments: [("2000000900000010", true), ("0", true), ("007", false), ("18446744073709551616", false), ("abc", false)])
    func canonicalNumbersAreStoredAsNumbers(_ text: String, _ isNumber: Bool) {
        if case .number = CompactIdentifier(text) { #expect(isNumber) } else { #expect(!isNumber) }
    }

    @Test(arguments: [("9", "10"), ("10", "a"), ("007", "8"), ("2000000900000010", "2000000900000011"), ("99", "0100")])
    func orderMatchesIdentifierOrder(_ lower: String, _ higher: String) {
        #expect(CompactIdentifier.precedes(CompactIdentifier(lower), CompactIdentifier(higher)) == IdentifierOrder.less(lower, higher))
        #expect(CompactIdentifier.precedes(CompactIdentifier(higher), CompactIdentifier(lower)) == IdentifierOrder.less(higher, lower))
    }
}

@Suite struct TransactionGroupingTests {
    @Test func transactionsOfASubscriptionAreGroupedAndShareAttributes() {
        var deduplicator = Deduplicator()
        for id in ["11", "12", "11"] {
            var transaction = JWSTransactionDecodedPayload()
            transaction.transactionId = id
            transaction.originalTransactionId = "10"
            transaction.productId = "p.monthly"
            transaction.storefront = "USA"
            transaction.signedDate = 1
            deduplicator.add(.transaction(transaction))
        }
        let group = deduplicator.subscriptions[CompactIdentifier("10")] ?? []
        #expect(group.map(\.transactionId) == ["11", "12"])
        #expect(deduplicator.transactionCount == 2 && deduplicator.duplicates == 1)
        #expect(group.count == 2 && group[0].attributes === group[1].attributes && group[0].identity === group[1].identity)
        // The memory budget of a stored transaction (README: bytes per stored transaction).
        #expect(MemoryLayout<SubscriptionTransaction>.stride <= 80)
        #expect(MemoryLayout<RenewalState>.stride <= 112)
        var taken = deduplicator
        #expect(taken.takeSubscriptions().count == 1 && taken.subscriptions.isEmpty)
    }
}

@Suite struct CompactKeyModelTests {
    /// Subscriptions keyed by compact ids come out in identifier order — digit strings as numbers, a
    /// leading zero or a letter as text — and each renewal info reaches its own subscription.
    @Test func subscriptionsAreOrderedAndMatchedByTheirCompactIds() {
        let ids = ["10", "a1", "9", "0012", "18446744073709551615", "9999999999999999999"]
        var deduplicator = Deduplicator()
        for (position, id) in ids.enumerated() {
            var transaction = JWSTransactionDecodedPayload()
            transaction.transactionId = "t\(position)"
            transaction.originalTransactionId = id
            transaction.productId = "p"
            transaction.rawType = "Auto-Renewable Subscription"
            transaction.purchaseDate = 1_000
            transaction.expiresDate = 2_000
            transaction.signedDate = 1
            deduplicator.add(.transaction(transaction))
            var renewal = JWSRenewalInfoDecodedPayload()
            renewal.originalTransactionId = id
            renewal.rawAutoRenewStatus = Int32(position)
            renewal.signedDate = 1
            deduplicator.add(.renewalInfo(renewal))
        }
        let renewals = deduplicator.takeRenewalInfos()
        let model = SubscriptionModel(subscriptions: deduplicator.takeSubscriptions(), renewals: renewals, asOf: 10_000, gracePeriodDays: 0)
        // 20 digits do not fit 19: that id is text, still ordered as a number (IdentifierOrder).
        let expected = ["9", "10", "0012", "9999999999999999999", "18446744073709551615", "a1"]
        #expect(model.timelines.map(\.originalTransactionId) == expected)
        #expect(expected == ids.sorted(by: IdentifierOrder.less))
        for timeline in model.timelines {
            #expect(timeline.renewal?.originalTransactionId == timeline.originalTransactionId)
            #expect(timeline.renewal?.autoRenewStatus == Int32(ids.firstIndex(of: timeline.originalTransactionId) ?? -1))
        }
    }
}

/// The deduplicator merges a transaction into the last subscription's group by its position when the
/// subscription repeats: groups stay in input order and duplicates are found whether a subscription's
/// transactions come together, come back after another's, or start a new group.
@Suite struct DeduplicatorGroupingTests {
    @Test func groupsFollowTheInputWhereverASubscriptionComesBack() {
        var deduplicator = Deduplicator()
        let input: [(String, String, Int64, Int64?)] = [
            ("a1", "A", 1, nil), ("a2", "A", 2, nil), ("b1", "B", 1, nil), ("a3", "A", 3, nil), ("a2", "A", 5, 4),
            ("c1", "C", 1, nil), ("b1", "B", 0, 9), ("b2", "B", 2, nil), ("a1", "A", 1, 7),
        ]
        for (id, subscription, signed, revoked) in input {
            deduplicator.add(DeduplicatorTests.transaction(id, of: subscription, signedDate: signed, revoked: revoked))
        }
        let groups = deduplicator.takeSubscriptions()
        #expect(groups[CompactIdentifier("A")]?.map(\.transactionId) == ["a1", "a2", "a3"])
        #expect(groups[CompactIdentifier("B")]?.map(\.transactionId) == ["b1", "b2"])
        #expect(groups[CompactIdentifier("C")]?.map(\.transactionId) == ["c1"])
        // a2 signed later with a revocation wins; b1's older-signed copy loses; a1's tie goes to the later one.
        #expect(groups[CompactIdentifier("A")]?.map(\.revocationDate) == [7, 4, nil])
        #expect(groups[CompactIdentifier("B")]?.first?.revocationDate == nil)
        #expect(deduplicator.duplicates == 3)
        #expect(deduplicator.transactionCount == 6)
        // After the take, a new transaction starts from an empty table.
        deduplicator.add(DeduplicatorTests.transaction("a9", of: "A", signedDate: 1))
        #expect(deduplicator.takeSubscriptions()[CompactIdentifier("A")]?.map(\.transactionId) == ["a9"])
    }
}
