import ModelSchema

/// Checks a ``MappingSource`` against its model and completes it into the ``MappingModel`` a
/// `.cdm` archives: versions resolved by name (and Xcode's embedded copies compared with them),
/// mapping names, types and version hashes filled in, and every value Xcode's editor generates
/// generated as it does (``XcodeGeneratedExpressions``). Every problem is a diagnostic at the part
/// of the mapping it concerns.
struct MappingCompiler {
    let model: Model
    let diagnostics: DiagnosticCollector

    /// The versions a mapping goes from and to, with what the compiler needs of them.
    struct Sides {
        let source: VersionLookup
        let destination: VersionLookup
        let sourceHashes: VersionHashes
        let destinationHashes: VersionHashes
    }

    func compile(_ mapping: MappingSource) -> MappingModel? {
        let source = version(mapping.sourceVersion, side: "source", mapping: mapping)
        let destination = version(mapping.destinationVersion, side: "destination", mapping: mapping)
        guard let source, let destination else { return nil }
        let sides = Sides(
            source: VersionLookup(source), destination: VersionLookup(destination), sourceHashes: VersionHashes(source),
            destinationHashes: VersionHashes(destination))
        let names = mapping.entityMappings.map(Self.mappingName)
        var seen: [String: SourceLocation] = [:]
        for (name, entity) in zip(names, mapping.entityMappings) {
            if name.isEmpty {
                diagnostics.error("the entity mapping names neither a source nor a destination entity", at: entity.location)
            } else if let first = seen[name] {
                diagnostics.error("there is another entity mapping named '\(name)'", at: entity.location)
                diagnostics.note("the other one is here", at: first)
            } else {
                seen[name] = entity.location
            }
        }
        let generated = XcodeGeneratedExpressions(
            sides: sides, mappings: zip(names, mapping.entityMappings).map { ($0, $1.sourceEntityName) })
        let errorsBefore = diagnostics.diagnostics.count { $0.severity == .error }
        var compiled: [MappingModel.EntityMapping] = []
        for (name, entity) in zip(names, mapping.entityMappings) {
            if let result = entityMapping(
                entity, name: name, sides: sides, generated: generated, mappingNames: Set(names), mapping: mapping)
            {
                compiled.append(result)
            }
        }
        guard diagnostics.diagnostics.count(where: { $0.severity == .error }) == errorsBefore else { return nil }
        return MappingModel(entityMappings: compiled)
    }

    static func mappingName(_ entity: EntityMappingSource) -> String {
        if let name = entity.name { return name }
        switch (entity.sourceEntityName, entity.destinationEntityName) {
        case (let source?, let destination?): return "\(source)To\(destination)"
        case (let source?, nil): return source
        case (nil, let destination?): return destination
        case (nil, nil): return ""
        }
    }

    // MARK: Versions

    private func version(_ reference: MappingSource.VersionReference?, side: String, mapping: MappingSource) -> ModelVersion? {
        guard let reference else { return nil }
        guard let version = model.versions.first(where: { $0.name == reference.name }) else {
            diagnostics.error(
                "the \(side) model '\(reference.name)' is not a version of model '\(model.name)' (its versions: \(model.versions.map { "'\($0.name)'" }.joined(separator: ", ")))",
                at: reference.location)
            return nil
        }
        guard let embedded = reference.embeddedOutline,
            let difference = embedded.firstDifference(from: ModelOutline(version), otherName: "version '\(version.name)'")
        else { return version }
        let matching = model.versions.filter { embedded.firstDifference(from: ModelOutline($0), otherName: "") == nil }.map {
            "'\($0.name)'"
        }
        let matches =
            matching.isEmpty
            ? "it matches no version of model '\(model.name)'"
            : "it matches version \(matching.joined(separator: ", ")) of model '\(model.name)'"
        diagnostics.error(
            "the mapping was made from another \(side) model than version '\(version.name)', so its version hashes would not match: in Xcode's copy of the \(side) model, \(difference); \(matches)",
            at: reference.location)
        return nil
    }

    // MARK: Entity mappings

    private func entityMapping(
        _ entity: EntityMappingSource, name: String, sides: Sides, generated: XcodeGeneratedExpressions, mappingNames: Set<String>,
        mapping: MappingSource
    ) -> MappingModel.EntityMapping? {
        let sourceEntity = entity.sourceEntityName.flatMap { name -> Entity? in
            guard let found = sides.source.entity(named: name) else {
                diagnostics.error(
                    "source entity '\(name)' is not in version '\(sides.source.version.name)'", at: entity.sourceLocation ?? entity.location
                )
                return nil
            }
            return found
        }
        let destinationEntity = entity.destinationEntityName.flatMap { name -> Entity? in
            guard let found = sides.destination.entity(named: name) else {
                diagnostics.error(
                    "destination entity '\(name)' is not in version '\(sides.destination.version.name)'",
                    at: entity.destinationLocation ?? entity.location)
                return nil
            }
            return found
        }
        guard let kind = kind(entity) else { return nil }
        let checker = MappingExpressionChecker(
            sourceEntity: sourceEntity, sides: sides, mappingNames: mappingNames, diagnostics: diagnostics)
        var attributes: [MappingModel.PropertyMapping] = []
        var relationships: [MappingModel.PropertyMapping] = []
        if let destinationEntity {
            let (destinationAttributes, destinationRelationships) = sides.destination.allProperties(of: destinationEntity)
            attributes = propertyMappings(
                entity.attributeMappings, kind: "attribute", available: destinationAttributes.map(\.name), entity: destinationEntity,
                version: sides.destination.version.name, listsEvery: mapping.listsEveryProperty, checker: checker
            ) { generated.attributeValue($0, source: sourceEntity) }
            relationships = propertyMappings(
                entity.relationshipMappings, kind: "relationship", available: destinationRelationships.map(\.name),
                entity: destinationEntity, version: sides.destination.version.name, listsEvery: mapping.listsEveryProperty, checker: checker
            ) { generated.relationshipValue($0, source: sourceEntity) }
        }
        if let expression = entity.sourceExpression { checker.check(expression, at: entity.location) }
        return MappingModel.EntityMapping(
            name: name, kind: kind, sourceEntityName: entity.sourceEntityName,
            sourceEntityVersionHash: entity.sourceEntityName.flatMap { sides.sourceHashes.entityHashes[$0] },
            destinationEntityName: entity.destinationEntityName,
            destinationEntityVersionHash: entity.destinationEntityName.flatMap { sides.destinationHashes.entityHashes[$0] },
            sourceExpression: entity.sourceExpression ?? sourceEntity.map { .fetchSource(entityName: $0.name) },
            entityMigrationPolicyClassName: entity.policyClassName, attributeMappings: attributes, relationshipMappings: relationships)
    }

    /// Xcode's type names; `Undefined` is resolved as Xcode resolves it: a mapping with a policy
    /// is custom, one without a source adds, one without a destination removes, any other copies.
    private func kind(_ entity: EntityMappingSource) -> MappingModel.EntityMapping.Kind? {
        switch entity.typeName ?? "Undefined" {
        case "Undefined":
            if entity.policyClassName != nil { return .custom }
            if entity.sourceEntityName == nil { return .add }
            if entity.destinationEntityName == nil { return .remove }
            return .copy
        case "Custom": return .custom
        case "Add": return .add
        case "Remove": return .remove
        case "Copy": return .copy
        case "Transform": return .transform
        case let other:
            diagnostics.error(
                "'\(other)' is not a mapping type; expected Undefined, Custom, Add, Remove, Copy or Transform",
                at: entity.typeLocation ?? entity.location)
            return nil
        }
    }

    /// The property mappings of one kind in name order: the listed ones (Xcode's editor lists
    /// them all), or every property of the destination entity with the listed ones overriding.
    private func propertyMappings(
        _ listed: [PropertyMappingSource], kind: String, available: [String], entity: Entity, version: String, listsEvery: Bool,
        checker: MappingExpressionChecker, generate: (String) -> MappingExpression?
    ) -> [MappingModel.PropertyMapping] {
        let known = Set(available)
        var byName: [String: PropertyMappingSource] = [:]
        for property in listed {
            guard known.contains(property.name) else {
                diagnostics.error(
                    "destination entity '\(entity.name)' of version '\(version)' has no \(kind) '\(property.name)'", at: property.location)
                continue
            }
            if byName[property.name] != nil {
                diagnostics.error("the \(kind) '\(property.name)' is mapped twice", at: property.location)
                continue
            }
            byName[property.name] = property
            if let expression = property.valueExpression { checker.check(expression, at: property.location) }
        }
        let names = listsEvery ? Array(byName.keys) : Array(known)
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
            let written = byName[name]
            let value = written?.valueExpression ?? (written?.hasNoValue == true ? nil : generate(name))
            return MappingModel.PropertyMapping(name: name, valueExpression: value)
        }
    }
}
