/// The storage types of Core Data attributes (`NSAttributeDescription.AttributeType`).
public enum AttributeType: Hashable, Sendable {
    case integer16
    case integer32
    case integer64
    case decimal
    case double
    case float
    case string
    case boolean
    case date
    case binaryData
    case uuid
    case uri
    case transformable
    case objectID
    /// Core Data's "Undefined" type (`NSUndefinedAttributeType`, code 0): a transient value of
    /// any class, managed by the app. Core Data allows it only on transient attributes.
    case undefined
    /// A composite attribute whose fields are described by the named ``CompositeType``.
    case composite(String)

    /// The scalar types in the spelling Xcode's model editor and `.xcdatamodel` files use.
    public static let scalarTypes: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binaryData,
        .uuid, .uri, .transformable, .objectID, .undefined,
    ]

    /// The canonical name, as written in model files (`Integer 16`, `Binary`, …).
    public var name: String {
        switch self {
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binaryData: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .undefined: "Undefined"
        case .composite(let name): name
        }
    }

    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The inclusive range an integer type can store.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}

/// A literal value of an attribute: a default value or a validation bound.
public enum AttributeValue: Hashable, Sendable {
    case integer(Int64)
    /// Decimal, Double and Float values keep their written text so no precision is lost.
    case number(String)
    case string(String)
    case boolean(Bool)
    /// An ISO 8601 date-time as written; validated by the compiler.
    case date(String)
    case uuid(String)
    case uri(String)
}

/// A Core Data attribute.
public struct Attribute: Hashable, Sendable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    public var defaultValue: AttributeValue?
    public var validation: AttributeValidation
    public var isIndexed: Bool
    public var allowsExternalBinaryDataStorage: Bool
    public var preservesValueInHistoryOnDeletion: Bool
    public var allowsCloudEncryption: Bool
    /// The derivation expression of a derived attribute (`tags.@count`, `now()`), if any.
    public var derivationExpression: String?
    /// For Transformable attributes: the value transformer's registered name.
    public var valueTransformerName: String?
    /// For Transformable attributes: the Swift type of the value (Xcode's "Custom Class").
    public var customClassName: String?
    /// The name of the ``EnumType`` whose raw values this attribute stores.
    public var enumName: String?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]
    public var documentation: String?
    public var location: SourceLocation?

    public init(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        defaultValue: AttributeValue? = nil, validation: AttributeValidation = AttributeValidation(), isIndexed: Bool = false,
        allowsExternalBinaryDataStorage: Bool = false, preservesValueInHistoryOnDeletion: Bool = false,
        allowsCloudEncryption: Bool = false, derivationExpression: String? = nil, valueTransformerName: String? = nil,
        customClassName: String? = nil, enumName: String? = nil, renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:], documentation: String? = nil,
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.validation = validation
        self.isIndexed = isIndexed
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.allowsCloudEncryption = allowsCloudEncryption
        self.derivationExpression = derivationExpression
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.enumName = enumName
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.documentation = documentation
        self.location = location
    }

    public var isDerived: Bool { derivationExpression != nil }
}

/// Validation rules of an attribute (Core Data's validation predicates).
public struct AttributeValidation: Hashable, Sendable {
    /// Lower bound of a numeric or date value.
    public var minimum: AttributeValue?
    /// Upper bound of a numeric or date value.
    public var maximum: AttributeValue?
    public var minimumLength: Int?
    public var maximumLength: Int?
    /// A regular expression the whole string must match.
    public var regularExpression: String?

    public init(
        minimum: AttributeValue? = nil, maximum: AttributeValue? = nil, minimumLength: Int? = nil,
        maximumLength: Int? = nil, regularExpression: String? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.regularExpression = regularExpression
    }

    public var isEmpty: Bool { self == AttributeValidation() }
}
