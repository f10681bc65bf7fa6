/// The tool version written to manifests and `--version`.
public enum WinbackVersion {
    public static let current = "0.1.0"
}
