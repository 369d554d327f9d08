#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// One run of ``NSMigrationManager/migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``.
///
/// The source store is added read-only to a coordinator of the source model. An SQLite
/// destination is built in a work file beside the destination (`<name>.mapping-<UUID>`, a copy
/// of the destination when it exists, so the migration adds to it) and copied over the
/// destination in one step (SQLite's online backup) once everything is saved; the work file is
/// removed either way. The three steps of every entity mapping: instances, relationships,
/// validation, then the destination's save and each policy's `end`.
struct MappingMigrationRun {
    let manager: NSMigrationManager
    let mappingModel: NSMappingModel
    let source: (url: URL, type: String, options: [AnyHashable: Any]?)
    let destination: (url: URL, type: String, options: [AnyHashable: Any]?)

    func run() throws {
        try checkHashes()
        let policies = try mappingModel.entityMappings.map(policy)
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: manager.sourceModel)
        var sourceOptions = source.options ?? [:]
        sourceOptions[NSReadOnlyPersistentStoreOption] = true
        try sourceCoordinator.addPersistentStore(ofType: source.type, configurationName: nil, at: source.url, options: sourceOptions)
        defer { for store in sourceCoordinator.persistentStores { try? sourceCoordinator.remove(store) } }
        let sourceStoreHashes = sourceCoordinator.persistentStores.first.flatMap {
            $0.metadata?[NSStoreModelVersionHashesKey] as? [String: Data]
        }
        if let sourceStoreHashes, sourceStoreHashes != manager.sourceModel.entityVersionHashesByName {
            throw CoreDataError.make(
                NSMigrationManagerSourceStoreError,
                "The store at \(source.url.path) was not written by the migration's source model", [NSFilePathErrorKey: source.url.path])
        }

        let isFile = destination.type == NSSQLiteStoreType
        let work = destination.url.deletingLastPathComponent().appendingPathComponent(
            destination.url.lastPathComponent + ".mapping-" + UUID().uuidString)
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: manager.destinationModel)
        defer {
            for store in destinationCoordinator.persistentStores { try? destinationCoordinator.remove(store) }
            if isFile {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: work.path + suffix) }
            }
        }
        if isFile, FileManager.default.fileExists(atPath: destination.url.path) {
            try destinationCoordinator.replacePersistentStore(
                at: work, destinationOptions: nil, withPersistentStoreFrom: destination.url, sourceOptions: destination.options,
                ofType: NSSQLiteStoreType)
        }
        try destinationCoordinator.addPersistentStore(
            ofType: destination.type, configurationName: nil, at: isFile ? work : destination.url, options: destination.options)

        let sourceContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        sourceContext.persistentStoreCoordinator = sourceCoordinator
        let destinationContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        destinationContext.persistentStoreCoordinator = destinationCoordinator
        manager.begin(mapping: mappingModel, source: sourceContext, destination: destinationContext)
        defer { manager.finish() }
        // Both contexts are used on this thread, by the run and by the policies, inside each
        // other's blocks.
        for context in [sourceContext, destinationContext] { context.confinedThread = pthread_self() }
        defer { for context in [sourceContext, destinationContext] { context.confinedThread = nil } }
        try sourceContext.performAndWait {
            try destinationContext.performAndWait {
                try runSteps(policies, destinationContext)
            }
        }
        if isFile {
            for store in destinationCoordinator.persistentStores { try destinationCoordinator.remove(store) }
            try destinationCoordinator.replacePersistentStore(
                at: destination.url, destinationOptions: destination.options, withPersistentStoreFrom: work, sourceOptions: nil,
                ofType: NSSQLiteStoreType)
        }
    }

    private func runSteps(_ policies: [NSEntityMigrationPolicy], _ destinationContext: NSManagedObjectContext) throws {
        let mappings = mappingModel.entityMappings!
        let total = Float(max(1, mappings.count * 3))
        var done: Float = 0
        func step(_ mapping: NSEntityMapping) throws {
            try manager.checkCancellation()
            manager.setCurrent(mapping, progress: done / total)
        }
        for (mapping, policy) in zip(mappings, policies) {
            try step(mapping)
            try policy.begin(mapping, with: manager)
            if creates(mapping) {
                for instance in try sourceInstances(of: mapping, policy) {
                    try manager.checkCancellation()
                    try policy.createDestinationInstances(forSource: instance, in: mapping, manager: manager)
                }
            }
            try policy.endInstanceCreation(forMapping: mapping, manager: manager)
            done += 1
        }
        for (mapping, policy) in zip(mappings, policies) {
            try step(mapping)
            for instance in manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: nil) {
                try manager.checkCancellation()
                try policy.createRelationships(forDestination: instance, in: mapping, manager: manager)
            }
            try policy.endRelationshipCreation(forMapping: mapping, manager: manager)
            done += 1
        }
        for (mapping, policy) in zip(mappings, policies) {
            try step(mapping)
            try policy.performCustomValidation(forMapping: mapping, manager: manager)
        }
        try manager.checkCancellation()
        try destinationContext.save()
        for (mapping, policy) in zip(mappings, policies) {
            try step(mapping)
            try policy.end(mapping, manager: manager)
            done += 1
        }
        try manager.checkCancellation()
        if destinationContext.hasChanges { try destinationContext.save() }
        manager.setCurrent(nil, progress: 1)
    }

    /// Whether the mapping's instances are created from source instances: not for an added
    /// entity (no source) or a removed one.
    private func creates(_ mapping: NSEntityMapping) -> Bool {
        mapping.mappingType != .addEntityMappingType && mapping.mappingType != .removeEntityMappingType
    }

    /// The source instances: the source expression's value, or every instance of the source
    /// entity itself (sub-entities have mappings of their own) when it has none.
    private func sourceInstances(of mapping: NSEntityMapping, _ policy: NSEntityMigrationPolicy) throws -> [NSManagedObject] {
        if let expression = mapping.sourceExpression {
            return NSMigrationManager.objects(
                in: manager.evaluate(expression, source: nil, destination: nil, mapping: mapping, propertyMapping: nil, policy: policy))
        }
        guard let name = mapping.sourceEntityName else { return [] }
        let request = NSFetchRequest<NSManagedObject>(entityName: name)
        request.includesSubentities = false
        return try manager.sourceContext.fetch(request)
    }

    /// The mapping's policy: an instance of the class it names.
    private func policy(_ mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        guard let name = mapping.entityMigrationPolicyClassName, !name.isEmpty else { return NSEntityMigrationPolicy() }
        guard let policyClass = PolicyClassRegistry.policyClass(named: name) else {
            throw CoreDataError.make(
                NSEntityMigrationPolicyError,
                "The migration policy class '\(name)' of the entity mapping '\(mapping.name ?? "")' was not found; on Linux, register it with NSEntityMigrationPolicy.register(\(name.split(separator: ".").last.map(String.init) ?? name).self)"
            )
        }
        return policyClass.init()
    }

    /// Every mapping's entity version hashes, when given, equal its models'.
    private func checkHashes() throws {
        let sides = [
            (
                "source", manager.sourceModel.entityVersionHashesByName, \NSEntityMapping.sourceEntityName,
                \NSEntityMapping.sourceEntityVersionHash
            ),
            ("destination", manager.destinationModel.entityVersionHashesByName, \.destinationEntityName, \.destinationEntityVersionHash),
        ]
        for mapping in mappingModel.entityMappings {
            for (side, hashes, name, hash) in sides {
                guard let entity = mapping[keyPath: name], let expected = mapping[keyPath: hash], hashes[entity] != expected else {
                    continue
                }
                throw CoreDataError.make(
                    NSMigrationError,
                    "The entity mapping '\(mapping.name ?? "")' is for another version of the \(side) entity '\(entity)' than the \(side) model's"
                )
            }
        }
    }
}
#endif
