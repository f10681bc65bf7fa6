import Foundation
import WinbackAppStore
import WinbackCrypto
import WinbackIO
import WinbackJobs

/// The original transaction ids `winback sync --history/--statuses` asks Apple about (docs/sync.md): from a file
/// (`--ids`, one per line) and/or from the synced notifications (`--ids-from-notifications`), in that order,
/// each once.
enum OriginalTransactionIds {
    /// The longest id accepted, in digits (Apple's are 15–16 today).
    static let maximumDigits = 32

    /// The ids of `path`: one per line, blank lines skipped; anything but 1…32 digits is 64 naming `file:line`.
    static func read(file path: String) throws(JobError) -> [String] {
        let bytes = try FileSystem.readAll(path)
        var ids: [String] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\r")))
            guard !text.isEmpty else { continue }
            guard text.count <= maximumDigits, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .usage(
                    "--ids \(path):\(index + 1): expected an original transaction id (1 to \(maximumDigits) digits), found '"
                        + HTTPResponse.escaped(String(text.prefix(80)), limit: 80) + "'")
            }
            ids.append(text)
        }
        return ids
    }

    /// Every `originalTransactionId` in the synced notification files (`<directory>/*.ndjson.gz`), read from
    /// each `signedPayload`'s `data.signedTransactionInfo` without verifying it: the id only says what to ask
    /// Apple for, and what Apple answers is verified when `winback run` reads it. Returns the ids and how
    /// many notifications had none (summaries, other notification kinds, unreadable lines).
    static func read(notificationsIn directory: String) throws(JobError) -> (ids: [String], without: Int) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".ndjson.gz") && !$0.hasPrefix(".") }.sorted()
        var ids: [String] = []
        var without = 0
        for name in names {
            try GzipLines.forEach(directory + "/" + name) { line, _ in
                if let id = originalTransactionId(notificationLine: Array(line)) { ids.append(id) } else { without += 1 }
            }
        }
        return (ids, without)
    }

    /// `ids` in order, each once.
    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// The `originalTransactionId` of a `{"signedPayload": …}` line, or `nil`.
    static func originalTransactionId(notificationLine line: [UInt8]) -> String? {
        guard case .string(let notification)? = try? JSONParser.parse(line)["signedPayload"],
            let payload = payload(of: notification),
            case .string(let transaction)? = payload["data"]?["signedTransactionInfo"],
            case .string(let id)? = self.payload(of: transaction)?["originalTransactionId"],
            !id.isEmpty, id.count <= maximumDigits, id.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return id
    }

    /// The decoded payload of a compact JWS, unverified.
    private static func payload(of jws: String) -> JSONValue? {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = Base64.decodeURL(String(segments[1])) else { return nil }
        return try? JSONParser.parse(bytes)
    }
}
