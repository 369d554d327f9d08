#if !canImport(CoreData)
import Foundation
import Synchronization

/// The identity of a managed object (`NSManagedObjectID`): its entity, its store and its
/// primary key, or a temporary identity until the object is first saved. Safe to pass between
/// contexts and threads.
open class NSManagedObjectID: NSObject, NSCopying, NSFetchRequestResult, @unchecked Sendable {
    enum Key: Hashable {
        case permanent(Int64)
        /// A number from ``TemporaryIdentity/next()``: unique in the process.
        case temporary(UInt64)
    }

    private let entityDescription: NSEntityDescription
    let key: Key
    /// The root entity's number (`Z_ENT` of the inheritance root); IDs of one table compare by it.
    let rootEntityNumber: Int
    private weak var store: NSPersistentStore?
    /// The store's identity, taken once: registries key objects by it without loading the weak
    /// reference.
    let storeKey: ObjectIdentifier?
    /// The store's identifier, kept so an ID stays equal and describable after its store is removed.
    let storeIdentifier: String?

    init(entity: NSEntityDescription, rootEntityNumber: Int, key: Key, store: NSPersistentStore?) {
        entityDescription = entity
        self.rootEntityNumber = rootEntityNumber
        self.key = key
        self.store = store
        storeKey = store.map(ObjectIdentifier.init)
        storeIdentifier = store?.identifier
        super.init()
    }

    open var entity: NSEntityDescription { entityDescription }

    open var persistentStore: NSPersistentStore? { store }

    open var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The primary key (`Z_PK`) of a permanent ID.
    var primaryKey: Int64? {
        if case .permanent(let value) = key { return value }
        return nil
    }

    /// `x-coredata://<store UUID>/<Entity>/p<key>`, or `x-coredata:///<Entity>/t<UUID><n>` while
    /// temporary, as Core Data writes them (one UUID per process followed by a counter).
    open func uriRepresentation() -> URL {
        let name = entityDescription.name ?? ""
        switch key {
        case .permanent(let value): return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(name)/p\(value)")!
        case .temporary(let number): return URL(string: "x-coredata:///\(name)/t\(TemporaryIdentity.prefix)\(number)")!
        }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectID else { return false }
        if other === self { return true }
        return other.key == key && other.rootEntityNumber == rootEntityNumber && other.storeIdentifier == storeIdentifier
            && (isTemporaryID || other.entityDescription.isKindOf(entity: entityDescription)
                || entityDescription.isKindOf(entity: other.entityDescription) || other.entityDescription === entityDescription)
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(rootEntityNumber)
        return hasher.finalize()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { "<x-coredata:\(uriRepresentation().absoluteString.dropFirst("x-coredata:".count))>" }
}

/// Temporary identities: one random UUID per process and a counter, the shape of Core Data's
/// temporary URIs (`t<UUID><n>`). Counting is far cheaper than a random UUID per inserted object.
extension NSManagedObjectID {
    /// The order in which temporary IDs were made (permanent IDs sort first).
    var insertionNumber: UInt64 {
        if case .temporary(let number) = key { return number }
        return 0
    }
}

enum TemporaryIdentity {
    static let prefix = UUID().uuidString
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}

/// The key under which a context registers an object: store, table and primary key (or the
/// temporary identity), hashed without allocating.
struct ObjectKey: Hashable {
    let store: ObjectIdentifier?
    let root: Int
    let key: NSManagedObjectID.Key

    init(_ id: NSManagedObjectID) {
        store = id.storeKey
        root = id.rootEntityNumber
        key = id.key
    }

    init(store: NSPersistentStore, root: Int, primaryKey: Int64) {
        self.store = ObjectIdentifier(store)
        self.root = root
        key = .permanent(primaryKey)
    }

    /// One word per key: keys differ in their number and table far more often than in their
    /// store, which equality still compares.
    func hash(into hasher: inout Hasher) {
        switch key {
        case .permanent(let value): hasher.combine(Int(truncatingIfNeeded: value) &* 64 &+ root)
        case .temporary(let value): hasher.combine(~(Int(truncatingIfNeeded: value) &* 64 &+ root))
        }
    }
}
#endif
