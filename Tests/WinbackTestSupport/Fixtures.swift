import Foundation
import WinbackAppStore

/// Files bundled with the test-support target.
public enum Fixtures {
    /// The bytes of `Fixtures/<name>`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        guard
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")
                ?? Bundle.module.url(forResource: name, withExtension: nil)
        else { throw FixtureError(description: "no fixture named \(name)") }
        return Array(try Data(contentsOf: url))
    }

    /// `Fixtures/<name>` parsed as JSON.
    public static func json(_ name: String) throws -> JSONValue {
        try JSONParser.parse(try bytes(name))
    }

    /// The root of the package checkout (for sample-data and golden files).
    public static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }
}

/// A missing fixture.
public struct FixtureError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
