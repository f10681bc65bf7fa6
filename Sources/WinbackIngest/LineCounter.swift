/// Byte offset → 1-based line inside one document element whose first byte is on line `first`: a record
/// inside a document is located at the line where its value starts (docs/inputs.md).
struct LineCounter {
    let bytes: [UInt8]
    /// The line of `bytes[0]`.
    let first: Int

    /// The line of `bytes[offset]`.
    func line(at offset: Int) -> Int {
        first + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
