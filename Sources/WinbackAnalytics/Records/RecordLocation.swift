/// Where a record came from: the input file (config-relative, `/`-separated), the 1-based physical line
/// where its JSON value starts, and its path inside that value (`nil` for a whole line).
public struct RecordLocation: Sendable, Hashable {
    /// The input file, relative to the config file.
    public var source: String
    /// 1-based line number (1 for a `.json` document).
    public var line: Int
    /// docs/inputs.md path grammar: `signedTransactionInfo`, `data.signedRenewalInfo`, `signedTransactions[3]`, `[7]`, …
    public var path: String?

    /// A location in `source` at `line`, `path` inside it.
    public init(source: String, line: Int, path: String?) {
        self.source = source
        self.line = line
        self.path = path
    }
}
