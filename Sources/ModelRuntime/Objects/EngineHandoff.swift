#if !canImport(CoreData)
import ModelQuery

/// Hands the engine's entity to the object initialiser the context is about to call, so
/// `init(entity:insertInto:)` — which subclasses may override, and which the context calls to
/// make objects of the entity's class — need not look it up (a model lookup behind a lock) once
/// per fetched row. Per thread, since contexts on different queues make objects at once.
enum EngineHandoff {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `make` with `engine` offered to the first initialiser that asks for its entity.
    @inline(__always)
    static func offering<T>(_ engine: EngineEntity, _ make: () -> T) -> T {
        pthread_setspecific(key, Unmanaged.passUnretained(engine).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return make()
    }

    /// The offered engine entity when it is `entity`'s. The offer stays until `offering` ends: an
    /// initialiser that makes another object of the same entity meanwhile gets the same (right)
    /// engine data, and one of another entity gets none.
    @inline(__always)
    static func take(for entity: NSEntityDescription) -> EngineEntity? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let offered = Unmanaged<EngineEntity>.fromOpaque(raw)
        guard offered._withUnsafeGuaranteedRef({ $0.description === entity }) else { return nil }
        return offered.takeUnretainedValue()
    }
}
#endif
