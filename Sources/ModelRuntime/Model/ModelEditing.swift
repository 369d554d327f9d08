#if !canImport(CoreData)
import ModelQuery

/// Core Data raises `NSInternalInconsistencyException` ("Can't modify an immutable model.") when
/// a model, or an entity or property of it, changes after a persistent store coordinator started
/// using it. Swift has no exception to raise, so the same programming error stops the process.
func requireEditable(_ model: NSManagedObjectModel?, _ what: @autoclosure () -> String) {
    if let model, model.isInUse {
        preconditionFailure("Can't modify an immutable model (\(what()) changed after the model was put in use).")
    }
}

/// A value computed once and then shared, safe to read from any thread. While the model can
/// still change the value is recomputed on every read, so an edit never leaves it stale.
final class ModelCache<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func value(frozen: Bool, _ make: () -> Value) -> Value {
        guard frozen else { return make() }
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}
#endif
