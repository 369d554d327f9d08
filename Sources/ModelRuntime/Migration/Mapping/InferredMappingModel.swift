#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore

/// The mapping model lightweight migration infers between two models, built from the pairing
/// ``VersionMapping`` computes (the one `StoreMigrationStep` migrates by).
enum InferredMappingModel {
    static func make(from sourceModel: NSManagedObjectModel, to destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        let source = ModelSchemaBridge.version(of: sourceModel)
        let destination = ModelSchemaBridge.version(of: destinationModel)
        let obstacles = StoreMigrationStep(from: source, to: destination).obstacles
        guard obstacles.isEmpty else {
            throw CoreDataError.make(NSInferredMappingModelError, "Can't infer a mapping model: " + obstacles.joined(separator: "; "))
        }
        let pairing = VersionMapping(from: source, to: destination)
        let sourceHashes = sourceModel.entityVersionHashesByName
        let destinationHashes = destinationModel.entityVersionHashesByName
        var mappings: [NSEntityMapping] = []
        var mapped = Set<String>()
        var mappingNames: [String: String] = [:]  // destination entity → its mapping's name
        for entity in destinationModel.entities {
            guard let name = entity.name, let sourceName = pairing.sourceEntities[name] else { continue }
            mappingNames[name] = "\(sourceName)To\(name)"
        }
        for entity in destinationModel.entities {
            guard let name = entity.name else { continue }
            let mapping = NSEntityMapping()
            mapping.destinationEntityName = name
            mapping.destinationEntityVersionHash = destinationHashes[name]
            guard let sourceName = pairing.sourceEntities[name] else {
                mapping.mappingType = .addEntityMappingType
                mapping.name = "\(name)"
                mappings.append(mapping)
                continue
            }
            mapped.insert(sourceName)
            mapping.sourceEntityName = sourceName
            mapping.sourceEntityVersionHash = sourceHashes[sourceName]
            mapping.mappingType = sourceHashes[sourceName] == destinationHashes[name] ? .copyEntityMappingType : .transformEntityMappingType
            mapping.sourceExpression = NSMigrationManager.sourceExpression(forEntityNamed: sourceName)
            let properties = pairing.sourceProperties[name] ?? [:]
            mapping.attributeMappings = entity.attributesByName.keys.sorted().compactMap { attribute in
                guard entity.attributesByName[attribute]?.isTransient == false else { return nil }
                let propertyMapping = NSPropertyMapping()
                propertyMapping.name = attribute
                if let old = properties[attribute] { propertyMapping.valueExpression = NSExpression(format: "$source.\(old)") }
                return propertyMapping
            }
            mapping.relationshipMappings = entity.relationshipsByName.keys.sorted().compactMap { relationship in
                guard let description = entity.relationshipsByName[relationship], !description.isTransient else { return nil }
                let propertyMapping = NSPropertyMapping()
                propertyMapping.name = relationship
                if let old = properties[relationship], let target = description.destinationEntity?.name,
                    let targetMapping = mappingNames[target]
                {
                    propertyMapping.valueExpression = NSMigrationManager.destinationInstancesExpression(
                        mappingName: targetMapping, sourceKeyPath: old)
                }
                return propertyMapping
            }
            mappings.append(mapping)
        }
        for entity in sourceModel.entities {
            guard let name = entity.name, !mapped.contains(name) else { continue }
            let mapping = NSEntityMapping()
            mapping.mappingType = .removeEntityMappingType
            mapping.sourceEntityName = name
            mapping.sourceEntityVersionHash = sourceHashes[name]
            mapping.name = name
            mappings.append(mapping)
        }
        let model = NSMappingModel()
        model.entityMappings = mappings
        return model
    }
}
#endif
