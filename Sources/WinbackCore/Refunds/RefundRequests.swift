import WinbackAnalytics
import WinbackAppStore

/// The refund requests of a model (docs/refunds.md): each `CONSUMPTION_REQUEST` signed before `T`, one per
/// `notificationUUID`, with what the model knows of its transaction, its account and its outcome.
public enum RefundRequests {
    /// `CONSUMPTION_REQUEST`.
    public static let requestType = "CONSUMPTION_REQUEST"

    /// Every request of `model` signed before its `T`, ordered by `notificationUUID` (code points). Amounts are
    /// converted by `money` (docs/money.md).
    public static func collect(_ model: SubscriptionModel, money: MoneyContext) -> [RefundRequest] {
        let asOf = model.asOf
        let events = model.notificationEvents.filter { $0.signedDate < asOf }
        let asked = events.filter { $0.notificationType == requestType }
        guard !asked.isEmpty else { return [] }
        // Apple's decisions by transaction: the latest REFUND or REFUND_DECLINED of each.
        var decisions: [CompactIdentifier: [NotificationEvent]] = [:]
        for event in events where event.notificationType == "REFUND" || event.notificationType == "REFUND_DECLINED" {
            guard let transaction = event.transaction else { continue }
            decisions[transaction, default: []].append(event)
        }
        let wanted = Set(asked.compactMap(\.subscription))
        var timelines: [CompactIdentifier: SubscriptionTimeline] = [:]
        for timeline in model.timelines {
            let id = CompactIdentifier(timeline.originalTransactionId)
            if wanted.contains(id) { timelines[id] = timeline }
        }
        // Every account with a request: its refunded transactions (signed date, revocation date).
        let accounts = Set(timelines.values.map(\.accountKey))
        var refunds: [String: [(signed: Int64, revoked: Int64)]] = [:]
        for timeline in model.timelines {
            let hasRevocation = timeline.transactions.indices.contains { timeline.revocation($0) != nil }
            guard hasRevocation else { continue }
            let key = timeline.accountKey
            guard accounts.contains(key) else { continue }
            for index in timeline.transactions.indices {
                guard let revoked = timeline.revocation(index) else { continue }
                refunds[key, default: []].append((timeline.transactions[index].signedDate, revoked))
            }
        }
        var requests = asked.map { event in
            request(
                event, timeline: event.subscription.flatMap { timelines[$0] }, refunds: refunds,
                decisions: event.transaction.flatMap { decisions[$0] } ?? [], money: money)
        }
        requests.sort { CodePointOrder.less($0.notificationUUID, $1.notificationUUID) }
        return requests
    }

    /// One request's facts.
    static func request(
        _ event: NotificationEvent, timeline: SubscriptionTimeline?, refunds: [String: [(signed: Int64, revoked: Int64)]],
        decisions: [NotificationEvent], money: MoneyContext
    ) -> RefundRequest {
        let at = event.signedDate
        var request = RefundRequest(
            notificationUUID: event.notificationUUID, transactionId: event.transactionId,
            originalTransactionId: event.originalTransactionId,
            reason: event.consumptionRequestReason, requestedAt: at)
        if let decision = decisions.filter({ $0.signedDate >= at }).max(by: { $0.signedDate < $1.signedDate }) {
            request.outcome = decision.notificationType == "REFUND" ? .refunded : .declined
            request.outcomeAt = decision.signedDate
        }
        guard let timeline else { return request }
        let key = timeline.accountKey
        request.accountKey = key
        request.appAccountToken = timeline.latest.appAccountToken.map(ByteSpelling.lowercased)
        request.paidDays = timeline.paidDays(before: at)
        request.priorRefunds = Int64((refunds[key] ?? []).filter { $0.signed < at && $0.revoked < at }.count)
        guard let transactionId = event.transaction,
            let index = timeline.transactions.firstIndex(where: { $0.transactionIdentifier == transactionId })
        else { return request }
        let transaction = timeline.transactions[index]
        request.productId = transaction.productId
        request.storefront = transaction.storefront
        request.daysSincePurchase = InstantFormat.floorDivide(at - transaction.purchaseDate, InstantFormat.day)
        request.isDelivered = timeline.revocation(index) == nil
        request.hadFreeTrialBefore = timeline.transactions[..<index].contains {
            $0.offerType == 1 && $0.offerDiscountType == "FREE_TRIAL" && $0.purchaseDate < transaction.purchaseDate
        }
        if request.outcome == .refunded,
            let refund = timeline.moneyEvents(money).first(where: { $0.kind == .refund && $0.transaction == index }),
            let amount = refund.amount
        {
            request.refundAmount = amount
            request.currency = money.settings.currency ?? transaction.currency
        }
        return request
    }
}
