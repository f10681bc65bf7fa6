import Testing
import WinbackAnalytics
import WinbackAppStore

@Suite struct AppleModelTests {
    static let app = AppIdentity(bundleId: "com.example.app", appAppleId: 1, environment: "Sandbox")

    static func transaction(_ extra: String) throws -> JSONValue {
        try JSONParser.parse(
            """
            {"transactionId": "11", "originalTransactionId": "10", "bundleId": "com.example.app", "productId": "p",
             "purchaseDate": 1790000000000, "expiresDate": 1792000000000, "type": "Auto-Renewable Subscription", "signedDate": 1791000000000,
             "environment": "Sandbox"\(extra)}
            """)
    }

    @Test func unknownOfferTypeIsKeptAsRawAndWarned() throws {
        let (payload, warnings) = try PayloadDecoder(app: Self.app).decode(try Self.transaction(#", "offerType": 9"#), as: .transaction)
        guard case .transaction(let transaction) = payload else { Issue.record("not a transaction"); return }
        #expect(transaction.rawOfferType == 9)
        #expect(transaction.offerType == nil)
        #expect(warnings == ["unknown offerType value '9' (OfferType)"])
    }

    @Test func unknownKeysSurviveDecoding() throws {
        let (payload, warnings) = try PayloadDecoder(app: Self.app).decode(
            try Self.transaction(#", "futureField": {"a": 1}"#), as: .transaction)
        guard case .transaction(let transaction) = payload else { Issue.record("not a transaction"); return }
        #expect(transaction.unknownFields.map(\.key) == ["futureField"])
        #expect(transaction.unknownFields.first?.value["a"] == .integer(1))
        #expect(warnings.isEmpty)
    }

    @Test(
        arguments: [(#", "appAccountToken": """#, nil), (#", "appAccountToken": "ABC-not-a-uuid""#, "ABC-not-a-uuid")]
            as [(String, String?)])
    func appAccountTokenIsLenient(_ extra: String, _ expected: String?) throws {
        let (payload, _) = try PayloadDecoder(app: Self.app).decode(try Self.transaction(extra), as: .transaction)
        guard case .transaction(let transaction) = payload else { Issue.record("not a transaction"); return }
        #expect(transaction.appAccountToken == expected)
    }

    @Test func unknownNotificationTypeAndSubtypeWarnTwice() throws {
        let value = try JSONParser.parse(
            #"""
            {"notificationType": "NEW_TYPE", "subtype": "NEW_SUBTYPE", "signedDate": 1791000000000,
             "data": {"bundleId": "com.example.app", "environment": "Sandbox", "status": 9}}
            """#)
        let (_, warnings) = try PayloadDecoder(app: Self.app).decode(value, as: .notification)
        #expect(warnings.count == 3)
        #expect(warnings.contains("unknown data.status value '9' (Status)"))
    }

    struct Failing: Sendable, CustomTestStringConvertible {
        var name: String
        var extra: String
        var kind: PayloadKind = .transaction
        var code: RejectCode
        var message: String
        var testDescription: String { name }
    }

    static let failing: [Failing] = [
        Failing(
            name: "wrong bundle", extra: #", "bundleId": "com.other""#, code: .invalidAppIdentifier,
            message: "bundleId: expected 'com.example.app', found 'com.other' (string)"),
        Failing(
            name: "wrong environment", extra: #", "environment": "Production""#, code: .invalidEnvironment,
            message: "environment: expected 'Sandbox', found 'Production' (string)"),
        Failing(
            name: "string date", extra: #", "expiresDate": "soon""#, code: .invalidField,
            message: "field 'expiresDate': expected integer, found 'soon' (string)"),
        Failing(
            name: "fractional date", extra: #", "purchaseDate": 1.5"#, code: .invalidField,
            message: "field 'purchaseDate': expected integer, found 1.5 (number)"),
        Failing(
            name: "instant before 2007", extra: #", "purchaseDate": 0"#, code: .invalidField,
            message: "field 'purchaseDate': expected an instant from 2007-01-01 to 9999-12-31 (epoch ms), found 0"),
        Failing(
            name: "instant past 9999", extra: #", "expiresDate": 9223372036854775807"#, code: .invalidField,
            message: "field 'expiresDate': expected an instant from 2007-01-01 to 9999-12-31 (epoch ms), found 9223372036854775807"),
        Failing(
            name: "most negative instant", extra: #", "revocationDate": -9223372036854775808"#, code: .invalidField,
            message: "field 'revocationDate': expected an instant from 2007-01-01 to 9999-12-31 (epoch ms), found -9223372036854775808"),
        Failing(
            name: "commitment field of the wrong type", extra: #", "commitmentInfo": {"billingPeriodNumber": "one"}"#,
            code: .invalidField, message: "field 'commitmentInfo.billingPeriodNumber': expected integer, found 'one' (string)"),
        Failing(
            name: "commitment that is not an object", extra: #", "commitmentInfo": 5"#, code: .invalidField,
            message: "field 'commitmentInfo': expected object, found 5 (integer)"),
        Failing(
            name: "absent product", extra: #", "productId": null"#, code: .missingField, message: "required field 'productId' is absent"),
        Failing(
            name: "subscription without expiry", extra: #", "expiresDate": null"#, code: .missingField,
            message: "required field 'expiresDate' is absent"),
    ]

    @Test(arguments: failing)
    func payloadChecksGiveExactMessages(_ failing: Failing) throws {
        // Duplicate keys: the later one wins in lookups of bundleId/environment, the decoder reads both in order.
        let text = try Self.transaction(failing.extra)
        #expect(throws: RecordFailure(failing.code, failing.message)) {
            _ = try PayloadDecoder(app: Self.app).decode(text, as: failing.kind)
        }
    }

    /// A 12-month commitment billed monthly: the transaction's and renewal info's `commitmentInfo` decode to
    /// their Apple types; an unknown commitment billing plan is kept raw and warned.
    @Test func commitmentInfoDecodes() throws {
        let transaction = try Self.transaction(
            #", "billingPlanType": "BILLED_MONTHLY", "commitmentInfo": {"billingPeriodNumber": 3, "totalBillingPeriods": 12, "commitmentExpiresDate": 1800000000000, "commitmentPrice": 119880, "future": true}"#
        )
        let (decoded, _) = try PayloadDecoder(app: Self.app).decode(transaction, as: .transaction)
        guard case .transaction(let payload) = decoded else {
            Issue.record("not a transaction")
            return
        }
        #expect(payload.commitmentInfo?.billingPeriodNumber == 3 && payload.commitmentInfo?.totalBillingPeriods == 12)
        #expect(payload.commitmentInfo?.commitmentExpiresDate == 1_800_000_000_000 && payload.commitmentInfo?.commitmentPrice == 119_880)
        #expect(payload.commitmentInfo?.unknownFields.map(\.key) == ["future"])

        let renewal = try JSONParser.parse(
            #"{"originalTransactionId": "1", "signedDate": 1791000000000, "environment": "Sandbox", "commitmentInfo": {"commitmentAutoRenewStatus": 0, "commitmentRenewalBillingPlanType": "BILLED_WEEKLY", "commitmentRenewalDate": 1800000000000}}"#
        )
        let (decodedRenewal, warnings) = try PayloadDecoder(app: Self.app).decode(renewal, as: .renewalInfo)
        guard case .renewalInfo(let info) = decodedRenewal else {
            Issue.record("not a renewal info")
            return
        }
        #expect(info.commitmentInfo?.commitmentAutoRenewStatus == .off)
        #expect(info.commitmentInfo?.rawCommitmentRenewalBillingPlanType == "BILLED_WEEKLY")
        #expect(warnings.count == 1 && warnings.first?.contains("commitmentInfo.commitmentRenewalBillingPlanType") == true, "\(warnings)")
    }
}
