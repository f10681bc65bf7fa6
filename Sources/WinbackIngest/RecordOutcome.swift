import WinbackCore

/// What became of one record.
public enum RecordOutcome: Sendable {
    case accepted(AcceptedRecord)
    case rejected(Rejection)
}
