#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// The Linux side of observing a migration manager (see
/// `CoreDataConformanceTests/MigrationProgressObservationTests` for the behaviour shared with
/// Core Data): what only this runtime promises, or what Core Data's autorelease pools would make
/// uncertain there.
struct MigrationObservationLinuxTests {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    /// A one-entity model, an empty store of it in `folder`, and the inferred mapping to a copy
    /// of the model with one more attribute.
    static func migration(in folder: URL) throws -> (NSManagedObjectModel, NSManagedObjectModel, NSMappingModel, URL) {
        func model(_ names: [String]) -> NSManagedObjectModel {
            let entity = NSEntityDescription()
            entity.name = "Item"
            entity.managedObjectClassName = "NSManagedObject"
            entity.properties = names.map { name in
                let attribute = NSAttributeDescription()
                attribute.name = name
                attribute.attributeType = .stringAttributeType
                return attribute
            }
            let model = NSManagedObjectModel()
            model.entities = [entity]
            return model
        }
        let (source, destination) = (model(["title"]), model(["title", "subtitle"]))
        let url = folder.appendingPathComponent("Source.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: source)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        try coordinator.remove(store)
        return (source, destination, try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination), url)
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("observation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func anObservationDoesNotKeepItsManagerAlive() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (source, destination, mapping, url) = try Self.migration(in: folder)
        let calls = Calls()
        weak var released: NSMigrationManager?
        let observation: NSKeyValueObservation
        do {
            let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
            released = manager
            observation = manager.observe(\.migrationProgress, options: [.new]) { _, _ in calls.add() }
            try manager.migrateStore(
                from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                toDestinationURL: folder.appendingPathComponent("Destination.sqlite"), destinationType: NSSQLiteStoreType,
                destinationOptions: nil)
        }
        #expect(released == nil)
        #expect(calls.value > 0)
        observation.invalidate()
    }

    @Test func anotherPropertyGivesOnlyTheInitialCall() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (source, destination, mapping, url) = try Self.migration(in: folder)
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        let calls = Calls()
        let observation = manager.observe(\.mappingModel, options: [.initial, .new, .old, .prior]) { _, _ in calls.add() }
        #expect(calls.value == 1)
        try manager.migrateStore(
            from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
            toDestinationURL: folder.appendingPathComponent("Destination.sqlite"), destinationType: NSSQLiteStoreType,
            destinationOptions: nil)
        #expect(calls.value == 1)
        observation.invalidate()
    }

    @Test func eachCallComesAfterTheChange() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (source, destination, mapping, url) = try Self.migration(in: folder)
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        let calls = Calls()
        // The value the handler is given is the manager's value at the time of the call.
        let observation = manager.observe(\.migrationProgress, options: [.new]) { manager, change in
            if change.newValue == manager.migrationProgress { calls.add() }
        }
        try manager.migrateStore(
            from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
            toDestinationURL: folder.appendingPathComponent("Destination.sqlite"), destinationType: NSSQLiteStoreType,
            destinationOptions: nil)
        #expect(calls.value > 0)
        observation.invalidate()
    }
}
#endif
