import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackIngest

/// The fast decoder must agree with the general path (JSONParser → PayloadDecoder → PayloadCompactor)
/// whenever it answers, and answer for the payloads App Store exports are made of.
@Suite struct FastPayloadDecoderTests {
    static let app = AppIdentity(bundleId: "com.example.winback", appAppleId: 1234567890, environment: "Production")

    static let transaction = """
        {"transactionId":"2000000900000016","originalTransactionId":"2000000900000016","webOrderLineItemId":"2000000077000001",\
        "bundleId":"com.example.winback","productId":"com.example.winback.monthly","subscriptionGroupIdentifier":"21440001",\
        "purchaseDate":1761397593187,"originalPurchaseDate":1761397593187,"expiresDate":1764075993187,"quantity":1,\
        "type":"Auto-Renewable Subscription","appAccountToken":"DA11f6fe-6169-4b2c-8e30-e6f8afc735f8","inAppOwnershipType":"PURCHASED",\
        "signedDate":1761403190093,"environment":"Production","storefront":"USA","storefrontId":"143441","transactionReason":"PURCHASE",\
        "currency":"USD","price":9990,"appTransactionId":"704289575346000000","offerType":1,"offerDiscountType":"FREE_TRIAL",\
        "offerPeriod":"P1W","offerIdentifier":"intro","isUpgraded":true,"revocationDate":1762000000000,"revocationReason":0,\
        "revocationType":"REFUND_FULL","revocationPercentage":100000,"commitmentInfo":{"billingPeriodNumber":3,\
        "commitmentExpiresDate":1790000000000,"commitmentPrice":65880,"totalBillingPeriods":12},"billingPlanType":"MONTHLY"}
        """

    static let renewalInfo = """
        {"expirationIntent":1,"originalTransactionId":"2000000900000016","autoRenewProductId":"com.example.winback.monthly",\
        "productId":"com.example.winback.monthly","autoRenewStatus":0,"isInBillingRetryPeriod":false,"signedDate":1794701333574,\
        "environment":"Production","recentSubscriptionStartDate":1761397593187,"renewalDate":1772024793187,"currency":"USD",\
        "renewalPrice":9990,"eligibleWinBackOfferIds":["winback.monthly.50off","winback.b"],"priceIncreaseStatus":1,\
        "gracePeriodExpiresDate":1772024793999,"appAccountToken":"","appTransactionId":"704289575346000000","offerType":2,\
        "offerIdentifier":"x","offerDiscountType":"PAY_AS_YOU_GO","offerPeriod":"P1M","renewalBillingPlanType":"MONTHLY",\
        "commitmentInfo":{"commitmentAutoRenewProductId":"com.example.winback.annual","commitmentAutoRenewStatus":0,\
        "commitmentRenewalBillingPlanType":"MONTHLY","commitmentRenewalDate":1790000000000,"commitmentRenewalPrice":65880}}
        """

    /// The general path's kept form, or `nil` when it rejects the payload or warns about it.
    static func general(_ bytes: [UInt8], as kind: PayloadKind, compactor: PayloadCompactor) -> (signedDate: Int64?, kept: KeptPayload)? {
        guard let json = try? JSONParser.parse(bytes),
            let (payload, warnings) = try? PayloadDecoder(app: app).decode(json, as: kind), warnings.isEmpty
        else { return nil }
        let signedDate: Int64? = if case .integer(let value)? = json["signedDate"] { value } else { nil }
        return (signedDate, compactor.keep(payload))
    }

    static func fast(_ bytes: [UInt8], as kind: PayloadKind, compactor: PayloadCompactor) -> (signedDate: Int64, kept: KeptPayload)? {
        let cache = WorkerCache(app: app, compactor: compactor)
        return bytes.withUnsafeBufferPointer { FastPayloadDecoder(app: app, compactor: compactor).decode($0, as: kind, cache: cache) }
    }

    /// An instant outside 2007…9999 is left to the general path, which rejects it naming the field.
    @Test(arguments: [
        ("\"purchaseDate\":1761397593187", "\"purchaseDate\":0", PayloadKind.transaction),
        ("\"expiresDate\":1764075993187", "\"expiresDate\":9223372036854775807", .transaction),
        ("\"revocationDate\":1762000000000", "\"revocationDate\":-9223372036854775808", .transaction),
        ("\"renewalDate\":1772024793187", "\"renewalDate\":9223372036854775807", .renewalInfo),
        ("\"gracePeriodExpiresDate\":1772024793999", "\"gracePeriodExpiresDate\":1", .renewalInfo),
    ])
    func instantsOutOfRangeTakeTheGeneralPathAndAreRejected(_ original: String, _ replacement: String, _ kind: PayloadKind) {
        let text = (kind == .transaction ? Self.transaction : Self.renewalInfo).replacingOccurrences(of: original, with: replacement)
        #expect(text.contains(replacement))
        #expect(Self.fast(Array(text.utf8), as: kind, compactor: PayloadCompactor()) == nil)
        #expect(Self.general(Array(text.utf8), as: kind, compactor: PayloadCompactor()) == nil)
    }

    @Test(arguments: [(transaction, PayloadKind.transaction), (renewalInfo, .renewalInfo)])
    func commonPayloadsTakeTheFastPathAndMatchTheGeneralOne(_ text: String, _ kind: PayloadKind) throws {
        let compactor = PayloadCompactor()
        let fast = try #require(Self.fast(Array(text.utf8), as: kind, compactor: compactor))
        let general = try #require(Self.general(Array(text.utf8), as: kind, compactor: compactor))
        #expect(fast.kept == general.kept)
        #expect(fast.signedDate == general.signedDate)
        if case .transaction(let transaction) = fast.kept {
            #expect(transaction.appAccountToken == "da11f6fe-6169-4b2c-8e30-e6f8afc735f8")
            #expect(transaction.revocationDate == 1762000000000)
            #expect(transaction.isUpgraded)
            #expect(transaction.billingPlanType == "MONTHLY" && transaction.commitmentExpiresDate == 1_790_000_000_000)
            #expect(transaction.commitmentBillingPeriodNumber == 3 && transaction.commitmentTotalBillingPeriods == 12)
        }
        if case .renewalInfo(let state) = fast.kept {
            #expect(state.eligibleWinBackOfferIds == ["winback.monthly.50off", "winback.b"])
            #expect(state.gracePeriodExpiresDate == 1772024793999)
            #expect(state.renewalBillingPlanType == "MONTHLY" && state.commitmentAutoRenewStatus == 0)
        }
    }

    /// The transaction's `commitmentInfo` object.
    static let commitment =
        #"{"billingPeriodNumber":3,"commitmentExpiresDate":1790000000000,"commitmentPrice":65880,"totalBillingPeriods":12}"#

    /// Named edits of the transaction payload and whether the fast path may take them.
    static let edits: [(name: String, from: String, to: String, isFast: Bool)] = [
        ("whitespace between tokens", #","bundleId":"#, " ,\n\t\"bundleId\" : ", true),
        ("a null field reads as absent", #""storefront":"USA""#, #""storefront":null"#, true),
        (
            "an empty app account token is absent", #""appAccountToken":"DA11f6fe-6169-4b2c-8e30-e6f8afc735f8""#, #""appAccountToken":"""#,
            true
        ),
        ("an escape", #""storefront":"USA""#, #""storefront":"U\u0053A""#, false),
        ("non-ASCII text", #""storefront":"USA""#, #""storefront":"ÜSA""#, false),
        ("an unknown key", #""currency":"USD""#, #""currency":"USD","newAppleField":1"#, false),
        ("a repeated key", #""currency":"USD""#, #""currency":"USD","currency":"EUR""#, false),
        ("a nested object", #""currency":"USD""#, #""currency":"USD","advancedCommerceInfo":{}"#, false),
        ("a fraction", #""price":9990"#, #""price":9990.5"#, false),
        ("an exponent", #""price":9990"#, #""price":9990e0"#, false),
        ("a leading zero", #""price":9990"#, #""price":09990"#, false),
        ("19 digits", #""price":9990"#, #""price":1000000000000000000"#, false),
        ("a wrong type", #""price":9990"#, #""price":"9990""#, false),
        ("a 32-bit field overflowing", #""quantity":1"#, #""quantity":2147483648"#, false),
        ("another app", #""bundleId":"com.example.winback""#, #""bundleId":"com.other""#, false),
        ("another environment", #""environment":"Production""#, #""environment":"Sandbox""#, false),
        ("an unknown enum value", #""transactionReason":"PURCHASE""#, #""transactionReason":"GIFT""#, false),
        ("an unknown offer type", #""offerType":1"#, #""offerType":9"#, false),
        ("a missing required field", #""purchaseDate":1761397593187,"#, "", false),
        ("a subscription without expiresDate", #""expiresDate":1764075993187,"#, "", false),
        (
            "a non-subscription without expiresDate", #""expiresDate":1764075993187,"quantity":1,"type":"Auto-Renewable Subscription""#,
            #""quantity":1,"type":"Consumable""#, true
        ),
        ("trailing data", #""billingPlanType":"MONTHLY"}"#, #""billingPlanType":"MONTHLY"}x"#, false),
        ("a trailing comma", #""billingPlanType":"MONTHLY"}"#, #""billingPlanType":"MONTHLY",}"#, false),
        ("an unknown billing plan", #""billingPlanType":"MONTHLY""#, #""billingPlanType":"WEEKLY""#, false),
        ("a null commitment reads as absent", commitment, "null", true),
        ("an empty commitment", commitment, "{ }", true),
        ("a commitment without its price", #","commitmentPrice":65880"#, "", true),
        ("an unknown commitment key", #""totalBillingPeriods":12}"#, #""totalBillingPeriods":12,"future":1}"#, false),
        ("a repeated commitment key", #""totalBillingPeriods":12}"#, #""totalBillingPeriods":12,"totalBillingPeriods":11}"#, false),
        ("a commitment field of the wrong type", #""billingPeriodNumber":3"#, #""billingPeriodNumber":"3""#, false),
        ("a commitment period overflowing 32 bits", #""billingPeriodNumber":3"#, #""billingPeriodNumber":4294967296"#, false),
        ("a commitment expiry out of range", #""commitmentExpiresDate":1790000000000"#, #""commitmentExpiresDate":5"#, false),
        ("an array inside the commitment", #""totalBillingPeriods":12}"#, #""totalBillingPeriods":12,"x":[]}"#, false),
        ("an object inside the commitment", #""totalBillingPeriods":12}"#, #""totalBillingPeriods":12,"x":{}}"#, false),
        ("a commitment that is not an object", commitment, "3", false),
    ]

    /// The renewal info's commitment: unknown enum values inside it are warned by the general path, so the
    /// fast path declines them; a null or empty commitment is no commitment.
    @Test(arguments: [
        ("an unknown commitment auto-renew status", #""commitmentAutoRenewStatus":0"#, #""commitmentAutoRenewStatus":7"#, false),
        (
            "an unknown commitment billing plan", #""commitmentRenewalBillingPlanType":"MONTHLY""#,
            #""commitmentRenewalBillingPlanType":"W""#, false
        ),
        ("an unknown renewal billing plan", #""renewalBillingPlanType":"MONTHLY""#, #""renewalBillingPlanType":"W""#, false),
        ("auto-renew on", #""commitmentAutoRenewStatus":0"#, #""commitmentAutoRenewStatus":1"#, true),
        ("a commitment price of the wrong type", #""commitmentRenewalPrice":65880"#, #""commitmentRenewalPrice":true"#, false),
    ])
    func renewalCommitmentEditsTakeTheExpectedPath(_ name: String, _ from: String, _ to: String, _ isFast: Bool) throws {
        let text = Self.renewalInfo.replacingOccurrences(of: from, with: to)
        try #require(text != Self.renewalInfo, "edit '\(name)' does not apply")
        let compactor = PayloadCompactor()
        let fast = Self.fast(Array(text.utf8), as: .renewalInfo, compactor: compactor)
        #expect((fast != nil) == isFast, "\(name)")
        if let fast {
            let general = try #require(Self.general(Array(text.utf8), as: .renewalInfo, compactor: compactor))
            #expect(fast.kept == general.kept)
        }
    }

    @Test(arguments: edits)
    func editsTakeTheExpectedPathAndAgree(_ edit: (name: String, from: String, to: String, isFast: Bool)) throws {
        let text = Self.transaction.replacingOccurrences(of: edit.from, with: edit.to)
        try #require(text != Self.transaction, "edit '\(edit.name)' does not apply")
        let compactor = PayloadCompactor()
        let fast = Self.fast(Array(text.utf8), as: .transaction, compactor: compactor)
        #expect((fast != nil) == edit.isFast, "\(edit.name)")
        if let fast {
            let general = try #require(Self.general(Array(text.utf8), as: .transaction, compactor: compactor))
            #expect(fast.kept == general.kept)
        }
    }

    /// Every one-byte edit of both payloads (deleted, or replaced by a byte that matters to JSON): whenever
    /// the fast path answers, the general path accepts the same payload without a warning and keeps the same.
    @Test(arguments: [(transaction, PayloadKind.transaction), (renewalInfo, .renewalInfo)])
    func everyOneByteEditAgreesWithTheGeneralPath(_ text: String, _ kind: PayloadKind) {
        let base = Array(text.utf8)
        let replacements = Array(#""\{}[],: 0179-.eAan"#.utf8) + [0x80, 0x1F]
        let compactor = PayloadCompactor()
        var answered = 0
        var declined = 0
        var disagreements: [String] = []
        for position in base.indices {
            var variants = [Array(base[..<position] + base[(position + 1)...])]
            for byte in replacements where byte != base[position] {
                var variant = base
                variant[position] = byte
                variants.append(variant)
            }
            for variant in variants {
                guard let fast = Self.fast(variant, as: kind, compactor: compactor) else {
                    declined += 1
                    continue
                }
                answered += 1
                let general = Self.general(variant, as: kind, compactor: compactor)
                if general?.kept != fast.kept || general?.signedDate != fast.signedDate {
                    disagreements.append(String(decoding: variant, as: UTF8.self))
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
        #expect(answered > 1000)
        #expect(declined > 1000)
    }
}
