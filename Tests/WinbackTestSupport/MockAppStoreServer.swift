import Crypto
import Foundation
import Synchronization
import WinbackAppStore
import WinbackCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for the App Store Server API on loopback, for `winback sync` and `winback refunds` tests: it checks
/// each request's JWT with the key's public half (401 otherwise), serves the notifications whose `signedDate`
/// falls in `[startDate, endDate)` a few per page with an opaque `paginationToken`, accepts Send Consumption
/// Information (`PUT /inApps/v2/transactions/consumption/{id}`: 202 for a valid v2 body, 400 otherwise), and
/// injects the queued faults into the next requests, one fault per request.
public final class MockAppStoreServer: Sendable {
    /// Something to do to a request instead of answering it normally.
    public enum Fault: Sendable {
        /// Answer normally (to let a request through before the faults that follow).
        case none
        /// Answer with this status (and `Retry-After` when given) and a JSON error body.
        case status(Int, retryAfter: String? = nil)
        /// Wait this many seconds before answering (longer than the client's timeout: it gives up).
        case slow(Double)
        /// Send the headers with the full `Content-Length`, half the body, then close the connection.
        case truncatedBody
        /// Answer 200 with this body.
        case body(String)
        /// Answer with this 3xx status and a `Location` header.
        case redirect(Int, location: String)
        /// Send the headers (a `Content-Length` of `bytes`), then one byte every `interval` seconds until the
        /// client goes away or `bytes` are sent.
        case trickle(interval: Double, bytes: Int)
        /// Answer 200 declaring a `Content-Length` of `declared` bytes, send `sent` bytes of spaces, then
        /// close the connection (a body over the client's limit, refused from its header alone).
        case huge(declared: Int, sent: Int)
        /// Answer 200 with `Content-Encoding: gzip` and these compressed bytes, whatever was asked for.
        case compressed([UInt8])
    }

    /// A request the server received.
    public struct Request: Sendable {
        /// `GET`, `POST`.
        public var method: String
        /// When the connection was accepted (the earliest the server knows of the request).
        public var acceptedAt: ContinuousClock.Instant
        /// `/path?query`.
        public var target: String
        /// The request's `Authorization` header.
        public var authorization: String
        /// The body.
        public var body: String
    }

    /// A notification the server holds: its `signedDate` (epoch ms) and JWS.
    public struct Notification: Sendable {
        public var signedDate: Int64
        public var signedPayload: String

        public init(signedDate: Int64, signedPayload: String) {
            self.signedDate = signedDate
            self.signedPayload = signedPayload
        }
    }

    private struct State {
        var faults: [Fault] = []
        var requests: [Request] = []
        /// Each original transaction id's transactions (JWS), in the order Get Transaction History returns them.
        var transactions: [String: [String]] = [:]
    }

    private let server = Mutex<LoopbackHTTPServer?>(nil)
    private let state = Mutex(State())
    private let publicKey: P256.Signing.PublicKey
    private let keyId: String
    private let issuerId: String
    private let bundleId: String
    private let notifications: [Notification]
    private let pageSize: Int
    /// Transactions a page of Get Transaction History holds.
    private let historyPageSize: Int
    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { server.withLock { $0?.baseURL ?? "" } }

    /// Starts listening on an ephemeral loopback port.
    public init(
        publicKey: P256.Signing.PublicKey, keyId: String, issuerId: String, bundleId: String, notifications: [Notification],
        pageSize: Int = 20, transactions: [String] = [], historyPageSize: Int = 20
    ) throws {
        self.historyPageSize = historyPageSize
        self.publicKey = publicKey
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.notifications = notifications.sorted { $0.signedDate < $1.signedDate }
        self.pageSize = pageSize
        add(transactions: transactions)
        let started = try LoopbackHTTPServer { [weak self] incoming in self?.serve(incoming) }
        server.withLock { $0 = started }
    }

    deinit { stop() }

    /// Faults for the next requests, in order.
    public func inject(_ faults: [Fault]) {
        state.withLock { $0.faults += faults }
    }

    /// Adds transactions (JWS) to Get Transaction History and Get All Subscription Statuses, each after those
    /// of its original transaction id: what a later request with the last `revision` returns (a refund is a
    /// changed transaction added again).
    public func add(transactions: [String]) {
        state.withLock { state in
            for jws in transactions {
                guard let id = Self.originalTransactionId(of: jws) else { continue }
                state.transactions[id, default: []].append(jws)
            }
        }
    }

    /// The `originalTransactionId` of a transaction JWS (unverified).
    public static func originalTransactionId(of jws: String) -> String? {
        let segments = jws.split(separator: ".")
        guard segments.count == 3, let payload = Base64.decodeURL(String(segments[1])),
            case .string(let id)? = try? JSONParser.parse(payload)["originalTransactionId"]
        else { return nil }
        return id
    }

    /// Every request received so far.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting connections.
    public func stop() {
        server.withLock { $0?.stop() }
    }

    private func serve(_ incoming: LoopbackHTTPServer.Incoming) {
        let (connection, method, target, body, acceptedAt) = (
            incoming.connection, incoming.method, incoming.target, incoming.body, incoming.acceptedAt
        )
        let authorization = incoming.headers["authorization"] ?? ""
        let fault: Fault? = state.withLock { state in
            state.requests.append(
                Request(method: method, acceptedAt: acceptedAt, target: target, authorization: authorization, body: body))
            return state.faults.isEmpty ? nil : state.faults.removeFirst()
        }
        switch fault {
        case .status(let status, let retryAfter)?:
            respond(
                connection, status: status, headers: retryAfter.map { [("Retry-After", $0)] } ?? [],
                body: #"{"errorCode":\#(status)0000,"errorMessage":"injected"}"#)
            return
        case .slow(let seconds)?:
            Thread.sleep(forTimeInterval: seconds)
        case .truncatedBody?:
            let full = answer(method: method, target: target, authorization: authorization, body: body).body
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(full.utf8.count)\r\nConnection: close\r\n\r\n"
            send(connection, head + String(full.prefix(full.count / 2)))
            return
        case .body(let text)?:
            respond(connection, status: 200, headers: [], body: text)
            return
        case .redirect(let status, let location)?:
            respond(connection, status: status, headers: [("Location", location)], body: "")
            return
        case .trickle(let interval, let bytes)?:
            send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n")
            for _ in 0..<bytes {
                Thread.sleep(forTimeInterval: interval)
                guard sendBytes(connection, [UInt8(ascii: " ")]) else { return }
            }
            return
        case .huge(let declared, let sent)?:
            send(
                connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\nConnection: close\r\n\r\n")
            _ = sendBytes(connection, [UInt8](repeating: UInt8(ascii: " "), count: sent))
            return
        case .compressed(let body)?:
            send(
                connection,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n"
                    + "Connection: close\r\n\r\n")
            _ = sendBytes(connection, body)
            return
        case .none?, nil: break
        }
        let (status, text) = answer(method: method, target: target, authorization: authorization, body: body)
        respond(connection, status: status, headers: [], body: text)
    }

    /// The normal answer: 401 for a bad token, 404 for another path, 400 for a bad body, else a page.
    private func answer(method: String, target: String, authorization: String, body: String) -> (status: Int, body: String) {
        guard let problem = tokenProblem(authorization) else {
            if target.hasPrefix(Self.consumptionPath) { return consumption(method: method, body: body) }
            return page(target: target, body: body)
        }
        return (401, #"{"errorCode":4010000,"errorMessage":"\#(problem)"}"#)
    }

    private func page(target: String, body: String) -> (status: Int, body: String) {
        let parts = target.split(separator: "?", maxSplits: 1)
        if let path = parts.first, path.hasPrefix("/inApps/v2/history/") {
            return history(of: String(path.dropFirst("/inApps/v2/history/".count)), query: parts.count == 2 ? String(parts[1]) : "")
        }
        if let path = parts.first, path.hasPrefix("/inApps/v1/subscriptions/") {
            return statuses(of: String(path.dropFirst("/inApps/v1/subscriptions/".count)))
        }
        guard parts.first == "/inApps/v1/notifications/history" else { return (404, #"{"errorCode":4040000,"errorMessage":"not found"}"#) }
        guard let request = try? JSONParser.parse(Array(body.utf8)), case .integer(let start)? = request["startDate"],
            case .integer(let end)? = request["endDate"], start < end
        else { return (400, #"{"errorCode":4000006,"errorMessage":"invalid request"}"#) }
        var offset = 0
        if parts.count == 2, parts[1].hasPrefix("paginationToken=") {
            // The token is "p/<start>+<offset>=" percent-encoded: a client that does not encode it breaks here.
            let token = String(parts[1].dropFirst("paginationToken=".count)).removingPercentEncoding ?? ""
            guard token.hasPrefix("p/\(start)+"), token.hasSuffix("="), let value = Int(token.dropFirst("p/\(start)+".count).dropLast())
            else { return (400, #"{"errorCode":4000008,"errorMessage":"invalid pagination token"}"#) }
            offset = value
        }
        let day = notifications.filter { start <= $0.signedDate && $0.signedDate < end }
        let items = day.dropFirst(offset).prefix(pageSize)
        let hasMore = offset + items.count < day.count
        var members: [(String, JSONValue)] = [
            (
                "notificationHistory",
                .array(
                    items.map {
                        JSONElement(
                            value: JSONText.object([
                                ("sendAttempts", .array([])), ("signedPayload", .string($0.signedPayload)),
                            ]), range: 0..<0)
                    })
            ),
            ("hasMore", .bool(hasMore)),
        ]
        if hasMore { members.append(("paginationToken", .string("p/\(start)+\(offset + items.count)="))) }
        return (200, JSONText.render(JSONText.object(members)))
    }

    /// The path of Send Consumption Information (v2) before the transaction id.
    public static let consumptionPath = "/inApps/v2/transactions/consumption/"

    /// Send Consumption Information: 202 with no body for a `PUT` whose body is a v2 `ConsumptionRequest` (customer
    /// consent true, a known delivery status, a Boolean sample flag, an optional known preference, nothing else);
    /// 400 with Apple's error codes otherwise.
    private func consumption(method: String, body: String) -> (status: Int, body: String) {
        guard method == "PUT" else { return (405, #"{"errorCode":4050000,"errorMessage":"method not allowed"}"#) }
        guard let request = try? JSONParser.parse(Array(body.utf8)), let members = request.objectMembers else {
            return (400, #"{"errorCode":4000023,"errorMessage":"Invalid request body."}"#)
        }
        let allowed: Set = ["customerConsented", "deliveryStatus", "sampleContentProvided", "refundPreference", "consumptionPercentage"]
        guard request["customerConsented"] == .bool(true) else {
            return (400, #"{"errorCode":4000080,"errorMessage":"Invalid customer consented."}"#)
        }
        guard members.allSatisfy({ allowed.contains($0.key) }),
            case .string(let delivery)? = request["deliveryStatus"],
            ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER"]
                .contains(delivery),
            case .bool? = request["sampleContentProvided"]
        else { return (400, #"{"errorCode":4000023,"errorMessage":"Invalid request body."}"#) }
        if let preference = request["refundPreference"],
            ![.string("GRANT_FULL"), .string("GRANT_PRORATED"), .string("DECLINE")].contains(preference)
        {
            return (400, #"{"errorCode":4000081,"errorMessage":"Invalid refund preference."}"#)
        }
        return (202, "")
    }

    /// Get Transaction History v2: pages of ``historyPageSize`` from the transaction the `revision` names
    /// (`h<count>`: the client has seen `count` of the id's transactions), ascending; 404 for an unknown id.
    private func history(of id: String, query: String) -> (status: Int, body: String) {
        let notFound = (404, #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
        guard let all = state.withLock({ $0.transactions[id] }) else { return notFound }
        var start = 0
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { return (400, #"{"errorCode":4000000,"errorMessage":"bad query"}"#) }
            if pair[0] == "revision" {
                let revision = pair[1].removingPercentEncoding ?? ""
                guard revision.hasPrefix("h"), let count = Int(revision.dropFirst()), (0...all.count).contains(count) else {
                    return (400, #"{"errorCode":4000030,"errorMessage":"Invalid revision."}"#)
                }
                start = count
            } else if pair[0] == "sort", pair[1] != "ASCENDING" {
                return (400, #"{"errorCode":4000000,"errorMessage":"expected sort=ASCENDING"}"#)
            }
        }
        let items = all[start...].prefix(historyPageSize)
        let next = start + items.count
        return (
            200,
            JSONText.render(
                JSONText.object([
                    ("revision", .string("h\(next)")), ("bundleId", .string(bundleId)), ("appAppleId", .integer(1_234_567_890)),
                    ("environment", .string("Production")), ("hasMore", .bool(next < all.count)),
                    ("signedTransactions", .array(items.map { JSONElement(value: .string($0), range: 0..<0) })),
                ]))
        )
    }

    /// Get All Subscription Statuses: the id's last transaction as its group's `lastTransactions`; 404 for an
    /// unknown id.
    private func statuses(of id: String) -> (status: Int, body: String) {
        guard let last = state.withLock({ $0.transactions[id]?.last }) else {
            return (404, #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
        }
        let item = JSONText.object([
            ("status", .integer(1)), ("originalTransactionId", .string(id)), ("signedTransactionInfo", .string(last)),
        ])
        let group = JSONText.object([
            ("subscriptionGroupIdentifier", .string("21440001")), ("lastTransactions", .array([JSONElement(value: item, range: 0..<0)])),
        ])
        return (
            200,
            JSONText.render(
                JSONText.object([
                    ("environment", .string("Production")), ("bundleId", .string(bundleId)), ("appAppleId", .integer(1_234_567_890)),
                    ("data", .array([JSONElement(value: group, range: 0..<0)])),
                ]))
        )
    }

    /// Why the bearer token is not acceptable, or `nil` when it is.
    private func tokenProblem(_ authorization: String) -> String? {
        guard authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64.decodeURL(parts[0]), let claimBytes = Base64.decodeURL(parts[1]),
            let signatureBytes = Base64.decodeURL(parts[2]), let header = try? JSONParser.parse(headerBytes),
            let claims = try? JSONParser.parse(claimBytes)
        else { return "malformed token" }
        guard header["alg"] == .string("ES256"), header["typ"] == .string("JWT"), header["kid"] == .string(keyId) else {
            return "bad header"
        }
        guard claims["iss"] == .string(issuerId), claims["aud"] == .string("appstoreconnect-v1"), claims["bid"] == .string(bundleId),
            case .integer(let issuedAt)? = claims["iat"], case .integer(let expiresAt)? = claims["exp"], expiresAt > issuedAt,
            expiresAt - issuedAt <= 3600
        else { return "bad claims" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8))
        else { return "bad signature" }
        return nil
    }

    private func respond(_ connection: Int32, status: Int, headers: [(String, String)], body: String) {
        LoopbackHTTPServer.respond(connection, status: status, headers: headers, body: body)
    }

    private func send(_ connection: Int32, _ text: String) {
        LoopbackHTTPServer.send(connection, text)
    }

    private func sendBytes(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        LoopbackHTTPServer.sendBytes(connection, bytes)
    }
}
