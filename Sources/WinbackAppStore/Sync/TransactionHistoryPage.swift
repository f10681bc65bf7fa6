/// One response of the App Store Server API's Get Transaction History v2 (`HistoryResponse`): signed
/// transactions, the `revision` to ask with next, and whether more follow (docs/sync.md).
public struct TransactionHistoryPage: Sendable, Equatable {
    /// `signedTransactions`: each transaction's JWS, in response order.
    public var signedTransactions: [String]
    /// `revision`: the query parameter of the next request — the next page while ``hasMore``, else what
    /// changed since this response.
    public var revision: String
    /// `hasMore`: another page follows (missing: `false`).
    public var hasMore: Bool

    /// A page with these values.
    public init(signedTransactions: [String], revision: String, hasMore: Bool) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }

    /// Parses a response body. Unknown members (`bundleId`, `appAppleId`, `environment` and any Apple adds)
    /// are ignored; a missing `signedTransactions` is an empty page; `revision` is required.
    public static func parse(_ body: [UInt8]) throws(MalformedAPIResponse) -> TransactionHistoryPage {
        let root = try APIResponseBody.object(body)
        var transactions: [String] = []
        switch root["signedTransactions"] {
        case nil, .null?: break
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                guard case .string(let jws) = item.value, !jws.isEmpty else {
                    throw MalformedAPIResponse(description: "signedTransactions[\(index)]: expected a non-empty string")
                }
                transactions.append(jws)
            }
        case let other?: throw MalformedAPIResponse(description: "signedTransactions: expected an array, found \(other.typeName)")
        }
        guard case .string(let revision)? = root["revision"], !revision.isEmpty else {
            throw MalformedAPIResponse(description: "revision: expected a non-empty string")
        }
        let hasMore: Bool
        switch root["hasMore"] {
        case nil, .null?: hasMore = false
        case .bool(let value)?: hasMore = value
        case let other?: throw MalformedAPIResponse(description: "hasMore: expected a boolean, found \(other.typeName)")
        }
        return TransactionHistoryPage(signedTransactions: transactions, revision: revision, hasMore: hasMore)
    }
}
