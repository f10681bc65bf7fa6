import Foundation
import WinbackAnalytics
import WinbackAppStore

#if canImport(Glibc)
    import Glibc
#endif

/// Expands glob patterns relative to a base directory: `*`, `?` and `[...]` match within one path
/// segment (not a leading `.`), `**` matches any number of directories.
public enum Glob {
    /// One matched file: its path relative to the base (`/`-separated, as reported) and on disk.
    public struct Match: Sendable, Hashable, Comparable {
        /// The path relative to the base directory.
        public var relativePath: String
        /// The absolute path.
        public var absolutePath: String
        /// What the path names (symbolic links followed): a regular file, or what the caller must refuse.
        public var kind: FileKind

        /// Byte order of the relative paths.
        public static func < (lhs: Match, rhs: Match) -> Bool {
            CodePointOrder.less(lhs.relativePath, rhs.relativePath)
        }
    }

    /// The non-directories matching `pattern` under `baseDirectory` (regular files, and FIFOs, devices or
    /// dangling links for the caller to refuse by name), sorted by relative path in byte order.
    public static func expand(_ pattern: String, in baseDirectory: String) -> [Match] {
        let isAbsolute = pattern.hasPrefix("/")
        let root = isAbsolute ? "/" : baseDirectory
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var results: Set<Match> = []
        walk(segments[...], directory: root, relative: isAbsolute ? "/" : "", into: &results)
        return results.sorted()
    }

    private static func join(_ base: String, _ name: String) -> String {
        base.isEmpty ? name : (base.hasSuffix("/") ? base + name : base + "/" + name)
    }

    private static func hasMagic(_ segment: String) -> Bool {
        segment.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    private static func entries(of directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    private static func walk(_ segments: ArraySlice<String>, directory: String, relative: String, into results: inout Set<Match>) {
        guard let segment = segments.first else { return }
        let rest = segments.dropFirst()
        if segment == "**" {
            walk(rest, directory: directory, relative: relative, into: &results)
            for name in entries(of: directory) where !name.hasPrefix(".") {
                let path = join(directory, name)
                if isDirectory(path) {
                    walk(segments, directory: path, relative: join(relative, name), into: &results)
                }
            }
            return
        }
        let names: [String]
        if hasMagic(segment) {
            names = entries(of: directory).filter { fnmatch(segment, $0, FNM_PERIOD) == 0 }
        } else {
            names = [segment]
        }
        for name in names {
            let path = join(directory, name)
            if rest.isEmpty {
                // Everything but directories and absent names: FIFOs, devices and dangling links too, so the
                // caller can refuse them by name rather than skip them (``FileKind``).
                let kind = FileKind.of(path)
                switch kind {
                case .directory, .missing: break
                case .regular, .other, .unresolvable:
                    results.insert(Match(relativePath: join(relative, name), absolutePath: path, kind: kind))
                }
            } else if isDirectory(path) {
                walk(rest, directory: path, relative: join(relative, name), into: &results)
            }
        }
    }
}
