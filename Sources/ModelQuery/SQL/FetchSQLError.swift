#if !canImport(CoreData)
import Foundation

/// A predicate, sort descriptor or property that cannot be translated to SQL, naming the part.
///
/// Core Data raises an Objective-C exception (`NSInvalidArgumentException`, for example
/// "keypath foo not found in entity Note" or "unimplemented SQL generation for predicate") for
/// the same requests; Swift cannot catch those, so the runtime throws this error instead, and
/// ``nsError`` gives it in Core Data's error domain for a fetch to report.
public struct FetchSQLError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The key path names no property of the entity.
        case unknownKeyPath
        /// The property is transient (not stored).
        case transientProperty
        /// A construct the SQL translation does not support (block predicates, functions, …).
        case unsupported
    }

    public let reason: Reason
    /// What could not be translated and why.
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// `NSCocoaErrorDomain`, `NSCoreDataError` (134060), with the message as the description.
    public var nsError: NSError {
        NSError(domain: NSCocoaErrorDomain, code: 134060, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
#endif
