/// A Core Data entity.
public struct Entity: Hashable, Sendable {
    public var name: String
    /// The Swift class name, when it differs from the entity name.
    public var className: String?
    public var parentName: String?
    public var isAbstract: Bool
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    /// Each constraint is a list of property names that are unique together.
    public var uniquenessConstraints: [[String]]
    public var fetchIndexes: [FetchIndex]
    /// Older Xcode's compound indexes (`<compoundIndexes>`): each is a list of property names
    /// indexed together. Kept as written; newer models use ``fetchIndexes``.
    public var compoundIndexes: [[String]]
    /// Fetched properties (`NSFetchedPropertyDescription`): not stored, not part of any hash.
    public var fetchedProperties: [FetchedProperty]
    public var versionHashModifier: String?
    public var renamingIdentifier: String?
    public var userInfo: [String: String]
    public var documentation: String?
    public var location: SourceLocation?

    public init(
        name: String, className: String? = nil, parentName: String? = nil, isAbstract: Bool = false,
        attributes: [Attribute] = [], relationships: [Relationship] = [], uniquenessConstraints: [[String]] = [],
        fetchIndexes: [FetchIndex] = [], compoundIndexes: [[String]] = [], fetchedProperties: [FetchedProperty] = [],
        versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        userInfo: [String: String] = [:], documentation: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.className = className
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.compoundIndexes = compoundIndexes
        self.fetchedProperties = fetchedProperties
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.userInfo = userInfo
        self.documentation = documentation
        self.location = location
    }

    /// The Swift class that represents the entity.
    public var effectiveClassName: String { className ?? name }

    public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
    public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
}

/// A fetch index (Core Data's `NSFetchIndexDescription`).
public struct FetchIndex: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case binary
        case rTree = "rtree"
    }

    public struct Element: Hashable, Sendable {
        public var propertyName: String
        public var isAscending: Bool
        public var location: SourceLocation?

        public init(propertyName: String, isAscending: Bool = true, location: SourceLocation? = nil) {
            self.propertyName = propertyName
            self.isAscending = isAscending
            self.location = location
        }
    }

    public var name: String
    public var elements: [Element]
    public var kind: Kind
    public var location: SourceLocation?

    public init(name: String, elements: [Element], kind: Kind = .binary, location: SourceLocation? = nil) {
        self.name = name
        self.elements = elements
        self.kind = kind
        self.location = location
    }
}

/// A fetched property: a property whose value is the result of a fetch request, evaluated
/// lazily (`NSFetchedPropertyDescription`). Xcode stores the request's entity and predicate.
public struct FetchedProperty: Hashable, Sendable {
    public var name: String
    /// The entity the fetch request fetches.
    public var entityName: String
    /// The fetch request's predicate in `NSPredicate` format, as written (`$FETCH_SOURCE` and
    /// `$FETCHED_PROPERTY` are the variables Core Data binds); nil fetches every object.
    public var predicate: String?
    public var isOptional: Bool
    public var userInfo: [String: String]
    public var documentation: String?
    public var location: SourceLocation?

    public init(
        name: String, entityName: String, predicate: String? = nil, isOptional: Bool = true, userInfo: [String: String] = [:],
        documentation: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.entityName = entityName
        self.predicate = predicate
        self.isOptional = isOptional
        self.userInfo = userInfo
        self.documentation = documentation
        self.location = location
    }
}
