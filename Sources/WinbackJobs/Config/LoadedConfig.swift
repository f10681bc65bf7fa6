import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIngest
import X509

/// A config file read, validated, with its paths resolved and its trust roots loaded.
public struct LoadedConfig: Sendable {
    /// The validated config.
    public var config: WinbackConfig
    /// The config file as given on the command line.
    public var path: String
    /// The directory config paths are relative to.
    public var directory: String
    /// The config file's bytes (for the manifest's digest).
    public var bytes: [UInt8]
    /// The trusted root certificates, loaded.
    public var roots: [Certificate]

    /// Reads and validates `path`: exit 74 if unreadable, 64 if invalid (naming the key).
    public static func load(path: String) throws(JobError) -> LoadedConfig {
        let bytes = try FileSystem.readAll(path)
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw .config(file: path, ConfigError(key: "(file)", message: "the file is empty; expected a JSON object"))
        }
        let config: WinbackConfig
        do {
            config = try WinbackConfig.parse(bytes)
        } catch {
            throw .config(file: path, error)
        }
        let absolute = FileSystem.resolve(path, against: FileManager.default.currentDirectoryPath)
        let directory = (absolute as NSString).deletingLastPathComponent
        var roots: [Certificate] = []
        for (index, rootPath) in config.rootCertificates.enumerated() {
            let resolved = FileSystem.resolve(rootPath, against: directory)
            let rootBytes = try FileSystem.readAll(resolved)
            do {
                roots += try TrustedRoots.parse(rootBytes)
            } catch {
                throw .config(
                    file: path,
                    ConfigError(key: "trust.rootCertificates[\(index)]", message: "\(rootPath): \(error.description)"))
            }
        }
        return LoadedConfig(config: config, path: path, directory: directory, bytes: bytes, roots: roots)
    }

    /// The config's campaigns, checked as `winback run` checks them (64 naming the key); `warnings` gets
    /// what is allowed but suspicious. `winback verify` checks them too, so both commands accept the same configs.
    public func campaigns(warnings: inout [String]) throws(JobError) -> [Campaign] {
        do {
            return try CampaignParser.parse(config.campaigns, warnings: &warnings)
        } catch {
            throw JobError.config(file: path, error)
        }
    }

    /// The one-time code pools of the offer-code campaigns (docs/campaigns.md), by campaign id: a missing or unreadable
    /// file is 74 naming it, a malformed row 64 naming `file:line`. An offer-code campaign needs
    /// `app.appAppleId` (its redemption URLs carry it): 64 naming both when it is missing.
    public func offerCodePools(_ campaigns: [Campaign]) throws(JobError) -> [String: OfferCodePool] {
        var pools: [String: OfferCodePool] = [:]
        for campaign in campaigns where campaign.offerKind == .offerCode {
            guard config.app.appAppleId != nil else {
                throw .config(
                    file: path,
                    ConfigError(
                        key: "app.appAppleId",
                        message:
                            "expected the app's Apple ID (required by the offer-code campaign '\(campaign.id)': redemption URLs carry it), found none"
                    ))
            }
            guard let file = campaign.offerCodesFile else { continue }
            let bytes = try FileSystem.readAll(resolve(file))
            do {
                pools[campaign.id] = try OfferCodePool.parse(
                    String(decoding: bytes, as: UTF8.self), file: file, key: "campaigns ('\(campaign.id)').offer.codes")
            } catch {
                throw .config(file: path, error)
            }
        }
        return pools
    }

    /// How the run's money is reported: with `report.currency`, its rates file read and parsed (days in
    /// `calendar`'s time zone): exit 74 if unreadable, 64 naming `file:line` of a malformed row.
    public func moneyContext(calendar: ReportCalendar) throws(JobError) -> MoneyContext {
        let settings = config.report.money
        guard let currency = settings.currency, let file = settings.exchangeRatesFile else {
            return MoneyContext(settings: settings, rates: nil)
        }
        let bytes = try FileSystem.readAll(resolve(file))
        do {
            let rates = try ExchangeRates.parse(
                String(decoding: bytes, as: UTF8.self), file: file, reportingCurrency: currency, calendar: calendar)
            return MoneyContext(settings: settings, rates: rates)
        } catch {
            throw .config(file: path, error)
        }
    }

    /// What the ingest needs of this config: the app, the trusted roots, `acceptUnsignedPayloads`, `report.maxLineBytes`.
    public var ingestSettings: IngestSettings {
        IngestSettings(
            app: config.app, roots: roots, acceptUnsignedPayloads: config.acceptUnsignedPayloads,
            maximumLineBytes: config.report.maxLineBytes)
    }

    /// A config path resolved against the config's directory.
    public func resolve(_ path: String) -> String { FileSystem.resolve(path, against: directory) }

    /// The ledger's path: `override` (relative to the current directory; tests) or the config's `ledger`.
    package func ledgerPath(override: String?) -> String {
        override.map { FileSystem.resolve($0, against: FileManager.default.currentDirectoryPath) } ?? resolve(config.ledger)
    }

    /// The verified store's directory: the config's `store`, else `verified/` beside the ledger.
    func storeDirectory(ledgerPath: String) -> String {
        config.store.map(resolve) ?? ((ledgerPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("verified")
    }
}
