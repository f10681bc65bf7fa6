import WinbackAnalytics
import WinbackAppStore
import WinbackIO
import WinbackIngest

/// Expands the config's `inputs` globs (docs/inputs.md): the union of all matches, each file once, sorted by
/// config-relative path in byte order; a pattern matching nothing is a warning; a matched file with an
/// unknown suffix is a usage error (64); a match that is not a regular file (a FIFO, socket or device) or
/// a symbolic link that cannot be followed (dangling, looping) is an I/O error naming it (74).
public enum InputDiscovery {
    /// The input files the config's globs match, sorted, and a warning per pattern matching nothing.
    public static func discover(_ loaded: LoadedConfig) throws(JobError) -> (files: [InputFile], warnings: [String]) {
        var byPath: [String: InputFile] = [:]
        var warnings: [String] = []
        for (index, pattern) in loaded.config.inputs.enumerated() {
            let matches = Glob.expand(pattern, in: loaded.directory)
            if matches.isEmpty { warnings.append("inputs[\(index)] '\(pattern)' matches no file") }
            for match in matches {
                switch match.kind {
                case .regular: break
                case .other(let kind):
                    throw .io(IOError(path: match.relativePath, reason: "not a regular file (\(kind)); inputs must be files"))
                case .unresolvable(let reason):
                    throw .io(IOError(path: match.relativePath, reason: "symbolic link cannot be followed (\(reason))"))
                case .directory, .missing: continue
                }
                guard let format = InputFormat(path: match.relativePath) else {
                    throw .config(
                        file: loaded.path,
                        ConfigError(
                            key: "inputs[\(index)]",
                            message:
                                "'\(pattern)' matches '\(match.relativePath)', expected a .ndjson, .jsonl or .json file (optionally .gz)"))
                }
                byPath[match.relativePath] = InputFile(relativePath: match.relativePath, absolutePath: match.absolutePath, format: format)
            }
        }
        let files = byPath.values.sorted { CodePointOrder.less($0.relativePath, $1.relativePath) }
        return (files, warnings)
    }
}
