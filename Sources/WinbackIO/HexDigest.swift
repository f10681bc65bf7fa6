/// Lower-case hex of a digest (the manifest's `sha256` fields).
public enum HexDigest {
    /// `bytes` as lower-case hex, two digits a byte.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
