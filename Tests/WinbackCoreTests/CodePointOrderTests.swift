import Testing
import WinbackAnalytics

@Suite struct CodePointOrderTests {
    /// (lhs, rhs, sign of the comparison): UTF-8 bytes, so code-point order, shorter first on a common prefix.
    @Test(arguments: [
        ("", "", 0), ("", "a", -1), ("a", "", 1), ("abc", "abd", -1), ("abc", "ab", 1),
        ("Z", "a", -1),  // code point order, not case-insensitive
        ("z", "é", -1),  // U+00E9 after every ASCII letter
        ("é", "\u{1F600}", -1),  // a 2-byte sequence before a 4-byte one
        ("\u{E9}", "e\u{301}", 1),  // canonically equivalent, but different code points: not equal here
        ("7e3fb20b-4cdb-47cc-936d-99d65f608138", "7e3fb20b-4cdb-47cc-936d-99d65f608138", 0),
        ("a long string beyond the small-string size", "a long string beyond the small-string size!", -1),
        ("10", "9", -1),  // not numeric order (IdentifierOrder is)
    ])
    func comparesUTF8Bytes(_ lhs: String, _ rhs: String, _ sign: Int) {
        #expect(CodePointOrder.compare(lhs, rhs).signum() == sign)
        #expect(CodePointOrder.compare(rhs, lhs).signum() == -sign)
        #expect(CodePointOrder.less(lhs, rhs) == (sign < 0))
        #expect(
            CodePointOrder.compare(lhs, rhs).signum()
                == (lhs.utf8.elementsEqual(rhs.utf8) ? 0 : lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1))
    }
}
