import Foundation
import WinbackAnalytics
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackIngest

/// What every stage of one `winback run` shares: the loaded config, the report calendar, the campaigns
/// with their signer and ledger, the lock held on the output directory, and the temporary directory the
/// day's files are written into before they are published.
struct RunContext {
    let options: RunOptions
    let loaded: LoadedConfig
    let calendar: ReportCalendar
    /// The reporting currency, its rates, commission and tax (docs/money.md).
    let money: MoneyContext
    /// The verified store (docs/verified-store.md); `nil` with `--no-store`.
    let store: VerifiedStore?
    let campaigns: [Campaign]
    /// The one-time code pools of the offer-code campaigns, by campaign id (docs/campaigns.md).
    let codePools: [String: OfferCodePool]
    let signer: OfferSigner?
    let ledger: OfferLedger?
    /// Held until the run ends: a second run on the same output exits 75 meanwhile.
    let lock: RunLock
    let publisher: Publisher
    /// Where the day's files are written; renamed into `dt=<D>` by the publish stage.
    let temporary: String

    var config: WinbackConfig { loaded.config }

    /// Reads and checks the config, computes the as-of day, loads the signing key and ledger when a campaign
    /// needs them, takes the output lock and clears leftovers of killed runs.
    static func prepare(_ options: RunOptions) throws -> RunContext {
        let loaded = try LoadedConfig.load(path: options.configPath)
        let config = loaded.config
        let cwd = FileManager.default.currentDirectoryPath
        let output = options.outputOverride.map { FileSystem.resolve($0, against: cwd) } ?? loaded.resolve(config.output)
        let calendar = try JobDay.calendar(config: config, asOf: options.asOf, now: options.now())
        let money = try loaded.moneyContext(calendar: calendar)
        var warnings: [String] = []
        let campaigns = try loaded.campaigns(warnings: &warnings)
        let codePools = try loaded.offerCodePools(campaigns)
        for (id, pool) in codePools.sorted(by: { $0.key < $1.key }) where pool.repeated > 0 {
            JobDay.warn("warning: campaign \(id): offer.codes repeats \(pool.repeated) codes; each is given once", isQuiet: options.isQuiet)
        }
        for warning in warnings { JobDay.warn(warning, isQuiet: options.isQuiet) }
        let signer =
            try campaigns.contains(where: \.isSigned)
            ? OfferSigner(
                key: InAppPurchaseKeyLoader.signingKey(loaded, environment: options.environment, warn: { JobDay.warn($0, isQuiet: false) }),
                bundleId: config.app.bundleId)
            : nil
        let ledgerPath = loaded.ledgerPath(override: options.ledgerOverride)
        let ledger = campaigns.isEmpty ? nil : try OfferLedger(path: ledgerPath, startedAt: JobDay.timestamp(options.now()))
        let storePath = loaded.storeDirectory(ledgerPath: ledgerPath)
        let store =
            options.usesStore
            ? try VerifiedStore(directory: storePath, verifierDigest: VerifiedStore.verifierDigest(loaded.ingestSettings)) : nil

        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw JobError.io(IOError(path: output, reason: "cannot create output directory (\(error.localizedDescription))"))
        }
        guard FileManager.default.isWritableFile(atPath: output) else {
            throw JobError.io(IOError(path: output, reason: "output directory is not writable"))
        }
        let lock: RunLock
        do {
            lock = try RunLock(outputDirectory: output, startedAt: JobDay.timestamp(options.now()))
        } catch {
            throw JobError(error)
        }
        let publisher = Publisher(outputDirectory: output, asOf: calendar.asOfLabel)
        publisher.removeLeftovers()
        return RunContext(
            options: options, loaded: loaded, calendar: calendar, money: money, store: store, campaigns: campaigns, codePools: codePools,
            signer: signer,
            ledger: ledger,
            lock: lock,
            publisher: publisher, temporary: try publisher.makeTemporaryDirectory())
    }

    /// A warning on stderr, unless `--quiet`.
    func warn(_ message: String) { JobDay.warn(message, isQuiet: options.isQuiet) }
}
