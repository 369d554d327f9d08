#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore

/// The SQLite database of one persistent store: opens or creates it with `ModelStore`'s schema
/// and connection (WAL, Core Data's SQL functions), checks an existing store's model, and runs
/// the engine's statements. Used under its coordinator's lock only.
final class SQLiteStoreEngine {
    let connection: StoreConnection
    /// The engine model the store is read and written with: the one it was opened with for a new
    /// store, the one for its own layout for an existing store (see ``checkModel``).
    private(set) var model: EngineModel
    /// Whether the store's file was created by this engine (its layout is then the model's).
    private var createdNow = false
    let storeUUID: String
    var metadata: [String: Any]
    /// Whether ``metadata`` was set through the store since it was last written: the next save
    /// into the store writes it, in the save's transaction.
    var metadataChanged = false
    let isInMemory: Bool
    /// The store file's path; nil in memory.
    let filePath: String?

    /// Opens the store at `url` (created when missing or empty, unless read-only; refused unless
    /// it is a Core Data store, see ``StoreFileCheck``), or an in-memory store
    /// for nil, `/dev/null` or `NSInMemoryStoreType`, and runs `pragmas` (`NSSQLitePragmasOption`)
    /// on its connection.
    init(
        url: URL?, inMemory: Bool, readOnly: Bool, pragmas: [(name: String, value: String)] = [], model: EngineModel,
        managedObjectModel: NSManagedObjectModel
    ) throws {
        self.model = model
        let memory = inMemory || url == nil || url?.path == "/dev/null"
        isInMemory = memory
        let storePath = memory ? nil : url!.path
        filePath = storePath
        if memory {
            connection = try Self.wrap { try StoreSchema.create(at: ":memory:", version: model.version, layout: model.layout) }
        } else {
            let path = url!.path
            let contents = try StoreFileCheck.check(url!)
            if contents == .store {
                connection = try Self.wrap(path: path) {
                    readOnly
                        ? try StoreConnection(path: path, mode: .readOnly) : try StoreConnection.openStore(at: path)
                }
            } else {
                guard !readOnly else {
                    throw CoreDataError.make(
                        NSPersistentStoreOpenError,
                        "The read-only store at \(path) \(contents == .missing ? "does not exist" : "is empty, with no store to read")",
                        [NSFilePathErrorKey: path, NSURLErrorKey: url!])
                }
                if contents == .missing {
                    try? FileManager.default.createDirectory(at: url!.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                if contents == .emptyDatabase { try StoreFileCheck.empty(url!) }
                connection = try Self.wrap(path: path) {
                    try StoreSchema.create(at: path, version: model.version, layout: model.layout, inEmptyFile: contents != .missing)
                }
                createdNow = true
            }
        }
        let opened = connection
        try Self.wrap(path: storePath) { try StorePragmas.apply(pragmas, to: opened) }
        guard let row = try Self.wrap(path: storePath, { try StoreMetadataTable.read(opened) }) else {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "The file at \(storePath ?? ":memory:") is not a Core Data SQLite store (no metadata)",
                storePath.map { [NSFilePathErrorKey: $0] } ?? [:])
        }
        storeUUID = row.storeUUID
        metadata = Self.dictionary(row.plist) as? [String: Any] ?? [:]
        metadata[NSStoreUUIDKey] = row.storeUUID
        metadata[NSStoreTypeKey] = NSSQLiteStoreType
        try checkModel(managedObjectModel, path: url?.path ?? ":memory:")
    }

    /// Fails with `NSPersistentStoreIncompatibleVersionHashError` when another model version
    /// wrote the store, naming the entities that differ.
    private func checkModel(_ managedObjectModel: NSManagedObjectModel, path: String) throws {
        let stored = StoreModelMatch.entityHashes(inMetadata: metadata) ?? [:]
        let mine = managedObjectModel.entityVersionHashesByName.mapValues { [UInt8]($0) }
        if stored != mine {
            let match = StoreModelMatch.match(stored, against: [.init(name: "model", entityHashes: mine)])
            let names = match.differences.map { "\($0.entityName) (\($0.kind.rawValue))" }.joined(separator: ", ")
            throw CoreDataError.make(
                NSPersistentStoreIncompatibleVersionHashError,
                "The model used to open the store is incompatible with the one used to create the store; entities that differ: \(names)",
                [NSFilePathErrorKey: path, "NSStoreModelVersionHashes": metadata[NSStoreModelVersionHashesKey] ?? [:]])
        }
        // A store in memory, or one just created, has the layout it was created with.
        guard !isInMemory, !createdNow else { return }
        let existing = try wrap { try StoreSchema.existingLayout(of: connection, version: model.version) }
        if !existing.differences.isEmpty {
            throw CoreDataError.make(
                NSPersistentStoreIncompatibleSchemaError,
                "The store's tables at \(path) differ from the model: " + existing.differences.joined(separator: "; "),
                [NSFilePathErrorKey: path])
        }
        model = EngineModel.of(managedObjectModel, existing: existing)
    }

    /// Runs `body`, turning SQLite and store errors into Core Data's: `NSSQLiteError` with
    /// SQLite's code in `NSSQLiteErrorDomain` and SQLite's error in `NSUnderlyingErrorKey`, naming
    /// the store file at `path` (`NSFilePathErrorKey` and the description) when there is one.
    static func wrap<T>(path: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreSQLiteError {
            let underlying = NSError(
                domain: NSSQLiteErrorDomain, code: Int(error.code), userInfo: [NSLocalizedDescriptionKey: error.message])
            var info: [String: Any] = [NSSQLiteErrorDomain: Int(error.code), NSUnderlyingErrorKey: underlying]
            var description = "SQLite error code \(error.code), '\(error.message)'"
            if let path {
                info[NSFilePathErrorKey] = path
                description += ", for the store at \(path)"
            }
            throw CoreDataError.make(NSSQLiteError, description, info)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            guard let path else { throw error }
            throw CoreDataError.naming(error, store: URL(fileURLWithPath: path))
        } catch {
            var info: [String: Any] = [NSUnderlyingErrorKey: error as NSError]
            if let path { info[NSFilePathErrorKey] = path }
            throw CoreDataError.make(
                NSPersistentStoreOpenError, ErrorText.message(error) + (path.map { " (store file \($0))" } ?? ""), info)
        }
    }

    /// ``wrap(path:_:)`` naming this engine's store file.
    func wrap<T>(_ body: () throws -> T) throws -> T { try Self.wrap(path: filePath, body) }

    static func dictionary(_ plist: PropertyList) -> Any {
        switch plist {
        case .string(let value): return value
        case .integer(let value): return Int(value)
        case .real(let value): return value
        case .boolean(let value): return value
        case .data(let value): return Data(value)
        case .date(let value): return Date(timeIntervalSinceReferenceDate: value)
        case .array(let values): return values.map(dictionary)
        case .dictionary(let members):
            var result: [String: Any] = [:]
            for member in members { result[member.key] = dictionary(member.value) }
            return result
        case .uid(let value): return Int(value)
        }
    }

    /// Writes the metadata dictionary back into `Z_METADATA`.
    func writeMetadata() throws {
        var members: [(key: String, value: PropertyList)] = []
        for key in metadata.keys.sorted() where key != NSStoreUUIDKey && key != NSStoreTypeKey {
            if let value = Self.plist(metadata[key]!) { members.append((key, value)) }
        }
        if let type = metadata[NSStoreTypeKey] as? String { members.append((NSStoreTypeKey, .string(type))) }
        try wrap {
            try StoreMetadataTable.write(
                .init(storeUUID: storeUUID, plist: .dictionary(members.sorted { $0.key < $1.key })), to: connection)
        }
    }

    static func plist(_ value: Any) -> PropertyList? {
        switch value {
        case let value as String: return .string(value)
        case let value as Bool: return .boolean(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Double: return .real(value)
        case let value as Data: return .data([UInt8](value))
        case let value as Date: return .date(value.timeIntervalSinceReferenceDate)
        case let value as [Any]: return .array(value.compactMap(plist))
        case let value as [String: Any]: return .dictionary(value.keys.sorted().compactMap { key in plist(value[key]!).map { (key, $0) } })
        default: return nil
        }
    }

    // MARK: Keys

    /// Reserves `count` primary keys for the table of `root`: in a transaction of their own, or,
    /// with `inOpenTransaction`, inside the write transaction a save holds open (keys for objects
    /// a merge policy inserted while resolving the save's conflicts).
    func allocateKeys(_ count: Int, root: Int, inOpenTransaction: Bool = false) throws -> Int64 {
        try wrap {
            let allocator = PrimaryKeyAllocator(connection: connection)
            return try inOpenTransaction
                ? allocator.allocateInOpenTransaction(count, rootEntityNumber: root) : allocator.allocate(count, rootEntityNumber: root)
        }
    }
}
#endif
