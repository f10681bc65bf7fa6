import WinbackAnalytics
import WinbackAppStore

/// A pool of one-time offer codes (docs/campaigns.md), as exported from App Store Connect: a CSV file whose header
/// has a `code` column and optionally `expirationDate` (`YYYY-MM-DD`); other columns are ignored.
public struct OfferCodePool: Sendable, Equatable {
    /// One code of the pool.
    public struct Code: Sendable, Equatable {
        /// The code, as in the file.
        public var code: String
        /// The last day it can be redeemed on, `YYYY-MM-DD`; `nil` when the file gives none.
        public var expirationDate: String?

        /// A code from its parts.
        public init(code: String, expirationDate: String? = nil) {
            self.code = code
            self.expirationDate = expirationDate
        }

        /// Whether the code can still be given on day `day` (`YYYY-MM-DD`): no expiration, or one after `day`.
        public func isUsable(on day: String) -> Bool {
            guard let expirationDate else { return true }
            return expirationDate > day
        }
    }

    /// The codes in file order, each once (a code repeated in the file is kept at its first line).
    public var codes: [Code]
    /// Codes the file repeated, skipped.
    public var repeated: Int

    /// A pool of `codes`.
    public init(codes: [Code], repeated: Int = 0) {
        self.codes = codes
        self.repeated = repeated
    }

    /// Parses the file's `text` (`file` names it in errors): a header naming a `code` column (names compared
    /// without case or surrounding spaces), then one code per line; blank lines are skipped. A missing
    /// `code` column, an empty code or an `expirationDate` that is not `YYYY-MM-DD` is an error naming
    /// `file:line`.
    public static func parse(_ text: String, file: String, key: String) throws(ConfigError) -> OfferCodePool {
        func failure(_ line: Int, _ message: String) -> ConfigError {
            ConfigError(key: key, message: "\(file):\(line): \(message)")
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        let header = (lines.first.map { CSVFormat.fields(of: String($0)) } ?? []).map {
            ($0 ?? "").trimmingSpaces.lowercased().replacingBOM
        }
        guard let codeColumn = header.firstIndex(of: "code") else {
            throw failure(1, "expected a header with a 'code' column, found '\(lines.first.map(String.init) ?? "")'")
        }
        let expirationColumn = header.firstIndex(of: "expirationdate")
        var codes: [Code] = []
        var seen: Set<String> = []
        var repeated = 0
        for (offset, line) in lines.enumerated().dropFirst() where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            let number = offset + 1
            let fields = CSVFormat.fields(of: String(line))
            let code = (codeColumn < fields.count ? fields[codeColumn] : nil)?.trimmingSpaces ?? ""
            guard !code.isEmpty else { throw failure(number, "expected a code, found none") }
            var expiration: String? = nil
            if let column = expirationColumn, column < fields.count, let text = fields[column]?.trimmingSpaces, !text.isEmpty {
                guard ReportCalendar.parseDate(text) != nil else {
                    throw failure(number, "expected an expirationDate YYYY-MM-DD, found '\(text)'")
                }
                expiration = text
            }
            guard seen.insert(code).inserted else {
                repeated += 1
                continue
            }
            codes.append(Code(code: code, expirationDate: expiration))
        }
        return OfferCodePool(codes: codes, repeated: repeated)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }

    /// Without a leading UTF-8 byte order mark (spreadsheets write one).
    fileprivate var replacingBOM: String { hasPrefix("\u{FEFF}") ? String(dropFirst()) : self }
}
