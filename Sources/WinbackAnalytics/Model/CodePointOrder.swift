#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Strings ordered by code point: their UTF-8 bytes compared with `memcmp` (UTF-8 byte order is code-point
/// order), shorter first on a common prefix. Equality here is byte equality, not `String`'s canonical
/// equivalence.
///
/// The project's one code-point order ("text by code point" of docs/analysts.md): report key columns
/// (``TextOrder``), text identifiers (``IdentifierOrder``), account keys, campaign ids, input paths.
/// It compares UTF-8 bytes with `memcmp`: the generic `utf8.lexicographicallyPrecedes` was most of a
/// campaign selection at nightly scale (docs/performance.md).
public enum CodePointOrder {
    /// Negative, zero or positive as `lhs` sorts before, with, or after `rhs`.
    public static func compare(_ lhs: String, _ rhs: String) -> Int {
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                guard common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
                    return left.count - right.count
                }
                let order = Int(memcmp(leftBase, rightBase, common))
                return order != 0 ? order : left.count - right.count
            }
        }
        if let fast, let order = fast { return order }
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }

    /// `true` when `lhs` sorts before `rhs`.
    public static func less(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) < 0
    }
}
