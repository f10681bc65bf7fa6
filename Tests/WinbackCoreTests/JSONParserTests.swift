import Testing
import WinbackAppStore

@Suite struct JSONParserTests {
    @Test func integersStayExactAndFractionsAreDoubles() throws {
        let value = try JSONParser.parse(#"{"a": 1795352104214, "b": 1.5, "c": -0, "d": 1e3}"#)
        #expect(value["a"] == .integer(1_795_352_104_214))
        #expect(value["b"] == .double(1.5))
        #expect(value["c"] == .integer(0))
        #expect(value["d"] == .double(1000))
    }

    @Test(arguments: [
        ("9223372036854775807", JSONValue.integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("-9223372036854775809", .double(-9_223_372_036_854_775_808)),
        ("18446744073709551616", .double(18_446_744_073_709_551_616)), ("-7", .integer(-7)), ("0", .integer(0)),
    ])
    func integersAtTheInt64BoundsStayExactOrBecomeDoubles(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test func memberRangesPointAtTheValueText() throws {
        let text = #"{"k": [1, "x"], "s": "jws"}"#
        let value = try JSONParser.parse(text)
        let member = try #require(value.member("s"))
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[member.range], as: UTF8.self) == "\"jws\"")
    }

    @Test func escapesAndSurrogatesDecode() throws {
        let value = try JSONParser.parse(#""a\"b\\c\n\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c\né😀"))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "tru", "\"\\x\"", "{} {}", "\"\u{01}\""])
    func malformedTextThrows(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func renderRoundTrips() throws {
        let text = #"{"a":[1,true,null,"q\"\n"],"b":{"c":-2}}"#
        #expect(JSONText.render(try JSONParser.parse(text)) == text)
    }
}

@Suite struct JSONTextTests {
    @Test(arguments: [
        ("plain", "\"plain\""), ("a\"b", "\"a\\\"b\""), ("back\\slash", "\"back\\\\slash\""), ("line\nfeed\ttab", "\"line\\nfeed\\ttab\""),
        ("\u{01}", "\"\\u0001\""), ("é😀", "\"é😀\""),
    ])
    func quotingEscapesOnlyWhatJSONRequires(_ value: String, _ expected: String) throws {
        #expect(JSONText.quoted(value) == expected)
        #expect(try JSONParser.parse(expected) == .string(value))
    }
}

@Suite struct JSONStringScanTests {
    /// The 8-bytes-at-a-time scan must stop at a quote, backslash or control byte wherever it falls.
    @Test(arguments: [("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("é", "é"), ("\\u00e9", "é")])
    func specialBytesAreFoundAtEveryOffset(_ escaped: String, _ decoded: String) throws {
        for length in 0..<20 {
            for position in 0...length {
                let prefix = String(repeating: "a", count: position)
                let suffix = String(repeating: "b", count: length - position)
                let value = try JSONParser.parse("{\"longerThanFifteenBytes\":\"\(prefix)\(escaped)\(suffix)\"}")
                #expect(value["longerThanFifteenBytes"] == .string(prefix + decoded + suffix), "length \(length) position \(position)")
            }
        }
    }

    @Test(arguments: [0, 7, 8, 9, 15, 16, 17])
    func controlCharactersAreRejectedAtEveryOffset(_ position: Int) {
        let text = "\"" + String(repeating: "a", count: position) + "\u{01}" + String(repeating: "b", count: 9) + "\""
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func knownLongKeysAreShared() throws {
        let value = try JSONParser.parse(
            "{\"originalTransactionId\":\"1\",\"originalTransactionIdX\":\"2\",\"subscriptionGroupIdentifier\":\"3\"}")
        #expect(value.objectMembers?.map(\.key) == ["originalTransactionId", "originalTransactionIdX", "subscriptionGroupIdentifier"])
        #expect(value["originalTransactionId"] == .string("1") && value["originalTransactionIdX"] == .string("2"))
    }
}
