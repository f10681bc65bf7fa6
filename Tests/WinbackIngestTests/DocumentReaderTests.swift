import Testing
import WinbackAnalytics

@testable import WinbackIngest

/// JSON documents read as a stream (docs/inputs.md): every element a record with its line and path, a broken
/// document keeping what came before the break, an element over the limit one reject, memory bounded by
/// the largest element whatever the document's size.
@Suite struct DocumentReaderTests {
    static func summary(_ records: [RawRecord]) -> [String] {
        RecordClassifierTests.summary(records)
    }

    static func read(_ text: String, limit: Int = 16 << 20) async -> [String] {
        summary(await DocumentReader.records(of: Array(text.utf8), source: "d.json", maximumRecordBytes: limit))
    }

    @Test(
        arguments: [
            (
                "cut inside an element",
                #"{"signedTransactions": ["a.b.c", "d.e.f", "g.h"#,
                [
                    "1 signedTransactions[0] signed transaction a.b.c | a.b.c", "1 signedTransactions[1] signed transaction d.e.f | d.e.f",
                    "1 signedTransactions[2] malformed_json | \"g.h",
                ]
            ),
            (
                "garbage between elements",
                #"{"signedTransactions": ["a.b.c" x "d.e.f"]}"#,
                ["1 signedTransactions[0] signed transaction a.b.c | a.b.c", "1 signedTransactions[1] malformed_json | x \"d.e.f\"]}"]
            ),
            (
                "an element that is not JSON",
                #"[{"signedPayload": "n.n.n"}, {"signedPayload": tru}, {"signedPayload": "m.m.m"}]"#,
                [
                    "1 [0].signedPayload signed notification n.n.n | n.n.n",
                    #"1 [1] malformed_json | {"signedPayload": tru}, {"signedPayload": "m.m.m"}]"#,
                ]
            ),
            (
                "a status item cut after its first member",
                #"{"data": [{"lastTransactions": [{"signedTransactionInfo": "t.t.t", "signedRenewalInfo": "r.r.r"}, {"signedTransactionInfo": "u.u.u""#,
                [
                    "1 data[0].lastTransactions[0].signedTransactionInfo signed transaction t.t.t | t.t.t",
                    "1 data[0].lastTransactions[0].signedRenewalInfo signed renewalInfo r.r.r | r.r.r",
                    #"1 data[0].lastTransactions[1] malformed_json | {"signedTransactionInfo": "u.u.u""#,
                ]
            ),
            (
                "nothing read before the break: the whole text, path null",
                "{\n  \"signedTransactions\": [\n    \"eyJhbGciOi\n",
                ["1 - malformed_json | {\n  \"signedTransactions\": [\n    \"eyJhbGciOi\n"]
            ),
            ("empty", "  \n", ["1 - malformed_json |   \n"]),
            ("data after the value", #"["a"] ["b"]"#, ["1 [0] unknown_shape | \"a\"", #"1 - malformed_json | ["b"]"#]),
        ])
    func aBrokenDocumentKeepsTheRecordsBeforeTheBreak(_ name: String, _ document: String, _ expected: [String]) async {
        let actual = await Self.read(document)
        #expect(actual == expected, "\(name): \(actual)")
    }

    @Test func theBreakIsNamedWithItsByteOffset() async {
        let records = await DocumentReader.records(of: Array("{\n  \"signedTransactions\": [\n    \"eyJhbGciOi\n".utf8), source: "b.json")
        guard case .failure(let failure)? = records.first?.content else {
            Issue.record("expected one failure")
            return
        }
        #expect(failure.message == "document is not JSON: control character in string at byte 43")
    }

    @Test(
        arguments: [
            (
                "a notification body",
                "{\"signedPayload\": \"n.n.n\"}\n",
                ["1 signedPayload signed notification n.n.n | n.n.n"]
            ),
            (
                "a wrapper with fields on both sides",
                #"{"revision": "r", "signedTransactions": ["a.b.c", 7, "d\u002ee.f"], "hasMore": false}"#,
                [
                    "1 signedTransactions[0] signed transaction a.b.c | a.b.c", "1 signedTransactions[1] malformed_jws | 7",
                    #"1 signedTransactions[2] signed transaction d.e.f | d\u002ee.f"#,
                ]
            ),
            (
                "signedTransactions that is not an array",
                #"{"signedTransactions": "a.b.c"}"#,
                [#"1 signedTransactions unknown_shape | "a.b.c""#]
            ),
            (
                "status groups with and without lastTransactions",
                #"{"data": [{"subscriptionGroupIdentifier": "g"}, 4, {"lastTransactions": [{"status": 1}, {"signedRenewalInfo": "r.r.r"}]}]}"#,
                [
                    #"1 data[0] unknown_shape | {"subscriptionGroupIdentifier": "g"}"#, "1 data[1] unknown_shape | 4",
                    #"1 data[2].lastTransactions[0] unknown_shape | {"status": 1}"#,
                    "1 data[2].lastTransactions[1].signedRenewalInfo signed renewalInfo r.r.r | r.r.r",
                ]
            ),
            ("an empty array", "[ ]", []),
            ("a byte-order mark", "\u{FEFF}[{\"signedPayload\": \"n.n.n\"}]", ["1 [0].signedPayload signed notification n.n.n | n.n.n"]),
        ])
    func documentsOfEveryShape(_ name: String, _ document: String, _ expected: [String]) async {
        #expect(await Self.read(document) == expected, "\(name)")
    }

    @Test func anElementOverTheLimitIsOneRejectAndReadingGoesOn() async {
        let big = String(repeating: "x", count: 5000)
        let records = await DocumentReader.records(
            of: Array(#"{"signedTransactions": ["a.b.c", "\#(big)", "d.e.f"]}"#.utf8), source: "d.json", maximumRecordBytes: 1024)
        #expect(records.count == 3)
        #expect(
            Self.summary([records[0], records[2]]) == [
                "1 signedTransactions[0] signed transaction a.b.c | a.b.c",
                "1 signedTransactions[2] signed transaction d.e.f | d.e.f",
            ])
        guard case .failure(let failure) = records[1].content else {
            Issue.record("the long element is not a reject")
            return
        }
        #expect(failure.code == .malformedJSON && failure.message.hasPrefix("record of 5002 bytes is over report.maxLineBytes"))
        #expect(records[1].location.path == "signedTransactions[1]" && records[1].text.byteCount == 4096)
    }

    /// A 200 MB Get Transaction History document of 60 000 elements, made as it is read (never held): every
    /// element is one record, and the reader never holds more than a few chunks.
    @Test func aDocumentOf200MegabytesIsReadInBoundedMemory() async throws {
        let jws = String(repeating: "eyJhbGciOiJFUzI1NiJ9", count: 170) + ".eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln"
        var generator = DocumentGenerator(
            header: Array(#"{"revision": "r", "signedTransactions": ["#.utf8), element: Array("\"\(jws)\"".utf8), count: 60_000,
            footer: Array(#"], "hasMore": false}"#.utf8))
        #expect(generator.totalBytes > 200_000_000)
        var reader = DocumentReader(source: "big.json", maximumRecordBytes: 16 << 20) { try generator.read(into: $0) }
        var (count, signed, lastPath) = (0, 0, "")
        try await reader.run { records, firstIndex in
            #expect(firstIndex == count)
            count += records.count
            for record in records {
                if case .signed(let text, .transaction) = record.content, text.byteCount == jws.utf8.count { signed += 1 }
            }
            lastPath = records.last?.location.path ?? ""
        }
        #expect(count == 60_000 && signed == 60_000)
        #expect(lastPath == "signedTransactions[59999]")
        #expect(reader.peakBufferBytes < 1 << 20, "held \(reader.peakBufferBytes) bytes")
    }
}

/// A document `header element,element,…,element footer` produced on demand.
struct DocumentGenerator {
    let header: [UInt8]
    let element: [UInt8]
    let count: Int
    let footer: [UInt8]
    private var position = 0

    init(header: [UInt8], element: [UInt8], count: Int, footer: [UInt8]) {
        self.header = header
        self.element = element
        self.count = count
        self.footer = footer
    }

    var totalBytes: Int { header.count + count * (element.count + 1) - 1 + footer.count }

    /// The byte at `offset` of the document.
    private func byte(at offset: Int) -> UInt8 {
        if offset < header.count { return header[offset] }
        let body = offset - header.count
        let stride = element.count + 1
        if body < count * stride - 1 {
            let within = body % stride
            return within == element.count ? UInt8(ascii: ",") : element[within]
        }
        return footer[body - (count * stride - 1)]
    }

    mutating func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        let length = min(destination.count, totalBytes - position)
        var written = 0
        // Whole elements are copied at once; the rest byte by byte.
        while written < length {
            let offset = position + written
            let body = offset - header.count
            let stride = element.count + 1
            if body >= 0, body % stride == 0, body + stride <= count * stride - 1, length - written >= stride {
                element.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: destination[written..<(written + element.count)]).copyMemory(from: bytes)
                }
                destination[written + element.count] = UInt8(ascii: ",")
                written += stride
            } else {
                destination[written] = byte(at: offset)
                written += 1
            }
        }
        position += length
        return length
    }
}
