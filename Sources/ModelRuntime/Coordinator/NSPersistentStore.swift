#if !canImport(CoreData)
import ModelQuery

/// A store added to a coordinator (`NSPersistentStore`). Both store types are SQLite databases
/// in Core Data's layout: `NSSQLiteStoreType` in a file, `NSInMemoryStoreType` (and an SQLite
/// store at `/dev/null`) in memory. Not `Sendable`, as Core Data's is not.
open class NSPersistentStore: NSObject {
    private let storeType: String
    private let storeConfiguration: String
    open var url: URL?
    open private(set) var options: [AnyHashable: Any]?
    open var isReadOnly: Bool
    weak var coordinator: NSPersistentStoreCoordinator?
    /// The SQLite database behind the store.
    let engine: SQLiteStoreEngine
    /// A number no other store of the process has; contexts key their objects by it.
    let registryNumber = ObjectKey.nextStoreNumber()

    init(
        type: String, configurationName: String?, url: URL?, options: [AnyHashable: Any]?, isReadOnly: Bool,
        engine: SQLiteStoreEngine, coordinator: NSPersistentStoreCoordinator
    ) {
        storeType = type
        storeConfiguration = configurationName ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.url = url
        self.options = options
        self.isReadOnly = isReadOnly
        self.engine = engine
        self.coordinator = coordinator
        super.init()
    }

    /// The store's UUID (`NSStoreUUID`), which object-ID URIs carry.
    open var identifier: String! {
        get { engine.storeUUID }
        set {}
    }

    open var type: String { storeType }

    open var configurationName: String { storeConfiguration }

    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? { coordinator }

    /// The value of `PRAGMA name` on the store's connection (what `NSSQLitePragmasOption` set).
    package func sqlitePragma(_ name: String) -> String? {
        let read = { () -> String? in
            guard let row = try? self.engine.connection.rows("PRAGMA \(name)").first, let value = row.first else { return nil }
            switch value {
            case .integer(let number): return String(number)
            case .text(let text): return text
            case .real(let number): return String(number)
            case .null, .blob: return nil
            }
        }
        return coordinator?.locked(read) ?? read()
    }

    /// `NSPersistentStoreSaveError` for a change to a read-only store, naming its file.
    static func readOnlyError(_ store: NSPersistentStore) -> NSError {
        guard let path = store.engine.filePath else { return CoreDataError.make(NSPersistentStoreSaveError, "The store is read-only") }
        return CoreDataError.make(NSPersistentStoreSaveError, "The store at \(path) is read-only", [NSFilePathErrorKey: path])
    }

    /// The store's metadata: what `Z_METADATA` holds, with `NSStoreType` and `NSStoreUUID`.
    open var metadata: [String: Any]! {
        get { engine.metadata }
        set {
            var metadata = newValue ?? [:]
            metadata[NSStoreUUIDKey] = engine.storeUUID
            metadata[NSStoreTypeKey] = NSSQLiteStoreType
            engine.metadata = metadata
            engine.metadataChanged = true
        }
    }
}
#endif
