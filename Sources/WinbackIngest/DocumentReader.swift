import WinbackAnalytics
import WinbackAppStore

/// Reads the records of a `.json` document as a stream (docs/inputs.md), in memory bounded by the largest
/// record, whatever the document's size.
///
/// Each element of `signedTransactions`, `notificationHistory`, `data[].lastTransactions[]` or a top-level
/// array is one record (two for a status item with both JWS), located at the line where its value starts
/// (docs/inputs.md: line 1 in Apple's one-line responses) with its path (`signedTransactions[3831]`,
/// `data[0].lastTransactions[2].signedRenewalInfo`, `[5].signedPayload`). Each
/// element is held alone and checked by ``JSONParser``; the document around the elements is only walked
/// (its wrapper fields checked when they fit the limit). A top-level object whose first signed key comes
/// before any such array (a notification body) is one record object, held whole.
///
/// `maximumRecordBytes` (`report.maxLineBytes`) bounds one element: a longer one is one `malformed_json`
/// reject keeping its first bytes, and reading goes on. A document malformed at some point keeps every
/// record read before it; the rest is one `malformed_json` reject located at the element being read (path
/// `null` when no record came before: then its `record` is the whole text, as for a document that is not
/// JSON at all).
public struct DocumentReader {
    /// Reads up to `destination.count` bytes of the document; 0 at its end.
    public typealias Read = (UnsafeMutableRawBufferPointer) throws -> Int

    /// The document's path, for the records' locations.
    public let source: String
    private var cursor: DocumentCursor
    private let batchSize: Int
    private var batch: [RawRecord] = []
    private var batchBytes = 0
    /// Records handed on before ``batch``: the first one's index in the document (``RecordOrder``).
    private var handedOn = 0
    /// Whether the document's own pin (from its first byte) is still held: no record read yet.
    private var holdsDocument = false
    /// Where the document's text starts (after a byte-order mark): offsets in messages count from there.
    private var textStart = 0
    /// The line where the element being read starts, while it is pinned.
    private var elementLine: Int?

    /// The error the byte source threw, if it did; the document then ends as a `malformed_json` reject.
    public var readError: (any Error)? { cursor.readError }

    /// The most document bytes held at once while reading (elements over the limit are not held whole).
    public var peakBufferBytes: Int { cursor.peakBufferBytes }

    /// A reader of `source`'s bytes (`read`), holding elements of at most `maximumRecordBytes` whole and handing
    /// records on in batches of at most `batchSize`.
    public init(source: String, maximumRecordBytes: Int, batchSize: Int = 4096, read: @escaping Read) {
        self.source = source
        self.batchSize = max(1, batchSize)
        cursor = DocumentCursor(limit: max(1, maximumRecordBytes), read: read)
    }

    /// Every record of the document `bytes` held in memory (tests and small documents), in order.
    public static func records(of bytes: [UInt8], source: String, maximumRecordBytes: Int = 16 << 20) async -> [RawRecord] {
        var offset = 0
        var reader = DocumentReader(source: source, maximumRecordBytes: maximumRecordBytes) { destination in
            let count = min(destination.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
        var records: [RawRecord] = []
        // Neither the source nor `emit` throws.
        try? await reader.run { batch, _ in records += batch }
        return records
    }

    /// A located break: the document is malformed here; the rest is one reject.
    private struct Break: Error {
        var reason: String
        var offset: Int
        var path: String?
    }

    /// Reads the whole document; `emit` gets its records in order, in batches, with the first one's index.
    public mutating func run(emit: ([RawRecord], _ firstIndex: Int) async throws -> Void) async throws {
        do {
            try await walk(emit: emit)
        } catch let broken as Break {
            // Located where the element being read starts (line 1 when nothing was read before the break).
            let line = handedOn + batch.count == 0 ? 1 : elementLine ?? cursor.line(at: cursor.offset)
            cursor.keepOldestPin()
            cursor.readToEnd()
            let text: [UInt8] =
                switch cursor.release() {
                case .bytes(let bytes): bytes
                case .overflowed(_, let prefix): prefix
                }
            let reason =
                readError.map { "input damaged: \($0); the rest of the file is unreadable" }
                ?? "document is not JSON: \(broken.reason) at byte \(broken.offset - textStart)"
                + (handedOn + batch.count > 0 ? "; the \(handedOn + batch.count) records before it were read" : "")
            let path = handedOn + batch.count > 0 ? broken.path : nil
            try await add(
                RawRecord(
                    location: location(path, line: line), content: .failure(RecordFailure(.malformedJSON, reason)),
                    text: RecordText(bytes: text)),
                emit: emit)
        }
        cursor.readToEnd()
        try await flush(emit)
    }

    private func location(_ path: String?, line: Int) -> RecordLocation { RecordLocation(source: source, line: line, path: path) }

    // MARK: The walk

    private mutating func walk(emit: ([RawRecord], Int) async throws -> Void) async throws {
        cursor.skipByteOrderMark()
        textStart = cursor.offset
        cursor.pin()
        holdsDocument = true
        cursor.skipWhitespace()
        switch cursor.peek() {
        case nil: throw Break(reason: "unexpected end of input", offset: cursor.offset, path: nil)
        case UInt8(ascii: "["): try await topArray(emit: emit)
        case UInt8(ascii: "{"): try await topObject(emit: emit)
        default:
            try skip(path: nil)
            try expectEnd()
            try await addWholeDocument(emit: emit)
        }
    }

    /// Nothing but whitespace may follow the top-level value.
    private mutating func expectEnd() throws {
        cursor.skipWhitespace()
        if cursor.peek() != nil {
            throw Break(reason: "unexpected data after the JSON value", offset: cursor.offset, path: nil)
        }
    }

    /// `[ element, … ]`: each element is a record object (`[i]`).
    private mutating func topArray(emit: ([RawRecord], Int) async throws -> Void) async throws {
        let source = self.source
        try await elements(path: { "[\($0)]" }, emit: emit) { reader, index in
            try await reader.element(path: "[\(index)]", emit: emit) { bytes, path, line in
                try RecordClassifier.classifyArrayElement(bytes, source: source, path: path, line: line)
            }
        }
        try expectEnd()
        if holdsDocument {
            cursor.drop()
            holdsDocument = false
        }
    }

    /// `{ … }`: a response wrapper when one of its arrays comes before any signed key, else one record object.
    private mutating func topObject(emit: ([RawRecord], Int) async throws -> Void) async throws {
        var isWrapper = false
        var hasSignedKey = false
        try await members(path: nil) { reader, key in
            switch key {
            case "signedPayload", "signedTransactionInfo", "signedRenewalInfo":
                if !isWrapper { hasSignedKey = true }
                try reader.skip(path: nil)
            case "signedTransactions", "notificationHistory", "data":
                if hasSignedKey {
                    try reader.skip(path: nil)
                } else if reader.cursor.peek() == UInt8(ascii: "[") {
                    isWrapper = true
                    try await reader.wrappedArray(key, emit: emit)
                } else if key != "data" {
                    isWrapper = true
                    let line = reader.cursor.line(at: reader.cursor.offset)
                    reader.cursor.pin()
                    try reader.skip(path: key)
                    let text = reader.heldText()
                    reader.cursor.drop()
                    try await reader.add(
                        RecordClassifier.notAnArray(key, text: text, location: reader.location(key, line: line)), emit: emit)
                } else {
                    try reader.skip(path: nil)
                }
            default:
                try reader.skip(path: nil)
            }
        }
        try expectEnd()
        if isWrapper {
            if holdsDocument {
                cursor.drop()
                holdsDocument = false
            }
        } else {
            try await addWholeDocument(emit: emit)
        }
    }

    /// The elements of `signedTransactions`, `notificationHistory` or `data`.
    private mutating func wrappedArray(_ key: String, emit: ([RawRecord], Int) async throws -> Void) async throws {
        let source = self.source
        try await elements(path: { "\(key)[\($0)]" }, emit: emit) { reader, index in
            let path = "\(key)[\(index)]"
            switch key {
            case "signedTransactions":
                try await reader.element(path: path, emit: emit) { bytes, path, line in
                    [try RecordClassifier.classifyTransactionElement(bytes, source: source, path: path, line: line)]
                }
            case "notificationHistory":
                try await reader.element(path: path, emit: emit) { bytes, path, line in
                    try [RecordClassifier.classifyHistoryElement(bytes, source: source, path: path, line: line)]
                }
            default:
                try await reader.statusGroup(path: path, emit: emit)
            }
        }
    }

    /// `data[g]`: an object whose `lastTransactions` array is streamed; anything else is one `unknown_shape`.
    private mutating func statusGroup(path: String, emit: ([RawRecord], Int) async throws -> Void) async throws {
        let source = self.source
        let line = cursor.line(at: cursor.offset)
        cursor.pin()
        guard cursor.peek() == UInt8(ascii: "{") else {
            try skip(path: path)
            let text = heldText()
            cursor.drop()
            try await add(RecordClassifier.groupWithoutTransactions(path, text: text, location: location(path, line: line)), emit: emit)
            return
        }
        var isStreamed = false
        try await members(path: path) { reader, key in
            if key == "lastTransactions", !isStreamed, reader.cursor.peek() == UInt8(ascii: "[") {
                isStreamed = true
                reader.cursor.drop()
                try await reader.elements(path: { "\(path).lastTransactions[\($0)]" }, emit: emit) { reader, index in
                    try await reader.element(path: "\(path).lastTransactions[\(index)]", emit: emit) { bytes, itemPath, line in
                        try RecordClassifier.classifyStatusItem(bytes, source: source, path: itemPath, line: line)
                    }
                }
            } else {
                try reader.skip(path: path)
            }
        }
        if !isStreamed {
            let text = heldText()
            cursor.drop()
            try await add(RecordClassifier.groupWithoutTransactions(path, text: text, location: location(path, line: line)), emit: emit)
        }
    }

    // MARK: Structure

    /// Walks `[ … ]` at the cursor, calling `each` with the index of each element (the cursor at its start).
    private mutating func elements(
        path: (Int) -> String, emit: ([RawRecord], Int) async throws -> Void,
        each: (inout DocumentReader, Int) async throws -> Void
    ) async throws {
        guard !isEmptyContainer(closedBy: UInt8(ascii: "]")) else { return }
        var index = 0
        repeat {
            cursor.skipWhitespace()
            try await each(&self, index)
            index += 1
        } while try hasNextItem(closedBy: UInt8(ascii: "]"), container: "array", path: path(index))
    }

    /// Walks `{ … }` at the cursor, calling `each` with each member's key (the cursor at its value).
    private mutating func members(path: String?, each: (inout DocumentReader, String) async throws -> Void) async throws {
        guard !isEmptyContainer(closedBy: UInt8(ascii: "}")) else { return }
        repeat {
            cursor.skipWhitespace()
            guard cursor.peek() == UInt8(ascii: "\"") else {
                throw Break(reason: "expected a member name", offset: cursor.offset, path: path)
            }
            let key = try memberName(path: path)
            cursor.skipWhitespace()
            guard cursor.peek() == UInt8(ascii: ":") else { throw Break(reason: "expected ':'", offset: cursor.offset, path: path) }
            cursor.advance()
            cursor.skipWhitespace()
            try await each(&self, key)
        } while try hasNextItem(closedBy: UInt8(ascii: "}"), container: "object", path: path)
    }

    /// Past the opening bracket at the cursor; `true` when the container is empty (its closing bracket consumed too).
    private mutating func isEmptyContainer(closedBy close: UInt8) -> Bool {
        cursor.advance()
        cursor.skipWhitespace()
        guard cursor.peek() == close else { return false }
        cursor.advance()
        return true
    }

    /// After an item: past a `,` (`true`: another item follows) or the closing bracket (`false`); anything
    /// else is where the document breaks.
    private mutating func hasNextItem(closedBy close: UInt8, container: String, path: String?) throws -> Bool {
        cursor.skipWhitespace()
        switch cursor.peek() {
        case UInt8(ascii: ","):
            cursor.advance()
            return true
        case close:
            cursor.advance()
            return false
        case nil: throw Break(reason: "unterminated \(container)", offset: cursor.offset, path: path)
        default: throw Break(reason: "expected ',' or '\(Character(Unicode.Scalar(close)))'", offset: cursor.offset, path: path)
        }
    }

    /// The member name at the cursor, decoded.
    private mutating func memberName(path: String?) throws -> String {
        let start = cursor.offset
        cursor.pin()
        try skipPinnedValue(start: start, path: path)
        let held = cursor.release()
        guard case .bytes(let bytes) = held else {
            throw Break(reason: "member name over report.maxLineBytes", offset: start, path: path)
        }
        do {
            guard case .string(let name) = try JSONParser.parse(bytes) else { return "" }
            return name
        } catch {
            throw Break(reason: error.reason, offset: start + error.offset, path: path)
        }
    }

    /// Moves past the value at the cursor, checking it with ``JSONParser`` when it fits the limit.
    private mutating func skip(path: String?) throws {
        let start = cursor.offset
        cursor.pin()
        try skipPinnedValue(start: start, path: path)
        if case .bytes(let bytes) = cursor.pinned() {
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                throw Break(reason: error.reason, offset: start + error.offset, path: path)
            }
        }
        cursor.drop()
    }

    /// Moves past the value at the cursor, pinned at `start`. Where it cannot be delimited, the break
    /// names what ``JSONParser`` finds wrong with its bytes (as a document parsed whole would), else the scan's reason.
    private mutating func skipPinnedValue(start: Int, path: String?) throws {
        do {
            try cursor.skipValue()
        } catch {
            if case .bytes(let bytes) = cursor.pinned() {
                do {
                    _ = try JSONParser.parse(bytes)
                } catch {
                    if error.reason != "unexpected end of input" {
                        throw Break(reason: error.reason, offset: start + error.offset, path: path)
                    }
                }
            }
            throw Break(reason: error.reason, offset: error.offset, path: path)
        }
    }

    /// The newest pin's text: its bytes, or its first bytes when it overflowed.
    private func heldText() -> RecordText {
        switch cursor.pinned() {
        case .bytes(let bytes): RecordText(bytes: bytes)
        case .overflowed(_, let prefix): RecordText(bytes: prefix)
        }
    }

    /// One element held alone: over the limit it is one reject; else `classify` gives its records (it
    /// throws ``JSONParseError`` when the element is not JSON: the document breaks there).
    private mutating func element(
        path: String, emit: ([RawRecord], Int) async throws -> Void,
        classify: ([UInt8], String, Int) throws -> [RawRecord]
    ) async throws {
        let start = cursor.offset
        let line = cursor.line(at: start)
        elementLine = line
        cursor.pin()
        try skipPinnedValue(start: start, path: path)
        let records: [RawRecord]
        switch cursor.pinned() {
        case .overflowed(let length, let prefix):
            records = [RecordClassifier.overlongRecord(length: length, location: location(path, line: line), prefix: prefix)]
        case .bytes(let bytes):
            do {
                records = try classify(bytes, path, line)
            } catch let error as JSONParseError {
                throw Break(reason: error.reason, offset: start + error.offset, path: path)
            }
        }
        cursor.drop()
        elementLine = nil
        for record in records { try await add(record, emit: emit) }
    }

    /// The document held whole is one record object (a notification body, a single payload, or not an object).
    private mutating func addWholeDocument(emit: ([RawRecord], Int) async throws -> Void) async throws {
        let held = cursor.release()
        holdsDocument = false
        switch held {
        case .overflowed(let length, let prefix):
            try await add(RecordClassifier.overlongRecord(length: length, location: location(nil, line: 1), prefix: prefix), emit: emit)
        case .bytes(let bytes):
            for record in RecordClassifier.classifyWholeDocument(bytes, source: source) { try await add(record, emit: emit) }
        }
    }

    // MARK: Batches

    private mutating func add(_ record: RawRecord, emit: ([RawRecord], Int) async throws -> Void) async throws {
        if holdsDocument {
            // The first record: the document's own pin is below everything (elements are released by now).
            cursor.dropOldestPin()
            holdsDocument = false
        }
        batch.append(record)
        batchBytes += record.text.byteCount
        if batch.count >= batchSize || batchBytes >= 4 << 20 { try await flush(emit) }
    }

    private mutating func flush(_ emit: ([RawRecord], Int) async throws -> Void) async throws {
        guard !batch.isEmpty else { return }
        let records = batch
        batch = []
        batchBytes = 0
        let first = handedOn
        handedOn += records.count
        try await emit(records, first)
    }
}
