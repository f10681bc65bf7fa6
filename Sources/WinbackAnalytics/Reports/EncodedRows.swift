/// Consecutive rows' typed values (each an ``EncodedRow`` behind its 4-byte little-endian length): a chunk of a
/// table handed from the task that renders its CSV to the task that writes its Parquet file, so each row's values
/// are computed once (``SubscriptionsReport/append(_:to:values:)``).
public struct EncodedRows: Sendable {
    /// The encoded rows.
    public private(set) var bytes: [UInt8] = []
    /// The number of rows.
    public private(set) var count = 0

    /// No rows yet.
    public init() {}

    /// Appends a row whose cells `write` hands to the encoder it is given.
    mutating func append(_ write: (inout EncodedRow.Encoder) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        var encoder = EncodedRow.Encoder()
        swap(&encoder.bytes, &bytes)
        write(&encoder)
        swap(&encoder.bytes, &bytes)
        let length = UInt32(truncatingIfNeeded: bytes.count - start - 4)
        for offset in 0..<4 { bytes[start + offset] = UInt8(truncatingIfNeeded: length >> UInt32(8 * offset)) }
        count += 1
    }

    /// Hands each row's values to `fields` in order, calling `endRow` after each row's cells.
    public func replay<Fields: RowFields, Failure: Error>(
        to fields: inout Fields, endRow: () throws(Failure) -> Void
    ) throws(Failure) {
        var index = 0
        while index + 4 <= bytes.count {
            var length = 0
            for offset in 0..<4 { length |= Int(bytes[index + offset]) << (8 * offset) }
            let start = index + 4
            _ = EncodedRow.replay(bytes[start..<min(bytes.count, start + length)], to: &fields)
            try endRow()
            index = start + length
        }
    }
}
