/// An enumeration of Apple wire values. Apple adds cases every few months, so models keep the raw value
/// and expose this typed view, which is `nil` for an unknown value (counted as a warning, never a rejection).
public protocol AppleEnum: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue: Sendable & Hashable {}

extension AppleEnum {
    /// A warning message when `raw` is present but not one of the known values, else `nil`.
    ///
    /// Example: `OfferType.unknownValueWarning(9, field: "offerType")` is
    /// `"unknown offerType value '9' (OfferType)"`.
    public static func unknownValueWarning(_ raw: RawValue?, field: String) -> String? {
        guard let raw, Self(rawValue: raw) == nil else { return nil }
        return "unknown \(field) value '\(raw)' (\(String(describing: Self.self)))"
    }
}
