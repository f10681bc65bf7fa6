import WinbackCore

/// Finds the records in an NDJSON line or a JSON document and classifies each (SPEC §3, §10).
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

    /// The records of a whole JSON document. `line` is where each record's value starts; its text is
    /// the value's exact source (a JWS without quotes). Invalid JSON is one `malformed_json` record at line 1.
    public static func classifyDocument(_ bytes: [UInt8], source: String) -> [RawRecord] {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            let location = RecordLocation(source: source, line: 1, path: nil)
            return [
                RawRecord(
                    location: location, content: .failure(RecordFailure(.malformedJSON, "document is not JSON: \(error)")),
                    text: RecordText(bytes: bytes))
            ]
        }
        let lines = LineIndex(bytes)
        let wholeRange = firstNonWhitespace(bytes)..<lastNonWhitespace(bytes)
        func text(_ range: Range<Int>) -> RecordText { RecordText(bytes: bytes, range: range) }
        func jwsText(_ range: Range<Int>) -> RecordText {
            range.count >= 2 && bytes[range.lowerBound] == UInt8(ascii: "\"")
                ? text(range.lowerBound + 1..<range.upperBound - 1) : text(range)
        }
        switch value {
        case .array(let elements):
            var records: [RawRecord] = []
            for (index, element) in elements.enumerated() {
                let line = lines.line(at: element.range.lowerBound)
                records += classifyObject(element.value, prefix: "[\(index)]", source: source, line: line, lines: lines) {
                    range in range.map(jwsText) ?? text(element.range)
                }
            }
            return records
        case .object(let members):
            if let history = members.last(where: { $0.key == "notificationHistory" }), !hasSignedKeys(value) {
                return notificationHistoryRecords(history, source: source, lines: lines, text: text, jwsText: jwsText)
            }
            if let transactions = members.last(where: { $0.key == "signedTransactions" }), !hasSignedKeys(value) {
                guard case .array(let elements) = transactions.value else {
                    return [
                        RawRecord(
                            location: RecordLocation(
                                source: source, line: lines.line(at: transactions.range.lowerBound), path: "signedTransactions"),
                            content: .failure(
                                RecordFailure(
                                    .unknownShape,
                                    "signedTransactions: expected an array of JWS strings, found \(FieldValue.describe(transactions.value))"
                                )),
                            text: text(transactions.range))
                    ]
                }
                return elements.enumerated().map { index, element in
                    jwsRecord(
                        element.value, kind: .transaction, path: "signedTransactions[\(index)]",
                        location: RecordLocation(
                            source: source, line: lines.line(at: element.range.lowerBound), path: "signedTransactions[\(index)]"),
                        text: jwsText(element.range))
                }
            }
            if !hasSignedKeys(value), case .array(let groups)? = value["data"] {
                return statusRecords(groups, source: source, lines: lines, text: text, jwsText: jwsText)
            }
            let line = lines.line(at: wholeRange.lowerBound)
            return classifyObject(value, prefix: nil, source: source, line: line, lines: lines) { range in
                range.map(jwsText) ?? text(wholeRange)
            }
        default:
            return classifyObject(value, prefix: nil, source: source, line: lines.line(at: wholeRange.lowerBound)) { _ in text(wholeRange) }
        }
    }

    private static func hasSignedKeys(_ value: JSONValue) -> Bool {
        value.member("signedPayload") != nil || value.member("signedTransactionInfo") != nil
            || value.member("signedRenewalInfo") != nil
    }

    private static func statusRecords(
        _ groups: [JSONElement], source: String, lines: LineIndex, text: (Range<Int>) -> RecordText, jwsText: (Range<Int>) -> RecordText
    ) -> [RawRecord] {
        var records: [RawRecord] = []
        for (groupIndex, group) in groups.enumerated() {
            let groupPath = "data[\(groupIndex)]"
            guard case .array(let items)? = group.value["lastTransactions"] else {
                records.append(
                    RawRecord(
                        location: RecordLocation(source: source, line: lines.line(at: group.range.lowerBound), path: groupPath),
                        content: .failure(RecordFailure(.unknownShape, "\(groupPath): expected an object with a lastTransactions array")),
                        text: text(group.range)))
                continue
            }
            for (itemIndex, item) in items.enumerated() {
                let itemPath = "\(groupPath).lastTransactions[\(itemIndex)]"
                var found = false
                for (key, kind) in [("signedTransactionInfo", PayloadKind.transaction), ("signedRenewalInfo", .renewalInfo)] {
                    guard let member = item.value.member(key) else { continue }
                    found = true
                    let path = "\(itemPath).\(key)"
                    records.append(
                        jwsRecord(
                            member.value, kind: kind, path: path,
                            location: RecordLocation(source: source, line: lines.line(at: member.range.lowerBound), path: path),
                            text: jwsText(member.range)))
                }
                if !found {
                    records.append(
                        RawRecord(
                            location: RecordLocation(source: source, line: lines.line(at: item.range.lowerBound), path: itemPath),
                            content: .failure(
                                RecordFailure(.unknownShape, "\(itemPath): expected signedTransactionInfo or signedRenewalInfo")),
                            text: text(item.range)))
                }
            }
        }
        return records
    }

    /// A Get Notification History response (SPEC §13): a notification at each `notificationHistory[i].signedPayload`.
    private static func notificationHistoryRecords(
        _ history: JSONMember, source: String, lines: LineIndex, text: (Range<Int>) -> RecordText, jwsText: (Range<Int>) -> RecordText
    ) -> [RawRecord] {
        guard case .array(let elements) = history.value else {
            return [
                RawRecord(
                    location: RecordLocation(source: source, line: lines.line(at: history.range.lowerBound), path: "notificationHistory"),
                    content: .failure(
                        RecordFailure(
                            .unknownShape,
                            "notificationHistory: expected an array of notifications, found \(FieldValue.describe(history.value))")),
                    text: text(history.range))
            ]
        }
        return elements.enumerated().map { index, element in
            let path = "notificationHistory[\(index)].signedPayload"
            guard let payload = element.value.member("signedPayload") else {
                return RawRecord(
                    location: RecordLocation(
                        source: source, line: lines.line(at: element.range.lowerBound), path: "notificationHistory[\(index)]"),
                    content: .failure(RecordFailure(.unknownShape, "notificationHistory[\(index)]: expected an object with signedPayload")),
                    text: text(element.range))
            }
            return jwsRecord(
                payload.value, kind: .notification, path: path,
                location: RecordLocation(source: source, line: lines.line(at: payload.range.lowerBound), path: path),
                text: jwsText(payload.range))
        }
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
        _ value: JSONValue, prefix: String?, source: String, line: Int, lines: LineIndex? = nil,
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
