import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIngest

/// docs/notifications-and-commitments.md's notification events: one per `notificationUUID`, `events_daily`, `auto_renew_disabled_at`,
/// the retention rule on it, and the Get Notification History document.
@Suite struct NotificationEventTests {
    static let calendar = ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 11, day: 19)

    static func at(_ day: Int, hour: Int64 = 12) -> Int64 {
        InstantFormat.days(year: 2026, month: 11, day: Int64(day)) * InstantFormat.day + hour * 3_600_000
    }

    static func event(_ uuid: String, _ type: String, _ subtype: String?, _ signedDate: Int64, _ subscription: String? = "s1")
        -> NotificationEvent
    {
        NotificationEvent(
            notificationUUID: uuid, notificationType: type, subtype: subtype, signedDate: signedDate, originalTransactionId: subscription)
    }

    /// The worked example of ``EventsDailyReport``, with a copy of one notification (same UUID) and one after `T`.
    @Test func eventsDailyCountsEachNotificationOnceByDayTypeAndSubtype() throws {
        let calendar = try #require(Self.calendar)
        var store = Deduplicator()
        for event in [
            Self.event("a", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", Self.at(18)),
            Self.event("b", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", Self.at(18, hour: 23)),
            Self.event("a", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", Self.at(18)),
            Self.event("c", "SUBSCRIBED", "RESUBSCRIBE", Self.at(19)),
            Self.event("d", "TEST", nil, Self.at(19), nil),
            Self.event("e", "SUBSCRIBED", "RESUBSCRIBE", Self.at(20)),
            // A UUID's copy in capitals is the same notification.
            Self.event("0F8E3A52-3F4E-4D2B-9F33-6F1D2E8B7C11", "TEST", nil, Self.at(17), nil),
            Self.event("0f8e3a52-3f4e-4d2b-9f33-6f1d2e8b7c11", "TEST", nil, Self.at(17), nil),
        ] {
            store.add(.notification(event))
        }
        #expect(store.duplicates == 0)
        let events = store.takeNotificationEvents()
        #expect(events.count == 6)
        #expect(
            Set(events.map(\.key))
                == Set(["a", "b", "c", "d", "e", "0f8e3a52-3f4e-4d2b-9f33-6f1d2e8b7c11"].map(NotificationEvent.Key.init)))
        #expect(
            EventsDailyReport.rows(events, calendar: calendar).map { CSVFormat.line($0.cells) } == [
                "2026-11-17,TEST,,1\n", "2026-11-18,DID_CHANGE_RENEWAL_STATUS,AUTO_RENEW_DISABLED,2\n",
                "2026-11-19,SUBSCRIBED,RESUBSCRIBE,1\n", "2026-11-19,TEST,,1\n",
            ])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [NotificationEvent]
        var autoRenewStatus: Int32
        /// R's `commitmentInfo.commitmentAutoRenewStatus`; X is then in a 12-month commitment.
        var commitmentAutoRenewStatus: Int32? = nil
        var expected: Int64?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "turned off", events: [event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10))], autoRenewStatus: 0,
            expected: at(10)),
        Case(
            name: "the latest of two",
            events: [
                event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(3)),
                event("2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10)),
            ], autoRenewStatus: 0, expected: at(10)),
        Case(
            name: "turned back on later",
            events: [
                event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10)),
                event("2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", at(12)),
            ], autoRenewStatus: 0, expected: nil),
        Case(
            name: "turned on before it was turned off",
            events: [
                event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", at(5)),
                event("2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10)),
            ], autoRenewStatus: 0, expected: at(10)),
        Case(
            name: "R says auto-renew is on", events: [event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10))],
            autoRenewStatus: 1, expected: nil),
        Case(
            name: "after T", events: [event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(20))], autoRenewStatus: 0,
            expected: nil),
        Case(
            name: "a commitment that will not renew (its instalments go on)",
            events: [event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10))], autoRenewStatus: 1,
            commitmentAutoRenewStatus: 0, expected: at(10)),
        Case(
            name: "a commitment that renews", events: [event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10))],
            autoRenewStatus: 0, commitmentAutoRenewStatus: 1, expected: nil),
        Case(
            name: "another subscription", events: [event("1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(10), "s2")],
            autoRenewStatus: 0, expected: nil),
    ]

    /// `auto_renew_disabled_at` and the retention rule `maxDaysSinceAutoRenewDisabled` on it.
    @Test(arguments: cases)
    func autoRenewDisabledAt(_ example: Case) throws {
        let calendar = try #require(Self.calendar)
        let commitment = example.commitmentAutoRenewStatus.map { _ in
            TransactionCommitmentInfo(billingPeriodNumber: 2, commitmentExpiresDate: Self.at(29), totalBillingPeriods: 12)
        }
        let transaction = SubscriptionTransaction(
            transactionId: "t1", originalTransactionId: "s1", productId: "m", purchaseDate: Self.at(1), expiresDate: Self.at(28),
            offerType: nil, inAppOwnershipType: "PURCHASED", commitment: commitment)
        let renewal = RenewalState(
            originalTransactionId: "s1", autoRenewStatus: example.autoRenewStatus,
            commitmentAutoRenewStatus: example.commitmentAutoRenewStatus)
        var model = SubscriptionModel(
            transactions: [transaction], renewals: ["s1": renewal],
            asOf: calendar.asOf, gracePeriodDays: 0)
        model.attach(example.events)
        #expect(model.timelines.first?.autoRenewDisabledAt == example.expected)
        let row = SubscriptionsReport.Row(try #require(model.timelines.first)).cells
        #expect((row.last ?? nil) == example.expected.map { InstantFormat.iso8601(milliseconds: $0) })

        // Nine whole days from the 10th (12:00) to T (the 20th): within 9, not within 8.
        var rules = CampaignRules()
        rules.maxDaysToExpiry = 30
        let selector = CampaignSelector(holdoutBucket: { _ in 9_999 })
        for (maxDays, reaches) in [(9 as Int64, example.expected == Self.at(10)), (8, false)] {
            rules.maxDaysSinceAutoRenewDisabled = maxDays
            let campaign = Campaign(id: "r", audience: .retention, offerIdentifier: "o", rules: rules, signatures: [.v2])
            let selected = selector.select(campaign, timelines: model.timelines, asOf: calendar.asOf, coolingDown: [])
            #expect(selected.count == (reaches ? 1 : 0), "max \(maxDays)")
        }
    }

    /// A Get Notification History response: a notification at each `notificationHistory[i].signedPayload`.
    @Test func notificationHistoryDocumentsHoldNotifications() async {
        let document = """
            {"notificationHistory": [
              {"sendAttemptResults": [{"attemptDate": 1, "sendAttemptResult": "SUCCESS"}], "signedPayload": "a.b.c"},
              {"signedPayload": 7},
              {"other": 1}
            ], "hasMore": false, "paginationToken": "p"}
            """
        let records = await DocumentReader.records(of: Array(document.utf8), source: "n.json")
        let summary = records.map { record -> String in
            let content: String =
                switch record.content {
                case .signed(let jws, let kind): "signed \(kind.rawValue) \(jws.string)"
                case .decoded: "decoded"
                case .failure(let failure): failure.code.rawValue
                }
            return "\(record.location.line) \(record.location.path ?? "-") \(content)"
        }
        #expect(
            summary == [
                "2 notificationHistory[0].signedPayload signed notification a.b.c", "3 notificationHistory[1].signedPayload malformed_jws",
                "4 notificationHistory[2] unknown_shape",
            ])
    }
}
