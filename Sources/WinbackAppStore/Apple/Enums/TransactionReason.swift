/// Apple's `TransactionReason` values (wire type: string), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum TransactionReason: String, AppleEnum {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}
