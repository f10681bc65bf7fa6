/// A non-negative decimal held exactly: `units / 10^scale` in lowest terms (0.19 is 19 / 10², never the binary
/// approximation of a `Double`). Exchange rates, tax rates and commission rates are these, so money
/// arithmetic multiplies integers and rounds once.
public struct ExactDecimal: Sendable, Hashable, CustomStringConvertible {
    /// The digits as an integer.
    public let units: Int64
    /// How many of the digits are decimals, 0…``maximumScale``.
    public let scale: Int

    /// The most decimal places a value may have.
    public static let maximumScale = 12
    /// 1.
    public static let one = ExactDecimal(units: 1, scale: 0)
    /// 0.
    public static let zero = ExactDecimal(units: 0, scale: 0)

    /// `units / 10^scale`, kept in lowest terms (1.10 is 11 / 10, so equal values are equal); `scale` must
    /// be 0…``maximumScale`` and `units` non-negative.
    public init(units: Int64, scale: Int) {
        precondition(units >= 0 && (0...Self.maximumScale).contains(scale))
        var (units, scale) = (units, scale)
        while scale > 0, units % 10 == 0 {
            units /= 10
            scale -= 1
        }
        self.units = units
        self.scale = scale
    }

    /// Parses plain decimal text, `digits[.digits]` (also the exponent form `1e-05` a `Double` prints),
    /// with at most ``maximumScale`` decimals and 18 significant digits; `nil` for anything else.
    public init?(_ text: Substring) {
        var mantissa = text
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let power = Int(text[text.index(after: e)...]), abs(power) < 40 else { return nil }
            mantissa = text[..<e]
            exponent = power
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || (!fraction.isEmpty && fraction.allSatisfy(\.isASCIIDigit)) else { return nil }
        var digits = Substring(String(whole) + fraction).drop { $0 == "0" }
        var scale = fraction.count - exponent
        // Trailing zeros of the fraction carry no value.
        while scale > 0, digits.last == "0" {
            digits = digits.dropLast()
            scale -= 1
        }
        if scale < 0 {
            digits += String(repeating: "0", count: -scale)
            scale = 0
        }
        guard digits.count <= 18, scale <= Self.maximumScale else { return nil }
        self.init(units: digits.isEmpty ? 0 : Int64(digits) ?? 0, scale: scale)
    }

    /// The value of a JSON number read as a `Double` (the config parser's form), through its shortest
    /// round-tripping text, which is the text written for up to 15 significant digits.
    public init?(_ number: Double) {
        guard number.isFinite, number >= 0 else { return nil }
        self.init(Substring(number.description))
    }

    /// `10^scale`.
    public var denominator: Int64 { Self.powersOfTen[scale] }

    /// Whether the value is 0.
    public var isZero: Bool { units == 0 }

    /// Whether the value is below 1.
    public var isBelowOne: Bool { units < denominator }

    /// The shortest plain text of the value (`0.19`, `1`, `0.000642`).
    public var description: String {
        guard scale > 0 else { return String(units) }
        let digits = String(units)
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let point = padded.index(padded.endIndex, offsetBy: -scale)
        return padded[..<point] + "." + padded[point...]
    }

    static let powersOfTen: [Int64] = (0...18).map { power in (0..<power).reduce(Int64(1)) { value, _ in value * 10 } }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
