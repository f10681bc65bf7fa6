import Foundation
import Testing

@testable import WinbackCrypto

/// The base64 decoder against Foundation's, for every length up to a few groups and every position of a
/// bad character: the group-table loop, the last full group and the 2- and 3-character tails each decide.
@Suite struct Base64Tests {
    /// Deterministic bytes of every value (a linear congruential sequence).
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test(arguments: 0...70)
    func roundTripsEveryLength(_ count: Int) throws {
        let data = Self.bytes(count, seed: UInt64(count))
        let standard = Data(data).base64EncodedString()
        #expect(Base64.encodeStandard(data) == standard)
        #expect(Base64.decodeStandard(standard) == data)
        let url = Base64.encodeURL(data)
        #expect(
            url
                == standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: ""))
        #expect(Base64.decodeURL(url) == data)
        #expect(Base64.decodeURL(url + String(repeating: "=", count: (4 - url.count % 4) % 4)) == data)

        // Into a caller's buffer of exactly `decodedCapacity` bytes: the count written and those bytes.
        let utf8 = Array(url.utf8)
        var output = [UInt8](repeating: 0xAA, count: Base64.decodedCapacity(utf8.count))
        let written = utf8.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { Base64.decodeURL(buffer: input, into: $0) }
        }
        #expect(written == count)
        #expect(Array(output.prefix(written ?? 0)) == data)
    }

    /// A character outside the alphabet at any position is refused, in either alphabet.
    @Test(arguments: [UInt8(ascii: "*"), UInt8(ascii: "."), 0x00, 0x80, 0xFF, UInt8(ascii: " ")])
    func refusesABadCharacterAnywhere(_ bad: UInt8) {
        let text = Array(Base64.encodeURL(Self.bytes(30, seed: 9)).utf8)  // 40 characters, no tail
        for position in text.indices {
            var edited = text
            edited[position] = bad
            #expect(Base64.decodeURL(bytes: edited) == nil, "position \(position)")
            #expect(Base64.decodeStandard(bytes: edited) == nil, "position \(position)")
        }
        for length in [38, 39] {  // a 2- and a 3-character tail
            for position in 0..<length {
                var edited = Array(text.prefix(length))
                edited[position] = bad
                #expect(Base64.decodeURL(bytes: edited) == nil, "length \(length), position \(position)")
            }
        }
    }

    /// `-_` belong to base64url only and `+/` to standard base64 only.
    @Test func alphabetsAreKeptApart() {
        #expect(Base64.decodeURL("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Base64.decodeStandard("+/+/") == [0xFB, 0xFF, 0xBF])
        #expect(Base64.decodeURL("AAAA+/+/") == nil)
        #expect(Base64.decodeStandard("AAAA-_-_") == nil)
    }

    /// Padding and the unused bits of a tail, as RFC 4648 §3.5 lets a strict decoder check them.
    @Test(
        arguments: [
            ("QQ==", [UInt8(0x41)], true), ("QUI=", [0x41, 0x42], true), ("QQ", [0x41], false), ("QUI", [0x41, 0x42], false),
            ("QR==", nil, true), ("QUJ=", nil, true), ("QR", nil, false), ("QUJ", nil, false),  // unused bits set
            ("QQ=", nil, true), ("Q===", nil, true), ("Q", nil, false), ("QUJDR", nil, false), ("QQ=A", nil, true),
            ("", [], true), ("", [], false),
        ] as [(String, [UInt8]?, Bool)])
    func paddingAndTrailingBits(_ text: String, _ expected: [UInt8]?, _ standard: Bool) {
        #expect((standard ? Base64.decodeStandard(text) : Base64.decodeURL(text)) == expected)
    }

    /// Standard base64 requires its padding; base64url takes it or not.
    @Test func standardRequiresPadding() {
        #expect(Base64.decodeStandard("QQ") == nil)
        #expect(Base64.decodeURL("QQ==") == [0x41])
    }

    /// The SSSE3 blocks and the scalar loop give the same bytes and the same refusals: the text of every
    /// byte count up to 120 (160 characters, ten blocks), valid and with a character just outside each range of the alphabet (and `=`,
    /// `+`, `/`, bytes from 0x80) at positions through every block and the tail.
    @Test func vectorizedBlocksAgreeWithTheScalarLoop() {
        let outside: [UInt8] = [0x40, 0x5B, 0x60, 0x7B, 0x2F, 0x3A, 0x2C, 0x2E, 0x5E, 0x7F, 0x3D, 0x2B, 0x80, 0xFF, 0x00]
        func decoded(_ text: [UInt8], vectorized: Bool) -> [UInt8]? {
            // The decoder gets exactly `decodedCapacity` bytes; 32 guard bytes after them must stay untouched.
            let capacity = Base64.decodedCapacity(text.count)
            var output = [UInt8](repeating: 0xAA, count: capacity + 32)
            let written = text.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer {
                    Base64.decodeURL(buffer: input, into: UnsafeMutableBufferPointer(rebasing: $0[0..<capacity]), vectorized: vectorized)
                }
            }
            #expect(output[capacity...].allSatisfy { $0 == 0xAA }, "a store past the buffer, \(text.count) characters")
            return written.map { Array(output.prefix($0)) }
        }
        var compared = 0
        for count in 0...120 {
            let text = Array(Base64.encodeURL(Self.bytes(count, seed: UInt64(count) &+ 77)).utf8)
            let length = text.count
            var variants = [text]
            for position in stride(from: 0, to: length, by: 5) {
                for bad in outside where (position + Int(bad)) % 3 == 0 {
                    var edited = text
                    edited[position] = bad
                    variants.append(edited)
                }
            }
            for variant in variants {
                let vectorized = decoded(variant, vectorized: true)
                #expect(vectorized == decoded(variant, vectorized: false), "\(String(decoding: variant, as: UTF8.self))")
                // `=` may end a text as padding; anything else outside the alphabet is refused.
                if variant != text, !variant.contains(UInt8(ascii: "=")) { #expect(vectorized == nil) }
                compared += 1
            }
            #expect(decoded(text, vectorized: true) == Self.bytes(count, seed: UInt64(count) &+ 77), "length \(length)")
        }
        #expect(compared > 2000)

        // The vector decoder takes every character of the alphabet: 8 rounds of all 64 are decoded in vector
        // blocks but the last 16 characters (whose 16-byte store would pass the exact-size output).
        #if arch(x86_64)
            let everyCharacter = Array(String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", count: 8).utf8)
            #expect(everyCharacter.withUnsafeBufferPointer { Base64.vectorizedCount($0) } == everyCharacter.count - 16)
        #endif

        // Every byte value in an AVX2 block, an SSSE3 block, the last full group and the tail of 160 characters.
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let text = Array(Base64.encodeURL(Self.bytes(119, seed: 5)).utf8)  // 159 characters: a 3-character tail
        for position in [0, 15, 16, 31, 33, 100, 127, 128, 143, 150, 155, 158] {
            for byte in UInt8.min...UInt8.max {
                var edited = text
                edited[position] = byte
                let vectorized = decoded(edited, vectorized: true)
                #expect(vectorized == decoded(edited, vectorized: false), "byte \(byte) at \(position)")
                if !alphabet.contains(byte), byte != UInt8(ascii: "=") { #expect(vectorized == nil, "byte \(byte) at \(position)") }
            }
        }
    }
}
