import ModelSchema

/// The value expressions Xcode's mapping editor generates for a property mapping it is not given
/// one for, as the `.cdm` Xcode compiled from CoreDataPlus's `V2toV3` shows them:
///
/// - an attribute the source entity has too: `$source.<name>`;
/// - a relationship the source entity has too: `FUNCTION($manager,
///   "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<name>)`
///   when exactly one entity mapping takes its instances from the relationship's destination
///   entity or one of its subentities, otherwise `FUNCTION($manager,
///   "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "<name>",
///   $source.<name>)`;
/// - anything else (a new property, or any property of a mapping without a source): no value.
struct XcodeGeneratedExpressions {
    let sides: MappingCompiler.Sides
    /// Each entity mapping's name and source entity.
    let mappings: [(name: String, sourceEntityName: String?)]

    func attributeValue(_ name: String, source: Entity?) -> MappingExpression? {
        guard let source, sides.source.allProperties(of: source).attributes.contains(where: { $0.name == name }) else { return nil }
        return .sourceValue(name)
    }

    func relationshipValue(_ name: String, source: Entity?) -> MappingExpression? {
        guard let source, let relationship = sides.source.allProperties(of: source).relationships.first(where: { $0.name == name })
        else { return nil }
        let targets = mappings.filter { mapping in
            guard let entityName = mapping.sourceEntityName, let entity = sides.source.entity(named: entityName) else { return false }
            return entity.name == relationship.destinationName
                || sides.source.ancestors(of: entity).contains { $0.name == relationship.destinationName }
        }
        if targets.count == 1 { return .destinationInstances(mappingName: targets[0].name, sourceRelationship: name) }
        return .function(
            target: .variable("manager"), selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
            arguments: [.constant(.string(name)), .sourceValue(name)])
    }
}

/// Checks the expressions written in a mapping: `$source.<property>` must name a property of
/// the source entity, and the mapping and relationship names given to the migration manager's
/// `destinationInstances…` calls must exist.
struct MappingExpressionChecker {
    let sourceEntity: Entity?
    let sides: MappingCompiler.Sides
    let mappingNames: Set<String>
    let diagnostics: DiagnosticCollector

    func check(_ expression: MappingExpression, at location: SourceLocation) {
        var pending = [expression]
        while let next = pending.popLast() {
            switch next {
            case .constant, .evaluatedObject, .variable: break
            case .keyPath(let operand, let path):
                if operand == .variable("source") { checkSourceProperty(path, at: location) }
                pending.append(operand)
            case .function(let target, let selector, let arguments):
                checkCall(target: target, selector: selector, arguments: arguments, at: location)
                pending.append(target)
                pending.append(contentsOf: arguments)
            case .aggregate(let items): pending.append(contentsOf: items)
            case .fetch(let request, let context, _): pending.append(contentsOf: [request, context])
            }
        }
    }

    private func checkSourceProperty(_ path: String, at location: SourceLocation) {
        guard let sourceEntity else {
            diagnostics.error("'$source.\(path)': the mapping has no source entity", at: location)
            return
        }
        let first = String(path.split(separator: ".", maxSplits: 1).first ?? "")
        let (attributes, relationships) = sides.source.allProperties(of: sourceEntity)
        let fetched = ([sourceEntity] + sides.source.ancestors(of: sourceEntity)).flatMap(\.fetchedProperties).map(\.name)
        guard !attributes.contains(where: { $0.name == first }), !relationships.contains(where: { $0.name == first }),
            !fetched.contains(first)
        else { return }
        diagnostics.error(
            "'$source.\(path)': source entity '\(sourceEntity.name)' of version '\(sides.source.version.name)' has no property '\(first)'",
            at: location)
    }

    private func checkCall(target: MappingExpression, selector: String, arguments: [MappingExpression], at location: SourceLocation) {
        guard target == .variable("manager"), case .constant(.string(let name))? = arguments.first else { return }
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:" where !mappingNames.contains(name):
            diagnostics.error(
                "'\(name)' is not an entity mapping of this mapping model (its mappings: \(mappingNames.sorted().map { "'\($0)'" }.joined(separator: ", ")))",
                at: location)
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            guard let sourceEntity, !sides.source.allProperties(of: sourceEntity).relationships.contains(where: { $0.name == name })
            else { return }
            diagnostics.error(
                "source entity '\(sourceEntity.name)' of version '\(sides.source.version.name)' has no relationship '\(name)'", at: location
            )
        default: break
        }
    }
}
