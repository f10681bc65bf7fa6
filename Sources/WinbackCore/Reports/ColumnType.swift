/// Column types of the manifest's schemas (SPEC §10).
public enum ColumnType: String, Sendable {
    case string, integer, rate, boolean, instant, date, month
    /// A JSON array of strings (NDJSON files only), e.g. `eligibleWinBackOfferIds`.
    case stringArray = "string[]"
}
