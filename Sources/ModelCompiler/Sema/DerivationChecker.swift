import ModelSchema

/// Checks that a derived attribute's expression parses and that every key path in it names
/// properties reachable from the entity, as Core Data requires ("any keypaths used in the
/// expression must be accessible from the entity on which the derived attribute is specified").
struct DerivationChecker {
    let lookup: VersionLookup

    /// Why the expression is wrong, phrased to follow "derivation expression '…' of 'E.a'"
    /// (" does not parse: …" or ": …"), or nil when it is fine.
    func problem(of expression: String, derived attribute: Attribute, in entity: Entity) -> String? {
        keyPathProblem(of: expression, derived: attribute, in: entity).map { $0.hasPrefix(" does not parse") ? $0 : ": " + $0 }
    }

    private func keyPathProblem(of expression: String, derived attribute: Attribute, in entity: Entity) -> String? {
        let syntax: DerivationSyntax
        switch DerivationSyntax.parse(expression) {
        case .failure(let error): return " does not parse: \(error.reason); expected \(DerivationSyntax.expectedForms)"
        case .success(let parsed): syntax = parsed
        }
        switch syntax {
        case .now:
            return nil
        case .keyPath(let path):
            if path == [attribute.name] { return "it refers to the attribute itself" }
            return valuePath(path, from: entity).problem
        case .stringFunction(let function, let argument):
            if argument == [attribute.name] { return "it refers to the attribute itself" }
            let resolved = valuePath(argument, from: entity)
            if let problem = resolved.problem { return problem }
            if let type = resolved.type, type != .string {
                return "'\(function):' needs a String attribute, but '\(argument.joined(separator: "."))' is \(type.name)"
            }
            return nil
        case .aggregateFunction(let name, let argument):
            let function = DerivationSyntax.aggregateFunctionOperators[name]!
            // The collection ends at the first to-many relationship the argument reaches.
            var current = entity
            for (index, key) in argument.enumerated() {
                guard case .relationship(let relationship)? = property(key, of: current) else { break }
                guard let destination = lookup.entity(named: relationship.destinationName) else { return nil }
                if relationship.isToMany {
                    let rest = Array(argument[(index + 1)...])
                    if function == "@count", !rest.isEmpty {
                        return "'\(name):' counts a to-many relationship; nothing may follow '\(key)'"
                    }
                    if function != "@count", rest.isEmpty {
                        return "'\(name):' needs the attribute to aggregate after '\(key)', as in '\(name):(\(key).cost)'"
                    }
                    return aggregateProblem(
                        collection: Array(argument[...index]), function: function, path: rest, from: entity, named: "\(name):")
                }
                current = destination
            }
            return aggregateProblem(collection: argument, function: function, path: [], from: entity, named: "\(name):")
        case .aggregate(let collection, let function, let path):
            return aggregateProblem(collection: collection, function: function, path: path, from: entity, named: function)
        }
    }

    /// `function` is the key path operator (`@sum`); `display` is how the expression wrote it.
    private func aggregateProblem(collection: [String], function: String, path: [String], from entity: Entity, named display: String)
        -> String?
    {
        var current = entity
        for (index, key) in collection.enumerated() {
            guard let property = property(key, of: current) else { return unknown(key, in: current) }
            guard case .relationship(let relationship) = property else {
                return "'\(key)' is an attribute of '\(current.name)'; '\(display)' needs a to-many relationship"
            }
            let isLast = index == collection.count - 1
            if isLast, !relationship.isToMany {
                return "'\(key)' is a to-one relationship; '\(display)' needs a to-many relationship"
            }
            if !isLast, relationship.isToMany {
                return "'\(key)' is a to-many relationship; only the last key before '\(display)' may be"
            }
            guard let destination = lookup.entity(named: relationship.destinationName) else { return nil }
            current = destination
        }
        guard !path.isEmpty else { return nil }
        let resolved = valuePath(path, from: current)
        if let problem = resolved.problem { return problem }
        if function == "@sum" || function == "@avg", let type = resolved.type, !type.isNumeric {
            return "'\(display)' needs a number attribute, but '\(path.joined(separator: "."))' of '\(current.name)' is \(type.name)"
        }
        return nil
    }

    private enum Property {
        case attribute(Attribute)
        case relationship(Relationship)
    }

    private func property(_ name: String, of entity: Entity) -> Property? {
        let all = lookup.allProperties(of: entity)
        if let attribute = all.attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
        if let relationship = all.relationships.first(where: { $0.name == name }) { return .relationship(relationship) }
        return nil
    }

    private func unknown(_ name: String, in entity: Entity) -> String {
        let all = lookup.allProperties(of: entity)
        let names = all.attributes.map(\.name) + all.relationships.map(\.name)
        return "'\(name)' is not a property of '\(entity.name)'\(Suggestions.didYouMean(name, in: names))"
    }

    /// Follows to-one relationships (and composite fields) to an attribute value.
    private func valuePath(_ path: [String], from entity: Entity) -> (problem: String?, type: AttributeType?) {
        var current = entity
        var index = 0
        while index < path.count {
            let key = path[index]
            let isLast = index == path.count - 1
            guard let property = property(key, of: current) else { return (unknown(key, in: current), nil) }
            switch property {
            case .relationship(let relationship):
                if isLast { return ("'\(key)' is a relationship; the key path must end at an attribute", nil) }
                if relationship.isToMany {
                    return ("'\(key)' is a to-many relationship; follow it with an aggregate such as '\(key).@count'", nil)
                }
                guard let destination = lookup.entity(named: relationship.destinationName) else { return (nil, nil) }
                current = destination
                index += 1
            case .attribute(let attribute):
                return compositePath(Array(path[(index + 1)...]), of: attribute, entity: current)
            }
        }
        return (nil, nil)
    }

    /// The rest of a key path after an attribute: empty, or fields of a composite attribute.
    private func compositePath(_ rest: [String], of attribute: Attribute, entity: Entity) -> (problem: String?, type: AttributeType?) {
        var type = attribute.type
        var owner = "attribute '\(entity.name).\(attribute.name)'"
        for key in rest {
            guard case .composite(let compositeName) = type else {
                return ("\(owner) is \(type.name), so the key path cannot continue with '\(key)'", nil)
            }
            guard let composite = lookup.composite(named: compositeName) else { return (nil, nil) }
            guard let field = composite.attributes.first(where: { $0.name == key }) else {
                let suggestion = Suggestions.didYouMean(key, in: composite.attributes.map(\.name))
                return ("'\(key)' is not a field of composite '\(compositeName)'\(suggestion)", nil)
            }
            type = field.type
            owner = "field '\(compositeName).\(key)'"
        }
        return (nil, type)
    }
}
