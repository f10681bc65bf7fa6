import Foundation
import Synchronization
import WinbackCore
import WinbackCrypto

/// Signs a campaign's treatment offers on all cores, one clock read and one nonce per offer (nonces drawn
/// in account order); results are index-aligned with the accounts, so output order does not depend on scheduling.
enum OfferBatch {
    struct SignedOffer: Sendable {
        var nonce: String
        var timestamp: Int64
        var line: String
    }

    /// `nil` for holdout accounts.
    static func sign(
        _ accounts: [EligibleAccount], campaign: Campaign, signer: OfferSigner, now: @escaping @Sendable () -> Date,
        nonce: @escaping @Sendable () -> String
    ) throws -> [SignedOffer?] {
        // Nonces are drawn in account order before the parallel part, so a deterministic nonce source
        // (tests) gives the same offer the same nonce whatever the scheduling.
        let nonces = accounts.map { $0.variant == .treatment ? nonce().lowercased() : "" }
        let results = Mutex<[Int: Result<SignedOffer, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: accounts.count) { index in
            let account = accounts[index]
            guard account.variant == .treatment else { return }
            let result = Result { () throws -> SignedOffer in
                let fresh = nonces[index]
                let timestamp = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
                let line = try OfferLine.make(account, campaign: campaign, signer: signer, nonce: fresh, timestampMilliseconds: timestamp)
                return SignedOffer(nonce: fresh, timestamp: timestamp, line: line)
            }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { results in try accounts.indices.map { index in try results[index]?.get() } }
    }
}
