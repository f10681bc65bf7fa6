import Foundation
import Synchronization
import WinbackCore
import WinbackCrypto

/// Signs a campaign's treatment offers on all cores, one clock read and one nonce per offer (nonces drawn
/// in account order); results are index-aligned with the accounts, so output order does not depend on scheduling.
package enum OfferBatch {
    /// One signed treatment offer: its nonce, timestamp (epoch ms) and `offers.ndjson` line.
    package struct SignedOffer: Sendable {
        package var nonce: String
        package var timestamp: Int64
        package var line: String
    }

    /// `nil` for holdout accounts; one result per account, in order. The accounts are read where they are
    /// (a slice of the campaign's selection), not copied: each holds eight strings.
    package static func sign(
        _ accounts: ArraySlice<EligibleAccount>, campaign: Campaign, signer: OfferSigner, now: @escaping @Sendable () -> Date,
        nonce: @escaping @Sendable () -> String
    ) throws -> [SignedOffer?] {
        // Nonces are drawn in account order before the parallel part, so a deterministic nonce source
        // (tests) gives the same offer the same nonce whatever the scheduling.
        let nonces = accounts.map { $0.variant == .treatment ? nonce().lowercased() : "" }
        let results = Mutex<[Int: Result<SignedOffer, any Error>]>([:])
        let first = accounts.startIndex
        // Synchronous on purpose, not a task group: offers are signed inside the ledger's write transaction
        // (GRDB's `write` takes a synchronous closure, and a crash while signing must store nothing), so the
        // caller cannot await; concurrentPerform is the synchronous way onto every core.
        DispatchQueue.concurrentPerform(iterations: accounts.count) { offset in
            guard accounts[first + offset].variant == .treatment else { return }
            let result = Result { () throws -> SignedOffer in
                let fresh = nonces[offset]
                let timestamp = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
                let line = try OfferLine.signed(
                    accounts[first + offset], campaign: campaign, signer: signer, nonce: fresh, timestampMilliseconds: timestamp)
                return SignedOffer(nonce: fresh, timestamp: timestamp, line: line)
            }
            results.withLock { $0[offset] = result }
        }
        return try results.withLock { results in try (0..<accounts.count).map { offset in try results[offset]?.get() } }
    }
}
