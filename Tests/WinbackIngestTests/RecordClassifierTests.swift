import Testing

@testable import WinbackAnalytics
@testable import WinbackIngest

@Suite struct RecordClassifierTests {
    static func summary(_ records: [RawRecord]) -> [String] {
        records.map { record in
            let content: String
            switch record.content {
            case .signed(let jws, let kind): content = "signed \(kind.rawValue) \(jws.string)"
            case .decoded(_, let kind): content = "decoded \(kind.rawValue)"
            case .failure(let failure): content = failure.code.rawValue
            }
            return "\(record.location.line) \(record.location.path ?? "-") \(content) | \(record.text.string)"
        }
    }

    static func line(_ text: String, number: Int = 7) -> [String] {
        summary(RecordClassifier.classifyLine(Array(text.utf8), source: "f.ndjson", line: number))
    }

    @Test(
        arguments: [
            (
                #"{"signedTransactionInfo": "t.t.t", "signedRenewalInfo": "r.r.r", "x": 1}"#,
                [
                    #"7 signedTransactionInfo signed transaction t.t.t | {"signedTransactionInfo": "t.t.t", "signedRenewalInfo": "r.r.r", "x": 1}"#,
                    #"7 signedRenewalInfo signed renewalInfo r.r.r | {"signedTransactionInfo": "t.t.t", "signedRenewalInfo": "r.r.r", "x": 1}"#,
                ]
            ),
            (
                #"{"signedPayload": "n.n.n", "signedTransactionInfo": "t.t.t"}"#,
                [#"7 signedPayload signed notification n.n.n | {"signedPayload": "n.n.n", "signedTransactionInfo": "t.t.t"}"#]
            ),
            (#"{"signedRenewalInfo": null}"#, [#"7 signedRenewalInfo malformed_jws | {"signedRenewalInfo": null}"#]),
            // A repeated key: the last occurrence wins, in lines as in documents.
            (
                #"{"signedTransactionInfo":"a.a.a","signedTransactionInfo":"t.t.t"}"#,
                [#"7 signedTransactionInfo signed transaction t.t.t | {"signedTransactionInfo":"a.a.a","signedTransactionInfo":"t.t.t"}"#]
            ),
            (
                #"{"signedPayload": "a.a.a", "signedPayload": "n.n.n"}"#,
                [#"7 signedPayload signed notification n.n.n | {"signedPayload": "a.a.a", "signedPayload": "n.n.n"}"#]
            ),
            (#"{"transactionId": "1"}"#, [#"7 - decoded transaction | {"transactionId": "1"}"#]),
            (
                #"{"originalTransactionId": "1", "autoRenewProductId": "p"}"#,
                [#"7 - decoded renewalInfo | {"originalTransactionId": "1", "autoRenewProductId": "p"}"#]
            ),
            (#"{"originalTransactionId": "1"}"#, [#"7 - unknown_shape | {"originalTransactionId": "1"}"#]),
            ("\"just a string\"", ["7 - unknown_shape | \"just a string\""]),
            ("{not json", ["7 - malformed_json | {not json"]),
            ("   \t", []),
            // One signed member: read in place, the same records as the general rules.
            (
                #"{"signedTransactionInfo":"t.t.t"}"#,
                [#"7 signedTransactionInfo signed transaction t.t.t | {"signedTransactionInfo":"t.t.t"}"#]
            ),
            (
                " { \"signedPayload\" :\t\"n.n.n\" } \r",
                ["7 signedPayload signed notification n.n.n |  { \"signedPayload\" :\t\"n.n.n\" } \r"]
            ),
            (#"{"signedRenewalInfo":"r.r.r"}"#, [#"7 signedRenewalInfo signed renewalInfo r.r.r | {"signedRenewalInfo":"r.r.r"}"#]),
            // Near misses fall back to the general rules.
            (
                #"{"signedTransactionInfo":"t.t\/t"}"#,
                [#"7 signedTransactionInfo signed transaction t.t/t | {"signedTransactionInfo":"t.t\/t"}"#]
            ),
            (#"{"signedRenewalInfo":"r.r.é"}"#, [#"7 signedRenewalInfo signed renewalInfo r.r.é | {"signedRenewalInfo":"r.r.é"}"#]),
            (#"{"signedTransactionInfo":"t.t.t"} x"#, [#"7 - malformed_json | {"signedTransactionInfo":"t.t.t"} x"#]),
            (#"{"signedTransactionInfo":"t.t.t",}"#, [#"7 - malformed_json | {"signedTransactionInfo":"t.t.t",}"#]),
            ("{\"signedTransactionInfo\":\"t.t\u{01}\"}", ["7 - malformed_json | {\"signedTransactionInfo\":\"t.t\u{01}\"}"]),
            // Two signed members (a status item): read in place, transaction first whatever the order.
            (
                #"{"signedTransactionInfo":"t.t.t","signedRenewalInfo":"r.r.r"}"#,
                [
                    #"7 signedTransactionInfo signed transaction t.t.t | {"signedTransactionInfo":"t.t.t","signedRenewalInfo":"r.r.r"}"#,
                    #"7 signedRenewalInfo signed renewalInfo r.r.r | {"signedTransactionInfo":"t.t.t","signedRenewalInfo":"r.r.r"}"#,
                ]
            ),
            (
                #" {"signedRenewalInfo" : "r.r.r" , "signedTransactionInfo":"t.t.t"} "#,
                [
                    #"7 signedTransactionInfo signed transaction t.t.t |  {"signedRenewalInfo" : "r.r.r" , "signedTransactionInfo":"t.t.t"} "#,
                    #"7 signedRenewalInfo signed renewalInfo r.r.r |  {"signedRenewalInfo" : "r.r.r" , "signedTransactionInfo":"t.t.t"} "#,
                ]
            ),
            // A notification beside another member, a repeated key, a third member: the general rules.
            (
                #"{"signedTransactionInfo":"t.t.t","signedPayload":"n.n.n"}"#,
                [#"7 signedPayload signed notification n.n.n | {"signedTransactionInfo":"t.t.t","signedPayload":"n.n.n"}"#]
            ),
            (
                #"{"signedRenewalInfo":"r.r.r","signedRenewalInfo":"s.s.s"}"#,
                [#"7 signedRenewalInfo signed renewalInfo s.s.s | {"signedRenewalInfo":"r.r.r","signedRenewalInfo":"s.s.s"}"#]
            ),
            (
                #"{"signedRenewalInfo":"r.r.r","signedTransactionInfo":"t.t.t","x":1}"#,
                [
                    #"7 signedTransactionInfo signed transaction t.t.t | {"signedRenewalInfo":"r.r.r","signedTransactionInfo":"t.t.t","x":1}"#,
                    #"7 signedRenewalInfo signed renewalInfo r.r.r | {"signedRenewalInfo":"r.r.r","signedTransactionInfo":"t.t.t","x":1}"#,
                ]
            ),
            (
                #"{"signedTransactionInfo":"t.t.t","signedRenewalInfo":7}"#,
                [
                    #"7 signedTransactionInfo signed transaction t.t.t | {"signedTransactionInfo":"t.t.t","signedRenewalInfo":7}"#,
                    #"7 signedRenewalInfo malformed_jws | {"signedTransactionInfo":"t.t.t","signedRenewalInfo":7}"#,
                ]
            ),
            // Bytes the one-pass scan must stop at, early and late in a long JWS (past the 32-byte blocks);
            // DEL is valid JSON, so the general rules read it as part of the JWS.
            (
                "{\"signedTransactionInfo\":\"\(String(repeating: "a", count: 40)).t\u{7F}t\"}",
                [
                    "7 signedTransactionInfo signed transaction \(String(repeating: "a", count: 40)).t\u{7F}t | {\"signedTransactionInfo\":\"\(String(repeating: "a", count: 40)).t\u{7F}t\"}"
                ]
            ),
            (
                "{\"signedTransactionInfo\":\"t\u{1F}\(String(repeating: "a", count: 70))\"}",
                ["7 - malformed_json | {\"signedTransactionInfo\":\"t\u{1F}\(String(repeating: "a", count: 70))\"}"]
            ),
            (
                "{\"signedTransactionInfo\":\"\(String(repeating: "b", count: 65))\\/t\"}",
                [
                    "7 signedTransactionInfo signed transaction \(String(repeating: "b", count: 65))/t | {\"signedTransactionInfo\":\"\(String(repeating: "b", count: 65))\\/t\"}"
                ]
            ),
            (
                "{\"signedTransactionInfo\":\"\(String(repeating: "c", count: 64)) ~\"}",
                [
                    "7 signedTransactionInfo signed transaction \(String(repeating: "c", count: 64)) ~ | {\"signedTransactionInfo\":\"\(String(repeating: "c", count: 64)) ~\"}"
                ]
            ),
            (#"{"signedTransactionInfoX":"t.t.t"}"#, [#"7 - unknown_shape | {"signedTransactionInfoX":"t.t.t"}"#]),
            (#"{"signedTransactionInfo":"t.t.t""#, [#"7 - malformed_json | {"signedTransactionInfo":"t.t.t""#]),
        ] as [(String, [String])])
    func ndjsonLinesAreClassified(_ text: String, _ expected: [String]) {
        #expect(Self.line(text) == expected)
    }

    @Test(arguments: [
        (#"{"signedTransactionInfo":"t.t.t"}"#, "signedTransactionInfo 26..<31"),
        (#"{"signedRenewalInfo":"r.r","signedTransactionInfo":"t.t.t"}"#, "signedTransactionInfo 52..<57 signedRenewalInfo 22..<25"),
        (#"{"signedPayload":"n.n.n","signedRenewalInfo":"r.r"}"#, "general"),
        (#"{"signedRenewalInfo":"r.r","signedRenewalInfo":"s.s"}"#, "general"),
        (#"{"signedTransactionInfo":"t\/t"}"#, "general"),
        (#"{"signedTransactionInfo":"t.t.t"}{}"#, "general"),
    ])
    func commonLinesAreReadInPlace(_ text: String, _ expected: String) {
        let bytes = Array(text.utf8)
        let found = SignedLine.match(bytes, range: 0..<bytes.count).map { first, second in
            [first, second].compactMap { $0 }.map { "\($0.key.rawValue) \($0.jws)" }.joined(separator: " ")
        }
        #expect((found ?? "general") == expected)
    }

    /// Lines classified in a row, each JWS scanned from after the header it shares with the JWS scanned
    /// before it (``ScannedPrefix``), give the records each line gives on its own — also when the bytes
    /// after the shared header stop the scan, the JWS ends inside or right after it, or the header changes.
    @Test func linesSharingAHeaderGiveTheRecordsTheyGiveAlone() {
        let header = String(repeating: "h", count: 40) + "-_H"
        let other = String(repeating: "o", count: 40)
        let lines = [
            "{\"signedTransactionInfo\":\"\(header).\(String(repeating: "p", count: 50)).s\"}",
            "{\"signedTransactionInfo\":\"\(header).p\u{1F}\(String(repeating: "p", count: 40)).s\"}",
            "{\"signedTransactionInfo\":\"\(header).\(String(repeating: "p", count: 40))\\/p.s\"}",
            "{\"signedTransactionInfo\":\"\(header).p.s\u{7F}é\"}",
            "{\"signedTransactionInfo\":\"\(header).\"}",
            "{\"signedTransactionInfo\":\"\(header)\"}",
            "{\"signedTransactionInfo\":\"\(header).p.s\",\"signedRenewalInfo\":\"\(header).r.s\"}",
            "{\"signedPayload\":\"\(other).n.s\"}",
            "{\"signedPayload\":\"\(other).n\\u0041.s\"}",
            "{\"signedTransactionInfo\":\"\(header).p.s\"}",
        ]
        var prefix = ScannedPrefix()
        var learned: [String] = []
        for (number, text) in lines.enumerated() {
            let bytes = Array(text.utf8)
            var records: [RawRecord] = []
            RecordClassifier.classifyLine(bytes, range: 0..<bytes.count, source: "f.ndjson", line: 7, into: &records, prefix: &prefix)
            #expect(Self.summary(records) == Self.line(text), "line \(number)")
            learned.append(String(decoding: prefix.bytes, as: UTF8.self))
        }
        // Learned from the first line, kept while lines start with it, replaced when the header changes.
        #expect(learned == Array(repeating: header + ".", count: 7) + [other + ".", other + ".", header + "."])
    }

    @Test(
        arguments: [
            (String(repeating: "x", count: 100) + "\"", 100),
            (String(repeating: "x", count: 31) + "\"" + String(repeating: "x", count: 40), 31),
            (String(repeating: "x", count: 64) + "\\\"", -1),
            (String(repeating: "x", count: 33) + "\u{1F}\"", -1),
            (String(repeating: "x", count: 5) + "é\"", -1),
            (String(repeating: " ~", count: 40), -1),
        ] as [(String, Int)])
    func plainStringEndsAtTheFirstQuote(_ text: String, _ expected: Int) {
        let bytes = Array(text.utf8)
        let end = bytes.withUnsafeBufferPointer { PlainString.end($0, from: 0, to: $0.count) }
        #expect((end ?? -1) == expected)
    }

    /// Every byte value at every position of both vector blocks and the byte-by-byte tail, against a
    /// plain loop over the rule: the first quote ends the string unless a byte outside 0x20...0x7E or a
    /// backslash comes first.
    @Test func plainStringEndAgreesWithTheRuleForEveryByteAndPosition() {
        func rule(_ bytes: [UInt8], from start: Int) -> Int? {
            for index in start..<bytes.count {
                if bytes[index] == UInt8(ascii: "\"") { return index }
                if bytes[index] < 0x20 || bytes[index] > 0x7E || bytes[index] == UInt8(ascii: "\\") { return nil }
            }
            return nil
        }
        var mismatches = 0
        for start in [0, 3] {
            for position in start..<75 {
                for value in UInt8.min...UInt8.max {
                    var bytes = Array(repeating: UInt8(ascii: "x"), count: 80)
                    bytes[position] = value
                    bytes[77] = UInt8(ascii: "\"")
                    let found = bytes.withUnsafeBufferPointer { PlainString.end($0, from: start, to: $0.count) }
                    if found != rule(bytes, from: start) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func historyDocumentRecordsKnowTheirLineAndPath() async {
        let document = "{\n  \"hasMore\": false,\n  \"signedTransactions\": [\n    \"a.b.c\",\n    7\n  ]\n}\n"
        let records = await DocumentReader.records(of: Array(document.utf8), source: "h.json")
        #expect(
            Self.summary(records) == [
                "4 signedTransactions[0] signed transaction a.b.c | a.b.c",
                "5 signedTransactions[1] malformed_jws | 7",
            ])
    }

    /// `{"signedTransactions":[],"signedTransactions":[JWS,JWS]}` read 0 records: the last occurrence wins.
    @Test func aRepeatedKeyInADocumentTakesTheLastOccurrence() async {
        let document = #"{"signedTransactions":[],"signedTransactions":["a.b.c","d.e.f"]}"#
        let records = await DocumentReader.records(of: Array(document.utf8), source: "h.json")
        #expect(
            Self.summary(records) == [
                "1 signedTransactions[0] signed transaction a.b.c | a.b.c",
                "1 signedTransactions[1] signed transaction d.e.f | d.e.f",
            ])
    }

    @Test func statusDocumentRecordsKnowTheirLineAndPath() async {
        let document = """
            {"data": [
              {"subscriptionGroupIdentifier": "g", "lastTransactions": [
                {"status": 1,
                 "signedTransactionInfo": "t.t.t",
                 "signedRenewalInfo": "r.r.r"}]}]}
            """
        let records = await DocumentReader.records(of: Array(document.utf8), source: "s.json")
        #expect(
            Self.summary(records) == [
                "4 data[0].lastTransactions[0].signedTransactionInfo signed transaction t.t.t | t.t.t",
                "5 data[0].lastTransactions[0].signedRenewalInfo signed renewalInfo r.r.r | r.r.r",
            ])
    }

    @Test func arrayDocumentElementsUseIndexPaths() async {
        let document = "[\n {\"signedPayload\": \"n.n.n\"},\n\n {\"transactionId\": \"9\"},\n 3\n]"
        let records = await DocumentReader.records(of: Array(document.utf8), source: "a.json")
        #expect(
            Self.summary(records) == [
                "2 [0].signedPayload signed notification n.n.n | n.n.n",
                "4 [1] decoded transaction | {\"transactionId\": \"9\"}",
                "5 [2] unknown_shape | 3",
            ])
    }

    @Test func invalidDocumentIsOneRecordAtLineOne() async {
        let document = "{\n \"signedTransactions\": [\n"
        let records = await DocumentReader.records(of: Array(document.utf8), source: "b.json")
        #expect(records.count == 1)
        #expect(records.first?.location == RecordLocation(source: "b.json", line: 1, path: nil))
        #expect(records.first?.text.string == document)
    }
}
