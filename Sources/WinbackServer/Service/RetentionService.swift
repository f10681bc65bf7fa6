import Synchronization
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackJobs

/// What `winback serve` does with a request, whichever server library carries it (docs/retention-messaging.md): answers
/// `POST /retention` from the newest published day's decisions, keeps the notifications Apple pushes to
/// `POST /notifications` (docs/notifications-pushed.md), `GET /healthz` and `GET /metrics`; keeps the
/// request log; loads a newly published day while it serves. It never touches the ledger.
public final class RetentionService: Sendable {
    /// The largest request body read, bytes; a larger one is answered 413.
    public static let maximumBodyBytes = 64 * 1024
    /// How far `signedDate` may lie from now, either way, milliseconds.
    static let freshnessMilliseconds: Int64 = 300_000

    let app: AppIdentity
    let verifier: SignedPayloadVerifier
    /// Signs promotional offers; `nil` when no Retention Messaging campaign offers one.
    let signer: OfferSigner?
    let defaultMessageIdentifier: String?
    let campaignOrder: [String]
    /// The output root holding `dt=<D>/`.
    let output: String
    let options: ServeOptions
    let replays = ReplayGuard()
    let metrics = ServeMetrics()
    /// Requests inside ``handle(method:target:body:)`` now (the server waits for none before its summary).
    private let handling = Atomic<Int>(0)
    let log: RequestLogWriter
    /// Where pushed notifications are kept; `nil`: `POST /notifications` is off (no `api.directory`).
    public let inbox: NotificationInbox?
    /// When the last pushed notification was accepted, epoch milliseconds.
    private let lastNotificationAt = Mutex<Int64?>(nil)
    private let served = Mutex<(table: RetentionDecisionTable?, day: PublishedDecisions.Day?, failed: PublishedDecisions.Day?)>(
        (nil, nil, nil))
    /// Told what happens that an operator should know (a day loaded, a day that would not load).
    let inform: @Sendable (String) -> Void

    init(
        app: AppIdentity, verifier: SignedPayloadVerifier, signer: OfferSigner?, defaultMessageIdentifier: String?, campaignOrder: [String],
        output: String, ledgerPath: String, inbox: NotificationInbox?, options: ServeOptions,
        inform: @escaping @Sendable (String) -> Void
    ) {
        self.inbox = inbox
        self.app = app
        self.verifier = verifier
        self.signer = signer
        self.defaultMessageIdentifier = defaultMessageIdentifier
        self.campaignOrder = campaignOrder
        self.output = output
        self.options = options
        self.inform = inform
        let metrics = metrics
        log = RequestLogWriter(ledgerPath: ledgerPath, instance: options.instance) { reason in
            metrics.countLogError()
            inform("warning: request log: \(reason)")
        }
    }

    /// The day whose decisions are served, and how many subscriptions have one.
    public var decisions: (day: String?, count: Int) {
        served.withLock { ($0.day?.label, $0.table?.count ?? 0) }
    }

    // MARK: Requests

    /// The reply to one request. `body` is the whole body, or `nil` when it was over ``maximumBodyBytes``.
    public func handle(method: String, target: String, body: [UInt8]?) async -> ServeReply {
        handling.add(1, ordering: .relaxed)
        defer { handling.subtract(1, ordering: .relaxed) }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        switch path {
        case "/retention":
            return await retention(method: method, body: body)
        case "/notifications" where inbox != nil:
            return await notification(method: method, body: body)
        case "/healthz":
            guard method == "GET" else { return notAllowed("GET") }
            let (day, count) = decisions
            let refused = served.withLock { $0.failed?.label }
            metrics.count(outcome: "healthz")
            // A newer day that did not load leaves the older one served: still healthy (200), but said.
            var members: [(String, JSONValue)] = [
                ("status", .string(refused == nil ? "ok" : "degraded")), ("decisionsDay", day.map(JSONValue.string) ?? .null),
                ("decisions", .integer(Int64(count))),
            ]
            if let refused { members.append(("refusedDay", .string(refused))) }
            if inbox != nil {
                let last = lastNotificationAt.withLock { $0 }
                members.append(("lastNotificationAt", last.map { .string(InstantFormat.iso8601(milliseconds: $0)) } ?? .null))
            }
            return .json(200, JSONText.render(JSONText.object(members)))
        case "/metrics":
            guard method == "GET" else { return notAllowed("GET") }
            let (day, count) = decisions
            return ServeReply(
                status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                body: Array(metrics.render(decisions: count, day: day).utf8))
        default:
            metrics.count(outcome: "not_found")
            return .json(404, #"{"error":"not_found"}"#)
        }
    }

    private func notAllowed(_ allow: String) -> ServeReply {
        metrics.count(outcome: "method_not_allowed")
        return .json(405, #"{"error":"method_not_allowed"}"#, allow: allow)
    }

    /// What the request log writes about one response to `/retention`.
    private struct Outcome {
        var request: RetentionRequest?
        var status = 200
        var decision: RetentionDecision?
        var answer: RetentionAnswer = .none
        var error: String?
    }

    private func retention(method: String, body: [UInt8]?) async -> ServeReply {
        let started = ContinuousClock.now
        let receivedAt = options.now()
        var outcome = Outcome()
        let reply: ServeReply
        if method != "POST" {
            (outcome.status, outcome.error) = (405, "method_not_allowed")
            reply = .json(405, #"{"error":"method_not_allowed"}"#, allow: "POST")
        } else if let body {
            do {
                try await answer(body, now: receivedAt, into: &outcome)
                reply = .json(200, outcome.answer.json)
            } catch {
                (outcome.status, outcome.error) = (400, error.code.text)
                reply = .json(400, JSONText.render(JSONText.object([("error", .string(error.code.text))])))
            }
        } else {
            (outcome.status, outcome.error) = (413, "body_too_large")
            reply = .json(413, #"{"error":"body_too_large"}"#)
        }
        let micros = Self.microseconds(since: started)
        metrics.record(
            outcome: outcome.error ?? outcome.answer.kind ?? "none", latencySeconds: Double(micros) / 1e6, isRefused: outcome.status != 200)
        write(outcome, receivedAt: receivedAt, latencyMicros: micros)
        return reply
    }

    /// `POST /notifications` (docs/notifications-pushed.md): a notification of this app verified like a record is made durable in the
    /// inbox before its 200 `{}`; a refusal is 400 with its code, a body over the limit 413, a failed write 503
    /// (Apple tries again): nothing is acknowledged that is not on disk.
    private func notification(method: String, body: [UInt8]?) async -> ServeReply {
        let started = ContinuousClock.now
        let receivedAt = options.now()
        var received = ReceivedNotification()
        let reply: ServeReply
        if method != "POST" {
            (received.status, received.error) = (405, "method_not_allowed")
            reply = .json(405, #"{"error":"method_not_allowed"}"#, allow: "POST")
        } else if let body, let inbox {
            reply = await keep(body, in: inbox, receivedAt: receivedAt, into: &received)
        } else {
            (received.status, received.error) = (413, "body_too_large")
            reply = .json(413, #"{"error":"body_too_large"}"#)
        }
        let micros = Self.microseconds(since: started)
        metrics.countNotification(type: received.notificationType ?? "none", outcome: received.error ?? received.outcome)
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var members: [(String, JSONValue)] = [
            ("time", .string(InstantFormat.iso8601(milliseconds: receivedAt))), ("route", .string("notifications")),
            ("notificationUUID", text(received.notificationUUID)), ("notificationType", text(received.notificationType)),
            ("status", .integer(Int64(received.status))), ("latencyMicros", .integer(micros)),
        ]
        if let error = received.error { members.append(("error", .string(error))) }
        log.append(JSONText.render(JSONText.object(members)), day: String(InstantFormat.iso8601(milliseconds: receivedAt).prefix(10)))
        return reply
    }

    /// Verifies the notification in `body` and appends it to `inbox`; the reply.
    private func keep(_ body: [UInt8], in inbox: NotificationInbox, receivedAt: Int64, into received: inout ReceivedNotification) async
        -> ServeReply
    {
        func refuse(_ code: String) -> ServeReply {
            (received.status, received.error) = (400, code)
            return .json(400, JSONText.render(JSONText.object([("error", .string(code))])))
        }
        guard let object = try? JSONParser.parse(body), case .string(let jws)? = object["signedPayload"] else {
            return refuse("malformed_body")
        }
        let payload: AcceptedPayload
        do {
            let verified = try await verifier.verifiedObject(jws)
            payload = try verifier.decoder.decode(verified, as: .notification).0
        } catch {
            return refuse(error.code.rawValue)
        }
        guard case .notification(let notification) = payload, let uuid = notification.notificationUUID else {
            return refuse(RejectCode.missingField.rawValue)
        }
        (received.notificationUUID, received.notificationType) = (uuid, notification.rawNotificationType)
        let line = Array((JSONText.render(JSONText.object([("signedPayload", .string(jws))])) + "\n").utf8)
        let day = String(InstantFormat.iso8601(milliseconds: receivedAt).prefix(10))
        switch await inbox.append(line, notificationUUID: uuid, day: day) {
        case .appended:
            received.outcome = "accepted"
            lastNotificationAt.withLock { $0 = receivedAt }
        case .duplicate:
            received.outcome = "duplicate"
        case .failed(let path, let reason):
            (received.status, received.error) = (503, "unavailable")
            inform("warning: notification \(uuid) not kept (503, Apple sends it again): \(path): \(reason)")
            return .json(503, #"{"error":"unavailable"}"#)
        }
        return .json(200, "{}")
    }

    /// Microseconds from `start` to now.
    private static func microseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    }

    /// What the request log and the metrics say of one `POST /notifications`.
    private struct ReceivedNotification {
        var status = 200
        var outcome = "accepted"
        var error: String?
        var notificationUUID: String?
        var notificationType: String?
    }

    /// Verifies and checks the request in `body`, then fills in its decision and answer.
    private func answer(_ body: [UInt8], now: Int64, into outcome: inout Outcome) async throws(RetentionRefusal) {
        guard let object = try? JSONParser.parse(body), case .string(let jws)? = object["signedPayload"] else {
            throw RetentionRefusal(.malformedBody, "expected a JSON object with a string signedPayload")
        }
        let payload: JSONValue
        do {
            payload = try await verifier.verifiedObject(jws)
        } catch {
            throw RetentionRefusal(.unverified(error.code), error.message)
        }
        let request = try RetentionRequest(payload: payload)
        outcome.request = request
        guard replays.admit(request.requestIdentifier, now: now) else {
            throw RetentionRefusal(.replayedRequest, "requestIdentifier \(request.requestIdentifier) was seen in the last 10 minutes")
        }
        if let expected = app.appAppleId, request.appAppleId != expected {
            throw RetentionRefusal(.wrongApp, "appAppleId \(request.appAppleId.map(String.init) ?? "none"), expected \(expected)")
        }
        guard request.environment == app.environment else {
            throw RetentionRefusal(.wrongEnvironment, "environment \(request.environment), expected \(app.environment)")
        }
        guard abs(request.signedDate - now) <= Self.freshnessMilliseconds else {
            throw RetentionRefusal(.staleRequest, "signedDate is \((request.signedDate - now) / 1000) s from now")
        }
        let decision = served.withLock { $0.table }?.decision(for: request.originalTransactionId)
        outcome.decision = decision
        outcome.answer = answer(for: request, decision: decision, now: now)
    }

    /// The answer for a verified, fresh request: the decision's, or the fallback (the default message, else `{}`).
    func answer(for request: RetentionRequest, decision: RetentionDecision?, now: Int64) -> RetentionAnswer {
        let fallback = defaultMessageIdentifier.map { RetentionAnswer.message(messageIdentifier: $0) } ?? .none
        guard let decision, decision.isTreatment, let message = decision.messageIdentifier else { return fallback }
        switch decision.kind {
        case "promotional_offer":
            guard let signer, let offerIdentifier = decision.offerIdentifier else { return fallback }
            do {
                let signature = try signer.signV2(
                    productId: decision.productId ?? request.productId, offerIdentifier: offerIdentifier,
                    transactionId: request.originalTransactionId, nonce: options.nonce(),
                    issuedAtSeconds: InstantFormat.floorDivide(now, 1000))
                return .promotionalOffer(messageIdentifier: message, signatureV2: signature)
            } catch {
                inform("warning: could not sign an offer for \(decision.campaignId): \(error)")
                return fallback
            }
        case "alternate_product":
            guard let productId = decision.productId else { return fallback }
            return .alternateProduct(messageIdentifier: message, productId: productId, billingPlanType: decision.billingPlanType)
        default:
            return .message(messageIdentifier: message)
        }
    }

    private func write(_ outcome: Outcome, receivedAt: Int64, latencyMicros: Int64) {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var members: [(String, JSONValue)] = [
            ("time", .string(InstantFormat.iso8601(milliseconds: receivedAt))),
            ("requestIdentifier", text(outcome.request?.requestIdentifier)),
            ("originalTransactionId", text(outcome.request?.originalTransactionId)), ("status", .integer(Int64(outcome.status))),
            ("campaignId", text(outcome.decision?.campaignId)), ("variant", text(outcome.decision?.variant)),
            ("kind", text(outcome.answer.kind)),
            ("latencyMicros", .integer(latencyMicros)),
        ]
        if let error = outcome.error { members.append(("error", .string(error))) }
        log.append(JSONText.render(JSONText.object(members)), day: String(InstantFormat.iso8601(milliseconds: receivedAt).prefix(10)))
    }

    // MARK: Published days

    /// Loads the newest published day if it is not the one served (a new day, or the same day published
    /// again); `true` when the served decisions changed. A day that does not load is reported once and the
    /// previous day stays.
    /// With `retryingRefused` (SIGHUP), a day refused before is read again.
    @discardableResult
    public func reload(retryingRefused: Bool = false) -> Bool {
        guard let latest = PublishedDecisions.latest(output: output) else { return false }
        let (current, failed) = served.withLock { ($0.day, $0.failed) }
        guard latest != current, retryingRefused || latest != failed else { return false }
        do {
            let table = try PublishedDecisions.load(output: output, day: latest.label, campaignOrder: campaignOrder)
            served.withLock { $0 = (table, latest, nil) }
            inform("serve: decisions of \(latest.label): \(table.count) subscriptions")
            return true
        } catch {
            served.withLock { $0.failed = latest }
            inform("warning: decisions of \(latest.label) not loaded (still serving \(current?.label ?? "none")): \(error)")
            return false
        }
    }

    /// Looks for a newly published day every ``ServeOptions/reloadIntervalSeconds`` until cancelled. The reading
    /// runs in this task, on Swift's shared pool: the answers run on an executor of their own (``RequestExecutor``),
    /// so a long read never holds a request.
    public func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(options.reloadIntervalSeconds * 1e9))
            guard !Task.isCancelled else { return }
            reload()
        }
    }

    /// Requests being handled now: a request whose whole body arrived as the server stopped is still kept (a pushed
    /// notification written) though its connection is gone, and the summary must count it.
    public var requestsInFlight: Int { handling.load(ordering: .relaxed) }

    /// Writes every queued request-log line and closes the log; the summary of what was answered (`responses` and
    /// `refused` to `/retention`; pushed `notifications` accepted and duplicate).
    public func finish() -> String {
        log.close()
        let (day, count) = decisions
        return JSONText.render(
            JSONText.object([
                ("decisionsDay", day.map(JSONValue.string) ?? .null), ("decisions", .integer(Int64(count))),
                ("responses", .integer(Int64(metrics.totalResponses))), ("refused", .integer(Int64(metrics.refusedResponses))),
                (
                    "notifications",
                    JSONText.object([
                        ("accepted", .integer(Int64(metrics.notifications(outcome: "accepted")))),
                        ("duplicate", .integer(Int64(metrics.notifications(outcome: "duplicate")))),
                    ])
                ),
            ]))
    }
}
