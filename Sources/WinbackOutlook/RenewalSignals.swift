import WinbackAnalytics

/// What the notifications said of one subscription's renewal, in time order (docs/renewal-outlook.md): when the
/// customer turned auto-renew off or on, and when a price increase became pending or was accepted. Read at any
/// instant, they give the state then — the only record of it for a renewal in the past.
public struct RenewalSignals: Sendable {
    /// One change and when it was signed (epoch ms).
    struct Change: Sendable {
        var at: Int64
        var isAutoRenewChange: Bool
        /// Auto-renew on (for an auto-renew change) or the price increase pending (for a price-increase one).
        var value: Bool
    }

    private var changes: [Change] = []

    /// Every subscription's signals among `events` signed before `cut` (the notifications a run knows at `cut`).
    public static func of(_ events: [NotificationEvent], before cut: Int64) -> [CompactIdentifier: RenewalSignals] {
        var signals: [CompactIdentifier: RenewalSignals] = [:]
        for event in events where event.signedDate < cut {
            guard let subscription = event.subscription else { continue }
            let change: Change
            if event.turnsAutoRenewOff {
                change = Change(at: event.signedDate, isAutoRenewChange: true, value: false)
            } else if event.turnsAutoRenewOn {
                change = Change(at: event.signedDate, isAutoRenewChange: true, value: true)
            } else if event.notificationType == "PRICE_INCREASE", let subtype = event.subtype {
                change = Change(at: event.signedDate, isAutoRenewChange: false, value: subtype == "PENDING")
            } else {
                continue
            }
            signals[subscription, default: RenewalSignals()].changes.append(change)
        }
        // In time order; at one instant, a switch on before a switch off (as the model dates auto_renew_disabled_at)
        // and the price's notifications after the auto-renew ones — whatever order the events came in.
        for key in signals.keys {
            signals[key]?.changes.sort {
                ($0.at, $0.isAutoRenewChange ? 0 : 1, $0.value ? 0 : 1) < ($1.at, $1.isAutoRenewChange ? 0 : 1, $1.value ? 0 : 1)
            }
        }
        return signals
    }

    /// Auto-renew just before `instant`: the last switch signed before it (on when there was none).
    public func autoRenew(before instant: Int64) -> Bool {
        changes.last { $0.isAutoRenewChange && $0.at < instant }?.value ?? true
    }

    /// A price increase pending just before `instant`: the last price-increase notification since `since` says
    /// so (a pending increase of an earlier period has been applied or withdrawn by now).
    public func priceIncreasePending(before instant: Int64, since: Int64) -> Bool {
        changes.last { !$0.isAutoRenewChange && $0.at < instant && $0.at >= since }?.value ?? false
    }
}
