import Testing
import WinbackAppStore

@Suite struct InstantFormatTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_795_352_104_214, "2026-11-22T12:55:04.214Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
    ])
    func formatsUTCInstants(_ milliseconds: Int64, _ expected: String) {
        #expect(InstantFormat.iso8601(milliseconds: milliseconds) == expected)
    }

    /// Appending writes the text `iso8601` returns, in the four-digit years and outside them.
    @Test(arguments: [0, -1, 1_795_352_104_214, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001, Int64.max / 2] as [Int64])
    func appendsTheSameText(_ milliseconds: Int64) {
        var bytes: [UInt8] = [0x2C]
        InstantFormat.appendISO8601(milliseconds: milliseconds, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "," + InstantFormat.iso8601(milliseconds: milliseconds))
    }

    @Test func daysRoundTrip() {
        for days in stride(from: Int64(-1000), through: 30_000, by: 37) {
            let (year, month, day) = InstantFormat.civil(fromDays: days)
            #expect(InstantFormat.days(year: year, month: month, day: day) == days)
        }
    }
}
