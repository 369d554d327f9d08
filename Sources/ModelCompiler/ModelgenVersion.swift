/// The version of modelgen, printed by `--version` and written into generated file headers.
public enum ModelgenVersion {
    public static let current = "0.1.0"

    /// The version of the API generated classes use on platforms without Core Data (slot
    /// accessors, `SlotTable`, `KeyPathStringConvertible`). Generated code declares a type
    /// conforming to `ModelRuntime._ModelgenGeneratedCodeVersion<N>`; a `ModelRuntime` that
    /// changes that API renames the protocol, so sources generated for another version fail to
    /// build at that declaration, which says what to do.
    public static let generatedCodeAPI = 1
}
