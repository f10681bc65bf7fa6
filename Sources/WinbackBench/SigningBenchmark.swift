import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackJobs
import WinbackSampleData

/// `winback bench --offers N`: signs N offers (V1 + V2 each, as a win-back campaign would) and writes
/// them to a fresh ledger in one transaction; reports offers per second.
public enum SigningBenchmark {
    /// Signs `count` offers (V1 + V2) and records them in a fresh ledger in `directory`; returns a JSON line.
    public static func run(offers count: Int, seed: UInt64, directory: String) throws -> String {
        let key = InAppPurchaseKey(
            privateKey: try TestPKI.key(seed: seed, label: "in-app-purchase-key"), keyId: SampleDataGenerator.keyId,
            issuerId: SampleDataGenerator.issuerId)
        let signer = OfferSigner(key: key, bundleId: SampleDataGenerator.bundleId)
        let campaign = Campaign(id: "bench", audience: .winBack, offerIdentifier: "winback.monthly.50off", signatures: [.v1, .v2])
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ledger = try OfferLedger(path: directory + "/bench-ledger.sqlite")
        let start = DispatchTime.now().uptimeNanoseconds
        let accounts = (0..<count).map { index in
            EligibleAccount(
                campaignId: campaign.id, accountKey: "account-\(index)", originalTransactionId: String(2_000_000_000_000_000 + index),
                variant: .treatment,
                audience: .winBack, productId: "com.example.winback.monthly", offerIdentifier: campaign.offerIdentifier, paidDays: 90,
                transactionId: String(2_000_000_100_000_000 + index), appAccountToken: nil)
        }
        let offers = try OfferBatch.sign(
            accounts[...], campaign: campaign, signer: signer, now: { Date() }, nonce: RandomNonce.make)
        var selections: [StoredSelection] = []
        selections.reserveCapacity(count)
        for (account, offer) in zip(accounts, offers) {
            selections.append(
                StoredSelection(
                    campaignId: campaign.id, accountKey: account.accountKey, asOf: "2026-11-19",
                    originalTransactionId: account.originalTransactionId,
                    variant: "treatment", nonce: offer?.nonce, timestampMilliseconds: offer?.timestamp,
                    row: CSVFormat.line(account.row.cells),
                    payload: offer?.line))
        }
        let signed = DispatchTime.now().uptimeNanoseconds
        let runId = try ledger.beginRun(asOf: "2026-11-19", startedAt: "bench")
        try ledger.record(selections, runId: runId)
        let end = DispatchTime.now().uptimeNanoseconds
        let total = Double(end - start) / 1e9
        return JSONText.render(
            JSONText.object([
                ("benchmark", .string("signing")), ("offers", .integer(Int64(count))), ("signaturesPerOffer", .integer(2)),
                ("signSeconds", .double((Double(signed - start) / 1e7).rounded() / 100)),
                ("ledgerSeconds", .double((Double(end - signed) / 1e7).rounded() / 100)),
                ("offersPerSecond", .integer(Int64(Double(count) / total))),
            ]))
    }
}
