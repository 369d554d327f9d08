/// What happens to related objects when an object is deleted (`NSDeleteRule`).
public enum RelationshipDeleteRule: String, Hashable, Sendable, CaseIterable {
    case nullify
    case cascade
    case deny
    case noAction
}

/// A Core Data relationship.
public struct Relationship: Hashable, Sendable {
    /// The largest `minCount` or `maxCount` a model may declare (`UInt32.max`).
    public static let largestCount = Int(UInt32.max)

    public var name: String
    public var destinationName: String
    public var isToMany: Bool
    public var isOrdered: Bool
    /// The name of the inverse relationship on the destination entity.
    public var inverseName: String?
    /// Declared on purpose without an inverse. Core Data warns about such relationships.
    public var isOneWay: Bool
    public var deleteRule: RelationshipDeleteRule
    /// At most ``largestCount``: version hashes record both counts in 32 bits.
    public var minCount: Int?
    public var maxCount: Int?
    public var isOptional: Bool
    public var isTransient: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]
    public var documentation: String?
    public var location: SourceLocation?

    public init(
        name: String, destinationName: String, isToMany: Bool = false, isOrdered: Bool = false,
        inverseName: String? = nil, isOneWay: Bool = false, deleteRule: RelationshipDeleteRule = .nullify,
        minCount: Int? = nil, maxCount: Int? = nil, isOptional: Bool = true, isTransient: Bool = false,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        documentation: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.destinationName = destinationName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverseName = inverseName
        self.isOneWay = isOneWay
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.documentation = documentation
        self.location = location
    }
}

/// A reusable composite attribute type (iOS 17 / macOS 14 composite attributes).
public struct CompositeType: Hashable, Sendable {
    public var name: String
    /// The fields; a field of type ``AttributeType/composite(_:)`` nests another composite.
    public var attributes: [Attribute]
    public var documentation: String?
    public var location: SourceLocation?

    public init(name: String, attributes: [Attribute], documentation: String? = nil, location: SourceLocation? = nil) {
        self.name = name
        self.attributes = attributes
        self.documentation = documentation
        self.location = location
    }
}

/// A named set of cases stored in a String or Integer attribute by raw value.
public struct EnumType: Hashable, Sendable {
    public struct Case: Hashable, Sendable {
        public var name: String
        public var rawValue: AttributeValue
        public var location: SourceLocation?

        public init(name: String, rawValue: AttributeValue, location: SourceLocation? = nil) {
            self.name = name
            self.rawValue = rawValue
            self.location = location
        }
    }

    public var name: String
    /// `.string` or one of the integer types.
    public var rawType: AttributeType
    public var cases: [Case]
    public var documentation: String?
    public var location: SourceLocation?

    public init(name: String, rawType: AttributeType, cases: [Case], documentation: String? = nil, location: SourceLocation? = nil) {
        self.name = name
        self.rawType = rawType
        self.cases = cases
        self.documentation = documentation
        self.location = location
    }
}
