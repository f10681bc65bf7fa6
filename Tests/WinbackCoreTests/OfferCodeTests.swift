import Testing
import WinbackAppStore
import WinbackCore

/// The pure rules of offer codes (docs/campaigns.md): reading a pool exported from App Store Connect, giving codes in
/// order with the cut at the first treatment account without one, and the redemption URL.
@Suite struct OfferCodeTests {
    static func parse(_ text: String) -> Result<OfferCodePool, ConfigError> {
        Result { () throws(ConfigError) in try OfferCodePool.parse(text, file: "codes.csv", key: "c.offer.codes") }
    }

    @Test func poolsAsAppStoreConnectExportsThem() throws {
        // A BOM, CRLF line ends, header names in any case with spaces, extra columns, a repeated code, blank lines.
        let pool = try Self.parse("\u{FEFF}Reference Name, Code ,ExpirationDate\r\nref,AAA,2026-12-31\r\n\r\nref, BBB ,\r\nref,AAA,\r\n")
            .get()
        #expect(pool.codes == [.init(code: "AAA", expirationDate: "2026-12-31"), .init(code: "BBB")] && pool.repeated == 1)
        #expect(try Self.parse("code\nX\n").get().codes == [.init(code: "X")])
    }

    @Test(arguments: [
        ("name,other\nx,y\n", "codes.csv:1: expected a header with a 'code' column, found 'name,other'"),
        ("code,expirationDate\nA,2026-13-01\n", "codes.csv:2: expected an expirationDate YYYY-MM-DD, found '2026-13-01'"),
        ("code\nA\n,\n", "codes.csv:3: expected a code, found none"),
    ])
    func malformedPoolsNameTheLine(text: String, message: String) {
        #expect(Self.parse(text) == .failure(ConfigError(key: "c.offer.codes", message: message)))
    }

    static func account(_ key: String, _ variant: EligibleAccount.Variant) -> EligibleAccount {
        var account = EligibleAccount(
            campaignId: "c", accountKey: key, originalTransactionId: key, variant: .treatment, audience: .winBack, productId: "p",
            offerIdentifier: "ref", paidDays: 30, daysSinceLapse: 10, daysToExpiry: nil, lapseReason: .voluntary, transactionId: key,
            appAccountToken: nil)
        account.variant = variant
        return account
    }

    /// Treatment accounts take the next unheld, unexpired code in file order; holdout accounts none; at the
    /// first treatment account without a code, it and every later account are cut.
    @Test func codesInOrderAndTheCut() {
        let pool = OfferCodePool(codes: [
            .init(code: "HELD"), .init(code: "OLD", expirationDate: "2026-11-19"), .init(code: "ONE", expirationDate: "2026-11-20"),
            .init(code: "TWO"),
        ])
        let accounts = [
            Self.account("a", .treatment), Self.account("b", .holdout), Self.account("c", .treatment), Self.account("d", .holdout),
            Self.account("e", .treatment), Self.account("f", .treatment),
        ]
        let assignment = OfferCodeAssignment.assign(accounts, pool: pool, held: ["HELD"], day: "2026-11-19")
        #expect(assignment == OfferCodeAssignment(kept: 4, codes: ["ONE", nil, "TWO", nil], codesShort: 2, codesLeft: 0))
        let enough = OfferCodeAssignment.assign(Array(accounts.prefix(3)), pool: pool, held: [], day: "2026-11-18")
        #expect(enough == OfferCodeAssignment(kept: 3, codes: ["HELD", nil, "OLD"], codesShort: 0, codesLeft: 2))
    }

    @Test(arguments: [
        ("ABC123", "ABC123"), ("A B/C+?&=é", "A%20B%2FC%2B%3F%26%3D%C3%A9"), ("a-b.c_d~e", "a-b.c_d~e"),
    ])
    func redemptionURLs(code: String, encoded: String) {
        #expect(
            OfferCodeAssignment.redemptionURL(code: code, appAppleId: 1_234_567_890)
                == "https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=\(encoded)")
    }
}
