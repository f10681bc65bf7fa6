/// An accepted record with its location, what the model keeps of it and the warnings (unknown enum
/// values) its decoding raised.
public struct AcceptedRecord: Sendable, Equatable {
    /// Where the record was read.
    public var location: RecordLocation
    /// The compact form of the payload (``PayloadCompactor``); the decoded payload itself is not kept.
    public var kept: KeptPayload
    /// One message per unknown enum value in this record.
    public var warnings: [String]

    /// An accepted record read at `location`.
    public init(location: RecordLocation, kept: KeptPayload, warnings: [String]) {
        self.location = location
        self.kept = kept
        self.warnings = warnings
    }
}
