import Foundation
import Testing
import WinbackAnalytics
import WinbackTestSupport

/// The pure modules (WinbackAppStore, WinbackAnalytics, WinbackCore, WinbackOutlook, WinbackReportPage) hold values and pure
/// functions only: no locks or atomics, no unchecked sendability, no clock, no files, no environment, no
/// randomness. Those live in the modules above them.
@Suite struct CorePurityTests {
    /// Each forbidden spelling and what it would bring into the core.
    static let forbidden: [(pattern: String, meaning: String)] = [
        ("import Synchronization", "locks and atomics"), ("Mutex<", "a lock"), ("Atomic<", "an atomic"),
        ("@unchecked Sendable", "unchecked sendability"), ("Date()", "the clock"), ("Date.now", "the clock"),
        ("clock_gettime", "the clock"), ("DispatchTime", "the clock"), ("ContinuousClock", "the clock"),
        ("SuspendingClock", "the clock"), ("FileManager", "files"), ("FileHandle", "files"), ("fopen(", "files"),
        ("contentsOfFile", "files"), ("contentsOf: URL", "files"), ("Data(contentsOf", "files"), ("Glibc.open", "files"),
        ("Glibc.read", "files"), ("ProcessInfo", "the environment"), ("getenv(", "the environment"),
        ("SystemRandomNumberGenerator", "randomness"), (".random(", "randomness"),
    ]

    /// Sources and tests cite the docs/ pages users have, never the SPEC sections they do not.
    @Test func noSourceCitesTheSpec() throws {
        var found: [String] = []
        for folder in ["Sources", "Tests"] {
            let directory = Fixtures.packageRoot.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") }
            for file in files where try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).contains("SPEC " + "§")
            {
                found.append(folder + "/" + file)
            }
        }
        #expect(found.isEmpty, "cite docs/ instead in \(found)")
    }

    /// The pure modules.
    static let pureModules = ["WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackOutlook", "WinbackReportPage"]

    @Test(arguments: pureModules)
    func pureSourcesHaveNoEffects(_ module: String) throws {
        let directory = Fixtures.packageRoot.appendingPathComponent("Sources/" + module)
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        // The directory was found and read (the smallest pure module has a dozen files).
        #expect(files.count > 10, "found only \(files.count) sources under \(directory.path)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for (pattern, meaning) in Self.forbidden where line.contains(pattern) {
                    found.append("Sources/\(module)/\(file):\(number + 1): \(pattern) (\(meaning))")
                }
            }
        }
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    /// No module over 5 000 lines of Swift, WinbackCore under 4 000 (a module holds one idea).
    @Test func modulesStaySmall() throws {
        let sources = Fixtures.packageRoot.appendingPathComponent("Sources")
        var lines: [String: Int] = [:]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let directory = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".swift")
            }
            for file in files ?? [] {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                lines[module, default: 0] += text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            }
        }
        #expect(lines["WinbackCore", default: 0] > 1000 && lines["WinbackCore", default: 0] < 4000, "\(lines)")
        #expect(lines.count > 10 && lines.values.allSatisfy { $0 <= 5000 }, "\(lines)")
    }
}

/// CSV cells are written verbatim (RFC 4180 quoting only): the files are data for DuckDB, pandas and
/// spreadsheets alike, and an offer id or product id that starts with `=` must still join with App Store
/// Connect. A spreadsheet should import them as text (the README says so); report.html escapes everything.
@Suite struct CSVCellStanceTests {
    @Test func formulaLikeCellsAreWrittenVerbatim() {
        let cells: [String?] = ["=HYPERLINK(\"x\")", "+1", "-1", "@SUM(A1)", "\tx", "\rx", nil]
        #expect(CSVFormat.line(cells) == "\"=HYPERLINK(\"\"x\"\")\",+1,-1,@SUM(A1),\tx,\"\rx\",\n")
    }
}
