import Testing
import WinbackAppStore
import WinbackCore

/// The pure rules of `winback sync` (docs/sync.md): which days, how long to wait, how a page reads, the `api` block.
@Suite struct SyncRulesTests {
    /// 2026-11-20 06:00 UTC.
    static let now = InstantFormat.days(year: 2026, month: 11, day: 20) * SyncDay.milliseconds + 6 * 3_600_000

    struct RangeCase: Sendable, CustomTestStringConvertible {
        var name: String
        var from: String?
        var to: String?
        /// The days, or the error's `key: message` start.
        var expected: Result<[String], ConfigError>
        var testDescription: String { name }
    }

    static let ranges: [RangeCase] = [
        RangeCase(name: "default: the last 3 days through yesterday", expected: .success(["2026-11-17", "2026-11-18", "2026-11-19"])),
        RangeCase(name: "--from alone runs through yesterday", from: "2026-11-18", expected: .success(["2026-11-18", "2026-11-19"])),
        RangeCase(
            name: "--to alone: 3 days ending there", to: "2026-11-02", expected: .success(["2026-10-31", "2026-11-01", "2026-11-02"])),
        RangeCase(name: "one day", from: "2026-10-28", to: "2026-10-28", expected: .success(["2026-10-28"])),
        RangeCase(
            name: "the oldest day kept", from: "2026-05-24", to: "2026-05-24", expected: .success(["2026-05-24"])),
        RangeCase(
            name: "a day older than 180 days", from: "2026-05-23", to: "2026-05-24",
            expected: .failure(
                ConfigError(
                    key: "--from",
                    message:
                        "2026-05-23 is older than the App Store's 180 days of notification history (the oldest day it keeps is 2026-05-24)")
            )),
        RangeCase(
            name: "today is not over", to: "2026-11-20",
            expected: .failure(ConfigError(key: "--to", message: "2026-11-20 is not over yet (UTC); the last complete day is 2026-11-19"))),
        RangeCase(
            name: "from after to", from: "2026-11-10", to: "2026-11-09",
            expected: .failure(ConfigError(key: "--from", message: "2026-11-10 is after --to 2026-11-09"))),
        RangeCase(
            name: "not a date", from: "2026-02-30",
            expected: .failure(ConfigError(key: "--from", message: "expected a date YYYY-MM-DD, found '2026-02-30'"))),
    ]

    @Test(arguments: ranges) func daysToSync(_ example: RangeCase) {
        let result = Result { () throws(ConfigError) in
            try SyncDayRange.days(from: example.from, to: example.to, now: Self.now).map(\.label)
        }
        #expect(result == example.expected)
    }

    @Test func aDayIsItsUTCMillisecondsWithAnExclusiveEnd() {
        let day = SyncDay(dayNumber: InstantFormat.days(year: 2026, month: 11, day: 19))
        #expect(day.startMilliseconds == 1_795_046_400_000 && day.endMilliseconds == 1_795_132_800_000)
        #expect(day.fileName == "2026-11-19.ndjson.gz")
    }

    @Test func backoffDoublesWithJitterAndRetryAfterWins() {
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 1, maxDelay: 10, maxRetryAfter: 300)
        #expect((1...6).map { policy.delay(afterAttempt: $0, retryAfter: nil, jitter: 0) } == [0.5, 1, 2, 4, 5, 5])
        #expect(
            (1...6).map { policy.delay(afterAttempt: $0, retryAfter: nil, jitter: 0.999_999) }.map { ($0 * 1000).rounded() / 1000 } == [
                1, 2, 4, 8, 10, 10,
            ])
        #expect(policy.delay(afterAttempt: 3, retryAfter: 42, jitter: 0.3) == 42)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 86_400, jitter: 0.3) == 300)
        #expect(RetryPolicy().maxAttempts == 6)
    }

    struct PageCase: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var expected: Result<NotificationHistoryPage, NotificationHistoryPage.Malformed>
        var testDescription: String { name }
    }

    static let pages: [PageCase] = [
        PageCase(
            name: "Apple's example, with sendAttempts",
            body:
                #"{"paginationToken":"57715481-805a-4283-8499-1c19b5d6b20a","hasMore":true,"notificationHistory":[{"sendAttempts":[{"attemptDate":1698148900000,"sendAttemptResult":"NO_RESPONSE"}],"signedPayload":"one"},{"signedPayload":"two"}]}"#,
            expected: .success(
                NotificationHistoryPage(
                    signedPayloads: ["one", "two"], hasMore: true, paginationToken: "57715481-805a-4283-8499-1c19b5d6b20a"))),
        PageCase(
            name: "the last page: no token", body: #"{"hasMore":false,"notificationHistory":[{"signedPayload":"x"}],"futureField":1}"#,
            expected: .success(NotificationHistoryPage(signedPayloads: ["x"], hasMore: false, paginationToken: nil))),
        PageCase(
            name: "an empty day", body: #"{"notificationHistory":[],"hasMore":false}"#,
            expected: .success(NotificationHistoryPage(signedPayloads: [], hasMore: false, paginationToken: nil))),
        PageCase(
            name: "more without a token", body: #"{"hasMore":true,"notificationHistory":[]}"#,
            expected: .failure(.init(description: "hasMore is true but paginationToken is missing"))),
        PageCase(
            name: "an item without a payload", body: #"{"notificationHistory":[{"sendAttempts":[]}]}"#,
            expected: .failure(.init(description: "notificationHistory[0].signedPayload: expected a non-empty string"))),
        PageCase(
            name: "history not an array", body: #"{"notificationHistory":{}}"#,
            expected: .failure(.init(description: "notificationHistory: expected an array, found object"))),
        PageCase(name: "an array", body: #"[]"#, expected: .failure(.init(description: "expected a JSON object, found array"))),
    ]

    @Test(arguments: pages) func historyPages(_ example: PageCase) {
        let result = Result { () throws(NotificationHistoryPage.Malformed) in try NotificationHistoryPage.parse(Array(example.body.utf8)) }
        #expect(result == example.expected)
    }

    struct HistoryPageCase: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var expected: Result<TransactionHistoryPage, MalformedAPIResponse>
        var testDescription: String { name }
    }

    /// Get Transaction History v2 (`HistoryResponse`), Apple's members verbatim.
    static let transactionPages: [HistoryPageCase] = [
        HistoryPageCase(
            name: "a page with more",
            body:
                #"{"revision":"1_2","bundleId":"com.example","appAppleId":1,"environment":"Production","hasMore":true,"signedTransactions":["a","b"]}"#,
            expected: .success(TransactionHistoryPage(signedTransactions: ["a", "b"], revision: "1_2", hasMore: true))),
        HistoryPageCase(
            name: "nothing new since the revision", body: #"{"revision":"9","hasMore":false,"signedTransactions":[]}"#,
            expected: .success(TransactionHistoryPage(signedTransactions: [], revision: "9", hasMore: false))),
        HistoryPageCase(
            name: "no revision", body: #"{"hasMore":false,"signedTransactions":["a"]}"#,
            expected: .failure(.init(description: "revision: expected a non-empty string"))),
        HistoryPageCase(
            name: "a transaction that is not a string", body: #"{"revision":"1","signedTransactions":[{}]}"#,
            expected: .failure(.init(description: "signedTransactions[0]: expected a non-empty string"))),
        HistoryPageCase(
            name: "hasMore not a boolean", body: #"{"revision":"1","hasMore":"yes"}"#,
            expected: .failure(.init(description: "hasMore: expected a boolean, found string"))),
    ]

    @Test(arguments: transactionPages) func transactionHistoryPages(_ example: HistoryPageCase) {
        let result = Result { () throws(MalformedAPIResponse) in try TransactionHistoryPage.parse(Array(example.body.utf8)) }
        #expect(result == example.expected)
    }

    /// Get All Subscription Statuses bodies and their `lastTransactions` count (`nil`: malformed).
    static let statusesBodies: [(String, Int?)] = [
        (#"{"data":[{"subscriptionGroupIdentifier":"1","lastTransactions":[{},{}]},{"lastTransactions":[]}]}"#, 2),
        (#"{"data":[{"subscriptionGroupIdentifier":"1"}]}"#, nil), (#"{"environment":"Sandbox"}"#, nil), (#"{"data":[{"lastTr"#, nil),
    ]

    @Test(arguments: statusesBodies)
    func subscriptionStatusesBodies(body: String, items: Int?) {
        #expect((try? APIResponseBody.checkStatuses(Array(body.utf8))) == items)
    }

    @Test func aCutShortBodyIsMalformed() {
        #expect(throws: NotificationHistoryPage.Malformed.self) {
            try NotificationHistoryPage.parse(Array(#"{"notificationHistory":[{"signedPa"#.utf8))
        }
    }

    static let config = """
        {"app": {"bundleId": "com.example.app", "appAppleId": 1234567890, "environment": "Production"},
         "inputs": ["exports/*.ndjson.gz"], "trust": {"rootCertificates": ["certs/root.cer"]},
         "report": {"timeZone": "UTC", "gracePeriodDays": 16, "maxRejectRate": 0.01},
         "api": API, "ledger": "state/ledger.sqlite", "output": "out", "campaigns": []}
        """

    static func api(_ object: String) throws(ConfigError) -> APISettings? {
        try WinbackConfig.parse(Array(config.replacingOccurrences(of: "API", with: object).utf8)).api
    }

    @Test func theApiBlock() throws {
        let api = try #require(
            try Self.api(
                #"{"keyId": "ABC", "issuerId": "i", "privateKeyFile": "k.p8", "directory": "sync", "baseURL": "http://127.0.0.1:8080//"}"#))
        #expect(
            api == APISettings(keyId: "ABC", issuerId: "i", privateKeyFile: "k.p8", directory: "sync", baseURL: "http://127.0.0.1:8080"))
        #expect(APISettings.defaultBaseURL(environment: "Production") == "https://api.storekit.apple.com")
        #expect(APISettings.defaultBaseURL(environment: "Sandbox") == "https://api.storekit-sandbox.apple.com")
        #expect(
            throws: ConfigError(
                key: "api.token",
                message:
                    "unknown key (allowed here: allowInsecureHTTP, baseURL, directory, issuerId, keyId, maxPages, privateKeyFile, requestsPerSecond)"
            )
        ) {
            try Self.api(#"{"keyId": "ABC", "issuerId": "i", "directory": "d", "token": "x"}"#)
        }
        #expect(
            throws: ConfigError(
                key: "api.baseURL",
                message: "expected an http:// or https:// URL such as 'https://api.storekit.apple.com', found 'ftp://x'")
        ) {
            try Self.api(#"{"keyId": "ABC", "issuerId": "i", "directory": "d", "baseURL": "ftp://x"}"#)
        }
        #expect(throws: ConfigError(key: "api.keyId", message: "expected a non-empty string, found '' (string)")) {
            try Self.api(#"{"keyId": "", "issuerId": "i", "directory": "d"}"#)
        }
    }
}
