import WinbackAppStore

/// Where the typed values of a table row go, in column order, one call per column of the table's
/// ``ReportSchema`` type (docs/analysts.md): the CSV text (``TextRowFields``, ``CSVRowFields``) or the Parquet
/// columns. A row defines its values once (``TableRow/write(to:)``) and every rendering comes from them, so
/// nothing a writer renders is parsed back.
public protocol RowFields {
    /// A `string`, `currency` or `month` cell; `nil` is empty.
    mutating func text(_ value: String?)
    /// A present text cell given by its UTF-8 bytes (valid during the call): values replayed from an
    /// ``EncodedRow``, which a Parquet column takes without building a `String` (the default builds one).
    mutating func text(utf8 bytes: UnsafeRawBufferPointer)
    /// An `integer` cell; `nil` is empty.
    mutating func integer(_ value: Int64?)
    /// An `instant` cell, epoch milliseconds (CSV: ``InstantFormat/iso8601(milliseconds:)``); `nil` is empty.
    mutating func instant(_ milliseconds: Int64?)
    /// A `rate` cell in millionths (CSV: 6 decimals, ``RateFormat/text(millionths:)``); `nil` is empty.
    mutating func rate(_ millionths: Int64?)
    /// A `money` cell in milliunits (CSV: the integer of milliunits); `nil` is empty.
    mutating func money(_ milliunits: Int64?)
    /// A `date` cell: the day's number since 1970-01-01 (CSV: `YYYY-MM-DD`); `nil` is empty.
    mutating func date(_ days: Int64?)
    /// A `boolean` cell (CSV: `true` / `false`); `nil` is empty.
    mutating func boolean(_ value: Bool?)
}

extension RowFields {
    /// Builds the `String` and hands it to ``text(_:)``.
    public mutating func text(utf8 bytes: UnsafeRawBufferPointer) {
        text(String(decoding: bytes, as: UTF8.self))
    }

    /// A `date` cell given by its day's label `YYYY-MM-DD` (the key a tally counts a day under); `nil` is empty.
    public mutating func date(label: String?) {
        date(label.flatMap(InstantFormat.days(label:)))
    }

    /// A report period's cell by its label (``ReportPeriod/label``): `YYYY-MM-DD` is a `day` (date), `YYYY-MM` a
    /// `month` (text).
    public mutating func period(label: String) {
        if label.utf8.count == 10 { date(label: label) } else { text(label) }
    }
}
