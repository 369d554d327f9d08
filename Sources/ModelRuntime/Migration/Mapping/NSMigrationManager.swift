#if !canImport(CoreData)
import ModelQuery
import ModelSchema

/// Migrates a store of one model to a store of another through a mapping model: a source stack
/// reads the source store (opened read-only, never written), a destination stack writes a new
/// store, and every entity mapping's policy creates the destination instances, then their
/// relationships, then validates them (see ``NSEntityMigrationPolicy``). The destination is
/// written in a file of its own beside the destination URL and moved into place only when the
/// whole migration saved: a failed or cancelled migration leaves the destination as it was.
open class NSMigrationManager: NSObject {
    private let sourceModelValue: NSManagedObjectModel
    private let destinationModelValue: NSManagedObjectModel
    private var mapping = NSMappingModel()
    private var source: NSManagedObjectContext?
    private var destination: NSManagedObjectContext?
    private var current: NSEntityMapping?
    private var progress: Float = 0
    private var cancellation: (any Error)?
    /// Per mapping name, source instance → destination instances, and the reverse. The tables'
    /// values keep every associated instance alive, so the identities they are keyed by stay valid.
    private var forward: [String: [ObjectIdentifier: [NSManagedObject]]] = [:]
    private var backward: [String: [ObjectIdentifier: [NSManagedObject]]] = [:]
    /// Per mapping name, the destination instances in creation order (relationships are made in
    /// that order).
    private var created: [String: [NSManagedObject]] = [:]
    /// The observers of `migrationProgress` and `currentEntityMapping` (see
    /// `observe(_:options:changeHandler:)`), told of every setting of `progress` and `current`.
    let keyValueObservers = KeyValueObservers()

    open var usesStoreSpecificMigrationManager = true
    open var userInfo: [AnyHashable: Any]?

    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        sourceModelValue = sourceModel
        destinationModelValue = destinationModel
        super.init()
    }

    open var mappingModel: NSMappingModel { mapping }
    open var sourceModel: NSManagedObjectModel { sourceModelValue }
    open var destinationModel: NSManagedObjectModel { destinationModelValue }

    /// The context reading the source store, during a migration.
    open var sourceContext: NSManagedObjectContext {
        guard let source else { fatalError("NSMigrationManager: sourceContext is only available during a migration") }
        return source
    }

    /// The context writing the destination store, during a migration.
    open var destinationContext: NSManagedObjectContext {
        guard let destination else { fatalError("NSMigrationManager: destinationContext is only available during a migration") }
        return destination
    }

    /// The entity mapping being run.
    open var currentEntityMapping: NSEntityMapping { current ?? NSEntityMapping() }

    /// From 0 to 1: the share of the three steps of every entity mapping done.
    open var migrationProgress: Float { progress }

    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    open func associate(
        sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject, for entityMapping: NSEntityMapping
    ) {
        let name: String = entityMapping.name
        forward[name, default: [:]][ObjectIdentifier(sourceInstance), default: []].append(destinationInstance)
        backward[name, default: [:]][ObjectIdentifier(destinationInstance), default: []].append(sourceInstance)
        created[name, default: []].append(destinationInstance)
    }

    /// The destination instances the mapping named `mappingName` created for `sourceInstances`,
    /// in their order; every one it created when `sourceInstances` is nil.
    open func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let sourceInstances else { return created[mappingName] ?? [] }
        let table = forward[mappingName] ?? [:]
        return sourceInstances.flatMap { table[ObjectIdentifier($0)] ?? [] }
    }

    /// The source instances the mapping named `mappingName` created `destinationInstances`
    /// from; every one when `destinationInstances` is nil.
    open func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        let table = backward[mappingName] ?? [:]
        guard let destinationInstances else {
            return (created[mappingName] ?? []).flatMap { table[ObjectIdentifier($0)] ?? [] }
        }
        return destinationInstances.flatMap { table[ObjectIdentifier($0)] ?? [] }
    }

    /// Forgets the associations (not the contexts).
    open func reset() {
        forward = [:]
        backward = [:]
        created = [:]
    }

    /// Stops the running migration: ``migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``
    /// throws `error` at the next step, and nothing is written to the destination.
    open func cancelMigrationWithError(_ error: any Error) {
        cancellation = error
    }

    /// Migrates the store at `sourceURL` (which stays unchanged) into the store at `dURL`,
    /// which is created, or added to when it exists. Throws `NSMigrationMissingMappingModelError`
    /// without a mapping model, `NSMigrationManagerSourceStoreError` when the source store was not
    /// written by the source model, `NSEntityMigrationPolicyError` when a policy class is not
    /// found, a policy's or the destination save's error, or the error a cancellation gave.
    open func migrateStore(
        from sourceURL: URL, sourceType sStoreType: String, options sOptions: [AnyHashable: Any]? = nil,
        with mappings: NSMappingModel?, toDestinationURL dURL: URL, destinationType dStoreType: String,
        destinationOptions dOptions: [AnyHashable: Any]? = nil
    ) throws {
        guard let mappings else {
            throw CoreDataError.make(
                NSMigrationMissingMappingModelError, "No mapping model was given for the migration of \(sourceURL.path)",
                [NSFilePathErrorKey: sourceURL.path])
        }
        try MappingMigrationRun(
            manager: self, mappingModel: mappings, source: (sourceURL, sStoreType, sOptions),
            destination: (dURL, dStoreType, dOptions)
        ).run()
    }

    /// The iOS 15 form.
    public func migrateStore(
        from sourceURL: URL, type sourceType: NSPersistentStore.StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
        mapping: NSMappingModel, to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
        options destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        try migrateStore(
            from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping, toDestinationURL: destinationURL,
            destinationType: destinationType.rawValue, destinationOptions: destinationOptions)
    }

    // MARK: The run's state, set by MappingMigrationRun

    func begin(mapping: NSMappingModel, source: NSManagedObjectContext, destination: NSManagedObjectContext) {
        self.mapping = mapping
        self.source = source
        self.destination = destination
        cancellation = nil
        if progress != 0 { keyValueObservers.changing("migrationProgress") { progress = 0 } }
        reset()
    }

    func finish() {
        source = nil
        destination = nil
        if current != nil { keyValueObservers.changing("currentEntityMapping") { current = nil } }
        reset()
    }

    /// Sets the entity mapping being run and the progress, each reported to its observers.
    func setCurrent(_ mapping: NSEntityMapping?, progress: Float) {
        keyValueObservers.changing("currentEntityMapping") { current = mapping }
        keyValueObservers.changing("migrationProgress") { self.progress = progress }
    }

    /// Throws the cancellation's error, if the migration was cancelled.
    func checkCancellation() throws {
        if let cancellation { throw cancellation }
    }

    /// `expression`'s value with the migration's variables bound.
    func evaluate(
        _ expression: NSExpression, source: NSManagedObject?, destination: NSManagedObject?, mapping: NSEntityMapping,
        propertyMapping: NSPropertyMapping?, policy: NSEntityMigrationPolicy
    ) -> Any? {
        var variables: [String: Any] = [
            NSMigrationManagerKey: self, NSMigrationEntityMappingKey: mapping, NSMigrationEntityPolicyKey: policy,
        ]
        if let source { variables[NSMigrationSourceObjectKey] = source }
        if let destination { variables[NSMigrationDestinationObjectKey] = destination }
        if let propertyMapping { variables[NSMigrationPropertyMappingKey] = propertyMapping }
        return expression.value(of: source, variables: variables)
    }

    /// The managed objects in a relationship expression's value: one object, or a collection.
    static func objects(in value: Any?) -> [NSManagedObject] {
        switch KeyPathReader.unwrapped(value) {
        case nil: return []
        case let object as NSManagedObject: return [object]
        case let array as [NSManagedObject]: return array
        case let other?: return QueryValues.collectionElements(other)?.compactMap { $0 as? NSManagedObject } ?? []
        }
    }

    /// The source expression Xcode writes for a mapping of `name`'s instances.
    static func sourceExpression(forEntityNamed name: String) -> NSExpression {
        NSFetchRequestExpression.expression(
            forFetch: NSExpression(
                forFunction: NSExpression(forVariable: NSMigrationManagerKey),
                selectorName: "fetchRequestForSourceEntityNamed:predicateString:",
                arguments: [NSExpression(forConstantValue: name), NSExpression(forConstantValue: "TRUEPREDICATE")]),
            context: NSExpression(format: "$manager.sourceContext"), countOnly: false)
    }

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", mapping, $source.<path>)`.
    static func destinationInstancesExpression(mappingName: String, sourceKeyPath: String) -> NSExpression {
        NSExpression(
            forFunction: NSExpression(forVariable: NSMigrationManagerKey),
            selectorName: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [NSExpression(forConstantValue: mappingName), NSExpression(format: "$source.\(sourceKeyPath)")])
    }
}

extension NSMigrationManager: KeyValueReadable, SelectorCallable {
    public func value(forKey key: String) -> Any? {
        switch key {
        case "sourceContext": return source
        case "destinationContext": return destination
        case "sourceModel": return sourceModel
        case "destinationModel": return destinationModel
        case "mappingModel": return mapping
        case "currentEntityMapping": return current
        case "migrationProgress": return NSNumber(value: progress)
        case "userInfo": return userInfo
        default: return nil
        }
    }

    /// The manager's methods mapping expressions call.
    package func callSelector(_ selector: String, arguments: [Any?]) -> Any?? {
        func string(_ index: Int) -> String? { arguments.count > index ? arguments[index] as? String : nil }
        switch selector {
        case "fetchRequestForSourceEntityNamed:predicateString:":
            guard let name = string(0) else { return .some(nil) }
            // Only the entity's own instances: each sub-entity has a mapping of its own.
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: name)
            request.includesSubentities = false
            if let format = string(1), format != "TRUEPREDICATE" { request.predicate = NSPredicate(format: format) }
            return request
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            guard let name = string(0) else { return .some(nil) }
            let sources = arguments.count > 1 ? Self.objects(in: arguments[1]) : []
            return destinationInstances(forEntityMappingName: name, sourceInstances: sources)
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            guard let name = string(0) else { return .some(nil) }
            let destinations = arguments.count > 1 ? Self.objects(in: arguments[1]) : []
            return sourceInstances(forEntityMappingName: name, destinationInstances: destinations)
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            // The destination instances of the relationship's destination entity's mapping.
            guard let relationshipName = string(0), let current,
                let relationship = sourceEntity(for: current)?.relationshipsByName[relationshipName],
                let target = relationship.destinationEntity
            else { return .some(nil) }
            let sources = arguments.count > 1 ? Self.objects(in: arguments[1]) : []
            // The mappings of the destination entity and of its sub-entities, whose instances a
            // relationship holds too.
            var family: Set<String> = []
            var pending = [target]
            while let entity = pending.popLast() {
                if let name = entity.name { family.insert(name) }
                pending.append(contentsOf: entity.subentities)
            }
            let mappings = mapping.entityMappings.filter { $0.sourceEntityName.map(family.contains) ?? false }
            return sources.flatMap { source in
                mappings.lazy.map { self.destinationInstances(forEntityMappingName: $0.name, sourceInstances: [source]) }
                    .first { !$0.isEmpty } ?? []
            }
        default:
            return nil
        }
    }
}
#endif
