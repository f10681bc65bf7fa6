/// RFC 4180 CSV lines (docs/analysts.md): a field is quoted iff it contains `,`, `"`, `\r` or `\n`
/// (quotes doubled); `nil` is an empty field; every row ends with `\n`.
public enum CSVFormat {
    /// One RFC 4180 line of `fields` with its newline; `nil` is an empty field.
    public static func line(_ fields: [String?]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(fields.count) { $0 + ($1?.utf8.count ?? 0) } + 8)
        append(fields, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of `fields` (with its `\n`) to `output` as UTF-8, building no `String`: the report
    /// writers put rows straight into the bytes they compress.
    public static func append(_ fields: [String?], to output: inout [UInt8]) {
        for index in fields.indices {
            if index > 0 { output.append(0x2C) }
            guard var field = fields[index] else { continue }
            field.withUTF8 { appendField($0, to: &output) }
        }
        output.append(0x0A)
    }

    /// The fields of one line written by ``line(_:)`` (its newline optional): empty fields are `nil`,
    /// quoted fields unquoted. The inverse of ``line(_:)``, for rows the ledger keeps.
    public static func fields(of line: String) -> [String?] {
        var fields: [String?] = []
        var current: [UInt8] = []
        var isQuoted = false
        var wasQuoted = false
        let bytes = Array(line.utf8)
        var index = 0
        func finish() {
            fields.append(current.isEmpty && !wasQuoted ? nil : String(decoding: current, as: UTF8.self))
            current = []
            wasQuoted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            if isQuoted {
                if byte == 0x22, index + 1 < bytes.count, bytes[index + 1] == 0x22 {
                    current.append(0x22)
                    index += 1
                } else if byte == 0x22 {
                    isQuoted = false
                } else {
                    current.append(byte)
                }
            } else if byte == 0x22 {
                isQuoted = true
                wasQuoted = true
            } else if byte == 0x2C {
                finish()
            } else if byte == 0x0A, index == bytes.count - 1 {
                break
            } else {
                current.append(byte)
            }
            index += 1
        }
        finish()
        return fields
    }

    /// Appends one field's bytes, quoted if they need it (no separator).
    static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else {
            output.append(contentsOf: bytes)
            return
        }
        output.append(0x22)
        for byte in bytes {
            if byte == 0x22 { output.append(0x22) }
            output.append(byte)
        }
        output.append(0x22)
    }
}
