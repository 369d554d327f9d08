#if !canImport(CoreData)
import ModelQuery

/// The queue a context runs on (`NSManagedObjectContextConcurrencyType`): a top-level enum, as
/// Core Data declares it, passed to `NSManagedObjectContext(concurrencyType:)`.
public enum NSManagedObjectContextConcurrencyType: UInt, @unchecked Sendable {
    @available(*, deprecated, message: "Use another NSManagedObjectContextConcurrencyType")
    case confinementConcurrencyType = 0
    case privateQueueConcurrencyType = 1
    case mainQueueConcurrencyType = 2
}

extension NSManagedObjectContext {
    /// The Swift spelling of a context's queue (`NSManagedObjectContext.ConcurrencyType`), as in
    /// Core Data's Swift overlay: a struct wrapping `NSManagedObjectContextConcurrencyType`, with
    /// `.privateQueue` and `.mainQueue`, for `NSManagedObjectContext(_:)`. Like Core Data's, it
    /// is not `Sendable`.
    public struct ConcurrencyType: Hashable, Equatable, RawRepresentable {
        public var rawValue: NSManagedObjectContextConcurrencyType

        public init(rawValue: NSManagedObjectContextConcurrencyType) {
            self.rawValue = rawValue
        }

        public typealias RawValue = NSManagedObjectContextConcurrencyType
    }

    /// A context on `type`'s queue: `NSManagedObjectContext(.privateQueue)`.
    public convenience init(_ type: NSManagedObjectContext.ConcurrencyType) {
        self.init(concurrencyType: type.rawValue)
    }
}

extension NSManagedObjectContext.ConcurrencyType {
    // Computed, so the type needs no `Sendable` (Core Data declares these `static let`; both read
    // the same to callers).
    /// A private queue of the context's own.
    public static var privateQueue: NSManagedObjectContext.ConcurrencyType { .init(rawValue: .privateQueueConcurrencyType) }
    /// The main queue.
    public static var mainQueue: NSManagedObjectContext.ConcurrencyType { .init(rawValue: .mainQueueConcurrencyType) }
}
#endif
