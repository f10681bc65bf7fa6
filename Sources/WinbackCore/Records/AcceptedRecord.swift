/// An accepted record with its location and the warnings (unknown enum values) its decoding raised.
public struct AcceptedRecord: Sendable, Equatable {
    public var location: RecordLocation
    public var payload: AcceptedPayload
    /// One message per unknown enum value in this record.
    public var warnings: [String]

    public init(location: RecordLocation, payload: AcceptedPayload, warnings: [String]) {
        self.location = location
        self.payload = payload
        self.warnings = warnings
    }
}
