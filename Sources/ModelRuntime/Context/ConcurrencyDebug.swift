#if !canImport(CoreData)
import ModelQuery

/// Carries a non-`Sendable` value to the context's queue; the context's queue discipline makes
/// the hand-over safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Reports use of a context off its queue in debug builds.
enum ConcurrencyDebug {
    static let isStrict: Bool = {
        let environment = ProcessInfo.processInfo.environment["com.apple.CoreData.ConcurrencyDebug"]
        if environment == "1" { return true }
        let arguments = ProcessInfo.processInfo.arguments
        if let index = arguments.firstIndex(of: "-com.apple.CoreData.ConcurrencyDebug"), index + 1 < arguments.count {
            return arguments[index + 1] == "1"
        }
        return false
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var reported: Set<ObjectIdentifier> = []

    static func report(_ context: NSManagedObjectContext, _ function: StaticString) {
        let message = "CoreData concurrency violation: \(context) used off its queue in \(function)"
        if isStrict { fatalError(message) }
        lock.lock()
        let first = reported.insert(ObjectIdentifier(context)).inserted
        lock.unlock()
        if first { FileHandle.standardError.write(Data((message + " (reported once per context)\n").utf8)) }
    }
}
#endif
