// swift-format-ignore-file
// (the templates' text is kept verbatim)
// Generated from Templates/*.mustache by TemplateEmbedder; do not edit. The default templates are
// compiled into the binary so that modelgen works when copied alone to another machine.

enum EmbeddedTemplates {
    static let sources: [String: String] = [
        "entity": #"""
{{> header}}

{{> imports}}

#if canImport(CoreData)
import CoreData
{{#classModules}}
import {{.}}
{{/classModules}}

{{> entityClass}}
#else
import ModelRuntime
{{#classModules}}
import {{.}}
{{/classModules}}

{{> entityClassRuntime}}
#endif
{{> entityBatchInsert}}

"""#,
        "entityBatchInsert": #"""
{{^isAbstract}}

extension {{className}} {
    /// The values of one `{{name}}` for a batch insert: one property per stored attribute,
    /// required ones non-optional.
    {{access}} struct BatchInsertValues {
        {{#batchFields}}
        {{access}} var {{name}}: {{{swiftType}}}
        {{/batchFields}}
        {{#hasBatchLinks}}
        #if !canImport(CoreData)
        {{#batchLinks}}
        /// The destination of `{{relationshipName}}`, by object ID or unique key, set in the same
        /// SQL pass (Core Data's batch insert cannot set relationships).
        {{access}} var {{name}}: BatchInsertReference? = nil
        {{/batchLinks}}
        #endif
        {{/hasBatchLinks}}

        {{access}} init({{{batchInitParameters}}}) {
            {{#batchFields}}
            self.{{name}} = {{name}}
            {{/batchFields}}
        }
    }

    /// A batch insert of `rows`; run it with `context.execute(_:)`.
    {{access}} static func batchInsertRequest(_ rows: [BatchInsertValues]) -> NSBatchInsertRequest {
        #if canImport(CoreData)
        var index = 0
        return NSBatchInsertRequest(entityName: {{{entityNameLiteral}}}, dictionaryHandler: { dictionary in
            guard index < rows.count else { return true }
            defer { index += 1 }
            {{#batchFields}}
            dictionary[{{{literal}}}] = {{{storedValue}}}
            {{/batchFields}}
            return false
        })
        #else
        return NSBatchInsertRequest(entityName: {{{entityNameLiteral}}}, keys: [{{{batchKeys}}}], count: rows.count) { index, values in
            {{#batchFields}}
            values[{{position}}] = {{{storedValue}}}
            {{/batchFields}}
            {{#batchLinks}}
            values[{{position}}] = rows[index].{{name}}
            {{/batchLinks}}
        }
        #endif
    }
}
{{/isAbstract}}

"""#,
        "entityClass": #"""
{{#documentationLines}}
/// {{{.}}}
{{/documentationLines}}
{{#objcName}}
@objc({{.}})
{{/objcName}}
{{access}} class {{className}}: {{superclass}} {
    @nonobjc {{access}} class func fetchRequest() -> NSFetchRequest<{{className}}> {
        NSFetchRequest<{{className}}>(entityName: {{{entityNameLiteral}}})
    }

    /// A fetch request for the objects that match a `#Predicate`, sorted by `SortDescriptor`s
    /// (Foundation's `NSPredicate(_:)` and `NSSortDescriptor(_:)` convert them). Throws when
    /// Foundation cannot convert the predicate.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @nonobjc {{access}} class func fetchRequest(
        _ predicate: Predicate<{{className}}>, sortBy sortDescriptors: [SortDescriptor<{{className}}>] = []
    ) throws -> NSFetchRequest<{{className}}> {
        guard let converted = NSPredicate(predicate) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [NSLocalizedDescriptionKey: "NSPredicate(_:) cannot convert the predicate \(predicate)"])
        }
        let request = NSFetchRequest<{{className}}>(entityName: {{{entityNameLiteral}}})
        request.predicate = converted
        request.sortDescriptors = sortDescriptors.isEmpty ? nil : sortDescriptors.map { NSSortDescriptor($0) }
        return request
    }

    /// The names of `{{name}}`'s properties, for predicates, sort descriptors and key paths.
    {{access}} enum Keys {
        {{#keys}}
        {{access}} static let {{name}} = {{{literal}}}
        {{/keys}}
    }

    {{#attributes}}
    {{#spaced}}

    {{/spaced}}
    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    {{#isManaged}}
    @NSManaged {{access}} {{setterAccess}}var {{name}}: {{{swiftType}}}
    {{/isManaged}}
    {{#isComputed}}
    {{access}} var {{name}}: {{{swiftType}}} {
        get {
            willAccessValue(forKey: Keys.{{name}})
            defer { didAccessValue(forKey: Keys.{{name}}) }
            return {{{read}}}
        }
        {{#write}}
        set {
            willChangeValue(forKey: Keys.{{name}})
            defer { didChangeValue(forKey: Keys.{{name}}) }
            setPrimitiveValue({{{write}}}, forKey: Keys.{{name}})
        }
        {{/write}}
    }

    {{/isComputed}}
    {{#rawValueAccessor}}

    /// The raw value stored for `{{attributeName}}`, also when it is not a known case.
    {{access}} var {{name}}: {{{type}}} {
        willAccessValue(forKey: Keys.{{attributeName}})
        defer { didAccessValue(forKey: Keys.{{attributeName}}) }
        return {{{read}}}
    }

    {{/rawValueAccessor}}
    {{/attributes}}

    {{#relationships}}
    {{#spaced}}

    {{/spaced}}
    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    @NSManaged {{access}} var {{name}}: {{{swiftType}}}
    {{/relationships}}
    {{#fetchedProperties}}

    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    {{access}} var {{name}}: [{{{destination}}}] {
        value(forKey: {{{literal}}}) as? [{{{destination}}}] ?? []
    }
    {{/fetchedProperties}}
}
{{#toManyRelationships}}

// MARK: Generated accessors for {{name}}

extension {{className}} {
    {{#isOrdered}}
    @objc(insertObject:in{{capitalizedName}}AtIndex:)
    @NSManaged {{access}} func insertInto{{capitalizedName}}(_ value: {{destination}}, at index: Int)

    @objc(removeObjectFrom{{capitalizedName}}AtIndex:)
    @NSManaged {{access}} func removeFrom{{capitalizedName}}(at index: Int)

    @objc(insert{{capitalizedName}}:atIndexes:)
    @NSManaged {{access}} func insertInto{{capitalizedName}}(_ values: [{{destination}}], at indexes: NSIndexSet)

    @objc(remove{{capitalizedName}}AtIndexes:)
    @NSManaged {{access}} func removeFrom{{capitalizedName}}(at indexes: NSIndexSet)

    @objc(replaceObjectIn{{capitalizedName}}AtIndex:withObject:)
    @NSManaged {{access}} func replace{{capitalizedName}}(at index: Int, with value: {{destination}})

    @objc(replace{{capitalizedName}}AtIndexes:with{{capitalizedName}}:)
    @NSManaged {{access}} func replace{{capitalizedName}}(at indexes: NSIndexSet, with values: [{{destination}}])

    {{/isOrdered}}
    @objc(add{{capitalizedName}}Object:)
    @NSManaged {{access}} func addTo{{capitalizedName}}(_ value: {{destination}})

    @objc(remove{{capitalizedName}}Object:)
    @NSManaged {{access}} func removeFrom{{capitalizedName}}(_ value: {{destination}})

    @objc(add{{capitalizedName}}:)
    @NSManaged {{access}} func addTo{{capitalizedName}}(_ values: {{#isOrdered}}NSOrderedSet{{/isOrdered}}{{^isOrdered}}NSSet{{/isOrdered}})

    @objc(remove{{capitalizedName}}:)
    @NSManaged {{access}} func removeFrom{{capitalizedName}}(_ values: {{#isOrdered}}NSOrderedSet{{/isOrdered}}{{^isOrdered}}NSSet{{/isOrdered}})
}
{{/toManyRelationships}}

"""#,
        "entityClassRuntime": #"""
{{#documentationLines}}
/// {{{.}}}
{{/documentationLines}}
{{access}} class {{className}}: {{superclass}} {
    {{access}} class func fetchRequest() -> NSFetchRequest<{{className}}> {
        NSFetchRequest<{{className}}>(entityName: {{{entityNameLiteral}}})
    }

    /// A fetch request for the objects that match a `#Predicate`, sorted by `SortDescriptor`s,
    /// translated to `NSPredicate` and `NSSortDescriptor`. Throws a `PredicateTranslationError`
    /// naming the part that does not translate.
    {{access}} class func fetchRequest(
        _ predicate: Predicate<{{className}}>, sortBy sortDescriptors: [SortDescriptor<{{className}}>] = []
    ) throws -> NSFetchRequest<{{className}}> {
        try NSFetchRequest<{{className}}>(entityName: {{{entityNameLiteral}}}, predicate: predicate, sortBy: sortDescriptors)
    }

    /// The names of `{{name}}`'s properties, for predicates, sort descriptors and key paths.
    {{access}} enum Keys {
        {{#keys}}
        {{access}} static let {{name}} = {{{literal}}}
        {{/keys}}
    }

    /// The storage slots of the properties this class declares, resolved once per entity whose
    /// objects use them (a sub-entity, another version of the model).
    private enum Slots {
        private static let {{slotTableName}} = SlotTable([
            {{#slots}}
            {{{literal}}},
            {{/slots}}
        ])
        {{#slots}}
        static let {{name}} = {{slotTableName}}[{{index}}]
        {{/slots}}
    }

    {{#attributes}}
    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    {{access}} var {{name}}: {{{swiftType}}} {
        get { {{{runtimeRead}}} }
        {{#runtimeWrite}}
        set { setValue({{{runtimeWrite}}}, atSlot: Slots.{{name}}) }
        {{/runtimeWrite}}
    }
    {{#rawValueAccessor}}

    /// The raw value stored for `{{attributeName}}`, also when it is not a known case.
    {{access}} var {{name}}: {{{type}}} { {{{runtimeRead}}} }
    {{/rawValueAccessor}}

    {{/attributes}}
    {{#relationships}}
    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    {{access}} var {{name}}: {{{swiftType}}} {
        get { {{{runtimeRead}}} }
        set { setValue({{{runtimeWrite}}}, atSlot: Slots.{{name}}) }
    }

    {{/relationships}}
    {{#fetchedProperties}}
    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    {{access}} var {{name}}: [{{{destination}}}] {
        value(forKey: {{{literal}}}) as? [{{{destination}}}] ?? []
    }

    {{/fetchedProperties}}
    {{#hasSuperclassKeyPathNames}}override {{/hasSuperclassKeyPathNames}}{{access}} class func keyPathString(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        {{#keys}}
        case \{{className}}.{{name}}: Keys.{{name}}
        {{/keys}}
        default: {{#hasSuperclassKeyPathNames}}super.keyPathString(for: keyPath){{/hasSuperclassKeyPathNames}}{{^hasSuperclassKeyPathNames}}nil{{/hasSuperclassKeyPathNames}}
        }
    }
}
{{^hasSuperclassKeyPathNames}}

extension {{className}}: KeyPathStringConvertible {}
{{/hasSuperclassKeyPathNames}}
{{#toManyRelationships}}

// MARK: Generated accessors for {{name}}

extension {{className}} {
    {{#isOrdered}}
    {{access}} func insertInto{{capitalizedName}}(_ value: {{destination}}, at index: Int) {
        var members = objects(atSlot: Slots.{{name}})
        members.insert(value, at: index)
        setValue(members, atSlot: Slots.{{name}})
    }

    {{access}} func removeFrom{{capitalizedName}}(at index: Int) {
        var members = objects(atSlot: Slots.{{name}})
        members.remove(at: index)
        setValue(members, atSlot: Slots.{{name}})
    }

    {{access}} func insertInto{{capitalizedName}}(_ values: [{{destination}}], at indexes: NSIndexSet) {
        var members = objects(atSlot: Slots.{{name}})
        var positions: [Int] = []
        indexes.enumerate { index, _ in positions.append(index) }
        for (value, index) in zip(values, positions) { members.insert(value, at: index) }
        setValue(members, atSlot: Slots.{{name}})
    }

    {{access}} func removeFrom{{capitalizedName}}(at indexes: NSIndexSet) {
        var members = objects(atSlot: Slots.{{name}})
        var positions: [Int] = []
        indexes.enumerate { index, _ in positions.append(index) }
        for index in positions.reversed() { members.remove(at: index) }
        setValue(members, atSlot: Slots.{{name}})
    }

    {{access}} func replace{{capitalizedName}}(at index: Int, with value: {{destination}}) {
        var members = objects(atSlot: Slots.{{name}})
        members[index] = value
        setValue(members, atSlot: Slots.{{name}})
    }

    {{access}} func replace{{capitalizedName}}(at indexes: NSIndexSet, with values: [{{destination}}]) {
        var members = objects(atSlot: Slots.{{name}})
        var positions: [Int] = []
        indexes.enumerate { index, _ in positions.append(index) }
        for (index, value) in zip(positions, values) { members[index] = value }
        setValue(members, atSlot: Slots.{{name}})
    }

    {{/isOrdered}}
    {{access}} func addTo{{capitalizedName}}(_ value: {{destination}}) {
        {{mutableCollectionMethod}}(forKey: Keys.{{name}}).add(value)
    }

    {{access}} func removeFrom{{capitalizedName}}(_ value: {{destination}}) {
        {{mutableCollectionMethod}}(forKey: Keys.{{name}}).remove(value)
    }

    {{access}} func addTo{{capitalizedName}}(_ values: {{collectionType}}) {
        {{mutableCollectionMethod}}(forKey: Keys.{{name}}).addObjects(from: values.compactMap { $0 as? NSManagedObject })
    }

    {{access}} func removeFrom{{capitalizedName}}(_ values: {{collectionType}}) {
        let proxy = {{mutableCollectionMethod}}(forKey: Keys.{{name}})
        for case let value as NSManagedObject in values { proxy.remove(value) }
    }
}
{{/toManyRelationships}}

"""#,
        "header": #"""
// {{generatedNotice}}

"""#,
        "imports": #"""
import Foundation
{{#imports}}
import {{.}}
{{/imports}}

"""#,
        "migrationStages": #"""
{{#hasCustomSteps}}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, macCatalyst 17.0, *)
extension {{typeName}} {
    /// What the app does around each step between versions declared in `customMigrations`
    /// (`versions.yaml`): a method called before the store is migrated, with the store still in the
    /// older version, and one called after, with the store in the newer version. Reach the store
    /// through `manager.container`; a method that throws stops the migration and leaves the store
    /// as it was. A step without its methods is a compile error.
    {{access}} protocol MigrationHandlers {
        {{#customSteps}}
        /// Before the store is migrated from {{{fromName}}} to {{{toName}}}: `manager.container` has {{{fromName}}}.
        func {{willMethod}}(_ manager: NSStagedMigrationManager) throws
        /// After the store is migrated from {{{fromName}}} to {{{toName}}}: `manager.container` has {{{toName}}}.
        func {{didMethod}}(_ manager: NSStagedMigrationManager) throws
        {{/customSteps}}
    }
}
{{/hasCustomSteps}}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, macCatalyst 17.0, *)
extension {{typeName}} {
    /// The stages that migrate a store of any earlier version to the current one, oldest first:
    /// {{#hasCustomSteps}}each step declared in `customMigrations` is a custom stage calling `handlers`, and
    /// {{/hasCustomSteps}}the other versions share lightweight stages, named by their checksums. Core Data
    /// migrates from one stage to the next by lightweight migration. The models of custom stages are the
    /// compiled versions in `bundle`.
    {{access}} static func migrationStages(in bundle: Bundle{{#hasCustomSteps}}, handlers: some MigrationHandlers{{/hasCustomSteps}}) -> [NSMigrationStage] {
        [
            {{#stages}}
            {{#uninferable}}
            // {{{.}}}: lightweight migration cannot infer this step; declare it in
            // customMigrations to migrate it in code (modelgen validate warns).
            {{/uninferable}}
            {{#mapped}}
            // {{{step}}}: mapping model '{{{mappingModel}}}' migrates this step, and staged
            // migration runs no mapping model; load older stores with automatic migration.
            {{/mapped}}
            {{#lightweight}}
            {{#checksums}}
            NSLightweightMigrationStage([{{.}}]),
            {{/checksums}}
            {{^checksums}}
            NSLightweightMigrationStage([
                {{#checksumLines}}
                {{.}},
                {{/checksumLines}}
            ]),
            {{/checksums}}
            {{/lightweight}}
            {{#custom}}
            customStage(
                from: .{{fromCase}}, to: .{{toCase}}, in: bundle, willMigrate: handlers.{{willMethod}},
                didMigrate: handlers.{{didMethod}}),
            {{/custom}}
            {{/stages}}
        ]
    }

    /// A staged migration manager with ``migrationStages(in:{{#hasCustomSteps}}handlers:{{/hasCustomSteps}})``.
    {{access}} static func stagedMigrationManager(in bundle: Bundle{{#hasCustomSteps}}, handlers: some MigrationHandlers{{/hasCustomSteps}}) -> NSStagedMigrationManager {
        NSStagedMigrationManager(migrationStages(in: bundle{{#hasCustomSteps}}, handlers: handlers{{/hasCustomSteps}}))
    }

    /// Makes `description`'s store migrate through ``migrationStages(in:{{#hasCustomSteps}}handlers:{{/hasCustomSteps}})`` when it is added:
    /// sets `NSPersistentStoreStagedMigrationManagerOptionKey`, and turns on automatic migration
    /// and mapping inference, which staged migration needs.
    {{access}} static func enableStagedMigration(
        on description: NSPersistentStoreDescription, in bundle: Bundle{{#hasCustomSteps}}, handlers: some MigrationHandlers{{/hasCustomSteps}}
    ) {
        description.shouldMigrateStoreAutomatically = true
        description.shouldInferMappingModelAutomatically = true
        description.setOption(
            stagedMigrationManager(in: bundle{{#hasCustomSteps}}, handlers: handlers{{/hasCustomSteps}}), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
    }

    /// `version` of the compiled model in `bundle` (its `.mom` in `{{modelNameText}}.momd`), loaded
    /// when a migration needs it; a missing file fails that migration.
    {{access}} static func modelReference(_ version: Version, in bundle: Bundle) -> NSManagedObjectModelReference {
        let momd = bundle.url(forResource: name, withExtension: "momd") ?? bundle.bundleURL.appendingPathComponent("\(name).momd")
        return NSManagedObjectModelReference(
            fileURL: momd.appendingPathComponent("\(version.rawValue).mom"), versionChecksum: version.checksum)
    }
    {{#hasCustomSteps}}

    private static func customStage(
        from current: Version, to next: Version, in bundle: Bundle,
        willMigrate: @escaping (NSStagedMigrationManager) throws -> Void,
        didMigrate: @escaping (NSStagedMigrationManager) throws -> Void
    ) -> NSCustomMigrationStage {
        let stage = NSCustomMigrationStage(
            migratingFrom: modelReference(current, in: bundle), to: modelReference(next, in: bundle))
        stage.label = "\(current.rawValue) → \(next.rawValue)"
        stage.willMigrateHandler = { manager, _ in try willMigrate(manager) }
        stage.didMigrateHandler = { manager, _ in try didMigrate(manager) }
        return stage
    }
    {{/hasCustomSteps}}
}

"""#,
        "model": #"""
{{> header}}

{{> imports}}

/// The versions of the {{modelNameText}} model and where its compiled form lives.
{{access}} enum {{typeName}} {
    /// The model's name, which is also the name of its compiled `.momd` bundle.
    {{access}} static let name = {{{modelName}}}

    /// A version of the model, identified by the checksum Core Data computes for it
    /// (`NSManagedObjectModel.versionChecksum`).
    {{access}} enum Version: String, CaseIterable, Sendable {
        {{#versions}}
        case {{caseName}} = {{{name}}}
        {{/versions}}

        /// The version checksum, as `NSManagedObjectModel.versionChecksum` reports it.
        {{access}} var checksum: String {
            switch self {
            {{#versions}}
            case .{{caseName}}: {{{checksum}}}
            {{/versions}}
            }
        }
    }

    /// The version new stores are created with.
    {{access}} static let currentVersion = Version.{{currentCase}}
}
{{#enums}}

{{#documentationLines}}
/// {{{.}}}
{{/documentationLines}}
{{access}} enum {{name}}: {{rawType}}, CaseIterable, Codable, Sendable {
    {{#cases}}
    case {{name}}{{#rawValue}} = {{{rawValue}}}{{/rawValue}}
    {{/cases}}
}
{{/enums}}
{{#composites}}

{{#documentationLines}}
/// {{{.}}}
{{/documentationLines}}
{{access}} struct {{name}}: Codable, Hashable, Sendable {
    {{#fields}}
    {{#documentationLines}}
    /// {{{.}}}
    {{/documentationLines}}
    {{access}} var {{name}}: {{{swiftType}}}
    {{/fields}}

    {{#hasFields}}
    {{access}} init({{{initParameters}}}) {
        {{#fields}}
        self.{{name}} = {{name}}
        {{/fields}}
    }

    /// Reads the dictionary Core Data stores for a composite attribute; nil when a required
    /// field is missing or has another type.
    {{access}} init?(coreDataDictionary dictionary: [String: Any]) {
        {{#fields}}
        {{#isOptional}}
        self.{{name}} = {{{decode}}}
        {{/isOptional}}
        {{^isOptional}}
        guard let {{name}} = {{{decode}}} else { return nil }
        self.{{name}} = {{name}}
        {{/isOptional}}
        {{/fields}}
    }

    /// The dictionary Core Data stores for a composite attribute.
    {{access}} var coreDataDictionary: [String: Any] {
        var dictionary: [String: Any] = [:]
        {{#fields}}
        dictionary[{{{key}}}] = {{{encode}}}
        {{/fields}}
        return dictionary
    }
    {{/hasFields}}
    {{^hasFields}}
    {{access}} init() {}

    /// A composite without fields stores an empty dictionary.
    {{access}} init?(coreDataDictionary dictionary: [String: Any]) {}

    /// The dictionary Core Data stores for a composite attribute.
    {{access}} var coreDataDictionary: [String: Any] { [:] }
    {{/hasFields}}
}
{{/composites}}

#if canImport(CoreData)
import CoreData
{{#classModules}}
import {{.}}
{{/classModules}}
{{#entities}}

{{> entityClass}}
{{/entities}}
#else
import ModelRuntime
{{#classModules}}
import {{.}}
{{/classModules}}

// These sources use version {{generatedCodeAPI}} of ModelRuntime's API for generated code. With a ModelRuntime
// that has another, the build stops here: generate them again with the matching modelgen.
private struct GeneratedCodeAPICheck: ModelRuntime._ModelgenGeneratedCodeVersion{{generatedCodeAPI}} {}
{{#entities}}

{{> entityClassRuntime}}
{{/entities}}
{{#queryTypealiases}}

// Foundation on Linux declares these types too, without the initialisers Core Data code uses:
// module-wide aliases make every file of this module use `ModelRuntime`'s.
typealias {{.}} = ModelRuntime.{{.}}
{{/queryTypealiases}}
#endif
{{#entities}}
{{> entityBatchInsert}}
{{/entities}}

extension {{typeName}} {
    /// Loads the compiled model from `bundle` (for a package target with the modelgen plugin,
    /// `Bundle.module`); nil when the bundle has no `{{modelNameText}}.momd`.
    {{access}} static func managedObjectModel(in bundle: Bundle) -> NSManagedObjectModel? {
        bundle.url(forResource: name, withExtension: "momd").flatMap(NSManagedObjectModel.init(contentsOf:))
    }

    /// A container for `model` named `name` (its default store is `<name>.sqlite` in
    /// `NSPersistentContainer.defaultDirectoryURL()`); load its stores before use.
    {{access}} static func makeContainer(managedObjectModel model: NSManagedObjectModel, name: String = name) -> NSPersistentContainer {
        NSPersistentContainer(name: name, managedObjectModel: model)
    }
}
{{#modelBundle}}

extension {{typeName}} {
    /// The compiled model in `Bundle.{{.}}`, where the build puts `{{modelNameText}}.momd`; loaded
    /// once. A model in use is immutable, which makes sharing it safe. A bundle without the model
    /// is a broken build and stops the program with a message naming the bundle.
    nonisolated(unsafe) {{access}} static let managedObjectModel: NSManagedObjectModel = {
        guard let model = managedObjectModel(in: Bundle.{{.}}) else {
            fatalError("\(name).momd is missing or unreadable in \(Bundle.{{.}}.bundlePath)")
        }
        return model
    }()

    /// A container for the model in one line: `let container = {{typeName}}.makeContainer()`.
    {{access}} static func makeContainer(name: String = name) -> NSPersistentContainer {
        makeContainer(managedObjectModel: managedObjectModel, name: name)
    }
}
{{/modelBundle}}
{{#migration}}
{{> migrationStages}}
{{/migration}}

"""#,
    ]
}
