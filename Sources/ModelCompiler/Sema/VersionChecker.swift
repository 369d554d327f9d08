import ModelSchema

/// Cross-reference checks inside one version: names, inheritance, relationships and inverses,
/// constraints, indexes, composites and configurations.
struct VersionChecker {
    let version: ModelVersion
    let locations: LocationTable
    let diagnostics: DiagnosticCollector
    let rules: NameRules
    let lookup: VersionLookup
    /// Entity names for "did you mean" suggestions, prepared once.
    let entityNames: Suggestions.Candidates
    /// How many entities declare a property of each name.
    private let declarerCounts: [String: Int]

    init(version: ModelVersion, locations: LocationTable, diagnostics: DiagnosticCollector, rules: NameRules = .modelFormat) {
        self.version = version
        self.locations = locations
        self.diagnostics = diagnostics
        self.rules = rules
        lookup = VersionLookup(version)
        entityNames = Suggestions.Candidates(version.entities.map(\.name))
        var counts: [String: Int] = [:]
        for entity in version.entities {
            for name in Set(entity.attributes.map(\.name) + entity.relationships.map(\.name)) { counts[name, default: 0] += 1 }
        }
        declarerCounts = counts
    }

    func check() {
        checkTypeNames()
        for entity in version.entities { checkEntity(entity) }
        checkInheritanceCycles()
        for composite in version.composites { checkComposite(composite) }
        checkCompositeCycles()
        for enumType in version.enums { checkEnum(enumType) }
        checkConfigurations()
    }

    // MARK: Names

    private func checkTypeNames() {
        guard rules == .modelFormat else { return checkCoreDataTypeNames() }
        var typeNames: [String: (kind: String, location: SourceLocation?)] = [:]
        func declare(_ name: String, kind: String, at location: SourceLocation?) {
            if let problem = Names.typeNameProblem(name, kind: "type") {
                diagnostics.error(problem, at: location ?? .file(""))
                return
            }
            if let previous = typeNames[name] {
                diagnostics.error("type name '\(name)' is used twice: by \(previous.kind) and by \(kind)", at: location ?? .file(""))
                if let earlier = previous.location { diagnostics.note("'\(name)' is first declared here", at: earlier) }
                return
            }
            typeNames[name] = (kind, location)
        }
        for entity in version.entities {
            guard let className = entity.className else {
                declare(entity.name, kind: "entity '\(entity.name)'", at: entity.location)
                continue
            }
            // Core Data still uses the entity name, so it must be valid even with a class override.
            if let problem = Names.typeNameProblem(entity.name, kind: "entity") {
                diagnostics.error(problem, at: entity.location ?? .file(""))
            }
            let classLocation = locations["\(entity.name).class"] ?? entity.location
            switch SwiftClassName(className) {
            case .generated(let name, _):
                declare(name, kind: "the class of entity '\(entity.name)'", at: classLocation)
            case .generic, .external:
                break  // no class is generated
            case .invalid:
                diagnostics.error(
                    "class name '\(className)' of entity '\(entity.name)' is not a Swift class name, '.Name' (current module), 'Module.Name' or 'NSManagedObject'",
                    at: classLocation ?? .file(""))
            }
        }
        for composite in version.composites { declare(composite.name, kind: "composite '\(composite.name)'", at: composite.location) }
        for enumType in version.enums { declare(enumType.name, kind: "enum '\(enumType.name)'", at: enumType.location) }
    }

    // MARK: Entities

    private func checkEntity(_ entity: Entity) {
        let here = entity.location ?? .file("")
        if let parentName = entity.parentName, lookup.entity(named: parentName) == nil {
            diagnostics.error(
                "unknown parent entity '\(parentName)' of '\(entity.name)'\(Suggestions.didYouMean(parentName, in: entityNames))",
                at: locations["\(entity.name).parent"] ?? here)
        }
        if entity.parentName == entity.name {
            diagnostics.error("entity '\(entity.name)' cannot be its own parent", at: locations["\(entity.name).parent"] ?? here)
        }
        // The top-most ancestor declaring a name. Most names have no other declarer anywhere in
        // the version, so deep hierarchies need no walk up the parents for them.
        let ownNames = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
        var ancestors: [Entity]?
        func inheritedOwner(_ name: String) -> String? {
            guard declarerCounts[name, default: 0] > (ownNames.contains(name) ? 1 : 0) else { return nil }
            if ancestors == nil { ancestors = lookup.ancestors(of: entity) }
            return ancestors!.last { $0.declares(name) }?.name
        }
        var declared: Set<String> = []
        let properties =
            entity.attributes.map { ($0.name, $0.location, "attribute") }
            + entity.relationships.map { ($0.name, $0.location, "relationship") }
            + entity.fetchedProperties.map { ($0.name, $0.location, "fetched property") }
        for (name, location, kind) in properties {
            let location = location ?? here
            if let problem = propertyNameProblem(name, kind: kind) {
                if problem.isError {
                    diagnostics.error(problem.message, at: location)
                } else {
                    diagnostics.warning(problem.message, at: location)
                }
            }
            if !declared.insert(name).inserted {
                diagnostics.error("'\(entity.name)' declares more than one property named '\(name)'", at: location)
            } else if let owner = inheritedOwner(name) {
                diagnostics.error("\(kind) '\(name)' of '\(entity.name)' redeclares a property inherited from '\(owner)'", at: location)
            }
        }
        for attribute in entity.attributes { checkAttribute(attribute, in: entity) }
        checkGeneratedNames(of: entity) { declared.contains($0) || inheritedOwner($0) != nil }
        for relationship in entity.relationships { checkRelationship(relationship, in: entity) }
        checkConstraints(of: entity)
        checkIndexes(of: entity)
        checkCompoundIndexes(of: entity)
        for fetched in entity.fetchedProperties { checkFetchedProperty(fetched, in: entity) }
    }

    private func checkAttribute(_ attribute: Attribute, in entity: Entity) {
        let here = attribute.location ?? .file("")
        if attribute.type == .undefined, !attribute.isTransient {
            diagnostics.error(
                "attribute '\(entity.name).\(attribute.name)' has type Undefined, which Core Data allows only on transient attributes; add 'transient: true'",
                at: here)
        }
        if attribute.isDerived, attribute.isTransient {
            diagnostics.error("derived attribute '\(entity.name).\(attribute.name)' cannot be transient", at: here)
        }
        if let expression = attribute.derivationExpression,
            let problem = DerivationChecker(lookup: lookup).problem(of: expression, derived: attribute, in: entity)
        {
            diagnostics.error(
                "derivation expression '\(expression)' of '\(entity.name).\(attribute.name)'\(problem)",
                at: locations["entity '\(entity.name)'.\(attribute.name).derived"] ?? here)
        } else if let expression = attribute.derivationExpression, DerivationExpression.canonicalPredicateFormat(expression) == nil {
            diagnostics.warning(
                "derivation expression '\(expression)' of '\(entity.name).\(attribute.name)' is outside the forms modelgen renders exactly (key paths, '.@count', 'count:', 'now()', 'lowercase:', 'uppercase:', 'canonical:'); its version hash may differ from Core Data's",
                at: here)
        }
        if attribute.isTransient, attribute.isIndexed {
            diagnostics.warning(
                "transient attribute '\(entity.name).\(attribute.name)' is not stored, so 'indexed' has no effect", at: here)
        }
    }

    /// Generated code adds `<name>RawValue` beside every enum attribute; nothing else may use it.
    private func checkGeneratedNames(of entity: Entity, isDeclared: (String) -> Bool) {
        for attribute in entity.attributes where attribute.enumName != nil && isDeclared(attribute.name + "RawValue") {
            let name = attribute.name + "RawValue"
            let clash = entity.attributes.first { $0.name == name }?.location ?? entity.relationships.first { $0.name == name }?.location
            diagnostics.error(
                "'\(name)' is the name generated code gives the raw value of enum attribute '\(entity.name).\(attribute.name)'; choose another name",
                at: clash ?? attribute.location ?? .file(""))
        }
    }

    /// Reports each inheritance cycle once, from the first entity (in declaration order) whose
    /// chain of parents reaches it. Linear: a chain walk stops at an entity an earlier walk
    /// finished, since everything reachable from there has been reported already.
    private func checkInheritanceCycles() {
        var reported: Set<String> = []
        var finished: Set<String> = []
        for entity in version.entities {
            // An entity whose name another entity took first is walked from its own parent, and
            // its walk can close a cycle at its own name, which no earlier walk saw: it walks its
            // whole chain and marks nothing finished (such duplicates are errors anyway).
            let isNamed = lookup.entity(named: entity.name) == entity
            if isNamed, finished.contains(entity.name) { continue }
            var seen: [String] = [entity.name]
            var position: [String: Int] = [entity.name: 0]
            var current = entity
            while let parentName = current.parentName, let parent = lookup.entity(named: parentName) {
                if let start = position[parentName] {
                    let cycle = Array(seen[start...])
                    if reported.isDisjoint(with: cycle) {
                        reported.formUnion(cycle)
                        diagnostics.error(
                            "inheritance cycle: \((cycle + [parentName]).joined(separator: " → "))",
                            at: locations["\(cycle.last!).parent"] ?? entity.location ?? .file(""))
                    }
                    break
                }
                if isNamed, finished.contains(parentName) { break }
                position[parentName] = seen.count
                seen.append(parentName)
                current = parent
            }
            if isNamed { finished.formUnion(seen) }
        }
    }

    // MARK: Relationships

    /// Relationships an entity declares or inherits, by name.
    private func relationship(named name: String, in entity: Entity) -> (Relationship, owner: Entity)? {
        // The entity's own comes first; ancestors are walked only when it has none.
        if let relationship = entity.relationship(named: name) { return (relationship, entity) }
        guard declarerCounts[name, default: 0] > 0 else { return nil }
        for candidate in lookup.ancestors(of: entity) {
            if let relationship = candidate.relationship(named: name) { return (relationship, candidate) }
        }
        return nil
    }

    private func isSameOrAncestor(_ name: String, of entity: Entity) -> Bool {
        name == entity.name || lookup.ancestors(of: entity).contains { $0.name == name }
    }

    private func checkRelationship(_ relationship: Relationship, in entity: Entity) {
        let path = "\(entity.name).\(relationship.name)"
        let here = relationship.location ?? .file("")
        if relationship.isOrdered, !relationship.isToMany {
            diagnostics.error("relationship '\(path)' is 'ordered' but not 'toMany'", at: locations["\(path).ordered"] ?? here)
        }
        if !relationship.isToMany, let maxCount = relationship.maxCount, maxCount != 1 {
            diagnostics.error("to-one relationship '\(path)' cannot have 'maxCount' \(maxCount)", at: locations["\(path).maxCount"] ?? here)
        }
        if let minCount = relationship.minCount, let maxCount = relationship.maxCount, minCount > maxCount {
            diagnostics.error("'minCount' is greater than 'maxCount' in relationship '\(path)'", at: locations["\(path).minCount"] ?? here)
        }
        guard let destination = lookup.entity(named: relationship.destinationName) else {
            diagnostics.error(
                "unknown destination entity '\(relationship.destinationName)' of relationship '\(path)'\(Suggestions.didYouMean(relationship.destinationName, in: entityNames))",
                at: locations["\(path).to"] ?? here)
            return
        }
        guard let inverseName = relationship.inverseName else {
            if relationship.isOneWay {
                let kind = relationship.isToMany ? "to-many relationship" : "relationship"
                diagnostics.warning(
                    "\(kind) '\(path)' has no inverse; Core Data cannot keep '\(destination.name)' consistent when objects are deleted",
                    at: locations["\(path).oneWay"] ?? here)
            } else {
                let candidates = destination.relationships.filter { isSameOrAncestor($0.destinationName, of: entity) }.map(\.name)
                let hint = candidates.count == 1 ? "; did you mean 'inverse: \(candidates[0])'?" : ""
                diagnostics.error(
                    "relationship '\(path)' has no inverse; add 'inverse: <name>' or declare it 'oneWay: true'\(hint)", at: here)
            }
            return
        }
        if relationship.isOneWay {
            diagnostics.error("relationship '\(path)' is declared 'oneWay' but names an inverse", at: locations["\(path).oneWay"] ?? here)
        }
        let inverseLocation = locations["\(path).inverse"] ?? here
        guard let (inverse, inverseOwner) = self.relationship(named: inverseName, in: destination) else {
            let names = ([destination] + lookup.ancestors(of: destination)).flatMap { $0.relationships.map(\.name) }
            diagnostics.error(
                "inverse '\(inverseName)' of relationship '\(path)' is not a relationship of '\(destination.name)'\(Suggestions.didYouMean(inverseName, in: names))",
                at: inverseLocation)
            return
        }
        let inversePath = "\(inverseOwner.name).\(inverse.name)"
        if lookup.entity(named: inverse.destinationName) == nil {
            // Its unknown destination is reported at the inverse itself.
        } else if !isSameOrAncestor(inverse.destinationName, of: entity) {
            diagnostics.error(
                "inverse '\(inversePath)' of relationship '\(path)' points to '\(inverse.destinationName)', not '\(entity.name)'",
                at: inverseLocation)
        } else if inverse.inverseName == nil {
            diagnostics.error(
                "relationship '\(path)' names '\(inversePath)' as its inverse, but '\(inversePath)' has no inverse", at: inverseLocation)
        } else if inverse.inverseName != relationship.name {
            diagnostics.error(
                "inverses disagree: '\(path)' names '\(inversePath)', but '\(inversePath)' names '\(inverse.inverseName!)'",
                at: inverseLocation)
        }
        if relationship.deleteRule == .cascade, inverse.isToMany {
            let shape = relationship.isToMany ? "many-to-many" : "many-to-one"
            diagnostics.warning(
                "relationship '\(path)' cascades across a \(shape) relationship: deleting one '\(entity.name)' deletes '\(destination.name)' objects that other '\(entity.name)' objects still reference",
                at: locations["\(path).deleteRule"] ?? here)
        }
    }

    // MARK: Constraints and indexes

    private enum PropertyKind {
        case attribute(Attribute)
        case toOne, toMany, none
    }

    private func property(named name: String, in entity: Entity) -> PropertyKind {
        // When no other entity declares the name, only the entity itself can: no walk up.
        if declarerCounts[name, default: 0] <= (entity.declares(name) ? 1 : 0) {
            if let attribute = entity.attribute(named: name) { return .attribute(attribute) }
            if let relationship = entity.relationship(named: name) { return relationship.isToMany ? .toMany : .toOne }
            return .none
        }
        let (attributes, relationships) = lookup.allProperties(of: entity)
        if let attribute = attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
        if let relationship = relationships.first(where: { $0.name == name }) { return relationship.isToMany ? .toMany : .toOne }
        return .none
    }

    private func propertyNames(of entity: Entity) -> [String] {
        let (attributes, relationships) = lookup.allProperties(of: entity)
        return attributes.map(\.name) + relationships.map(\.name)
    }

    private func checkConstraints(of entity: Entity) {
        for (constraintIndex, constraint) in entity.uniquenessConstraints.enumerated() {
            var seen: Set<String> = []
            for (memberIndex, member) in constraint.enumerated() {
                let location = locations["\(entity.name).unique.\(constraintIndex).\(memberIndex)"] ?? entity.location ?? .file("")
                if !seen.insert(member).inserted {
                    diagnostics.error("uniqueness constraint names '\(member)' twice", at: location)
                }
                switch property(named: member, in: entity) {
                case .none:
                    diagnostics.error(
                        "uniqueness constraint names unknown property '\(member)' of '\(entity.name)'\(Suggestions.didYouMean(member, in: propertyNames(of: entity)))",
                        at: location)
                case .toMany:
                    diagnostics.error("uniqueness constraint cannot include to-many relationship '\(entity.name).\(member)'", at: location)
                case .attribute(let attribute) where attribute.isTransient:
                    diagnostics.error("uniqueness constraint cannot include transient attribute '\(entity.name).\(member)'", at: location)
                default: break
                }
            }
        }
    }

    private func checkIndexes(of entity: Entity) {
        for index in entity.fetchIndexes {
            for element in index.elements {
                let location = element.location ?? index.location ?? .file("")
                switch property(named: element.propertyName, in: entity) {
                case .none:
                    diagnostics.error(
                        "index '\(index.name)' names unknown property '\(element.propertyName)' of '\(entity.name)'\(Suggestions.didYouMean(element.propertyName, in: propertyNames(of: entity)))",
                        at: location)
                case .toMany:
                    diagnostics.warning(
                        "index '\(index.name)' includes to-many relationship '\(entity.name).\(element.propertyName)', which has no column of its own in the store; Core Data's model editor allows it",
                        at: location)
                case .attribute(let attribute):
                    if attribute.isTransient {
                        diagnostics.error(
                            "index '\(index.name)' cannot include transient attribute '\(entity.name).\(attribute.name)'", at: location)
                    }
                    if index.kind == .rTree, !attribute.type.isNumeric {
                        diagnostics.error(
                            "R-tree index '\(index.name)' needs numeric attributes; '\(attribute.name)' is \(attribute.type.name)",
                            at: location)
                    }
                case .toOne:
                    if index.kind == .rTree {
                        diagnostics.error(
                            "R-tree index '\(index.name)' needs numeric attributes; '\(element.propertyName)' is a relationship",
                            at: location)
                    }
                }
            }
        }
    }

    private func checkCompoundIndexes(of entity: Entity) {
        for (indexNumber, members) in entity.compoundIndexes.enumerated() {
            for (memberIndex, member) in members.enumerated() {
                let location = locations["\(entity.name).compoundIndex.\(indexNumber).\(memberIndex)"] ?? entity.location ?? .file("")
                switch property(named: member, in: entity) {
                case .none:
                    diagnostics.error(
                        "compound index names unknown property '\(member)' of '\(entity.name)'\(Suggestions.didYouMean(member, in: propertyNames(of: entity)))",
                        at: location)
                case .toMany:
                    diagnostics.warning(
                        "compound index includes to-many relationship '\(entity.name).\(member)', which has no column of its own in the store",
                        at: location)
                default: break
                }
            }
        }
    }

    // MARK: Composites, enums, configurations

    private func checkComposite(_ composite: CompositeType) {
        for field in composite.attributes where field.name == "coreDataDictionary" {
            diagnostics.error(
                "composite '\(composite.name)' cannot have a field named 'coreDataDictionary': generated code uses that name",
                at: field.location ?? composite.location ?? .file(""))
        }
        for field in composite.attributes {
            // Composite fields become Swift struct members and initializer labels: held to Swift's style.
            if let problem = Names.propertyNameProblem(field.name, kind: "composite attribute") {
                diagnostics.error(problem.message, at: field.location ?? composite.location ?? .file(""))
            }
        }
    }

    private func checkCompositeCycles() {
        func nested(_ composite: CompositeType) -> [String] {
            composite.attributes.compactMap { if case .composite(let name) = $0.type { name } else { nil } }
        }
        var reported: Set<String> = []
        // A path back to a composite contains it, so one already on a reported cycle has nothing new.
        for composite in version.composites where !reported.contains(composite.name) {
            // Depth-first search for a path that leads back to `composite`. Each stack entry
            // points to the entry it was reached from, so a path costs nothing until reported.
            var entries: [(name: String, from: Int)] = [(composite.name, -1)]
            var stack: [Int] = []
            for name in nested(composite) {
                entries.append((name, 0))
                stack.append(entries.count - 1)
            }
            var visited: Set<String> = []
            while let entry = stack.popLast() {
                let name = entries[entry].name
                if name == composite.name {
                    var path: [String] = []
                    var step = entry
                    while step >= 0 {
                        path.append(entries[step].name)
                        step = entries[step].from
                    }
                    path.reverse()
                    if reported.isDisjoint(with: path) {
                        reported.formUnion(path)
                        diagnostics.error(
                            "composite cycle: \(path.joined(separator: " → ")); a composite cannot contain itself",
                            at: composite.location ?? .file(""))
                    }
                    break
                }
                guard visited.insert(name).inserted, let next = lookup.composite(named: name) else { continue }
                for nestedName in nested(next) {
                    entries.append((nestedName, entry))
                    stack.append(entries.count - 1)
                }
            }
        }
    }

    private func checkEnum(_ enumType: EnumType) {
        var names: Set<String> = []
        var rawValues: [AttributeValue: String] = [:]
        for enumCase in enumType.cases {
            let location = enumCase.location ?? enumType.location ?? .file("")
            if !Names.isValidIdentifier(enumCase.name) || Names.swiftKeywords.contains(enumCase.name) {
                diagnostics.error("enum case '\(enumCase.name)' of '\(enumType.name)' is not a valid Swift identifier", at: location)
            }
            if !names.insert(enumCase.name).inserted {
                diagnostics.error("enum '\(enumType.name)' declares case '\(enumCase.name)' twice", at: location)
            } else if let other = rawValues[enumCase.rawValue] {
                diagnostics.error(
                    "cases '\(other)' and '\(enumCase.name)' of enum '\(enumType.name)' have the same raw value", at: location)
            } else {
                rawValues[enumCase.rawValue] = enumCase.name
            }
        }
    }

    private func checkConfigurations() {
        for configuration in version.configurations {
            if rules == .modelFormat ? !Names.isValidIdentifier(configuration.name) : configuration.name.isEmpty {
                diagnostics.error(
                    "configuration name '\(configuration.name)' is not a valid identifier", at: configuration.location ?? .file(""))
            }
            for (index, name) in configuration.entityNames.enumerated() where lookup.entity(named: name) == nil {
                diagnostics.error(
                    "configuration '\(configuration.name)' names unknown entity '\(name)'\(Suggestions.didYouMean(name, in: entityNames))",
                    at: locations["configuration.\(configuration.name).\(index)"] ?? configuration.location ?? .file(""))
            }
        }
    }
}

extension Entity {
    /// Whether the entity itself declares an attribute or relationship of this name.
    fileprivate func declares(_ name: String) -> Bool {
        attributes.contains { $0.name == name } || relationships.contains { $0.name == name }
    }
}
