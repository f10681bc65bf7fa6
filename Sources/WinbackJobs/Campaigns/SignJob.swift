import Foundation
import WinbackAppStore
import WinbackCore
import WinbackCrypto

/// `winback sign`: re-signs the stored treatment offers of one campaign and day with a fresh timestamp and
/// nonce (a V1 signature is valid for 24 hours) without changing who was selected. The new offers replace
/// the stored ones in one ledger transaction and are printed as `offers.ndjson` lines.
public enum SignJob {
    /// The re-signed offers of `winback sign`.
    public struct Outcome: Sendable, CommandSummary {
        /// The new `offers.ndjson` lines.
        public var lines: [String]
        /// The summary for stdout.
        public var summary: JSONValue
    }

    /// Re-signs the stored treatment offers of `campaignId` for the as-of day with a fresh timestamp and nonce.
    public static func run(
        configPath: String, campaignId: String, asOf: String?, now: @escaping @Sendable () -> Date = { Date() },
        nonce: @escaping @Sendable () -> String = RandomNonce.make,
        environment: [String: String] = ProcessInfo.processInfo.environment, warn: (String) -> Void
    ) throws -> Outcome {
        let loaded = try LoadedConfig.load(path: configPath)
        let campaigns: [Campaign]
        do {
            campaigns = try CampaignParser.parse(loaded.config.campaigns)
        } catch {
            throw JobError.config(file: loaded.path, error)
        }
        guard let campaign = campaigns.first(where: { $0.id == campaignId }) else {
            throw JobError.usage(
                "--campaign: expected one of \(campaigns.map { "'\($0.id)'" }.joined(separator: ", ")), found '\(campaignId)'")
        }
        guard campaign.audience.isSigned else {
            throw JobError.usage("--campaign: '\(campaignId)' is a \(campaign.audience.rawValue) campaign, which is never signed")
        }
        guard campaign.offerKind == .promotional else {
            throw JobError.usage(
                campaign.offerKind == .offerCode
                    ? "--campaign: '\(campaignId)' offers offer codes, which are redeemed from their URL without a signature; there is nothing to sign"
                    : "--campaign: '\(campaignId)' offers Apple win-back offers, which StoreKit redeems without a signature; there is nothing to sign"
            )
        }
        let calendar = try JobDay.calendar(config: loaded.config, asOf: asOf, now: now())
        let signer = OfferSigner(
            key: try InAppPurchaseKeyLoader.signingKey(loaded, environment: environment, warn: warn), bundleId: loaded.config.app.bundleId)
        let ledger = try OfferLedger(path: loaded.resolve(loaded.config.ledger))
        let stored = try ledger.selections(campaign: campaign.id, asOf: calendar.asOfLabel)
        guard !stored.isEmpty else {
            throw JobError.usage(
                "no selections stored for campaign '\(campaign.id)' on \(calendar.asOfLabel); run `winback run --as-of \(calendar.asOfLabel)` first"
            )
        }
        var updated: [StoredSelection] = []
        var lines: [String] = []
        for var selection in stored where selection.variant == EligibleAccount.Variant.treatment.rawValue {
            guard let previous = selection.payload, let account = try? Self.account(from: previous, campaign: campaign) else { continue }
            let fresh = nonce().lowercased()
            let timestamp = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
            let line = try OfferLine.signed(account, campaign: campaign, signer: signer, nonce: fresh, timestampMilliseconds: timestamp)
            selection.nonce = fresh
            selection.timestampMilliseconds = timestamp
            selection.payload = line
            updated.append(selection)
            lines.append(line)
        }
        try ledger.updateOffers(updated)
        let summary = JSONText.object([
            ("command", .string("sign")), ("campaignId", .string(campaign.id)), ("asOf", .string(calendar.asOfLabel)),
            ("resigned", .integer(Int64(lines.count))),
        ])
        return Outcome(lines: lines, summary: summary)
    }

    /// The account a stored offer was made for (everything but the signatures, nonce and time).
    static func account(from line: String, campaign: Campaign) throws -> EligibleAccount {
        let value = try JSONParser.parse(line)
        func text(_ key: String) -> String? { value[key]?.stringValue }
        var account = EligibleAccount(
            campaignId: campaign.id, accountKey: text("accountKey") ?? "", originalTransactionId: text("originalTransactionId") ?? "",
            variant: .treatment, audience: campaign.audience, productId: text("productId") ?? "", offerIdentifier: text("offerIdentifier"),
            paidDays: 0, transactionId: text("transactionId") ?? "", appAccountToken: text("appAccountToken"))
        if case .array(let ids)? = value["eligibleWinBackOfferIds"] {
            account.eligibleWinBackOfferIds = ids.compactMap(\.value.stringValue)
        }
        return account
    }
}
