/// Why a store could not be migrated. The store is left as it was.
public struct StoreMigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The store was not written by the migration's first version.
        case sourceMismatch
        /// Lightweight migration cannot infer a step (the message lists the reasons).
        case notInferable
        /// The store could not be read, copied, rewritten or swapped in.
        case failed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
