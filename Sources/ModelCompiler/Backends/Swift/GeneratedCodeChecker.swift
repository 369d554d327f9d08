import ModelSchema
import Mustache

/// Checks that the Swift generated for a model's current version compiles and that every file
/// the generator writes has a name of its own, before anything is generated. It reads the names
/// exactly as ``SwiftModelView`` hands them to the templates (after any mapping of class and
/// property names), so what it accepts is what gets printed.
///
/// With the YAML format's naming rules most of this is already guaranteed by ``VersionChecker``;
/// what remains is the model's own type (`<Name>Model`) and file names that differ only in case.
/// With Core Data's rules (Xcode models) every printed name is checked here.
struct GeneratedCodeChecker {
    let model: Model
    let rules: VersionChecker.NameRules
    let diagnostics: DiagnosticCollector

    /// Nested in every generated class; no property may take its name.
    static let nestedTypeNames: Set<String> = ["Keys"]

    func check() {
        guard let version = model.currentVersion else { return }
        let view = SwiftModelView(model: model, options: SwiftGenerator.Options())
        let fallback = version.location ?? .file(model.name)
        // The YAML format's checks already report two declarations of one name.
        var types = TypeNames(
            modelTypeName: view.modelTypeName, modelName: model.name, reportsDuplicates: rules == .coreData, diagnostics: diagnostics)
        var files: [String: (entity: String, className: String)] = [:]
        var seenEntities: Set<String> = []
        for entity in version.entities where seenEntities.insert(entity.name).inserted {
            guard let (className, members) = printedClass(of: entity, view: view) else {
                continue  // no class is generated for this entity
            }
            let here = entity.location ?? fallback
            let kind = "the class of entity '\(entity.name)'"
            if rules == .coreData, let problem = Self.typeNameProblem(className) {
                diagnostics.error("\(kind) would be declared as '\(className)', which \(problem)", at: here)
                continue
            }
            types.declare(className, as: kind, at: here)
            if let other = files.updateValue((entity.name, className), forKey: className.lowercased()), other.className != className {
                diagnostics.error(
                    "the classes '\(other.className)' of entity '\(other.entity)' and '\(className)' of entity '\(entity.name)' differ only in case; their files would be one file on a case-insensitive file system",
                    at: here)
            }
            if let members {
                checkProperties(of: entity, members: members, at: here)
            } else {
                for attribute in entity.attributes where attribute.customClassName != nil {
                    checkType(
                        SwiftTypes.accessor(for: attribute, lookup: view.lookup).swiftType,
                        of: "attribute '\(entity.name).\(attribute.name)'",
                        at: attribute.location ?? here)
                }
            }
        }
        for composite in version.composites {
            let here = composite.location ?? fallback
            if rules == .coreData, let problem = Self.typeNameProblem(composite.name) {
                diagnostics.error(
                    "composite '\(composite.name)' would be declared as a struct named '\(composite.name)', which \(problem)", at: here)
                continue
            }
            types.declare(composite.name, as: "composite '\(composite.name)'", at: here)
            for (field, value) in zip(composite.attributes, Self.list(view.compositeValue(composite).member("fields"))) {
                if let type = Self.string(value.member("swiftType")) {
                    checkType(type, of: "field '\(composite.name).\(field.name)'", at: field.location ?? here)
                }
            }
            if rules == .coreData {
                for field in composite.attributes where Self.memberNameProblem(field.name) != nil {
                    diagnostics.error(
                        "field '\(field.name)' of composite '\(composite.name)' \(Self.memberNameProblem(field.name)!)",
                        at: field.location ?? here)
                }
            }
        }
        for enumType in version.enums { types.declare(enumType.name, as: "enum '\(enumType.name)'", at: enumType.location ?? fallback) }
    }

    /// Property and accessor names (Core Data's rules; the YAML format's already guarantee
    /// them) and the printed types of one generated class.
    private func checkProperties(of entity: Entity, members: [String: MustacheValue], at here: SourceLocation) {
        var declared: [String: String] = [:]
        func declare(_ name: String, for property: String, at location: SourceLocation) {
            guard rules == .coreData else { return }
            // A model name that is a member of NSManagedObject breaks Core Data's own rule, reported already.
            if name == property, Names.managedObjectMembers.contains(name) { return }
            if let problem = Self.memberNameProblem(name) {
                diagnostics.error("property '\(entity.name).\(property)' would be declared as '\(name)', which \(problem)", at: location)
            } else if Self.nestedTypeNames.contains(name) {
                diagnostics.error(
                    "property '\(entity.name).\(property)' would be declared as '\(name)', the name of a type nested in every generated class",
                    at: location)
            } else if let other = declared.updateValue(property, forKey: name), other != property {
                diagnostics.error(
                    "properties '\(entity.name).\(other)' and '\(entity.name).\(property)' would both be declared as '\(name)'",
                    at: location)
            }
        }
        let attributes = Self.list(members["attributes"])
        for (attribute, value) in zip(entity.attributes, attributes) {
            let location = attribute.location ?? here
            if let name = Self.string(value.member("name")) { declare(name, for: attribute.name, at: location) }
            if let type = Self.string(value.member("swiftType")) {
                checkType(type, of: "attribute '\(entity.name).\(attribute.name)'", at: location)
            }
            if let raw = Self.string(value.member("rawValueAccessor")?.member("name")) { declare(raw, for: attribute.name, at: location) }
        }
        for (relationship, value) in zip(entity.relationships, Self.list(members["relationships"])) {
            if let name = Self.string(value.member("name")) { declare(name, for: relationship.name, at: relationship.location ?? here) }
        }
        // A to-many relationship gets `addTo<Name>` and `removeFrom<Name>` methods.
        var accessors: [String: String] = [:]
        for value in Self.list(members["toManyRelationships"]) {
            guard let name = Self.string(value.member("name")), let capitalized = Self.string(value.member("capitalizedName")) else {
                continue
            }
            if let other = accessors.updateValue(name, forKey: capitalized), other != name {
                diagnostics.error(
                    "to-many relationships '\(entity.name).\(other)' and '\(entity.name).\(name)' would both get the methods 'addTo\(capitalized)' and 'removeFrom\(capitalized)'",
                    at: entity.relationships.first { $0.name == name }?.location ?? here)
            }
        }
    }

    /// The class the generator declares for `entity`, with the values its template prints; nil
    /// when it declares none. With the YAML format's rules the class name is a checked
    /// identifier printed as is and the values are not needed: building them for every entity
    /// would cost as much as generating.
    private func printedClass(of entity: Entity, view: SwiftModelView) -> (String, [String: MustacheValue]?)? {
        guard rules == .coreData else { return (entity.effectiveClassName, nil) }
        guard case .object(let members) = view.entityValue(entity), case .string(let className)? = members["className"] else {
            return nil
        }
        return (className, members)
    }

    /// The printed type of a property or field (a custom class name goes in as written).
    private func checkType(_ type: String, of what: String, at location: SourceLocation) {
        guard let problem = Self.typeExpressionProblem(type) else { return }
        diagnostics.error("\(what) would have the Swift type '\(type)', which \(problem)", at: location)
    }

    /// A Swift type as written in a declaration: identifiers joined by `.`, with generic
    /// arguments, array, dictionary, tuple and optional punctuation; nil when it looks like one.
    /// Not a full parse: it keeps out what is plainly not a type (line breaks, a leading `.`,
    /// stray characters, unbalanced brackets).
    static func typeExpressionProblem(_ type: String) -> String? {
        let punctuation = Set("<>[](),:?!.& ".unicodeScalars)
        var depth = 0
        var previous: Unicode.Scalar = " "
        for scalar in type.unicodeScalars {
            if scalar == "."
                && (previous == "." || !(previous == "_" || previous.properties.isXIDContinue || ">]?!)".unicodeScalars.contains(previous)))
            {
                return "is not a Swift type"
            }
            if "<[(".unicodeScalars.contains(scalar) { depth += 1 }
            if ">])".unicodeScalars.contains(scalar) { depth -= 1 }
            guard depth >= 0, scalar == "_" || scalar.properties.isXIDContinue || punctuation.contains(scalar) else {
                return "is not a Swift type"
            }
            previous = scalar
        }
        guard depth == 0, let first = type.unicodeScalars.first,
            first == "_" || first.properties.isXIDStart || "[(".unicodeScalars.contains(first)
        else { return "is not a Swift type" }
        return nil
    }

    /// Why `name` cannot be printed as a type name, or nil.
    static func typeNameProblem(_ name: String) -> String? {
        if let problem = identifierProblem(name) { return problem }
        if Names.typesUsedByGeneratedCode.contains(name) { return "would shadow the type '\(name)' that generated code uses" }
        return nil
    }

    /// Why `name` cannot be printed as a property name, or nil.
    static func memberNameProblem(_ name: String) -> String? {
        if let problem = identifierProblem(name) { return problem }
        if Names.managedObjectMembers.contains(name) { return "collides with a member of NSManagedObject" }
        return nil
    }

    /// A Swift identifier, or a keyword in backticks.
    static func identifierProblem(_ name: String) -> String? {
        if name.count > 2, name.hasPrefix("`"), name.hasSuffix("`") {
            return Names.isValidIdentifier(String(name.dropFirst().dropLast())) ? nil : "is not a valid Swift identifier"
        }
        if !Names.isValidIdentifier(name) { return "is not a valid Swift identifier" }
        if Names.swiftKeywords.contains(name) { return "is a Swift keyword" }
        return nil
    }

    private static func list(_ value: MustacheValue?) -> [MustacheValue] {
        if case .list(let items)? = value { return items }
        return []
    }

    private static func string(_ value: MustacheValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// Top-level type names of the generated sources: each declared once.
    private struct TypeNames {
        let modelTypeName: String
        let modelName: String
        let reportsDuplicates: Bool
        let diagnostics: DiagnosticCollector
        var declared: [String: (kind: String, location: SourceLocation)] = [:]

        mutating func declare(_ name: String, as kind: String, at location: SourceLocation) {
            if name == modelTypeName {
                diagnostics.error("'\(name)' is the name of the type generated for model '\(modelName)'; choose another name", at: location)
            } else if let earlier = declared[name] {
                guard reportsDuplicates else { return }
                diagnostics.error("\(kind) and \(earlier.kind) would both be declared as '\(name)'", at: location)
                diagnostics.note("'\(name)' is first declared here", at: earlier.location)
            } else {
                declared[name] = (kind, location)
            }
        }
    }
}
