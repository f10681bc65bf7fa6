/// A column's type in a Parquet file (docs/analysts.md): its physical type and the logical type readers see.
public enum ParquetColumnType: Sendable, Equatable {
    /// UTF-8 text: BYTE_ARRAY, logical STRING.
    case string
    /// A whole number: INT64.
    case int64
    /// A fixed-point number: INT64 holding the unscaled value, logical DECIMAL(18, scale). Milliunits of
    /// money are DECIMAL(18, 3); rates DECIMAL(18, 6).
    case decimal(scale: Int32)
    /// A calendar day: INT32 days since 1970-01-01, logical DATE.
    case date
    /// An instant: INT64 milliseconds since the epoch, logical TIMESTAMP(MILLIS, UTC).
    case timestampMillis
    /// BOOLEAN.
    case boolean

    /// Parquet's physical type id (BOOLEAN 0, INT32 1, INT64 2, BYTE_ARRAY 6).
    var physicalType: Int32 {
        switch self {
        case .string: 6
        case .int64, .decimal, .timestampMillis: 2
        case .date: 1
        case .boolean: 0
        }
    }

    /// The legacy converted type (UTF8 0, DECIMAL 5, DATE 6, TIMESTAMP_MILLIS 9), for older readers.
    var convertedType: Int32? {
        switch self {
        case .string: 0
        case .decimal: 5
        case .date: 6
        case .timestampMillis: 9
        case .int64, .boolean: nil
        }
    }
}

/// One value of a row: the unscaled integer of an INT64/INT32 column (days for a date), a string's bytes,
/// or a boolean.
public enum ParquetValue: Sendable, Equatable {
    /// An INT64 value, a decimal's unscaled value, a timestamp's milliseconds or a date's days.
    case integer(Int64)
    /// A string's UTF-8 bytes.
    case bytes([UInt8])
    /// A BOOLEAN value.
    case boolean(Bool)
}
