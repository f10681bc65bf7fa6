import Foundation

/// A command's options that hold its ``Effects``: the clock, waiting, jitter and nonces read (and set, in tests)
/// through the options themselves, forwarded once here.
public protocol EffectsHolding {
    /// The clock, waiting, jitter and nonces.
    var effects: Effects { get set }
}

extension EffectsHolding {
    /// The wall clock (``Effects/now``).
    public var now: @Sendable () -> Date {
        get { effects.now }
        set { effects.now = newValue }
    }

    /// Waits between attempts (``Effects/sleep``).
    public var sleep: @Sendable (Double) async -> Void {
        get { effects.sleep }
        set { effects.sleep = newValue }
    }

    /// The backoff's jitter (``Effects/jitter``).
    public var jitter: @Sendable () -> Double {
        get { effects.jitter }
        set { effects.jitter = newValue }
    }

    /// A fresh nonce per signed offer (``Effects/nonce``).
    public var nonce: @Sendable () -> String {
        get { effects.nonce }
        set { effects.nonce = newValue }
    }
}
