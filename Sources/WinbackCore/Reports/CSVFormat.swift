/// RFC 4180 CSV lines (SPEC §6, §10): a field is quoted iff it contains `,`, `"`, `\r` or `\n`
/// (quotes doubled); `nil` is an empty field; every row ends with `\n`.
public enum CSVFormat {
    public static func line(_ fields: [String?]) -> String {
        var output = ""
        output.reserveCapacity(fields.reduce(fields.count) { $0 + ($1?.utf8.count ?? 0) })
        for (index, field) in fields.enumerated() {
            if index > 0 { output += "," }
            guard var field else { continue }
            if field.withUTF8({ bytes in bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A } }) {
                output += "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            } else {
                output += field
            }
        }
        return output + "\n"
    }
}
