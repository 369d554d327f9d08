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
    /// Candidate names prepared once (lowercased, grouped by length) for many look-ups, so a
    /// model with thousands of unknown names is not quadratic in string work.
    public struct Candidates: Sendable {
        fileprivate let names: [(name: String, scalars: [UInt32], sorted: [UInt32], characters: UInt64)]
        fileprivate let byLength: [Int: [Int]]

        public init(_ names: some Sequence<String>) {
            let prepared = names.map { name in
                let scalars = name.lowercased().unicodeScalars.map(\.value)
                return (name: name, scalars: scalars, sorted: scalars.sorted(), characters: Suggestions.characterSet(scalars))
            }
            self.names = prepared
            byLength = Dictionary(grouping: prepared.indices) { prepared[$0].scalars.count }
        }
    }

    /// The candidate closest to `word` (ties: the smallest name), if it is close enough: at most
    /// a third of the shorter name's length apart (at least 1).
    public static func closest(to word: String, in candidates: Candidates) -> String? {
        let lowered = word.lowercased().unicodeScalars.map(\.value)
        let sorted = lowered.sorted()
        let characters = characterSet(lowered)
        // No candidate farther than this can be accepted, so farther ones need no exact distance.
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        var buffers = ([Int](), [Int]())
        for length in max(0, lowered.count - limit)...(lowered.count + limit) {
            for index in candidates.byLength[length] ?? [] {
                let candidate = candidates.names[index]
                let bound = min(limit, best?.distance ?? limit)
                // Cheap lower bounds first: characters only one side has, then character counts.
                let onlyHere = (characters & ~candidate.characters).nonzeroBitCount
                let onlyThere = (candidate.characters & ~characters).nonzeroBitCount
                if max(onlyHere, onlyThere) > bound || bagDistance(sorted, candidate.sorted) > bound { continue }
                guard let distance = boundedDistance(lowered, candidate.scalars, bound: bound, buffers: &buffers) else { continue }
                if best == nil || distance < best!.distance || (distance == best!.distance && candidate.name < best!.name) {
                    best = (candidate.name, distance)
                }
            }
        }
        guard let best else { return nil }
        let allowed = max(1, min(word.count, best.name.count) / 3)
        return best.distance <= allowed ? best.name : nil
    }

    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        closest(to: word, in: Candidates(candidates))
    }

    /// `"; did you mean 'x'?"`, or an empty string when nothing is close.
    public static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        didYouMean(word, in: Candidates(candidates))
    }

    public static func didYouMean(_ word: String, in candidates: Candidates) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = a.unicodeScalars.map(\.value)
        let b = b.unicodeScalars.map(\.value)
        var buffers = ([Int](), [Int]())
        return boundedDistance(a, b, bound: max(a.count, b.count), buffers: &buffers)!
    }

    /// Which characters a name holds, folded into 64 bits. Characters one name has and the
    /// other lacks each need an edit, and folding only merges characters, so the count of bits
    /// set on one side only is a lower bound of the edit distance.
    static func characterSet(_ scalars: [UInt32]) -> UInt64 {
        scalars.reduce(0) { $0 | 1 << UInt64($1 % 64) }
    }

    /// A lower bound of the edit distance of two strings given as sorted characters: an edit
    /// removes at most one character of one string that the other lacks and adds at most one,
    /// so the larger count of unmatched characters needs at least as many edits.
    static func bagDistance(_ a: [UInt32], _ b: [UInt32]) -> Int {
        var shared = 0
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                shared += 1
                i += 1
                j += 1
            } else if a[i] < b[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return max(a.count - shared, b.count - shared)
    }

    /// The Levenshtein distance of `a` and `b` when it is at most `bound`, else nil; stops as
    /// soon as a whole row exceeds the bound.
    static func boundedDistance(_ a: [UInt32], _ b: [UInt32], bound: Int, buffers: inout ([Int], [Int])) -> Int? {
        guard abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        buffers.0.removeAll(keepingCapacity: true)
        buffers.0.append(contentsOf: 0...b.count)
        buffers.1.removeAll(keepingCapacity: true)
        buffers.1.append(contentsOf: repeatElement(0, count: b.count + 1))
        for i in 1...a.count {
            buffers.1[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let value = min(buffers.0[j] + 1, buffers.1[j - 1] + 1, buffers.0[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                buffers.1[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > bound { return nil }
            swap(&buffers.0, &buffers.1)
        }
        let distance = buffers.0[b.count]
        return distance <= bound ? distance : nil
    }
}
