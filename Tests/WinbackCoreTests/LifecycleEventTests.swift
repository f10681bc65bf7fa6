import Testing
import WinbackAnalytics
import WinbackAppStore

/// Lifecycle events (docs/deliveries.md: Lifecycle events), hand-checked: `D` = 2026-04-10 (UTC).
/// Each subscription below has one event on `D` (or none, when it happened the day before or is Family Sharing).
@Suite struct LifecycleEventTests {
    static let day = InstantFormat.day
    static let start = InstantFormat.days(year: 2026, month: 4, day: 10) * day
    static let asOf = start + day
    static let hour: Int64 = 3_600_000

    static func transaction(
        _ id: String, _ original: String, purchase: Int64, expires: Int64, revocation: Int64? = nil, token: String? = nil,
        ownership: String = "PURCHASED", product: String = "monthly"
    ) -> SubscriptionTransaction {
        SubscriptionTransaction(
            transactionId: id, originalTransactionId: original, productId: product, purchaseDate: purchase, expiresDate: expires,
            revocationDate: revocation, appAccountToken: token, storefront: "FRA", inAppOwnershipType: ownership)
    }

    static func events(
        _ transactions: [SubscriptionTransaction], renewal: RenewalState? = nil, notifications: [NotificationEvent] = []
    ) -> [LifecycleEvent] {
        var model = SubscriptionModel(
            transactions: transactions, renewals: renewal.map { [$0.originalTransactionId: $0] } ?? [:], asOf: asOf, gracePeriodDays: 0)
        model.attach(notifications)
        return model.timelines.flatMap { LifecycleEvent.events(of: $0, since: start) }
    }

    @Test func aVoluntaryLapseOnTheDayIsOneExpiredEventWithItsReason() {
        let lapse = Self.start + 10 * Self.hour
        let events = Self.events(
            [
                Self.transaction("1", "o1", purchase: lapse - 60 * Self.day, expires: lapse - 30 * Self.day, token: "AB-CD"),
                Self.transaction("2", "o1", purchase: lapse - 30 * Self.day, expires: lapse, token: "AB-CD", product: "yearly"),
            ], renewal: RenewalState(originalTransactionId: "o1", autoRenewStatus: 0, expirationIntent: 1))
        #expect(
            events == [
                LifecycleEvent(
                    kind: .expired, occurredAt: lapse, originalTransactionId: "o1", accountKey: "ab-cd", appAccountToken: "ab-cd",
                    productId: "yearly", storefront: "FRA", reason: .voluntary)
            ])
        #expect(events.first?.identity == "subscription.expired:o1:\(lapse)")
        #expect(
            events.first?.line(id: "x")
                == #"{"id":"x","type":"subscription.expired","occurredAt":"2026-04-10T10:00:00.000Z","originalTransactionId":"o1","#
                + #""accountKey":"ab-cd","appAccountToken":"ab-cd","productId":"yearly","storefront":"FRA","reason":"voluntary"}"#)
    }

    @Test func aLapseTheDayBeforeIsNotTodays() {
        let events = Self.events(
            [Self.transaction("1", "o2", purchase: Self.start - 31 * Self.day, expires: Self.start - 1)],
            renewal: RenewalState(originalTransactionId: "o2", expirationIntent: 1))
        #expect(events.isEmpty)
    }

    @Test func aRefundIsRefundedAndEndsTheSpanWithReasonRefund() {
        let refund = Self.start + Self.hour
        let events = Self.events([
            Self.transaction("1", "o3", purchase: Self.start - 10 * Self.day, expires: Self.asOf + 20 * Self.day, revocation: refund)
        ])
        #expect(events.map(\.kind) == [.expired, .refunded] && events.allSatisfy { $0.occurredAt == refund })
        #expect(events[0].reason == .refund && events[1].reason == nil && events[1].accountKey == "o3" && events[1].appAccountToken == nil)
    }

    @Test func aReturnAfterALapseIsReactivated() {
        let back = Self.start + 5 * Self.hour
        let events = Self.events([
            Self.transaction("1", "o4", purchase: Self.start - 60 * Self.day, expires: Self.start - 30 * Self.day),
            Self.transaction("2", "o4", purchase: back, expires: back + 30 * Self.day, product: "yearly"),
        ])
        #expect(events.map(\.kind) == [.reactivated] && events[0].occurredAt == back && events[0].productId == "yearly")
    }

    @Test func aFailedRenewalInBillingRetryIsABillingIssueAndItsLapse() {
        let due = Self.start + 2 * Self.hour
        let events = Self.events(
            [Self.transaction("1", "o5", purchase: due - 30 * Self.day, expires: due)],
            renewal: RenewalState(originalTransactionId: "o5", autoRenewStatus: 1, isInBillingRetryPeriod: true))
        #expect(events.map(\.kind) == [.billingIssue, .expired] && events.allSatisfy { $0.occurredAt == due })
        #expect(events[1].reason == .billingRetry)
    }

    @Test func autoRenewTurnedOffByANotificationOnTheDay() {
        let off = Self.start + 3 * Self.hour
        let transactions = [Self.transaction("1", "o6", purchase: Self.start - 5 * Self.day, expires: Self.asOf + 25 * Self.day)]
        let renewal = RenewalState(originalTransactionId: "o6", autoRenewStatus: 0)
        let notification = NotificationEvent(
            notificationUUID: "n1", notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signedDate: off,
            originalTransactionId: "o6")
        let events = Self.events(transactions, renewal: renewal, notifications: [notification])
        #expect(events.map(\.kind) == [.autoRenewDisabled] && events[0].occurredAt == off)
        // Turned back on later the same day: nothing to tell.
        let on = NotificationEvent(
            notificationUUID: "n2", notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED", signedDate: off + 1,
            originalTransactionId: "o6")
        #expect(
            Self.events(
                transactions, renewal: RenewalState(originalTransactionId: "o6", autoRenewStatus: 1), notifications: [notification, on]
            ).isEmpty)
    }

    @Test func familySharingHasNone() {
        let refund = Self.start + Self.hour
        #expect(
            Self.events([
                Self.transaction(
                    "1", "o7", purchase: Self.start - Self.day, expires: Self.asOf + Self.day, revocation: refund,
                    ownership: "FAMILY_SHARED")
            ]).isEmpty)
    }

    @Test func namesPerTool() {
        #expect(LifecycleEvent.Kind.autoRenewDisabled.segmentName == "Subscription Auto Renew Disabled")
        #expect(LifecycleEvent.Kind.expired.segmentName == "Subscription Expired")
        #expect(LifecycleEvent.Kind.billingIssue.brazeName == "subscription_billing_issue")
    }
}
