/// A JWS whose signature no longer matches its signing input, for tests of the signature check.
public enum DamagedSignature {
    /// `jws` with one character inside its signature segment changed (not the last one, whose padding bits
    /// a change could turn into a malformed segment instead).
    public static func of(_ jws: String) -> String {
        var bytes = Array(jws.utf8)
        let position = bytes.count - 10
        bytes[position] = bytes[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return String(decoding: bytes, as: UTF8.self)
    }
}
