/// A row of a published table, defined once with typed values (docs/analysts.md): ``write(to:)`` hands them to
/// a ``RowFields`` in column order, one call of the column's type per column, and every rendering comes from
/// there: the CSV text, the Parquet columns, the ``cells`` the tests read. The page reads the values themselves
/// (a wrong column is a compile error).
public protocol TableRow: Sendable {
    /// Hands the row's values to `fields`, in the schema's column order.
    func write(to fields: inout some RowFields)
}

extension TableRow {
    /// The row's cells in column order, as the CSV holds them (`nil` is empty).
    public var cells: [String?] {
        var fields = TextRowFields()
        write(to: &fields)
        return fields.values
    }
}
