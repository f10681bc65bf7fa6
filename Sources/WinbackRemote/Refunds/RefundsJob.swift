import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO
import WinbackJobs

/// `winback refunds` (docs/refunds.md), meant hourly: ingests like `winback run`, decides every
/// `CONSUMPTION_REQUEST` the ledger has not answered by the config's `refunds` policies and overrides, and
/// answers it through Send Consumption Information (`PUT /inApps/v2/transactions/consumption/{transactionId}`)
/// while it is younger than 12 hours — recorded in the ledger before the answer goes out and after, so a re-run
/// never sends an answered request again. Older requests are recorded `late`, `NO_RESPONSE` ones `no_response`.
public enum RefundsJob {
    /// Runs the job; throws a ``JobError`` with the exit code of docs/refunds.md (64, 74, 75, 76, 77).
    public static func run(_ options: RefundsOptions, log: @escaping @Sendable (String) -> Void) async throws -> RefundsOutcome {
        let loaded = try LoadedConfig.load(path: options.configPath)
        guard let settings = loaded.config.refunds else {
            throw JobError.config(
                file: loaded.path,
                ConfigError(key: "refunds", message: "required by winback refunds (customerConsented, policies), found none"))
        }
        let overrides = try overrides(settings, loaded: loaded)
        let now = options.now()
        let calendar = try JobDay.today(config: loaded.config, now: now)
        let ledgerPath = loaded.ledgerPath(override: options.ledgerOverride)
        // Everything that can be refused is checked before the ingest: the key and the `api` block.
        let client = options.isDryRun ? nil : try ClientSetup(loaded, options: options, log: log)
        let (model, _) = try await CurrentModel.build(
            loaded, calendar: calendar, ledgerPath: ledgerPath, usesStore: options.usesStore, isQuiet: options.isQuiet)
        let requests = RefundRequests.collect(model, money: try loaded.moneyContext(calendar: calendar)).sorted {
            ($0.requestedAt, $0.notificationUUID) < ($1.requestedAt, $1.notificationUUID)
        }
        var outcome = RefundsOutcome(requests: requests.count, isDryRun: options.isDryRun)
        guard let client else {
            let answers = try OfferLedger.refundAnswers(path: ledgerPath)
            for request in requests {
                let action = plan(request, answer: answers[request.notificationUUID], settings: settings, overrides: overrides, now: now)
                count(action, into: &outcome)
                options.printLine(JSONText.render(action.json(request)))
            }
            return outcome
        }
        let ledger = try OfferLedger(path: ledgerPath, startedAt: JobDay.timestamp(now))
        let answers = try ledger.refundAnswers()
        outcome = try await HTTPTransport.withTransport(timeout: options.requestTimeout, maximumBodyBytes: options.maximumResponseBytes) {
            transport throws(JobError) in
            let api = client.client(transport)
            var outcome = outcome
            for request in requests {
                let action = plan(request, answer: answers[request.notificationUUID], settings: settings, overrides: overrides, now: now)
                let recorded = try await perform(action, request, ledger: ledger, api: api, now: options.effects.nowMilliseconds, log: log)
                count(action, recorded: recorded, into: &outcome)
            }
            outcome.retries = api.retries
            return outcome
        }
        outcome.emitMetrics()
        return outcome
    }

    /// What to do with one request.
    enum Action {
        /// An earlier run answered it.
        case answered
        /// No accepted transaction: nothing to answer for.
        case skipped
        /// Record it late (over 12 hours old).
        case late(RefundDecision)
        /// Record it `no_response`.
        case noResponse(RefundDecision)
        /// Send the decision (refused or sent depends on Apple).
        case send(RefundDecision)

        /// The dry run's line for `request`.
        func json(_ request: RefundRequest) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("notificationUUID", .string(request.notificationUUID)),
                ("transactionId", request.transactionId.map(JSONValue.string) ?? .null),
                ("originalTransactionId", request.originalTransactionId.map(JSONValue.string) ?? .null),
                ("requestedAt", .string(InstantFormat.iso8601(milliseconds: request.requestedAt))),
                ("deadlineAt", .string(InstantFormat.iso8601(milliseconds: request.deadline))),
            ]
            let (name, decision): (String, RefundDecision?) =
                switch self {
                case .answered: ("already_answered", nil)
                case .skipped: ("skipped", nil)
                case .late(let decision): ("late", decision)
                case .noResponse(let decision): ("no_response", decision)
                case .send(let decision): ("send", decision)
                }
            members.append(("action", .string(name)))
            if let decision {
                members += [
                    ("policyId", decision.policyId.map(JSONValue.string) ?? .null), ("preference", .string(decision.preference.rawValue)),
                    ("deliveryStatus", .string(decision.deliveryStatus)), ("sampleContentProvided", .bool(decision.sampleContentProvided)),
                ]
                if case .send = self, let body = try? JSONParser.parse(Array(decision.body.utf8)) { members.append(("body", body)) }
            }
            return JSONText.object(members)
        }
    }

    /// The action for `request`: a recorded decision stands (a request left `sending` by a crash is sent again
    /// with it); a new one comes from the overrides and policies.
    static func plan(
        _ request: RefundRequest, answer: RefundAnswer?, settings: RefundSettings, overrides: RefundOverrides, now: Date
    ) -> Action {
        if let answer, answer.status.isFinal { return .answered }
        guard request.transactionId != nil else { return .skipped }
        let decision = answer?.decision ?? settings.decide(request, overrides: overrides)
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if nowMilliseconds > request.deadline { return .late(decision) }
        guard decision.preference.isSent else { return .noResponse(decision) }
        return .send(decision)
    }

    /// Counts `action` (a dry run's, which sends nothing) or, when given, the status it was recorded with.
    private static func count(_ action: Action, recorded: RefundAnswer.Status? = nil, into outcome: inout RefundsOutcome) {
        switch (action, recorded) {
        case (.answered, _): outcome.alreadyAnswered += 1
        case (.skipped, _): outcome.skipped += 1
        case (.late, _): outcome.late += 1
        case (.noResponse, _): outcome.noResponse += 1
        case (.send, .refused?): outcome.refused += 1
        case (.send, _): outcome.sent += 1
        }
    }

    /// Records and sends one action, returning the status recorded (`nil` when nothing was). A refused answer is
    /// recorded with Apple's `errorCode` and a warning; the run goes on. 401/403 ends it (77), leaving the request
    /// `sending` for the next run.
    private static func perform(
        _ action: Action, _ request: RefundRequest, ledger: OfferLedger, api: AppStoreAPIClient, now: Int64,
        log: @Sendable (String) -> Void
    ) async throws(JobError) -> RefundAnswer.Status? {
        let uuid = request.notificationUUID
        switch action {
        case .answered, .skipped: return nil
        case .late(let decision):
            try ledger.recordRefundDecision(
                notificationUUID: uuid, transactionId: request.transactionId, decision: decision, status: .late, at: now)
            return .late
        case .noResponse(let decision):
            try ledger.recordRefundDecision(
                notificationUUID: uuid, transactionId: request.transactionId, decision: decision, status: .noResponse, at: now)
            return .noResponse
        case .send(let decision):
            guard let transactionId = request.transactionId else { return nil }
            try ledger.recordRefundDecision(
                notificationUUID: uuid, transactionId: transactionId, decision: decision, status: .sending, at: now)
            CrashPoint.reach("refund-decided")
            let url = try api.url(path: "/inApps/v2/transactions/consumption/" + Self.pathSegment(transactionId))
            let answer = try await api.send(
                AppStoreAPIClient.Request(
                    method: "PUT", url: url, body: Array(decision.body.utf8), subject: "transaction \(transactionId)",
                    expected: "an acknowledgement"),
                success: 202, acceptsRefusals: true, label: "refunds", parse: { _ in () })
            CrashPoint.reach("refund-sent")
            switch answer {
            case .value:
                try ledger.recordRefundAnswer(notificationUUID: uuid, status: .sent, at: now, httpStatus: 202)
                return .sent
            case .refused(let status, let body):
                let code = (try? JSONParser.parse(body))?["errorCode"].flatMap { value -> Int64? in
                    if case .integer(let number) = value { return number }
                    return nil
                }
                try ledger.recordRefundAnswer(notificationUUID: uuid, status: .refused, at: now, httpStatus: status, errorCode: code)
                log(
                    "warning: refunds: Apple refused the answer for transaction \(transactionId) (notification \(uuid)): HTTP \(status)"
                        + (code.map { ", errorCode \($0)" } ?? "") + ": "
                        + HTTPResponse.escaped(String(decoding: body, as: UTF8.self), limit: 200))
                return .refused
            case .notFound:
                return .refused
            }
        }
    }

    /// A transaction id as a path segment (Apple's are digits; anything else is percent-encoded).
    static func pathSegment(_ id: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }

    /// `refunds.overrides` read and parsed (64 naming the key and `file:line`).
    private static func overrides(_ settings: RefundSettings, loaded: LoadedConfig) throws -> RefundOverrides {
        guard let file = settings.overridesFile else { return RefundOverrides() }
        let path = loaded.resolve(file)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JobError.config(file: loaded.path, ConfigError(key: "refunds.overrides", message: "cannot read \(path)"))
        }
        do {
            return try RefundOverrides.parse(String(decoding: data, as: UTF8.self), file: file, key: "refunds.overrides")
        } catch {
            throw JobError.config(file: loaded.path, error)
        }
    }
}
