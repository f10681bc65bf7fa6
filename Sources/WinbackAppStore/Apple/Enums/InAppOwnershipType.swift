/// Apple's `InAppOwnershipType` values (wire type: string), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum InAppOwnershipType: String, AppleEnum {
    case familyShared = "FAMILY_SHARED"
    case purchased = "PURCHASED"
}
