/// Apple's `AutoRenewStatus` values (wire type: integer), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum AutoRenewStatus: Int32, AppleEnum {
    case off = 0
    case on = 1
}
