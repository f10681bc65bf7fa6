import Dispatch
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many connections `winback serve` keeps open, and which one makes room for a new one (docs/retention-messaging.md).
///
/// Idle clients must not lock Apple, a load balancer's `/healthz` or anyone else out: at the limit, a new
/// connection closes the connection that has gone longest without answering a request and is not being
/// answered now (an idle keep-alive client, a client trickling a request); only when every connection is being
/// answered is the new one turned away. The limit stays below the process's descriptor limit, so `accept` never
/// fails for want of descriptors.
final class ConnectionLimit: Sendable {
    private struct Entry {
        var channel: any Channel
        /// When the connection opened or last had a request answered (monotonic nanoseconds).
        var lastProgress: UInt64
        /// Requests of this connection being answered now.
        var answering: Int
    }

    /// The most connections open at once.
    let maximum: Int
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    private let evictions = Atomic<Int>(0)

    /// A limit of `maximum` connections.
    init(maximum: Int) {
        self.maximum = max(maximum, 1)
    }

    /// Connections open now.
    var open: Int { entries.withLock { $0.count } }
    /// Connections closed to make room so far.
    var evicted: Int { evictions.load(ordering: .relaxed) }

    /// Admits `channel`: at the limit, the stalest connection not being answered is closed to make room;
    /// `false` when every connection is being answered (the caller closes `channel`).
    func admit(_ channel: any Channel) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let (isAdmitted, victim): (Bool, (any Channel)?) = entries.withLock { entries in
            var victim: (any Channel)?
            if entries.count >= maximum {
                guard let stalest = entries.filter({ $0.value.answering == 0 }).min(by: { $0.value.lastProgress < $1.value.lastProgress })
                else { return (false, nil) }
                entries[stalest.key] = nil
                victim = stalest.value.channel
            }
            entries[ObjectIdentifier(channel)] = Entry(channel: channel, lastProgress: now, answering: 0)
            return (true, victim)
        }
        if let victim {
            evictions.add(1, ordering: .relaxed)
            victim.close(promise: nil)
        }
        if isAdmitted {
            channel.closeFuture.whenComplete { [weak self] _ in self?.remove(channel) }
        }
        return isAdmitted
    }

    /// A request of `channel` is being answered.
    func beginAnswer(_ channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)]?.answering += 1 }
    }

    /// A request of `channel` was answered.
    func endAnswer(_ channel: any Channel) {
        let now = DispatchTime.now().uptimeNanoseconds
        entries.withLock { entries in
            guard var entry = entries[ObjectIdentifier(channel)] else { return }
            entry.answering = max(entry.answering - 1, 0)
            entry.lastProgress = now
            entries[ObjectIdentifier(channel)] = entry
        }
    }

    private func remove(_ channel: any Channel) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The default limit: the process's descriptor limit (raised to its hard limit first) less 64 kept for
    /// files (the request log, a published day being read) and the listener, at least 16.
    static func defaultMaximum() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 960 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let descriptors = Int(min(limit.rlim_cur, 1 << 20))  // RLIM_INFINITY is the largest value: capped too
        return max(descriptors - 64, 16)
    }
}

/// The listener's handler: each accepted connection is admitted by the ``ConnectionLimit`` or closed at once.
final class AcceptHandler: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let limit: ConnectionLimit

    init(limit: ConnectionLimit) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let channel = unwrapInboundIn(data)
        guard limit.admit(channel) else {
            channel.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}
