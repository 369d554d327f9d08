import ModelSchema

/// Checks, as part of a model's checks, that the types generated for its current version can be
/// declared and that every file the generator writes has a name of its own — so that `validate`
/// reports it and no command writes anything for such a model. Class names are taken as the
/// generator maps them (``SwiftClassName``): only entities with a class of their own count.
///
/// What it adds to the YAML format's rules: a type taking the name of the model's `<Name>Model`
/// type, two classes whose files would be one file on a file system that ignores case, and custom
/// class names (printed as the Swift type of an attribute) that are not Swift types. For Xcode
/// models, whose names follow Core Data's rules, it also checks what the YAML format's rules
/// check of class and composite names: a class name form generated code can name, one class per
/// name, no shadowed type. Property names Swift cannot declare as written (`Keys`, `Type`, two
/// to-many relationships with one accessor name) are refused by the generator itself
/// (``SwiftNameCheck``), before anything is written.
struct GeneratedCodeChecker {
    let model: Model
    let rules: VersionChecker.NameRules
    let diagnostics: DiagnosticCollector

    func check() {
        guard let version = model.currentVersion else { return }
        let view = SwiftModelView(model: model, options: SwiftGenerator.Options())
        let fallback = version.location ?? .file(model.name)
        var types = TypeNames(modelTypeName: view.modelTypeName, modelName: model.name, rules: rules, diagnostics: diagnostics)
        var files: [String: (entity: String, className: String)] = [:]
        if rules == .coreData { checkClassNames(of: version, modelTypeName: view.modelTypeName) }
        for entity in view.generatedEntities {
            let className = SwiftClassName(of: entity).swiftType
            let here = entity.location ?? fallback
            types.declare(className, as: "the class of entity '\(entity.name)'", isClass: true, at: here)
            if let other = files.updateValue((entity.name, className), forKey: className.lowercased()), other.className != className {
                diagnostics.error(
                    "the classes '\(other.className)' of entity '\(other.entity)' and '\(className)' of entity '\(entity.name)' differ only in case; their files would be one file on a case-insensitive file system",
                    at: here)
            }
            for attribute in entity.attributes where attribute.customClassName != nil {
                checkType(
                    SwiftTypes.accessor(for: attribute, lookup: view.lookup).swiftType, of: "attribute '\(entity.name).\(attribute.name)'",
                    at: attribute.location ?? here)
            }
        }
        for composite in version.composites {
            let here = composite.location ?? fallback
            if rules == .coreData, let problem = Self.typeNameProblem(composite.name) {
                diagnostics.error(
                    "composite '\(composite.name)' would be declared as a struct named '\(composite.name)', which \(problem)", at: here)
                continue
            }
            types.declare(composite.name, as: "composite '\(composite.name)'", isClass: false, at: here)
            for field in composite.attributes where field.customClassName != nil {
                checkType(
                    SwiftTypes.valueType(of: field, lookup: view.lookup), of: "field '\(composite.name).\(field.name)'",
                    at: field.location ?? here)
            }
        }
        for enumType in version.enums {
            types.declare(enumType.name, as: "enum '\(enumType.name)'", isClass: false, at: enumType.location ?? fallback)
        }
    }

    /// An Xcode model's class names, as the YAML format's rules check them in a YAML model: a form
    /// generated code can name, one class per name, not the name of a type generated code uses.
    private func checkClassNames(of version: ModelVersion, modelTypeName: String) {
        var classes: [String: String] = [:]
        var seen: Set<String> = []
        for entity in version.entities where seen.insert(entity.name).inserted {
            let here = entity.location ?? version.location ?? .file(model.name)
            switch SwiftClassName(of: entity) {
            case .invalid(let text):
                diagnostics.error(
                    "class name '\(text)' of entity '\(entity.name)' cannot be named in Swift; use a Swift class name, '.Name' (current module), 'Module.Name' or 'NSManagedObject'",
                    at: here)
            case .generated(let name, _):
                if let other = classes.updateValue(entity.name, forKey: name) {
                    diagnostics.error("entities '\(other)' and '\(entity.name)' would both generate class '\(name)'", at: here)
                } else if Names.typesUsedByGeneratedCode.contains(name) {
                    diagnostics.error(
                        "class '\(name)' of entity '\(entity.name)' would shadow the type '\(name)' that generated code uses", at: here)
                }
            case .external, .generic:
                break
            }
        }
    }

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

    /// Why `name` cannot be declared as a type, or nil.
    static func typeNameProblem(_ name: String) -> String? {
        if !Names.isValidIdentifier(name) { return "is not a valid Swift identifier" }
        if Names.swiftKeywords.contains(name) { return "is a Swift keyword" }
        if Names.typesUsedByGeneratedCode.contains(name) { return "would shadow the type '\(name)' that generated code uses" }
        return nil
    }

    /// Top-level type names of the generated sources: each declared once. Two declarations of one
    /// name are reported by the naming rules (the YAML format's) or by ``checkClassNames`` (two
    /// classes of an Xcode model); what is left is a composite or enum of an Xcode model meeting
    /// another type.
    private struct TypeNames {
        let modelTypeName: String
        let modelName: String
        let rules: VersionChecker.NameRules
        let diagnostics: DiagnosticCollector
        var declared: [String: (kind: String, isClass: Bool, location: SourceLocation)] = [:]

        mutating func declare(_ name: String, as kind: String, isClass: Bool, at location: SourceLocation) {
            if name == modelTypeName {
                diagnostics.error("'\(name)' is the name of the type generated for model '\(modelName)'; choose another name", at: location)
            } else if let earlier = declared[name] {
                guard rules == .coreData, !(isClass && earlier.isClass) else { return }
                diagnostics.error("\(kind) and \(earlier.kind) would both be declared as '\(name)'", at: location)
                diagnostics.note("'\(name)' is first declared here", at: earlier.location)
            } else {
                declared[name] = (kind, isClass, location)
            }
        }
    }
}
