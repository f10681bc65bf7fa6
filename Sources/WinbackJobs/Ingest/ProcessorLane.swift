import Synchronization
import WinbackCore
import WinbackCrypto

/// What one verifying worker keeps to itself: its header-cache copies (``HeaderLane``) and its tables in
/// front of the compactor (``CompactorLane``, inside its own ``FastPayloadDecoder``). A worker checks a
/// lane out of the ``Pool`` for a batch and returns it after, so a lane is used by one task at a time and
/// there are about as many lanes as batches verified at once.
final class ProcessorLane: @unchecked Sendable {
    let headers = HeaderLane()
    let fast: FastPayloadDecoder

    init(app: AppIdentity, compactor: PayloadCompactor) {
        fast = FastPayloadDecoder(app: app, compactor: compactor, lane: CompactorLane())
    }

    /// The lanes not in use.
    final class Pool: Sendable {
        private let idle = Mutex<[ProcessorLane]>([])
        private let app: AppIdentity
        private let compactor: PayloadCompactor

        init(app: AppIdentity, compactor: PayloadCompactor) {
            self.app = app
            self.compactor = compactor
        }

        /// The signature-check timings of every lane (call when none is in use).
        func signatureClock() -> SignatureClock {
            idle.withLock { lanes in
                let total = SignatureClock()
                for lane in lanes { total.add(lane.headers.clock) }
                return total
            }
        }

        /// Runs `body` with a lane no other task holds meanwhile.
        func withLane<T>(_ body: (ProcessorLane) async -> T) async -> T {
            let lane = idle.withLock { $0.popLast() } ?? ProcessorLane(app: app, compactor: compactor)
            let result = await body(lane)
            idle.withLock { $0.append(lane) }
            return result
        }
    }
}
