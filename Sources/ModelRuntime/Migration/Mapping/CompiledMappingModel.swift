#if !canImport(CoreData)
import ModelQuery
import ModelSchema

/// Compiled mapping models (`.cdm` files): read into ``NSMappingModel``s, and found in bundles for
/// a pair of models as Core Data finds them.
enum CompiledMappingModel {
    /// The mapping model of the `.cdm` file at `url`, or nil when it cannot be read.
    static func load(_ url: URL) -> NSMappingModel? {
        guard let data = FileManager.default.contents(atPath: url.path),
            let decoded = try? MappingModelArchive.decode([UInt8](data))
        else { return nil }
        return model(decoded)
    }

    /// The first `.cdm` of the bundles (the main bundle when nil), in path order, whose every
    /// entity mapping's source and destination hashes are the models' — Core Data's rule: a
    /// mapping model is for the versions it was compiled against. A mapping without a hash is not
    /// checked on that side.
    static func find(in bundles: [Bundle]?, from source: NSManagedObjectModel, to destination: NSManagedObjectModel) -> NSMappingModel? {
        find(
            in: loadAll(urls(in: bundles ?? [Bundle.main])), from: source.entityVersionHashesByName,
            to: destination.entityVersionHashesByName)
    }

    /// The `.cdm` files at the top level of the bundles, each once, in path order.
    static func urls(in bundles: [Bundle]) -> [URL] {
        var urls: Set<URL> = []
        for bundle in bundles {
            for url in bundle.urls(forResourcesWithExtension: "cdm", subdirectory: nil) ?? [] {
                if let path = url.path { urls.insert(URL(fileURLWithPath: path).standardizedFileURL) }
            }
        }
        return urls.sorted { $0.path < $1.path }
    }

    /// The mapping models of the files that read and hold at least one mapping, in order.
    static func loadAll(_ urls: [URL]) -> [NSMappingModel] {
        urls.compactMap(load).filter { !$0.entityMappings.isEmpty }
    }

    /// The first of the mapping models whose mappings fit the two versions' entity hashes.
    static func find(in models: [NSMappingModel], from sourceHashes: [String: Data], to destinationHashes: [String: Data])
        -> NSMappingModel?
    {
        func fits(_ name: String?, _ hash: Data?, _ hashes: [String: Data]) -> Bool {
            guard let name else { return true }
            guard let stored = hashes[name] else { return false }
            return hash.map { $0 == stored } ?? true
        }
        return models.first { model in
            model.entityMappings.allSatisfy { mapping in
                fits(mapping.sourceEntityName, mapping.sourceEntityVersionHash, sourceHashes)
                    && fits(mapping.destinationEntityName, mapping.destinationEntityVersionHash, destinationHashes)
            }
        }
    }

    static func model(_ decoded: MappingModel) -> NSMappingModel {
        let model = NSMappingModel()
        model.entityMappings = decoded.entityMappings.map(entityMapping)
        return model
    }

    private static func entityMapping(_ value: MappingModel.EntityMapping) -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.name = value.name
        mapping.mappingType = NSEntityMappingType(rawValue: UInt(value.kind.rawValue)) ?? .undefinedEntityMappingType
        mapping.sourceEntityName = value.sourceEntityName
        mapping.sourceEntityVersionHash = value.sourceEntityVersionHash.map { Data($0) }
        mapping.destinationEntityName = value.destinationEntityName
        mapping.destinationEntityVersionHash = value.destinationEntityVersionHash.map { Data($0) }
        mapping.sourceExpression = value.sourceExpression.map(expression)
        mapping.entityMigrationPolicyClassName = value.entityMigrationPolicyClassName
        mapping.userInfo = userInfo(value.userInfo)
        mapping.attributeMappings = value.attributeMappings.map(propertyMapping)
        mapping.relationshipMappings = value.relationshipMappings.map(propertyMapping)
        return mapping
    }

    private static func propertyMapping(_ value: MappingModel.PropertyMapping) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = value.name
        mapping.valueExpression = value.valueExpression.map(expression)
        mapping.userInfo = userInfo(value.userInfo)
        return mapping
    }

    private static func userInfo(_ values: [String: PropertyList]) -> [AnyHashable: Any]? {
        guard !values.isEmpty else { return nil }
        var result: [AnyHashable: Any] = [:]
        for (key, value) in values { result[key] = object(value) }
        return result
    }

    private static func object(_ value: PropertyList) -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .boolean(let flag): return NSNumber(value: flag)
        case .data(let bytes): return Data(bytes)
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .array(let elements): return elements.map(object)
        case .dictionary(let pairs):
            var result: [String: Any] = [:]
            for (key, element) in pairs { result[key] = object(element) }
            return result
        case .uid(let uid): return NSNumber(value: uid)
        }
    }

    /// The runtime's expression for a mapping expression.
    static func expression(_ value: MappingExpression) -> NSExpression {
        switch value {
        case .constant(let constant):
            return NSExpression(forConstantValue: self.constant(constant))
        case .evaluatedObject:
            return NSExpression.expressionForEvaluatedObject()
        case .variable(let name):
            return NSExpression(forVariable: name)
        case .keyPath(let operand, let path):
            let base = expression(operand)
            if case .evaluatedObject = operand { return NSExpression(forKeyPath: path) }
            return NSExpression(kind: .keyPath(path, components: KeyPathReader.components(path), operand: base))
        case .function(let target, let selector, let arguments):
            return NSExpression(forFunction: expression(target), selectorName: selector, arguments: arguments.map(expression))
        case .aggregate(let elements):
            return NSExpression(forAggregate: elements.map(expression))
        case .fetch(let request, let context, let countOnly):
            return NSFetchRequestExpression.expression(forFetch: expression(request), context: expression(context), countOnly: countOnly)
        }
    }

    private static func constant(_ value: MappingConstant) -> Any? {
        switch value {
        case .null: return nil
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .boolean(let flag): return NSNumber(value: flag)
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let bytes): return Data(bytes)
        }
    }
}

extension NSMappingModel {
    /// The mapping model compiled into the `.cdm` file at `url`; nil when there is none or it is
    /// not a compiled mapping model.
    public convenience init?(contentsOf url: URL?) {
        guard let url, let loaded = CompiledMappingModel.load(url) else { return nil }
        self.init()
        entityMappings = loaded.entityMappings
    }

    /// The compiled mapping model in `bundles` (the main bundle when nil) whose entity mappings'
    /// version hashes are those of `sourceModel` and `destinationModel`; nil when none is.
    public convenience init?(
        from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?, destinationModel: NSManagedObjectModel?
    ) {
        guard let sourceModel, let destinationModel,
            let found = CompiledMappingModel.find(in: bundles, from: sourceModel, to: destinationModel)
        else { return nil }
        self.init()
        entityMappings = found.entityMappings
    }
}
#endif
