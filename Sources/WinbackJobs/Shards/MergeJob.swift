import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO
import WinbackIngest
import WinbackOutlook

/// `winback merge` (docs/sharding.md): the shards' partials checked (``PartialSet``), then combined without
/// holding the subscriptions: rejects and `subscriptions` rows streamed in a k-way merge (input order, key
/// order), the tables' counters added, campaigns selected over every shard's candidates (cooldown,
/// `maxOffers`, holdout), signing, the ledger (the merge is its single writer) and publishing `dt=<D>` — the
/// day a single machine would have published. Its memory grows with the campaign candidates and the
/// outcome cohorts, not with the subscriptions.
public enum MergeJob {
    /// Merges the partials in `partialDirectories` (relative to the current directory) into the run `options` describe.
    public static func run(_ options: RunOptions, partialDirectories: [String]) async throws -> RunJob.Outcome {
        var options = options
        options.usesStore = false
        options.summaryCommand = "merge"
        // The partials are checked before the run takes the output lock or opens the ledger: a refused
        // merge leaves nothing behind.
        let loaded = try LoadedConfig.load(path: options.configPath)
        let asOf = try JobDay.calendar(config: loaded.config, asOf: options.asOf, now: options.now()).asOfLabel
        let set = try PartialSet.load(partialDirectories, configSha256: HexDigest.string(SHA256.hash(data: loaded.bytes)), asOf: asOf)
        let context = try RunContext.prepare(options)
        defer { withExtendedLifetime(context.lock) {} }

        var ingested = RunJob.ingested(
            IngestResult(
                counts: set.partials.reduce(into: IngestCounts()) { $0.add($1.manifest.counts) }, deduplicated: Deduplicator(),
                inputs: set.inputs, inputWarnings: set.inputWarnings,
                filesFromStore: set.partials.reduce(0) { $0 + $1.manifest.filesFromStore }),
            rejects: try mergeRejects(set, context), context)

        let phase = PhaseProgress(phase: "reports", isQuiet: context.options.isQuiet)
        var tallies = ReportTallies()
        var members = TallyTable()
        var outlookPart = RenewalOutlook()
        for partial in set.partials {
            let (shardTallies, shardMembers, shardOutlook) = try readTallies(partial)
            tallies.add(shardTallies)
            members.add(shardMembers)
            outlookPart.add(shardOutlook)
        }
        ingested.outputs += try mergeSubscriptions(set, context, expected: tallies.subscriptions)
        var merged = RunReports(tallies, calendar: context.calendar, currency: context.money.settings.currency)
        merged.refundRequests = try RunJob.refundRows(try readRefundRequests(set), context)
        var reports = try RunJob.writeAggregateTables(
            merged, context,
            measuring: { cohorts in
                let digest = OutcomeCohorts.digest(cohorts)
                for partial in set.partials where partial.manifest.outcomeCohortsSha256 != digest {
                    throw JobError.usage(
                        "--partials: shard \(partial.manifest.shard) measured other campaign-outcome cohorts than the ledger "
                            + "\(context.ledger?.path ?? "") holds (was that ledger where the shards could read it?); run the shards "
                            + "again with the merge's ledger")
                }
                return members
            }, into: &ingested.outputs, phase: phase)

        // After the tables, as a run writes it (the manifest lists the files in the order written).
        ingested.outputs.append(try mergeLifecycleEvents(set, context))
        let outlook = try RenewalOutlookTable.write(
            outlookPart, facts: { body in try mergeOutlookFacts(set, body) }, context, into: &ingested.outputs)
        reports.renewalOutlook = outlook.summary
        let candidates = try readCandidates(set, campaigns: context.campaigns)
        let campaigns = try RunJob.runCampaigns(
            { campaign in (candidates[campaign.id] ?? []).filter { outlook.admits($0, campaign) } }, context,
            isSigning: !ingested.isOverThreshold, into: &ingested.outputs)
        return try RunJob.publish(ingested, reports: reports, campaigns: campaigns, context)
    }

    /// `rejects.ndjson.gz`: the shards' rejects in input order (file, line, index on the line), a k-way merge.
    private static func mergeRejects(_ set: PartialSet, _ context: RunContext) throws -> OutputStats {
        let writer = try ReportFileWriter(directory: context.temporary, schema: ReportSchema.rejects, isCSV: false)
        let isVerbose = context.options.isVerbose
        let readers = try set.partials.map { partial throws(JobError) in try partial.records(PartialManifest.rejectsFile) }
        func next(_ shard: Int) throws -> (key: [Int], fields: [[UInt8]])? {
            guard let fields = try readers[shard].next(fields: 5) else { return nil }
            let key = fields[0..<3].compactMap { Int(String(decoding: $0, as: UTF8.self)) }
            guard key.count == 3 else {
                throw JobError.io(IOError(path: set.partials[shard].directory, reason: "unusable partial file: a reject without its place"))
            }
            return (key, fields)
        }
        var heads = try readers.indices.map(next)
        var read = [Int](repeating: 0, count: readers.count)
        while let shard = smallest(heads, by: { $0.key.lexicographicallyPrecedes($1.key) }), let head = heads[shard] {
            try writer.write(line: String(decoding: head.fields[3], as: UTF8.self) + "\n")
            if isVerbose { Diagnostics.logger.debug("\(String(decoding: head.fields[4], as: UTF8.self))") }
            read[shard] += 1
            heads[shard] = try next(shard)
        }
        // The rejects as read must be the ones the shard counted: another shard's file copied in is refused.
        for (shard, partial) in set.partials.enumerated() where read[shard] != partial.manifest.counts.rejected {
            throw JobError.io(
                IOError(
                    path: partial.directory + "/" + PartialManifest.rejectsFile,
                    reason: "holds \(read[shard]) rejects where partial.json counts \(partial.manifest.counts.rejected) "
                        + "(a file of another shard or run)"))
        }
        return try writer.finish()
    }

    /// `subscriptions` (and its Parquet twin): the shards' rows in `originalTransactionId` order, a k-way merge.
    /// A subscription in two partials (a relabelled or copied partial) exits 74: a subscription belongs to one shard.
    private static func mergeSubscriptions(_ set: PartialSet, _ context: RunContext, expected: Int) throws -> [OutputStats] {
        let writer = try TableWriter(
            .subscriptions, directory: context.temporary, formats: context.config.report.formats, expectedRows: expected)
        let readers = try set.partials.map { partial throws(JobError) in try partial.records(PartialManifest.subscriptionsFile) }
        let columns = ReportSchema.subscriptions.columns.count
        func next(_ shard: Int) throws(JobError) -> (id: CompactIdentifier, text: String, row: EncodedRow)? {
            guard let fields = try readers[shard].next(fields: 2) else { return nil }
            let text = String(decoding: fields[0], as: UTF8.self)
            guard let row = EncodedRow(validating: fields[1], columns: columns) else {
                throw JobError.io(
                    IOError(
                        path: set.partials[shard].directory + "/" + PartialManifest.subscriptionsFile,
                        reason: "the row of subscription \(text) is not \(columns) encoded cells"))
            }
            return (CompactIdentifier(text), text, row)
        }
        var heads = try readers.indices.map(next)
        var previous: (id: CompactIdentifier, shard: Int)?
        var written = 0
        while let shard = smallest(heads, by: { CompactIdentifier.precedes($0.id, $1.id) }), let head = heads[shard] {
            if let previous, previous.id == head.id {
                throw JobError.io(
                    IOError(
                        path: set.partials[shard].directory + "/" + PartialManifest.subscriptionsFile,
                        reason: "subscription \(head.text) is also in shard \(set.partials[previous.shard].manifest.shard)'s partial: "
                            + "a subscription belongs to one shard"))
            }
            previous = (head.id, shard)
            try Self.checkOwner(head.text, of: set.partials[shard], file: PartialManifest.subscriptionsFile)
            try writer.write(head.row)
            written += 1
            heads[shard] = try next(shard)
        }
        guard written == expected else {
            throw JobError.io(
                IOError(path: set.partials[0].directory, reason: "the partials hold \(written) subscriptions, their tallies \(expected)"))
        }
        return try writer.finish()
    }

    /// Refuses (74) a subscription that is not `partial`'s own by the shard rule: a record file copied from
    /// another shard, whatever digest `partial.json` was given for it.
    private static func checkOwner(_ originalTransactionId: String, of partial: PartialSet.Partial, file: String) throws(JobError) {
        let shard = ShardRule.shard(ofOwner: Array(originalTransactionId.utf8), count: partial.manifest.shard.count)
        guard shard != partial.manifest.shard.index else { return }
        throw .io(
            IOError(
                path: partial.directory + "/" + file,
                reason: "subscription \(originalTransactionId) belongs to shard \(shard), not shard \(partial.manifest.shard.index) "
                    + "(a file of another shard copied in)"))
    }

    /// The shard whose head sorts first (the lowest shard on a tie); `nil` when every shard is done.
    private static func smallest<Head>(_ heads: [Head?], by precedes: (Head, Head) -> Bool) -> Int? {
        var best: Int? = nil
        for index in heads.indices {
            guard let head = heads[index] else { continue }
            if let current = best, let bestHead = heads[current], !precedes(head, bestHead) { continue }
            best = index
        }
        return best
    }

    /// `lifecycle_events.ndjson.gz`: every shard's events of the day, in file order (a day's events are few: they are
    /// gathered, then sorted).
    private static func mergeLifecycleEvents(_ set: PartialSet, _ context: RunContext) throws -> OutputStats {
        var events: [(occurredAt: Int64, type: String, originalTransactionId: String, line: String)] = []
        for partial in set.partials {
            let reader = try partial.records(PartialManifest.eventsFile)
            while let fields = try reader.next(fields: 4) {
                let text = fields.map { String(decoding: $0, as: UTF8.self) }
                guard let occurredAt = Int64(text[0]) else {
                    throw JobError.io(
                        IOError(
                            path: partial.directory + "/" + PartialManifest.eventsFile,
                            reason: "unusable partial file: an event without its instant"))
                }
                try checkOwner(text[2], of: partial, file: PartialManifest.eventsFile)
                events.append((occurredAt, text[1], text[2], text[3]))
            }
        }
        events.sort { lhs, rhs in
            if lhs.occurredAt != rhs.occurredAt { return lhs.occurredAt < rhs.occurredAt }
            if lhs.type != rhs.type { return lhs.type < rhs.type }
            return CodePointOrder.less(lhs.originalTransactionId, rhs.originalTransactionId)
        }
        return try LifecycleEventsFile.write(events.lazy.map(\.line), directory: context.temporary)
    }

    /// Every shard's refund requests, ordered by `notificationUUID` as one machine orders them (a request is in
    /// one shard: a copy in two is refused, 74).
    private static func readRefundRequests(_ set: PartialSet) throws -> [RefundRequest] {
        var requests: [RefundRequest] = []
        var seen: Set<String> = []
        for partial in set.partials {
            let path = partial.directory + "/" + PartialManifest.refundsFile
            let reader = try partial.records(PartialManifest.refundsFile)
            while let fields = try reader.next(fields: 2) {
                guard let request = (try? JSONParser.parse(fields[1])).flatMap(RefundRequest.init(json:)) else {
                    throw JobError.io(IOError(path: path, reason: "unusable partial file: not a refund request"))
                }
                guard seen.insert(request.notificationUUID).inserted else {
                    throw JobError.io(IOError(path: path, reason: "refund request \(request.notificationUUID) is in two partials"))
                }
                requests.append(request)
            }
        }
        requests.sort { CodePointOrder.less($0.notificationUUID, $1.notificationUUID) }
        return requests
    }

    /// The shards' `renewal_outlook` facts in `originalTransactionId` order (a k-way merge), each handed to `body`.
    private static func mergeOutlookFacts(_ set: PartialSet, _ body: (RenewalFacts) throws -> Void) throws {
        let readers = try set.partials.map { partial throws(JobError) in try partial.records(PartialManifest.outlookFile) }
        func next(_ shard: Int) throws -> (id: CompactIdentifier, facts: RenewalFacts)? {
            guard let fields = try readers[shard].next(fields: 2) else { return nil }
            guard let facts = (try? JSONParser.parse(fields[1])).flatMap(RenewalFacts.init(json:)) else {
                throw JobError.io(
                    IOError(
                        path: set.partials[shard].directory + "/" + PartialManifest.outlookFile,
                        reason: "unusable partial file: not a renewal outlook row"))
            }
            try checkOwner(facts.originalTransactionId, of: set.partials[shard], file: PartialManifest.outlookFile)
            return (CompactIdentifier(facts.originalTransactionId), facts)
        }
        var heads = try readers.indices.map(next)
        while let shard = smallest(heads, by: { CompactIdentifier.precedes($0.id, $1.id) }), let head = heads[shard] {
            try body(head.facts)
            heads[shard] = try next(shard)
        }
    }

    /// A partial's ``ReportTallies``, campaign-outcome members' tally and renewal outlook part.
    private static func readTallies(_ partial: PartialSet.Partial) throws(JobError) -> (ReportTallies, TallyTable, RenewalOutlook) {
        let reader = try partial.records(PartialManifest.talliesFile)
        guard let fields = try reader.next(fields: 3), try reader.next(fields: 3) == nil,
            let tallies = (try? JSONParser.parse(fields[0])).flatMap(ReportTallies.init(json:)),
            let members = (try? JSONParser.parse(fields[1])).flatMap(TallyTable.init(json:)),
            let outlook = (try? JSONParser.parse(fields[2])).flatMap(RenewalOutlook.init(json:))
        else {
            throw .io(
                IOError(path: partial.directory + "/" + PartialManifest.talliesFile, reason: "unusable partial file: not the tallies"))
        }
        return (tallies, members, outlook)
    }

    /// Every shard's campaign candidates, by campaign id (candidates of a campaign not in the config are refused).
    private static func readCandidates(_ set: PartialSet, campaigns: [Campaign]) throws(JobError) -> [String: [EligibleAccount]] {
        let byId = Dictionary(campaigns.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var candidates: [String: [EligibleAccount]] = [:]
        for partial in set.partials {
            let reader = try partial.records(PartialManifest.candidatesFile)
            while let fields = try reader.next(fields: 2) {
                let id = String(decoding: fields[0], as: UTF8.self)
                guard let campaign = byId[id], let account = CandidateRecord.account(fields[1], campaign: campaign) else {
                    throw .io(
                        IOError(
                            path: partial.directory + "/" + PartialManifest.candidatesFile,
                            reason: "unusable partial file: a candidate of campaign '\(id)' that this config does not read"))
                }
                try checkOwner(account.originalTransactionId, of: partial, file: PartialManifest.candidatesFile)
                candidates[id, default: []].append(account)
            }
        }
        return candidates
    }
}
