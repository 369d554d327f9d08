/// A position in a model source file, carried by schema values so that later stages can point
/// diagnostics at the text a user wrote.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file path as the user gave it (never made absolute, so output stays machine-independent).
    public let file: String
    /// 1-based line number.
    public let line: Int
    /// 1-based column number, counted in Unicode scalars.
    public let column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location of a whole file, used when a problem has no better position.
    public static func file(_ path: String) -> SourceLocation {
        SourceLocation(file: path, line: 1, column: 1)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
