import Synchronization

/// Remembers the `requestIdentifier` of every verified Retention Messaging request for 10 minutes, in this
/// process's memory (docs/retention-messaging.md): a second request with the same identifier in that time is a replay.
///
/// A UUID is kept as its 16 bytes, so 2 000 requests a second for 10 minutes (1.2 M identifiers) stay near
/// 60 MB; any other text is kept as it is.
final class ReplayGuard: Sendable {
    /// An identifier as remembered.
    private enum Key: Hashable {
        case uuid(UInt64, UInt64)
        case text(String)
    }

    private struct State {
        /// When each remembered identifier is forgotten, epoch milliseconds.
        var expiry: [Key: Int64] = [:]
        /// The identifiers in the order they arrived, with their expiry (the oldest first).
        var queue: [(key: Key, expiry: Int64)] = []
        var head = 0
    }

    /// How long an identifier is remembered, milliseconds.
    let windowMilliseconds: Int64
    private let state = Mutex(State())

    /// A guard remembering identifiers for `windowMilliseconds` (10 minutes unless given).
    init(windowMilliseconds: Int64 = 600_000) {
        self.windowMilliseconds = windowMilliseconds
    }

    /// Remembers `identifier` at `now` (epoch ms); `false` when it was already seen within the window.
    func admit(_ identifier: String, now: Int64) -> Bool {
        let key = Self.key(identifier)
        return state.withLock { state in
            while state.head < state.queue.count, state.queue[state.head].expiry <= now {
                let (old, expiry) = state.queue[state.head]
                if state.expiry[old] == expiry { state.expiry[old] = nil }
                state.head += 1
            }
            if state.head > 4096, state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            if let expiry = state.expiry[key], expiry > now { return false }
            let expiry = now + windowMilliseconds
            state.expiry[key] = expiry
            state.queue.append((key, expiry))
            return true
        }
    }

    /// The number of identifiers remembered now.
    var count: Int { state.withLock { $0.expiry.count } }

    private static func key(_ identifier: String) -> Key {
        let hex = identifier.utf8.filter { $0 != UInt8(ascii: "-") }
        guard identifier.utf8.count == 36, hex.count == 32 else { return .text(identifier) }
        var halves: (UInt64, UInt64) = (0, 0)
        for (index, byte) in hex.enumerated() {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return .text(identifier)
            }
            if index < 16 { halves.0 = halves.0 << 4 | UInt64(digit) } else { halves.1 = halves.1 << 4 | UInt64(digit) }
        }
        return .uuid(halves.0, halves.1)
    }
}
