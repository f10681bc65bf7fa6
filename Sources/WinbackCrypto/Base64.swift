import CBase64

/// Base64 (RFC 4648) for JWS: strict standard base64 for `x5c` entries, base64url with optional padding
/// for JWS segments. Purpose-built because `String.replacingOccurrences` + `Data(base64Encoded:)` costs
/// more than the signature check itself at export sizes.
public enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// An alphabet's decoding tables.
    struct Decoding: Sendable {
        /// The 6-bit value of each byte, `0xFF` outside the alphabet.
        let values: [UInt8]
        /// One table of 256 entries per position in a four-character group: entry `c` of table `k` is the
        /// value of character `c` moved to where it lands in the group's three bytes, laid out so that a
        /// little-endian 32-bit store of `t0[a] | t1[b] | t2[c] | t3[d]` writes those bytes in order; a
        /// character outside the alphabet sets the fourth byte (``invalidGroup``). One load and an OR per
        /// character and one store per group, instead of shifting each output byte together.
        let groups: [UInt32]
        /// base64url: whole blocks go through the vector decoder first (`CBase64`: AVX2, then SSSE3).
        let isURL: Bool

        init(alphabet: [UInt8], isURL: Bool) {
            self.isURL = isURL
            var values = [UInt8](repeating: 0xFF, count: 256)
            for (index, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(index) }
            var groups = [UInt32](repeating: Base64.invalidGroup, count: 4 * 256)
            for position in 0..<4 {
                for character in 0..<256 where values[character] != 0xFF {
                    // The group is a << 18 | b << 12 | c << 6 | d; its top byte goes first.
                    let group = UInt32(values[character]) << (18 - 6 * UInt32(position))
                    groups[position * 256 + character] = UInt32(
                        littleEndian: (group >> 16) | (group >> 8 & 0xFF) << 8 | (group & 0xFF) << 16)
                }
            }
            self.values = values
            self.groups = groups
        }
    }

    /// Set in a group's 32 bits (as loaded on this machine) when one of its characters is not in the alphabet.
    static let invalidGroup = UInt32(littleEndian: 0xFF00_0000)

    private static let standard = Decoding(alphabet: standardAlphabet, isURL: false)
    private static let url = Decoding(alphabet: urlAlphabet, isURL: true)

    /// Decodes strict standard base64: alphabet `+/`, length a multiple of 4, `=` padding only at the end,
    /// unused trailing bits zero. Returns `nil` otherwise.
    public static func decodeStandard(bytes text: some Collection<UInt8>) -> [UInt8]? {
        decode(text, standard, requirePadding: true)
    }

    /// Decodes base64url (`-_`), padding optional. Returns `nil` on any other character.
    public static func decodeURL(bytes text: some Collection<UInt8>) -> [UInt8]? {
        decode(text, url, requirePadding: false)
    }

    /// Decodes base64url from a string.
    public static func decodeURL(_ text: String) -> [UInt8]? { decodeURL(bytes: text.utf8) }

    /// Decodes strict standard base64 from a string.
    public static func decodeStandard(_ text: String) -> [UInt8]? { decodeStandard(bytes: text.utf8) }

    private static func decode(_ text: some Collection<UInt8>, _ decoding: Decoding, requirePadding: Bool) -> [UInt8]? {
        if let result = text.withContiguousStorageIfAvailable({ decode(buffer: $0, decoding, requirePadding: requirePadding) }) {
            return result
        }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0, decoding, requirePadding: requirePadding) }
    }

    /// Decodes base64url from contiguous bytes (no copy of the input).
    public static func decodeURL(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        decode(buffer: buffer, url, requirePadding: false)
    }

    /// Decodes base64url from `input` into `output` (at least ``decodedCapacity(_:)`` bytes) and returns
    /// the number of bytes written, or `nil` when `input` is not base64url. Nothing is allocated, so a
    /// verifier can decode a payload into a temporary buffer.
    public static func decodeURL(buffer input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        decode(buffer: input, url, requirePadding: false, into: output)
    }

    /// ``decodeURL(buffer:into:)`` with whole blocks through the vector decoder or not (tests compare the two).
    static func decodeURL(buffer input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, vectorized: Bool)
        -> Int?
    {
        decode(buffer: input, url, requirePadding: false, into: output, vectorized: vectorized)
    }

    /// The characters of `input` the vector decoder takes (whole blocks, all in the base64url alphabet), for
    /// tests: 0 on a CPU without SSSE3.
    static func vectorizedCount(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        guard let source = input.baseAddress else { return 0 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: decodedCapacity(input.count)) { output in
            guard let target = output.baseAddress else { return 0 }
            return winback_base64url_decode_blocks(source, input.count, target, output.count)
        }
    }

    /// An upper bound of the decoded size of `encodedCount` base64 characters.
    public static func decodedCapacity(_ encodedCount: Int) -> Int { (encodedCount + 3) / 4 * 3 }

    private static func decode(buffer input: UnsafeBufferPointer<UInt8>, _ decoding: Decoding, requirePadding: Bool) -> [UInt8]? {
        var isValid = true
        let output = [UInt8](unsafeUninitializedCapacity: decodedCapacity(input.count)) { out, initialized in
            if let written = decode(buffer: input, decoding, requirePadding: requirePadding, into: out) {
                initialized = written
            } else {
                isValid = false
                initialized = 0
            }
        }
        return isValid ? output : nil
    }

    private static func decode(
        buffer input: UnsafeBufferPointer<UInt8>, _ decoding: Decoding, requirePadding: Bool, into out: UnsafeMutableBufferPointer<UInt8>,
        vectorized: Bool = true
    ) -> Int? {
        var count = input.count
        var padding = 0
        while count > 0, input[count - 1] == UInt8(ascii: "=") {
            padding += 1
            count -= 1
        }
        if padding > 2 { return nil }
        if requirePadding {
            guard (count + padding) % 4 == 0 else { return nil }
        } else if padding > 0, (count + padding) % 4 != 0 {
            return nil
        }
        let remainder = count % 4
        if remainder == 1 { return nil }
        let fullEnd = count - remainder
        precondition(out.count >= fullEnd / 4 * 3 + (remainder == 0 ? 0 : remainder - 1), "base64 output buffer too small")
        guard let source = input.baseAddress, let target = out.baseAddress else { return 0 }
        var index = 0
        var written = 0
        if decoding.isURL, vectorized, fullEnd > 4 {
            // Whole vector blocks first, 32 or 16 characters, 3 bytes per 4 (a payload is over a kilobyte of
            // base64url, so this is most of its decoding). They stop short of the last full group, which
            // is stored exactly below, and at a block with a character outside the alphabet, which the loop
            // below then refuses.
            index = winback_base64url_decode_blocks(source, fullEnd - 4, target, out.count)
            written = index / 4 * 3
        }
        // Every full group but the last is stored as four bytes (the next group overwrites the fourth).
        let invalid = decoding.groups.withUnsafeBufferPointer { groups -> UInt32 in
            guard let t = groups.baseAddress else { return 1 }
            var invalid: UInt32 = 0
            while index + 4 < fullEnd {
                let group =
                    t[Int(source[index])] | t[256 + Int(source[index + 1])] | t[512 + Int(source[index + 2])]
                    | t[768 + Int(source[index + 3])]
                invalid |= group
                UnsafeMutableRawPointer(target + written).storeBytes(of: group, as: UInt32.self)
                written += 3
                index += 4
            }
            return invalid & invalidGroup
        }
        if invalid != 0 { return nil }
        return decoding.values.withUnsafeBufferPointer { table -> Int? in
            if index < fullEnd {
                let a = table[Int(source[index])], b = table[Int(source[index + 1])]
                let c = table[Int(source[index + 2])], d = table[Int(source[index + 3])]
                if (a | b | c | d) & 0xC0 != 0 { return nil }
                target[written] = a << 2 | b >> 4
                target[written + 1] = b << 4 | c >> 2
                target[written + 2] = c << 6 | d
                written += 3
                index += 4
            }
            if remainder == 2 {
                let a = table[Int(source[index])], b = table[Int(source[index + 1])]
                if (a | b) & 0xC0 != 0 || b & 0x0F != 0 { return nil }
                target[written] = a << 2 | b >> 4
                written += 1
            } else if remainder == 3 {
                let a = table[Int(source[index])], b = table[Int(source[index + 1])], c = table[Int(source[index + 2])]
                if (a | b | c) & 0xC0 != 0 || c & 0x03 != 0 { return nil }
                target[written] = a << 2 | b >> 4
                target[written + 1] = b << 4 | c >> 2
                written += 2
            }
            return written
        }
    }

    /// Standard base64 with padding.
    public static func encodeStandard(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        append(Array(bytes), alphabet: standardAlphabet, pad: true, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// base64url without padding (JWS segments).
    public static func encodeURL(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        appendURL(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the base64url text of `bytes`, without padding, to `output`.
    public static func appendURL(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        append(Array(bytes), alphabet: urlAlphabet, pad: false, to: &output)
    }

    private static func append(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            output.append(alphabet[Int(value & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let value = UInt32(bytes[index]) << 16
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            if pad { output.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")]) }
        } else if rest == 2 {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            if pad { output.append(UInt8(ascii: "=")) }
        }
    }
}
