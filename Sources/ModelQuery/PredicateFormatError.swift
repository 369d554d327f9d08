#if !canImport(CoreData)
import Foundation

/// A predicate or expression format string that does not parse: what is wrong and where
/// (`offset` counts characters from the start of the format).
public struct PredicateFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let format: String
    public let offset: Int

    public init(message: String, format: String, offset: Int) {
        self.message = message
        self.format = format
        self.offset = offset
    }

    public var description: String {
        "unable to parse the format string \"\(format)\": \(message) at offset \(offset)"
    }
}
#endif
