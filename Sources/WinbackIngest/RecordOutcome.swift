import WinbackAnalytics

/// What became of one record.
public enum RecordOutcome: Sendable {
    case accepted(AcceptedRecord)
    case rejected(Rejection)

    /// Where the record was found.
    public var location: RecordLocation {
        switch self {
        case .accepted(let record): record.location
        case .rejected(let rejection): rejection.location
        }
    }
}
