/// The tool version written to manifests and `--version`.
public enum WinbackVersion {
    /// The version in manifests, pages and `--version`.
    public static let current = "0.1.0"
}
