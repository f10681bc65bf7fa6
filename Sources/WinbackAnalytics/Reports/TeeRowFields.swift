/// A row's values handed to two ``RowFields`` at once: its CSV bytes and its encoded values
/// (``SubscriptionsReport/append(_:to:values:)``), so they are computed once for both.
struct TeeRowFields: RowFields {
    var csv: CSVRowFields
    var values: EncodedRow.Encoder

    mutating func text(_ value: String?) {
        csv.text(value)
        values.text(value)
    }

    mutating func integer(_ value: Int64?) {
        csv.integer(value)
        values.integer(value)
    }

    mutating func instant(_ milliseconds: Int64?) {
        csv.instant(milliseconds)
        values.instant(milliseconds)
    }

    mutating func rate(_ millionths: Int64?) {
        csv.rate(millionths)
        values.rate(millionths)
    }

    mutating func money(_ milliunits: Int64?) {
        csv.money(milliunits)
        values.money(milliunits)
    }

    mutating func date(_ days: Int64?) {
        csv.date(days)
        values.date(days)
    }

    mutating func boolean(_ value: Bool?) {
        csv.boolean(value)
        values.boolean(value)
    }
}
