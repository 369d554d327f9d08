#if !canImport(CoreData)
import ModelQuery

/// A Core Data stack in one object (`NSPersistentContainer`): a model, a coordinator, the
/// descriptions of its stores, a main-queue `viewContext` and private-queue background contexts.
/// `Sendable`, as Core Data's is (`NS_SWIFT_SENDABLE`); its state is behind a lock.
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    private let containerName: String
    private let model: NSManagedObjectModel
    private let coordinator: NSPersistentStoreCoordinator
    /// Set when `init(name:)` found no compiled model: `loadPersistentStores` reports it. Set
    /// only while the container is made.
    private var missingModel: NSError?
    private let lock = NSLock()
    private var descriptions: [NSPersistentStoreDescription]
    /// Descriptions added or being added (held, so identity comparisons stay valid).
    private var loaded: [NSPersistentStoreDescription] = []
    private let mainContext: NSManagedObjectContext

    /// A container for the model named `name`: `<name>.momd` (or `.mom`) in `Bundle.main`, in
    /// the SwiftPM resource bundles of the running program (where the modelgen build plugin puts
    /// it) or in `Bundle.allBundles`. Without one, Core Data's message "Failed to load model named
    /// <name>" is written to standard error, the container has an empty model, and
    /// `loadPersistentStores` reports an `NSError` naming the model and where it was looked for.
    public convenience init(name: String) {
        let lookup = ContainerModelLookup.find(named: name)
        if let url = lookup.url, let model = NSManagedObjectModel(contentsOf: url) {
            self.init(name: name, managedObjectModel: model)
            return
        }
        FileHandle.standardError.write(Data("CoreData: error:  Failed to load model named \(name)\n".utf8))
        let places = lookup.searched.map(\.path).joined(separator: ", ")
        let reason =
            lookup.url.map { "\($0.path) is not a readable compiled model" }
            ?? "no \(name).momd or \(name).mom in \(places.isEmpty ? "any bundle" : places)"
        let error = CoreDataError.make(
            NSPersistentStoreInvalidTypeError, "Failed to load model named \(name): \(reason)",
            [NSFilePathErrorKey: lookup.url?.path ?? name])
        self.init(name: name, managedObjectModel: NSManagedObjectModel())
        missingModel = error
    }

    /// A container for `model`, named `name` (the default store is `<name>.sqlite`). The
    /// designated initialiser, as in Core Data: a subclass that declares no initialiser of its own
    /// inherits both (`final class Stack: NSPersistentContainer, @unchecked Sendable {}`).
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        containerName = name
        self.model = model
        missingModel = nil
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        mainContext = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        mainContext.persistentStoreCoordinator = coordinator
        descriptions = []
        super.init()
        descriptions = [NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
    }

    /// The directory of the default store: on Linux the XDG data directory with a folder named
    /// after the program (`$XDG_DATA_HOME/<program>`, or `~/.local/share/<program>`). Subclasses
    /// may override it, as with Core Data.
    open class func defaultDirectoryURL() -> URL {
        DefaultDirectory.url()
    }

    open var name: String { containerName }
    open var managedObjectModel: NSManagedObjectModel { model }
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator { coordinator }

    /// The stores `loadPersistentStores` adds; one SQLite store at
    /// `defaultDirectoryURL()/<name>.sqlite` until set.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription] {
        get { locked { descriptions } }
        set { locked { descriptions = newValue } }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Loading stores

    /// Adds every store of `persistentStoreDescriptions` not added yet and calls `block` once per
    /// description with nil or the error (a failed description is tried again by the next call). A description with `shouldAddStoreAsynchronously` is
    /// added on a background queue (and `block` called there); the others are added before this
    /// returns. The folder of a file store is created when missing.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        let pending = locked { descriptions.filter { description in !loaded.contains { $0 === description } } }
        let handler = UncheckedBox(block)
        for description in pending {
            if description.shouldAddStoreAsynchronously {
                let box = UncheckedBox(description)
                DispatchQueue.global().async { [self] in
                    let error = load(box.value)
                    handler.value(box.value, error)
                }
            } else {
                block(description, load(description))
            }
        }
    }

    /// Adds one described store; nil when it was added (or was already, or is being added by
    /// another call).
    private func load(_ description: NSPersistentStoreDescription) -> NSError? {
        if let missingModel { return missingModel }
        let claimed = locked {
            if loaded.contains(where: { $0 === description }) { return false }
            loaded.append(description)
            return true
        }
        guard claimed else { return nil }
        let error = addStore(description)
        if error != nil { locked { loaded.removeAll { $0 === description } } }
        return error
    }

    private func addStore(_ description: NSPersistentStoreDescription) -> NSError? {
        if description.type == NSSQLiteStoreType, let url = description.url, url.isFileURL, url.path != "/dev/null" {
            let folder = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                return CoreDataError.make(
                    NSPersistentStoreOpenError,
                    "Cannot create the folder \(folder.path) for the store \(url.lastPathComponent): \((error as NSError).localizedDescription)",
                    [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
            }
        }
        var failure: NSError?
        coordinator.addPersistentStore(with: description) { _, error in failure = error.map { $0 as NSError } }
        return failure
    }

    // MARK: Contexts

    /// The main-queue context bound to the coordinator, made with the container (as Core Data
    /// does). It starts with `NSErrorMergePolicy` and `automaticallyMergesChangesFromParent` false.
    open var viewContext: NSManagedObjectContext { mainContext }

    /// A new private-queue context bound to the coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Runs `block` with a new private-queue context, on that context's queue.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = UncheckedBox(newBackgroundContext())
        context.value.perform { block(context.value) }
    }

    /// Runs `block` with a new private-queue context on its queue and returns the block's value
    /// or rethrows its error (Core Data's async `performBackgroundTask(_:)`; a non-throwing block
    /// needs no `try`).
    public func performBackgroundTask<T, E: Error>(_ block: @escaping (NSManagedObjectContext) throws(E) -> T) async throws(E) -> T {
        let context = newBackgroundContext()
        let box = UncheckedBox(block)
        return try await context.perform(schedule: .enqueued) { () throws(E) -> T in try box.value(context) }
    }

    open override var description: String {
        "<NSPersistentContainer: \(containerName)>"
    }
}
#endif
