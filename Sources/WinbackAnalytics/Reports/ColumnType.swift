/// Column types of the manifest's schemas (docs/analysts.md).
public enum ColumnType: String, Sendable {
    case string, integer, rate, boolean, instant, date, month
    /// An integer number of milliunits of the row's currency (docs/money.md): 4990 is 4.99.
    case money
    /// An ISO 4217 currency code.
    case currency
    /// A JSON array of strings (NDJSON files only), e.g. `eligibleWinBackOfferIds`.
    case stringArray = "string[]"
}
