import WinbackAnalytics
import WinbackAppStore
import WinbackCore

/// Finds the records in an NDJSON line or a JSON document and classifies each (docs/inputs.md).
///
/// An object is classified as: `signedPayload` first (a notification); else `signedTransactionInfo` /
/// `signedRenewalInfo` (other keys ignored; a non-string value is `malformed_jws`); else `transactionId`
/// → a decoded transaction; `originalTransactionId` with `autoRenewStatus` or `autoRenewProductId` → a
/// decoded renewal info; anything else is `unknown_shape`. A document may also be a Get Transaction
/// History response (`signedTransactions`), a Get All Subscription Statuses response
/// (`data[].lastTransactions[]`) or an array of such objects.
public enum RecordClassifier {
    /// The records of one NDJSON line; none for a blank line. Each record's text is the whole line.
    public static func classifyLine(_ bytes: [UInt8], source: String, line: Int) -> [RawRecord] {
        classifyLine(bytes, range: 0..<bytes.count, source: source, line: line)
    }

    /// The records of the line `bytes[range]` (a batch of lines shares one buffer; the record text keeps
    /// a reference to it rather than a copy).
    public static func classifyLine(_ bytes: [UInt8], range: Range<Int>, source: String, line: Int) -> [RawRecord] {
        var records: [RawRecord] = []
        classifyLine(bytes, range: range, source: source, line: line, into: &records)
        return records
    }

    /// Appends the records of the line `bytes[range]` to `records` (no array per line).
    public static func classifyLine(_ bytes: [UInt8], range: Range<Int>, source: String, line: Int, into records: inout [RawRecord]) {
        var prefix = ScannedPrefix()
        classifyLine(bytes, range: range, source: source, line: line, into: &records, prefix: &prefix)
    }

    /// Appends the records of the line `bytes[range]` to `records`; `prefix` carries the JWS header scanned
    /// last from one line to the next (``ScannedPrefix``), so a run of lines signed alike is scanned once.
    public static func classifyLine(
        _ bytes: [UInt8], range: Range<Int>, source: String, line: Int, into records: inout [RawRecord], prefix: inout ScannedPrefix
    ) {
        if let (first, second) = SignedLine.match(bytes, range: range, prefix: &prefix) {
            let text = RecordText(bytes: bytes, range: range)
            func append(_ member: SignedLine.Member) {
                let kind: PayloadKind =
                    switch member.key {
                    case .signedPayload: .notification
                    case .signedTransactionInfo: .transaction
                    case .signedRenewalInfo: .renewalInfo
                    }
                let location = RecordLocation(source: source, line: line, path: member.key.rawValue)
                records.append(
                    RawRecord(location: location, content: .signed(RecordText(bytes: bytes, range: member.jws), kind), text: text))
            }
            append(first)
            if let second { append(second) }
            return
        }
        if bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let text = RecordText(bytes: bytes, range: range)
        let value: JSONValue
        do {
            value = try bytes.withUnsafeBufferPointer { buffer in try JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: buffer[range]))
            }
        } catch {
            let location = RecordLocation(source: source, line: line, path: nil)
            records.append(
                RawRecord(location: location, content: .failure(RecordFailure(.malformedJSON, "line is not JSON: \(error)")), text: text))
            return
        }
        records += classifyObject(value, prefix: nil, source: source, line: line) { _ in text }
    }

    // MARK: Document elements (docs/inputs.md: each located at line 1 with its path; see ``DocumentReader``)

    /// A document held whole (a notification body, a single payload object, or not an object at all): its
    /// records as for an NDJSON line, except that a JWS's text is the string without quotes. A text that is
    /// not JSON is one `malformed_json` record (path `null`) keeping the whole text.
    public static func classifyWholeDocument(_ bytes: [UInt8], source: String, line: Int = 1) -> [RawRecord] {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return [
                RawRecord(
                    location: RecordLocation(source: source, line: 1, path: nil),
                    content: .failure(RecordFailure(.malformedJSON, "document is not JSON: \(error)")), text: RecordText(bytes: bytes))
            ]
        }
        let whole = firstNonWhitespace(bytes)..<lastNonWhitespace(bytes)
        let lines = LineCounter(bytes: bytes, first: line)
        return classifyObject(value, prefix: nil, source: source, line: lines.line(at: whole.lowerBound), lines: lines) { range in
            range.map { jwsText(bytes, $0) } ?? RecordText(bytes: bytes, range: whole)
        }
    }

    /// An element `[i]` of a top-level array: a record object. Throws when the element is not JSON.
    public static func classifyArrayElement(_ bytes: [UInt8], source: String, path: String, line: Int = 1) throws(JSONParseError)
        -> [RawRecord]
    {
        let value = try JSONParser.parse(bytes)
        return classifyObject(value, prefix: path, source: source, line: line, lines: LineCounter(bytes: bytes, first: line)) { range in
            range.map { jwsText(bytes, $0) } ?? RecordText(bytes: bytes)
        }
    }

    /// An element of `signedTransactions`: a JWS string. Throws when the element is not JSON.
    public static func classifyTransactionElement(_ bytes: [UInt8], source: String, path: String, line: Int = 1) throws(JSONParseError)
        -> RawRecord
    {
        let location = RecordLocation(source: source, line: line, path: path)
        if isPlainJWSString(bytes) {
            let jws = RecordText(bytes: bytes, range: 1..<(bytes.count - 1))
            return RawRecord(location: location, content: .signed(jws, .transaction), text: jws)
        }
        let value = try JSONParser.parse(bytes)
        return jwsRecord(value, kind: .transaction, path: path, location: location, text: jwsText(bytes, 0..<bytes.count))
    }

    /// An element of `notificationHistory`: an object with `signedPayload`. Throws when it is not JSON.
    public static func classifyHistoryElement(_ bytes: [UInt8], source: String, path: String, line: Int = 1) throws(JSONParseError)
        -> RawRecord
    {
        let value = try JSONParser.parse(bytes)
        guard let payload = value.member("signedPayload") else {
            return RawRecord(
                location: RecordLocation(source: source, line: line, path: path),
                content: .failure(RecordFailure(.unknownShape, "\(path): expected an object with signedPayload")),
                text: RecordText(bytes: bytes))
        }
        let payloadPath = "\(path).signedPayload"
        return jwsRecord(
            payload.value, kind: .notification, path: payloadPath,
            location: RecordLocation(
                source: source, line: LineCounter(bytes: bytes, first: line).line(at: payload.range.lowerBound), path: payloadPath),
            text: jwsText(bytes, payload.range))
    }

    /// An item of `data[g].lastTransactions`: its `signedTransactionInfo` and `signedRenewalInfo`. Throws when it is not JSON.
    public static func classifyStatusItem(_ bytes: [UInt8], source: String, path: String, line: Int = 1) throws(JSONParseError)
        -> [RawRecord]
    {
        let value = try JSONParser.parse(bytes)
        let lines = LineCounter(bytes: bytes, first: line)
        var records: [RawRecord] = []
        for (key, kind) in [("signedTransactionInfo", PayloadKind.transaction), ("signedRenewalInfo", .renewalInfo)] {
            guard let member = value.member(key) else { continue }
            let memberPath = "\(path).\(key)"
            records.append(
                jwsRecord(
                    member.value, kind: kind, path: memberPath,
                    location: RecordLocation(source: source, line: lines.line(at: member.range.lowerBound), path: memberPath),
                    text: jwsText(bytes, member.range)))
        }
        if records.isEmpty {
            records.append(
                RawRecord(
                    location: RecordLocation(source: source, line: line, path: path),
                    content: .failure(RecordFailure(.unknownShape, "\(path): expected signedTransactionInfo or signedRenewalInfo")),
                    text: RecordText(bytes: bytes)))
        }
        return records
    }

    /// `data[g]` that is not an object with a `lastTransactions` array.
    public static func groupWithoutTransactions(_ path: String, text: RecordText, location: RecordLocation) -> RawRecord {
        RawRecord(
            location: location,
            content: .failure(RecordFailure(.unknownShape, "\(path): expected an object with a lastTransactions array")),
            text: text)
    }

    /// `signedTransactions` or `notificationHistory` whose value is not an array.
    public static func notAnArray(_ key: String, text: RecordText, location: RecordLocation) -> RawRecord {
        let found = text.withBytes { bytes in (try? JSONParser.parse(buffer: bytes)).map(FieldValue.describe) ?? "a value over the limit" }
        let expected = key == "signedTransactions" ? "an array of JWS strings" : "an array of notifications"
        return RawRecord(
            location: location, content: .failure(RecordFailure(.unknownShape, "\(key): expected \(expected), found \(found)")), text: text)
    }

    /// A record (an NDJSON line or a document element) over `report.maxLineBytes`: one `malformed_json` reject
    /// keeping its first bytes; reading goes on after it.
    public static func overlongRecord(length: Int, location: RecordLocation, prefix: some Collection<UInt8>) -> RawRecord {
        RawRecord(
            location: location,
            content: .failure(
                RecordFailure(
                    .malformedJSON,
                    "record of \(length) bytes is over report.maxLineBytes; read and dropped, its first \(prefix.count) bytes kept as record"
                )),
            text: RecordText(bytes: Array(prefix)))
    }

    /// `"…"` of base64url characters and dots only: a JWS needing no unescaping.
    private static func isPlainJWSString(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\""), bytes[bytes.count - 1] == UInt8(ascii: "\"") else { return false }
        for byte in bytes[1..<(bytes.count - 1)] {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "="):
                continue
            default: return false
            }
        }
        return true
    }

    /// The text of the value at `range` of `bytes`: a string without its quotes.
    private static func jwsText(_ bytes: [UInt8], _ range: Range<Int>) -> RecordText {
        range.count >= 2 && bytes[range.lowerBound] == UInt8(ascii: "\"")
            ? RecordText(bytes: bytes, range: (range.lowerBound + 1)..<(range.upperBound - 1)) : RecordText(bytes: bytes, range: range)
    }

    private static func jwsRecord(_ value: JSONValue, kind: PayloadKind, path: String, location: RecordLocation, text: RecordText)
        -> RawRecord
    {
        guard case .string(let jws) = value else {
            return RawRecord(
                location: location,
                content: .failure(RecordFailure(.malformedJWS, "\(path): expected a JWS string, found \(FieldValue.describe(value))")),
                text: text)
        }
        return RawRecord(location: location, content: .signed(RecordText(jws), kind), text: text)
    }

    /// Classifies one object. `text` gives the record text for a member's range (`nil` = the whole value).
    private static func classifyObject(
        _ value: JSONValue, prefix: String?, source: String, line: Int, lines: LineCounter? = nil,
        text: (Range<Int>?) -> RecordText
    ) -> [RawRecord] {
        func path(_ key: String) -> String { prefix.map { "\($0).\(key)" } ?? key }
        func memberLine(_ member: JSONMember) -> Int { lines?.line(at: member.range.lowerBound) ?? line }
        guard case .object = value else {
            return [
                RawRecord(
                    location: RecordLocation(source: source, line: line, path: prefix),
                    content: .failure(RecordFailure(.unknownShape, "expected a JSON object, found a JSON \(value.typeName)")),
                    text: text(nil))
            ]
        }
        if let member = value.member("signedPayload") {
            return [
                jwsRecord(
                    member.value, kind: .notification, path: path("signedPayload"),
                    location: RecordLocation(source: source, line: memberLine(member), path: path("signedPayload")),
                    text: text(lines == nil ? nil : member.range))
            ]
        }
        var records: [RawRecord] = []
        for (key, kind) in [("signedTransactionInfo", PayloadKind.transaction), ("signedRenewalInfo", .renewalInfo)] {
            guard let member = value.member(key) else { continue }
            records.append(
                jwsRecord(
                    member.value, kind: kind, path: path(key),
                    location: RecordLocation(source: source, line: memberLine(member), path: path(key)),
                    text: text(lines == nil ? nil : member.range)))
        }
        if !records.isEmpty { return records }
        let location = RecordLocation(source: source, line: line, path: prefix)
        if value.member("transactionId") != nil {
            return [RawRecord(location: location, content: .decoded(value, .transaction), text: text(nil))]
        }
        if value.member("originalTransactionId") != nil,
            value.member("autoRenewStatus") != nil || value.member("autoRenewProductId") != nil
        {
            return [RawRecord(location: location, content: .decoded(value, .renewalInfo), text: text(nil))]
        }
        let keys = value.objectMembers?.prefix(5).map { "'\($0.key)'" }.joined(separator: ", ") ?? ""
        return [
            RawRecord(
                location: location,
                content: .failure(
                    RecordFailure(
                        .unknownShape,
                        "expected signedPayload, signedTransactionInfo/signedRenewalInfo or a decoded payload, found keys \(keys.isEmpty ? "none" : keys)"
                    )),
                text: text(nil))
        ]
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func firstNonWhitespace(_ bytes: [UInt8]) -> Int { bytes.firstIndex { !isSpace($0) } ?? 0 }

    private static func lastNonWhitespace(_ bytes: [UInt8]) -> Int { (bytes.lastIndex { !isSpace($0) } ?? -1) + 1 }
}
