#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Connects a model with its stores (`NSPersistentStoreCoordinator`). Contexts reach the stores
/// through it; every store access holds the coordinator's lock, so contexts on different queues
/// can share it.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    public let managedObjectModel: NSManagedObjectModel
    /// The engine model the coordinator's stores are read and written with (see
    /// ``CoordinatorEngineModel``).
    let engineModels: CoordinatorEngineModel
    var engineModel: EngineModel { engineModels.model }
    private var stores: [NSPersistentStore] = []
    let lock = NSRecursiveLock()
    private let queue = DispatchQueue(label: "NSPersistentStoreCoordinator")
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    open var name: String?

    public init(managedObjectModel model: NSManagedObjectModel) {
        model.markInUse()
        managedObjectModel = model
        engineModels = CoordinatorEngineModel(EngineModel.of(model))
        super.init()
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        ClassRegistry.noteInUse(model)
    }

    open var persistentStores: [NSPersistentStore] { locked { stores } }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Adding and removing stores

    /// Adds a store: `NSSQLiteStoreType` at a file URL (created when missing or a zero-length
    /// file; `/dev/null` for a store in memory) or `NSInMemoryStoreType`. A file that is not a
    /// Core Data store is refused before anything is written (`StoreFileCheck`). A store another
    /// model version wrote fails with `NSPersistentStoreIncompatibleVersionHashError`, unless the
    /// options ask for a migration (`NSMigratePersistentStoresAutomaticallyOption` with
    /// `NSInferMappingModelAutomaticallyOption`, or `NSPersistentStoreStagedMigrationManagerOptionKey`;
    /// see docs/Migrations.md). Every error about a store file names it (`NSFilePathErrorKey`, and
    /// the path in the description).
    @discardableResult
    open func addPersistentStore(
        ofType storeType: String, configurationName configuration: String?, at storeURL: URL?, options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        guard storeType == NSSQLiteStoreType || storeType == NSInMemoryStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unsupported store type \(storeType)")
        }
        if let configuration, !configuration.isEmpty, configuration != "PF_DEFAULT_CONFIGURATION_NAME",
            managedObjectModel.entities(forConfigurationName: configuration) == nil
        {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The model has no configuration named \(configuration)")
        }
        let readOnly =
            (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? (options?[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue
            ?? false
        let fileURL = storeType == NSSQLiteStoreType && storeURL?.path != "/dev/null" ? storeURL : nil
        // A load that creates the store and then fails takes away the files it created.
        let created = fileURL.map { url in StoreFileRemoval.companions.filter { !FileManager.default.fileExists(atPath: url.path + $0) } }
        let wasMissing =
            fileURL.map {
                !FileManager.default.fileExists(atPath: $0.path)
                    && !FileManager.default.fileExists(atPath: StoreMigrationSession.workFolder(of: $0.path))
            } ?? false
        do {
            let pragmas = try StorePragmas.parse(options?[NSSQLitePragmasOption])
            let added = try locked {
                if let fileURL, stores.contains(where: { $0.url?.standardizedFileURL == fileURL.standardizedFileURL }) {
                    throw CoreDataError.make(
                        NSPersistentStoreOpenError, "The store at \(fileURL.path) is already added to this coordinator",
                        [NSFilePathErrorKey: fileURL.path])
                }
                if let fileURL {
                    // Refused before anything is written, unless an interrupted migration is to be
                    // finished first (the engine looks at the file again after it).
                    var contents = StoreFileCheck.Contents.store
                    if !FileManager.default.fileExists(atPath: StoreMigrationSession.workFolder(of: fileURL.path)) {
                        contents = try StoreFileCheck.check(fileURL)
                        if readOnly, contents == .store {
                            try StoreMigrationOnLoad.refuseIncompatible(at: fileURL, model: managedObjectModel)
                        }
                    }
                    // Only a store has something to migrate (an empty database becomes a new one).
                    if !readOnly, contents != .emptyDatabase {
                        try StoreMigrationOnLoad.migrateIfNeeded(at: fileURL, options: options, model: managedObjectModel)
                    }
                }
                let engine = try SQLiteStoreEngine(
                    url: storeType == NSInMemoryStoreType ? nil : storeURL, inMemory: storeType == NSInMemoryStoreType, readOnly: readOnly,
                    pragmas: pragmas, model: engineModel, managedObjectModel: managedObjectModel)
                // An existing store is read through its own layout; the stores of one coordinator
                // share one (a new store gets the coordinator's).
                if engine.model !== engineModel {
                    guard stores.isEmpty else {
                        throw CoreDataError.make(
                            NSPersistentStoreIncompatibleSchemaError,
                            "The store at \(storeURL?.path ?? "") numbers its entities or names its tables otherwise than the coordinator's other stores; add it to a coordinator of its own",
                            [NSFilePathErrorKey: storeURL?.path ?? ""])
                    }
                    engineModels.replace(with: engine.model)
                }
                let store = NSPersistentStore(
                    type: storeType, configurationName: configuration, url: storeURL ?? URL(fileURLWithPath: "/dev/null"),
                    options: options, isReadOnly: readOnly, engine: engine, coordinator: self)
                try HistoryTracking.storeAdded(store, to: self)
                postStoresWillChange(added: [store])
                stores.append(store)
                return store
            }
            postStoresDidChange(added: [added])
            return added
        } catch {
            guard let fileURL else { throw error }
            if wasMissing {
                for suffix in [""] + (created ?? []) where StoreFileRemoval.isRegularFile(fileURL.path + suffix) {
                    try? FileManager.default.removeItem(atPath: fileURL.path + suffix)
                }
            }
            throw CoreDataError.naming(error, store: fileURL)
        }
    }

    /// The iOS 15 form of ``addPersistentStore(ofType:configurationName:at:options:)``.
    public func addPersistentStore(
        type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL, options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// Adds the described store and calls `block` with the description and the error, if any.
    open func addPersistentStore(
        with storeDescription: NSPersistentStoreDescription,
        completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void
    ) {
        var options: [AnyHashable: Any] = [:]
        for (key, value) in storeDescription.options { options[key] = value }
        if storeDescription.isReadOnly { options[NSReadOnlyPersistentStoreOption] = true }
        // The description's migration flags (true by default) become options, unless set as options.
        if options[NSMigratePersistentStoresAutomaticallyOption] == nil {
            options[NSMigratePersistentStoresAutomaticallyOption] = storeDescription.shouldMigrateStoreAutomatically
        }
        if options[NSInferMappingModelAutomaticallyOption] == nil {
            options[NSInferMappingModelAutomaticallyOption] = storeDescription.shouldInferMappingModelAutomatically
        }
        do {
            try addPersistentStore(
                ofType: storeDescription.type, configurationName: storeDescription.configuration, at: storeDescription.url,
                options: options)
            block(storeDescription, nil)
        } catch {
            block(storeDescription, error)
        }
    }

    open func remove(_ store: NSPersistentStore) throws {
        try locked {
            guard let index = stores.firstIndex(where: { $0 === store }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The store is not one of the coordinator's stores")
            }
            postStoresWillChange(removed: [store])
            stores.remove(at: index)
            HistoryTracking.storeRemoved(store)
        }
        postStoresDidChange(removed: [store])
    }

    /// Adds back a store removed by ``remove(_:)`` (a move that failed puts its store back).
    func reinstate(_ store: NSPersistentStore) throws {
        try locked {
            try HistoryTracking.storeAdded(store, to: self)
            postStoresWillChange(added: [store])
            stores.append(store)
        }
        postStoresDidChange(added: [store])
    }

    open func persistentStore(for url: URL) -> NSPersistentStore? {
        locked { stores.first { $0.url?.standardizedFileURL == url.standardizedFileURL } }
    }

    // MARK: Metadata

    open func metadata(for store: NSPersistentStore) -> [String: Any] { locked { store.metadata } }

    /// Replaces a store's metadata; written to the store now.
    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        locked {
            var merged = metadata ?? [:]
            merged[NSStoreUUIDKey] = store.engine.storeUUID
            merged[NSStoreTypeKey] = NSSQLiteStoreType
            store.engine.metadata = merged
            try? store.engine.writeMetadata()
        }
    }

    /// The metadata of the store at `url`, read without adding it.
    open class func metadataForPersistentStore(ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil) throws
        -> [String: Any]
    {
        let metadata: StoreMetadata
        let plist: Any
        do {
            let connection = try StoreInspector.open(url.path)
            metadata = try StoreInspector.read(connection)
            plist = try StoreMetadataTable.read(connection).map { SQLiteStoreEngine.dictionary($0.plist) } ?? [:]
        } catch {
            let reason = ErrorText.message(error)
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "The file at \(url.path) is not a readable Core Data SQLite store: \(reason)",
                [NSFilePathErrorKey: url.path, NSURLErrorKey: url, NSUnderlyingErrorKey: error as NSError])
        }
        var result = plist as? [String: Any] ?? [:]
        result[NSStoreUUIDKey] = metadata.storeUUID
        result[NSStoreTypeKey] = NSSQLiteStoreType
        return result
    }

    /// The iOS 15 form of ``metadataForPersistentStore(ofType:at:options:)``.
    public class func metadataForPersistentStore(type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil)
        throws -> [String: Any]
    {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    /// Empties the SQLite store at `url` as Core Data does: the store file is truncated to zero
    /// bytes and stays in place (adding it again creates a new store in it), its `-wal` is
    /// truncated, its `-shm` header cleared and a `-journal` removed; the store leaves this
    /// coordinator if it was added. Anything but regular files (a folder, FIFO, device or
    /// symbolic link in any of those places), and a store file that is not SQLite, is refused with
    /// `NSPersistentStoreOperationError` naming the path, and nothing is changed. A missing store
    /// is no error. `NSInMemoryStoreType` stores have no files: the store at `url` only leaves
    /// the coordinator. See `StoreFileRemoval`.
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        guard storeType == NSSQLiteStoreType || storeType == NSInMemoryStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unsupported store type \(storeType)")
        }
        try locked {
            if storeType == NSSQLiteStoreType { _ = try StoreFileRemoval.checkedFiles(of: url, action: "destroy") }
            if let store = stores.first(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) { try remove(store) }
            if storeType == NSSQLiteStoreType { try StoreFileRemoval.destroy(url) }
        }
    }

    public func destroyPersistentStore(at url: URL, type storeType: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws
    {
        try destroyPersistentStore(at: url, ofType: storeType.rawValue, options: options)
    }

    // MARK: Object IDs

    /// The object ID a `uriRepresentation()` names, when one of the coordinator's stores has it.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host else { return nil }
        let parts = url.path.split(separator: "/").map(String.init)
        guard parts.count == 2, parts[1].hasPrefix("p"), let key = Int64(parts[1].dropFirst()), key > 0,
            let store = locked({ stores.first { $0.identifier == host } }), let entity = engineModel.entity(named: parts[0])
        else { return nil }
        return NSManagedObjectID(entity: entity.description, rootEntityNumber: entity.rootNumber, key: .permanent(key), store: store)
    }

    /// The first store that can hold objects of `entity` (in its configuration).
    func store(for entity: NSEntityDescription) -> NSPersistentStore? {
        locked {
            stores.first { store in
                store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME"
                    || managedObjectModel.entities(forConfigurationName: store.configurationName)?.contains { $0 === entity } == true
            }
        }
    }

    // MARK: Queue

    open func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    open func performAndWait(_ block: () -> Void) {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) { return block() }
        queue.sync(execute: block)
    }
}
#endif
