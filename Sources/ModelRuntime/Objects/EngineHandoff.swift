#if !canImport(CoreData)
import ModelQuery

/// Hands the engine's entity to the object initialiser the context is about to call, so
/// `init(entity:insertInto:)` — which subclasses may override, and which the context calls to
/// make objects of the entity's class — need not look it up (a model lookup behind a lock) once
/// per fetched row. Per thread, since contexts on different queues make objects at once.
///
/// Each thread has one slot, made on its first offer and freed when the thread ends; an offer
/// writes the slot and puts back what it held when the initialiser returns, so it costs two
/// plain stores (setting a thread-specific value twice per object cost more than the lookup it
/// saves a fetch of small rows).
enum EngineHandoff {
    /// A thread's slot: the offered entity, unretained, or nil.
    typealias Slot = UnsafeMutablePointer<UnsafeRawPointer?>

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { slot in free(slot) }
        return key
    }()

    /// The calling thread's slot, made on first use. Valid on this thread until it ends.
    @inline(__always)
    static func slot() -> Slot {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: UnsafeRawPointer?.self) }
        return makeSlot()
    }

    @inline(never)
    private static func makeSlot() -> Slot {
        let raw = malloc(MemoryLayout<UnsafeRawPointer?>.stride)!
        let slot = raw.bindMemory(to: UnsafeRawPointer?.self, capacity: 1)
        slot.initialize(to: nil)
        pthread_setspecific(key, raw)
        return slot
    }

    /// Runs `make` with `engine` offered to the first initialiser that asks for its entity, in
    /// `slot` (the calling thread's, which a caller making many objects takes once).
    @inline(__always)
    static func offering<T>(_ engine: EngineEntity, in slot: Slot = slot(), _ make: () -> T) -> T {
        let previous = slot.pointee
        slot.pointee = UnsafeRawPointer(Unmanaged.passUnretained(engine).toOpaque())
        defer { slot.pointee = previous }
        return make()
    }

    /// The offered engine entity when it is `entity`'s. The offer stays until `offering` ends: an
    /// initialiser that makes another object of the same entity meanwhile gets the same (right)
    /// engine data, and one of another entity gets none.
    @inline(__always)
    static func take(for entity: NSEntityDescription) -> EngineEntity? {
        guard let raw = pthread_getspecific(key), let offeredRaw = raw.assumingMemoryBound(to: UnsafeRawPointer?.self).pointee
        else { return nil }
        let offered = Unmanaged<EngineEntity>.fromOpaque(offeredRaw)
        guard offered._withUnsafeGuaranteedRef({ $0.description === entity }) else { return nil }
        return offered.takeUnretainedValue()
    }
}
#endif
