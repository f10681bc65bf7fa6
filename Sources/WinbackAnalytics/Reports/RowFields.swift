/// Where the fields of a report row go, in column order: a `[String?]` (``TextRowFields``) or CSV bytes
/// (``CSVRowFields``). A report that defines its row once over this writes the same values both ways.
protocol RowFields {
    /// A text field; `nil` is empty.
    mutating func text(_ value: String?)
    /// A decimal integer; `nil` is empty.
    mutating func integer(_ value: Int64?)
    /// An instant, epoch milliseconds, as ``InstantFormat/iso8601(milliseconds:)``; `nil` is empty.
    mutating func instant(_ milliseconds: Int64?)
}
