import ModelSchema

/// Names the generator must turn into Swift declarations, checked before anything is rendered:
/// a name that cannot be mapped to valid Swift is a located error and no file is written. Xcode
/// models are not held to modelgen's YAML style, so everything Core Data accepts and Swift can
/// spell (capitalised names, keywords in backticks) passes.
enum SwiftNameCheck {
    static func problems(in view: SwiftModelView) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func error(_ message: String, _ location: SourceLocation?) {
            problems.append(Diagnostic(.error, message, at: location ?? view.version.location ?? .file(view.model.name)))
        }
        var classes: [String: String] = [:]
        let modelType = view.modelTypeName
        for entity in view.version.entities {
            let mapped = SwiftClassName(of: entity)
            switch mapped {
            case .invalid(let text):
                error(
                    "class name '\(text)' of entity '\(entity.name)' cannot be named in Swift; use a Swift class name, '.Name' (current module), 'Module.Name' or 'NSManagedObject'",
                    entity.location)
            case .generated(let name, _):
                if let other = classes.updateValue(entity.name, forKey: name) {
                    error("entities '\(other)' and '\(entity.name)' would both generate class '\(name)'", entity.location)
                } else if name == modelType || Names.typesUsedByGeneratedCode.contains(name) {
                    error(
                        "class '\(name)' of entity '\(entity.name)' would shadow the type '\(name)' that generated code uses",
                        entity.location)
                }
            case .external, .generic:
                break
            }
            guard mapped.isGenerated else { continue }
            checkProperties(of: entity, in: view, error: error)
        }
        return problems
    }

    private static func checkProperties(
        of entity: Entity, in view: SwiftModelView, error: (String, SourceLocation?) -> Void
    ) {
        let properties =
            view.declaredAttributes(of: entity).map { ($0.name, $0.location) }
            + view.declaredRelationships(of: entity).map { ($0.name, $0.location) }
            + view.declaringLineage(of: entity).flatMap(\.fetchedProperties).map { ($0.name, $0.location) }
        for (name, location) in properties {
            if let problem = SwiftPropertyName.problem(name) {
                error("property '\(entity.name).\(name)' \(problem)", location)
            }
        }
        // To-many accessors are named after the capitalised relationship name (`addToBox`).
        var accessorStems: [String: String] = [:]
        let (_, allRelationships) = view.lookup.allProperties(of: entity)
        for relationship in allRelationships where relationship.isToMany {
            let stem = SwiftNames.uppercasedFirst(relationship.name)
            if let other = accessorStems.updateValue(relationship.name, forKey: stem), other != relationship.name {
                error(
                    "to-many relationships '\(other)' and '\(relationship.name)' of '\(entity.name)' would both generate 'addTo\(stem)'",
                    relationship.location)
            }
        }
    }
}

/// How a property name is spelled in generated Swift.
enum SwiftPropertyName {
    /// Names generated classes declare themselves.
    static let generatedMembers: Set<String> = ["Keys"]

    /// The name as a Swift identifier: keywords in backticks.
    static func spelling(_ name: String) -> String {
        Names.swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    /// Why the name cannot become a property of a generated class; nil when it can.
    static func problem(_ name: String) -> String? {
        if !Names.isValidIdentifier(name) { return "is not a valid Swift identifier" }
        if name == "_" { return "cannot be a Swift property name" }
        if Names.managedObjectMembers.contains(name) { return "would override a member of NSManagedObject" }
        if generatedMembers.contains(name) { return "collides with the '\(name)' enum generated classes declare" }
        if Names.metatypeMemberNames.contains(name) {
            return "cannot be a Swift member name: 'X.\(name)' means the metatype, even in backticks"
        }
        return nil
    }
}
