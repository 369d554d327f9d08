/// The version of modelgen, printed by `--version` and written into generated file headers.
public enum ModelgenVersion {
    public static let current = "0.1.0"
}
