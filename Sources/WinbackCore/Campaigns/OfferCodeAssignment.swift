/// Gives one-time offer codes to a campaign's selected accounts (docs/campaigns.md): after the holdout split, in
/// account-key order, each treatment account gets the next code of the pool (file order) that no ledger row
/// holds and that is usable on the day. At the first treatment account that finds none, the selection stops:
/// that account and every later one, both variants, are not selected tonight, so the split stays unbiased.
public struct OfferCodeAssignment: Sendable, Equatable {
    /// How many of the selected accounts (a prefix, in their order) stay selected.
    public var kept: Int
    /// The code of each kept account, index-aligned; `nil` for holdout accounts.
    public var codes: [String?]
    /// Treatment accounts left without a code (from the cut on).
    public var codesShort: Int
    /// The pool's codes still usable after tonight: not held, not given tonight, not expired by the day.
    public var codesLeft: Int

    /// An assignment from its parts.
    public init(kept: Int, codes: [String?], codesShort: Int, codesLeft: Int) {
        self.kept = kept
        self.codes = codes
        self.codesShort = codesShort
        self.codesLeft = codesLeft
    }

    /// Assigns codes to `accounts` (in selection order) on `day` (`YYYY-MM-DD`); `held` is every code the
    /// ledger already gave (any campaign, any day).
    public static func assign(_ accounts: [EligibleAccount], pool: OfferCodePool, held: Set<String>, day: String) -> OfferCodeAssignment {
        var next = 0
        var codes: [String?] = []
        func nextCode() -> String? {
            while next < pool.codes.count {
                let candidate = pool.codes[next]
                next += 1
                if !held.contains(candidate.code), candidate.isUsable(on: day) { return candidate.code }
            }
            return nil
        }
        var kept = accounts.count
        for (index, account) in accounts.enumerated() {
            guard account.variant == .treatment else {
                codes.append(nil)
                continue
            }
            guard let code = nextCode() else {
                kept = index
                break
            }
            codes.append(code)
        }
        let short = accounts[kept...].filter { $0.variant == .treatment }.count
        let left = pool.codes[next...].filter { !held.contains($0.code) && $0.isUsable(on: day) }.count
        return OfferCodeAssignment(kept: kept, codes: codes, codesShort: short, codesLeft: left)
    }

    /// Apple's redemption URL of `code` for the app `appAppleId`: `https://apps.apple.com/redeem?ctx=offercodes&id=<id>&code=<code>`,
    /// the code percent-encoded (RFC 3986 unreserved characters kept).
    public static func redemptionURL(code: String, appAppleId: Int64) -> String {
        var encoded = ""
        for byte in code.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return "https://apps.apple.com/redeem?ctx=offercodes&id=\(appAppleId)&code=\(encoded)"
    }
}
