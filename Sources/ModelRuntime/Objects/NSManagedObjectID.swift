#if !canImport(CoreData)
import ModelQuery
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
    /// The store's ``NSPersistentStore/registryNumber`` (0 without a store), kept so the ID's
    /// ``ObjectKey`` stays the same after its store is removed.
    let storeNumber: UInt32
    /// The root entity's number (`Z_ENT` of the inheritance root); IDs of one table compare by it.
    let rootEntityNumber: Int
    private weak var store: NSPersistentStore?
    /// The store's identifier, kept so an ID stays equal and describable after its store is removed.
    let storeIdentifier: String?

    convenience init(entity: NSEntityDescription, rootEntityNumber: Int, key: Key, store: NSPersistentStore?) {
        self.init(
            entity: entity, rootEntityNumber: rootEntityNumber, key: key, store: store, storeNumber: store?.registryNumber ?? 0,
            storeIdentifier: store?.identifier)
    }

    /// An ID whose store may be gone already: its number and identifier are given.
    init(
        entity: NSEntityDescription, rootEntityNumber: Int, key: Key, store: NSPersistentStore?, storeNumber: UInt32,
        storeIdentifier: String?
    ) {
        entityDescription = entity
        self.rootEntityNumber = rootEntityNumber
        self.key = key
        self.store = store
        self.storeNumber = storeNumber
        self.storeIdentifier = storeIdentifier
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
        guard let other = Self.identifier(in: object) else { return false }
        if other === self { return true }
        return other.key == key && other.rootEntityNumber == rootEntityNumber && other.storeIdentifier == storeIdentifier
            && (isTemporaryID || other.entityDescription.isKindOf(entity: entityDescription)
                || entityDescription.isKindOf(entity: other.entityDescription) || other.entityDescription === entityDescription)
    }

    /// The key and the root entity's number mixed into one word (equal IDs have both equal);
    /// `NSObject`'s `hash(into:)` hashes it again for Swift's sets and dictionaries.
    open override var hash: Int {
        let number: UInt64
        switch key {
        case .permanent(let value): number = UInt64(bitPattern: value)
        case .temporary(let value): number = ~value
        }
        let root = UInt64(UInt32(truncatingIfNeeded: rootEntityNumber))
        return Int(truncatingIfNeeded: (number ^ (root &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The ID `object` holds, read in place when it is one of the runtime's IDs. An `Any` holding
    /// a class instance keeps the reference in its first word and the metadata of the type it was
    /// boxed as after its three-word buffer (see ``StoredValueCast``): boxed as
    /// `NSManagedObjectID`, the reference is the ID; boxed as `NSObject` (how `==` and so sets of
    /// IDs pass it), it is the ID when the instance's own class, its heap object's first word, is
    /// exactly this class. Either way nothing is copied or cast, which a set of IDs would pay on
    /// every comparison; anything else is cast.
    private static func identifier(in object: borrowing Any?) -> NSManagedObjectID? {
        if let metadata = StoredValueCast.metadata(of: object), metadata == objectMetadata || metadata == idMetadata {
            let reference = withUnsafeBytes(of: object) { $0.load(as: UnsafeRawPointer.self) }
            if metadata == idMetadata || reference.load(as: UnsafeRawPointer.self) == idMetadata {
                return Unmanaged<NSManagedObjectID>.fromOpaque(reference).takeUnretainedValue()
            }
        }
        guard let object = copy object else { return nil }
        return object as? NSManagedObjectID
    }

    private static var idMetadata: UnsafeRawPointer {
        @inline(__always) get { unsafeBitCast(NSManagedObjectID.self as Any.Type, to: UnsafeRawPointer.self) }
    }
    private static var objectMetadata: UnsafeRawPointer {
        @inline(__always) get { unsafeBitCast(NSObject.self as Any.Type, to: UnsafeRawPointer.self) }
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
/// temporary identity), in two words, hashed without allocating.
struct ObjectKey: Hashable {
    /// The store's ``NSPersistentStore/registryNumber`` (high half), the root entity's number and
    /// whether the key is temporary (lowest bit).
    let table: UInt64
    /// The primary key, or the temporary identity's number.
    let number: Int64

    private static let storeNumbers = Atomic<UInt32>(0)

    static func nextStoreNumber() -> UInt32 { storeNumbers.add(1, ordering: .relaxed).newValue }

    init(_ id: NSManagedObjectID) {
        switch id.key {
        case .permanent(let key):
            self.init(storeNumber: id.storeNumber, root: id.rootEntityNumber, primaryKey: key)
        case .temporary(let key):
            self.init(table: UInt64(UInt32(truncatingIfNeeded: id.rootEntityNumber) & 0x7fff_ffff) << 1 | 1, number: Int64(bitPattern: key))
        }
    }

    init(store: NSPersistentStore, root: Int, primaryKey: Int64) {
        self.init(storeNumber: store.registryNumber, root: root, primaryKey: primaryKey)
    }

    init(storeNumber: UInt32, root: Int, primaryKey: Int64) {
        self.init(table: UInt64(storeNumber) << 32 | UInt64(UInt32(truncatingIfNeeded: root) & 0x7fff_ffff) << 1, number: primaryKey)
    }

    init(table: UInt64, number: Int64) {
        self.table = table
        self.number = number
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(mixed)
    }

    /// The key's two words mixed into one.
    var mixed: UInt64 {
        (UInt64(bitPattern: number) ^ (table &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
    }
}
#endif
