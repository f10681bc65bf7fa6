/// A row of a published table, defined once with typed values (docs/analysts.md): the CSV cells are rendered
/// from them, and the page reads the values themselves (a wrong column is a compile error).
public protocol TableRow: Sendable {
    /// The row's cells in column order, as the CSV holds them (`nil` is empty).
    var cells: [String?] { get }
}
