/// Rules for the names a model declares: they become Swift identifiers and Objective-C
/// selectors in generated code, so they must be valid there and must not shadow what
/// `NSManagedObject` and `NSObject` already define.
public enum Names {
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_",
    ]

    /// Members of `NSManagedObject` and `NSObject` (and the `NSObjectProtocol`) that a property
    /// of a generated subclass would override or shadow.
    static let managedObjectMembers: Set<String> = [
        "description", "debugDescription", "entity", "objectID", "managedObjectContext", "context", "isDeleted",
        "isInserted", "isUpdated", "isFault", "hasChanges", "hasPersistentChangedValues",
        "faultingState", "changedValues", "changedValuesForCurrentEvent", "committedValues", "hash", "hashValue",
        "self", "superclass", "classForCoder", "class", "zone", "isProxy", "retainCount", "autoContentAccessingProxy",
        "observationInfo", "willSave", "didSave", "awakeFromFetch", "awakeFromInsert", "awakeFromSnapshotEvents",
        "prepareForDeletion", "willTurnIntoFault", "didTurnIntoFault", "validateForDelete", "validateForInsert",
        "validateForUpdate", "primitiveValue", "setPrimitiveValue", "setValue", "willAccessValue",
        "didAccessValue", "willChangeValue", "didChangeValue", "fetchRequest", "isEqual", "copy", "mutableCopy",
        "init", "dealloc",
        // `ObservableObject` (NSManagedObject conforms to it), memory management selectors an
        // `@NSManaged` accessor would override, and the archiving and scripting properties of NSObject.
        "objectWillChange", "retain", "release", "autorelease", "finalize", "classForKeyedArchiver",
        "classForArchiver", "className", "classDescription", "attributeKeys", "toOneRelationshipKeys",
        "toManyRelationshipKeys", "objectSpecifier", "scriptingProperties", "classCode", "exposedBindings",
    ]

    /// Types generated code refers to by name; a model type with one of these names would shadow
    /// it and break the generated sources.
    static let typesUsedByGeneratedCode: Set<String> = [
        "String", "Int", "Int16", "Int32", "Int64", "Bool", "Double", "Float", "Decimal", "Date", "Data", "URL", "UUID", "Set",
        "Array", "Dictionary", "Optional", "Any", "Never", "Codable", "Hashable", "Sendable", "CaseIterable", "Bundle",
        "NSObject", "NSNumber", "NSDecimalNumber", "NSSet", "NSOrderedSet", "NSIndexSet", "NSManagedObject",
        "NSManagedObjectID", "NSManagedObjectModel", "NSFetchRequest", "Keys",
    ]

    /// Member names Swift reserves for metatypes (`Trip.Type`, `P.Protocol`), even in backticks.
    static let metatypeMemberNames: Set<String> = ["Type", "Protocol"]

    static func isValidIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        guard first == "_" || first.properties.isXIDStart else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
    }

    static func startsUppercase(_ name: String) -> Bool {
        name.first.map { $0.isUppercase } ?? false
    }

    static func startsLowercase(_ name: String) -> Bool {
        name.first.map { $0.isLowercase } ?? false
    }

    /// Problems with a type-like name (entity, composite, enum, class): nil when it is fine.
    static func typeNameProblem(_ name: String, kind: String) -> String? {
        if !isValidIdentifier(name) { return "\(kind) name '\(name)' is not a valid Swift identifier" }
        if swiftKeywords.contains(name) { return "\(kind) name '\(name)' is a Swift keyword" }
        if !startsUppercase(name) { return "\(kind) name '\(name)' must start with an uppercase letter" }
        if typesUsedByGeneratedCode.contains(name) {
            return "\(kind) name '\(name)' would shadow the type '\(name)' that generated code uses; choose another name"
        }
        return nil
    }

    /// Problems with a property name (attribute, relationship, fetched property, composite
    /// field). Core Data accepts capitalised names and Swift keywords (both are part of stored
    /// data and version hashes, so they cannot be renamed): those are style warnings, and
    /// generated code spells them as valid Swift. What generated code cannot spell is an error.
    static func propertyNameProblem(_ name: String, kind: String) -> (message: String, isError: Bool)? {
        if !isValidIdentifier(name) { return ("\(kind) name '\(name)' is not a valid Swift identifier", true) }
        if managedObjectMembers.contains(name) {
            return ("\(kind) name '\(name)' collides with a member of NSManagedObject; choose another name", true)
        }
        if name == "_" { return ("\(kind) name '_' is not a valid property name", true) }
        if metatypeMemberNames.contains(name) {
            return (
                "\(kind) name '\(name)' cannot be a member of a generated Swift class ('X.\(name)' is a metatype); 'generate' refuses it",
                false
            )
        }
        if swiftKeywords.contains(name) {
            return ("\(kind) name '\(name)' is a Swift keyword; generated code writes it as `\(name)`", false)
        }
        if !startsLowercase(name) { return ("\(kind) name '\(name)' should start with a lowercase letter", false) }
        return nil
    }

    /// A module name as `import` takes it: identifiers separated by dots (`Foundation`,
    /// `Darwin.C`), none a keyword. Nil when it is fine.
    public static func moduleNameProblem(_ name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ isValidIdentifier($0) && !swiftKeywords.contains($0) }) else {
            return "'\(name)' is not a module name"
        }
        return nil
    }

    /// A class prefix must be the start of a Swift identifier (or empty). Nil when it is fine.
    public static func classPrefixProblem(_ prefix: String) -> String? {
        guard !prefix.isEmpty, !isValidIdentifier(prefix) else { return nil }
        return "'\(prefix)' is not the start of a Swift identifier"
    }
}

/// "Did you mean …?" suggestions by edit distance.
public enum Suggestions {
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name) {
                best = (candidate, distance)
            }
        }
        guard let best else { return nil }
        let allowed = max(1, min(word.count, best.name.count) / 3)
        return best.distance <= allowed ? best.name : nil
    }

    /// `"; did you mean 'x'?"`, or an empty string when nothing is close.
    public static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
