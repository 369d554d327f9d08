import Foundation
import Testing

/// What observation handlers were given, from whichever thread the migration runs on.
final class ObservedChanges<Value: Sendable>: @unchecked Sendable {
    struct Call {
        let newValue: Value?
        let oldValue: Value?
        let isPrior: Bool
        let isSetting: Bool
        let hasIndexes: Bool
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    /// An observation to invalidate from inside the handler, after its first call.
    private var observationToInvalidate: NSKeyValueObservation?

    var calls: [Call] { lock.withLock { recorded } }

    func record(_ change: NSKeyValueObservedChange<Value>) { record(change) { $0 } }

    /// Records `change` with `value` of its values in their place.
    func record<Observed>(_ change: NSKeyValueObservedChange<Observed>, _ value: (Observed) -> Value?) {
        let call = Call(
            newValue: change.newValue.flatMap(value), oldValue: change.oldValue.flatMap(value), isPrior: change.isPrior,
            isSetting: change.kind == .setting, hasIndexes: change.indexes != nil)
        let observation = lock.withLock {
            recorded.append(call)
            defer { observationToInvalidate = nil }
            return observationToInvalidate
        }
        observation?.invalidate()
    }

    func invalidateAfterFirstCall(_ observation: NSKeyValueObservation) {
        lock.withLock { observationToInvalidate = observation }
    }
}

/// Following a mapping migration through key-value observing of `NSMigrationManager`'s
/// `migrationProgress` and `currentEntityMapping`, with Swift's `observe(_:options:changeHandler:)`.
/// Evidence: the SDK's NSMigrationManager.h (the progress is a float from 0 to 1 observable with
/// key-value observing; the current entity mapping), NSKeyValueObserving.h (what `.new`, `.old`,
/// `.initial` and `.prior` put in a change, a prior call before each change, the initial call
/// before registration returns) and Foundation's Swift overlay (`NSKeyValueObservation` stops on
/// `invalidate()` and when released). The migration is `MappingMigrationTests`' version 1 →
/// version 2 with its three entity mappings.
struct MigrationProgressObservationTests {
    static let mappingNames = ["PersonToPerson", "NoteToNote", "ContactToPerson"]

    /// A manager, a version 1 store and a mapping model to version 2; `migrate` runs the migration.
    final class Migration {
        let folder = TemporaryFolder()
        let source: NSManagedObjectModel
        let destination: NSManagedObjectModel
        let manager: NSMigrationManager
        let mapping: NSMappingModel

        init() throws {
            source = MappingMigrationTests.version1()
            destination = MappingMigrationTests.version2()
            manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
            mapping = MappingMigrationTests.mappingModel(
                source, destination, contactPolicy: NSStringFromClass(ContactSplitPolicy.self))
            try MappingMigrationTests.writeVersion1Store(at: folder.url.appendingPathComponent("V1.sqlite"), model: source)
        }

        func migrate() throws {
            try manager.migrateStore(
                from: folder.url.appendingPathComponent("V1.sqlite"), sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                toDestinationURL: folder.url.appendingPathComponent("V2.sqlite"), destinationType: NSSQLiteStoreType,
                destinationOptions: nil)
        }
    }

    @Test func theProgressObservedRisesToOneThroughEveryEntityMapping() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.new]) { _, change in changes.record(change) }
        try migration.migrate()
        observation.invalidate()

        let calls = changes.calls
        let values = calls.compactMap(\.newValue)
        #expect(values.count == calls.count)
        #expect(calls.allSatisfy { $0.oldValue == nil && !$0.isPrior && $0.isSetting && !$0.hasIndexes })
        #expect(values.count >= Self.mappingNames.count)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.allSatisfy { (0...1).contains($0) })
        #expect(values.last == 1)
        #expect(migration.manager.migrationProgress == 1)
    }

    @Test func theInitialOptionGivesTheStartingValueBeforeObserveReturns() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.initial, .new]) { _, change in
            changes.record(change)
        }
        let initial = changes.calls
        #expect(initial.count == 1)
        #expect(initial.first?.newValue == 0)
        #expect(initial.first?.oldValue == nil)
        #expect(initial.first?.isPrior == false)
        #expect(initial.first?.isSetting == true)

        try migration.migrate()
        observation.invalidate()
        #expect(changes.calls.count > 1)
        #expect(changes.calls.last?.newValue == 1)
    }

    @Test func theInitialOptionWithoutNewGivesNoValue() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.initial]) { _, change in changes.record(change) }
        #expect(changes.calls.count == 1)
        #expect(changes.calls.first.map { $0.newValue == nil && $0.oldValue == nil && !$0.isPrior } == true)
        observation.invalidate()
    }

    @Test func theOldOptionGivesTheValueBeforeEachChange() throws {
        let migration = try Migration()
        let oldOnly = ObservedChanges<Float>()
        let both = ObservedChanges<Float>()
        let observations = [
            migration.manager.observe(\.migrationProgress, options: [.old]) { _, change in oldOnly.record(change) },
            migration.manager.observe(\.migrationProgress, options: [.old, .new]) { _, change in both.record(change) },
        ]
        try migration.migrate()
        for observation in observations { observation.invalidate() }

        let olds = oldOnly.calls
        #expect(!olds.isEmpty)
        #expect(olds.allSatisfy { $0.newValue == nil && $0.oldValue != nil && !$0.isPrior })
        #expect(olds.first?.oldValue == 0)

        let calls = both.calls
        #expect(calls.count == olds.count)
        #expect(calls.first?.oldValue == 0)
        // Each change starts where the one before it ended.
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
        #expect(calls.last?.newValue == 1)
    }

    @Test func thePriorOptionAddsACallBeforeEachChange() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.prior, .old, .new]) { _, change in
            changes.record(change)
        }
        try migration.migrate()
        observation.invalidate()

        let calls = changes.calls
        #expect(!calls.isEmpty)
        #expect(calls.count.isMultiple(of: 2))
        let pairs = stride(from: 0, to: calls.count - 1, by: 2).map { (calls[$0], calls[$0 + 1]) }
        for (before, after) in pairs {
            #expect(before.isPrior && before.newValue == nil && before.oldValue != nil && before.isSetting)
            #expect(!after.isPrior && after.newValue != nil && after.oldValue == before.oldValue && after.isSetting)
        }
        #expect(calls.last?.newValue == 1)
    }

    @Test func thePriorOptionWithoutOldGivesNoValueBeforeTheChange() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.prior]) { _, change in changes.record(change) }
        try migration.migrate()
        observation.invalidate()

        let calls = changes.calls
        #expect(!calls.isEmpty)
        #expect(calls.filter(\.isPrior).count == calls.count / 2)
        #expect(calls.allSatisfy { $0.newValue == nil && $0.oldValue == nil })
    }

    @Test func theCurrentEntityMappingObservedNamesEachMappingInOrder() throws {
        let migration = try Migration()
        let changes = ObservedChanges<String>()
        let observation = migration.manager.observe(\.currentEntityMapping, options: [.new]) { _, change in
            // The names (entity mappings are not `Sendable`) of the mapping model's mappings:
            // after the last step the value is not one of them.
            changes.record(change) { mapping in mapping.name.flatMap { Self.mappingNames.contains($0) ? $0 : nil } }
        }
        try migration.migrate()
        observation.invalidate()

        // The names, each run of one name once.
        var names: [String] = []
        for name in changes.calls.compactMap(\.newValue) where names.last != name { names.append(name) }
        #expect(changes.calls.allSatisfy { $0.oldValue == nil && !$0.isPrior && $0.isSetting })
        #expect(Array(names.prefix(Self.mappingNames.count)) == Self.mappingNames)
        #expect(Set(names) == Set(Self.mappingNames))
    }

    @Test func anInvalidatedObservationIsNotCalled() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.new]) { _, change in changes.record(change) }
        observation.invalidate()
        observation.invalidate()
        try migration.migrate()
        #expect(changes.calls.isEmpty)
    }

    @Test func anObservationInvalidatedByItsHandlerIsNotCalledAgain() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.prior, .new]) { _, change in
            changes.record(change)
        }
        changes.invalidateAfterFirstCall(observation)
        try migration.migrate()
        #expect(changes.calls.count == 1)
        #expect(changes.calls.first?.isPrior == true)
    }

    @Test func aReleasedObservationIsNotCalled() throws {
        let migration = try Migration()
        let changes = ObservedChanges<Float>()
        let kept = ObservedChanges<Float>()
        let observation = migration.manager.observe(\.migrationProgress, options: [.new]) { _, change in kept.record(change) }
        do {
            let released = migration.manager.observe(\.migrationProgress, options: [.new]) { _, change in changes.record(change) }
            _ = released
        }
        try migration.migrate()
        withExtendedLifetime(observation) {}
        #expect(changes.calls.isEmpty)
        #expect(!kept.calls.isEmpty)
    }

    @Test func anObservationMayOutliveItsManager() throws {
        let changes = ObservedChanges<Float>()
        let observation = try {
            let migration = try Migration()
            let observation = migration.manager.observe(\.migrationProgress, options: [.new]) { _, change in changes.record(change) }
            try migration.migrate()
            return observation
        }()
        let count = changes.calls.count
        #expect(count > 0)
        observation.invalidate()
        #expect(changes.calls.count == count)
    }

    @Test func aSubclassIsObservedThroughItsOwnKeyPaths() throws {
        let migration = try Migration()
        let manager = CountingMigrationManager(sourceModel: migration.source, destinationModel: migration.destination)
        let changes = ObservedChanges<Float>()
        let observation = manager.observe(\.migrationProgress, options: [.new]) { manager, change in
            #expect(manager.isCounting)
            changes.record(change)
        }
        try manager.migrateStore(
            from: migration.folder.url.appendingPathComponent("V1.sqlite"), sourceType: NSSQLiteStoreType, options: nil,
            with: migration.mapping, toDestinationURL: migration.folder.url.appendingPathComponent("V2.sqlite"),
            destinationType: NSSQLiteStoreType, destinationOptions: nil)
        observation.invalidate()
        #expect(changes.calls.last?.newValue == 1)
    }
}

/// A subclass, to observe with key paths rooted in it.
final class CountingMigrationManager: NSMigrationManager {
    var isCounting: Bool { true }
}
