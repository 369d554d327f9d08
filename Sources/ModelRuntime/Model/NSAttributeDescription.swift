#if !canImport(CoreData)
import ModelQuery
import ModelSchema

/// An attribute of an entity (`NSAttributeDescription`).
open class NSAttributeDescription: NSPropertyDescription {
    /// Setting the type also sets `attributeValueClassName` to the type's class, as Core Data does.
    open var attributeType: NSAttributeType = .undefinedAttributeType {
        willSet { requireEditable(model, "attribute '\(name)'") }
        didSet { attributeValueClassName = attributeType.defaultValueClassName }
    }
    open var attributeValueClassName: String? {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }
    open var defaultValue: Any? {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }
    open var valueTransformerName: String? {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }
    open var allowsExternalBinaryDataStorage: Bool = false {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }
    open var preservesValueInHistoryOnDeletion: Bool = false {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }
    open var allowsCloudEncryption: Bool = false {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }

    public required init() {
        super.init()
    }

    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        guard let other = other as? NSAttributeDescription else { return }
        attributeType = other.attributeType
        attributeValueClassName = other.attributeValueClassName
        defaultValue = other.defaultValue
        valueTransformerName = other.valueTransformerName
        allowsExternalBinaryDataStorage = other.allowsExternalBinaryDataStorage
        preservesValueInHistoryOnDeletion = other.preservesValueInHistoryOnDeletion
        allowsCloudEncryption = other.allowsCloudEncryption
    }

    override var kindName: String { "NSAttributeDescription" }

    override var descriptionFields: [(String, String)] {
        super.descriptionFields + [
            ("attributeType", String(attributeType.rawValue)), ("attributeValueClassName", attributeValueClassName ?? "(null)"),
            ("defaultValue", defaultValue.map { "\($0)" } ?? "(null)"),
        ]
    }
}

/// An attribute whose value is computed by the store from an expression (`NSDerivedAttributeDescription`).
open class NSDerivedAttributeDescription: NSAttributeDescription {
    /// The derivation's expression in Core Data's `predicateFormat` rendering (`count:(stops)`),
    /// which is what the version hash covers.
    package var derivationFormat: String? {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }

    private var storedExpression: NSExpression?

    /// The expression the store computes the value with (`NSExpression(format: "stops.@count")`).
    /// A loaded model gives back the expression its `.mom` names (`count:(stops)` as a `count:`
    /// function of the key path).
    open var derivationExpression: NSExpression? {
        get { storedExpression ?? derivationFormat.flatMap(Self.expression(fromFormat:)) }
        set {
            derivationFormat = newValue.map { DerivationExpression.predicateFormat(of: $0.description) }
            storedExpression = newValue
        }
    }

    /// Builds the expression of a derivation's `predicateFormat`: a key path, `name:(key.path)`
    /// or `now()`, else whatever the format parser makes of it.
    static func expression(fromFormat format: String) -> NSExpression? {
        if format == "now()" { return NSExpression(forFunction: "now", arguments: []) }
        if let open = format.range(of: ":("), format.hasSuffix(")") {
            let function = String(format[..<open.lowerBound]) + ":"
            let argument = String(format[open.upperBound..<format.index(before: format.endIndex)])
            if DerivationExpression.isKeyPathText(argument) {
                return NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: argument)])
            }
        }
        return try? NSExpression(parsing: format)
    }

    public required init() {
        super.init()
    }

    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        derivationFormat = (other as? NSDerivedAttributeDescription)?.derivationFormat
        storedExpression = (other as? NSDerivedAttributeDescription)?.storedExpression
    }

    override var kindName: String { "NSDerivedAttributeDescription" }
}

/// An attribute made of named elements, stored as a dictionary (`NSCompositeAttributeDescription`,
/// iOS 17 / macOS 14).
open class NSCompositeAttributeDescription: NSAttributeDescription {
    /// The elements: attributes, or composites nesting further.
    open var elements: [NSAttributeDescription] = [] {
        willSet { requireEditable(model, "composite attribute '\(name)'") }
        didSet { for element in elements { element.compositeReference = self } }
    }

    public required init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        elements = ((other as? NSCompositeAttributeDescription)?.elements ?? []).map { $0.copy(with: nil) as! NSAttributeDescription }
    }

    override var kindName: String { "NSCompositeAttributeDescription" }
}
#endif

#if !canImport(CoreData)
extension NSAttributeDescription {
    /// The iOS 15 / macOS 12 spelling of the attribute type (`attribute.type = .string`).
    /// Not `Sendable`, as in Core Data's overlay.
    public struct AttributeType: Hashable, Equatable, RawRepresentable {
        public var rawValue: NSAttributeType
        var attributeType: NSAttributeType { rawValue }

        public init(rawValue: NSAttributeType) {
            self.rawValue = rawValue
        }

        public typealias RawValue = NSAttributeType

        init(_ attributeType: NSAttributeType) {
            rawValue = attributeType
        }

        public static var undefined: AttributeType { AttributeType(.undefinedAttributeType) }
        public static var integer16: AttributeType { AttributeType(.integer16AttributeType) }
        public static var integer32: AttributeType { AttributeType(.integer32AttributeType) }
        public static var integer64: AttributeType { AttributeType(.integer64AttributeType) }
        public static var decimal: AttributeType { AttributeType(.decimalAttributeType) }
        public static var double: AttributeType { AttributeType(.doubleAttributeType) }
        public static var float: AttributeType { AttributeType(.floatAttributeType) }
        public static var string: AttributeType { AttributeType(.stringAttributeType) }
        public static var boolean: AttributeType { AttributeType(.booleanAttributeType) }
        public static var date: AttributeType { AttributeType(.dateAttributeType) }
        public static var binaryData: AttributeType { AttributeType(.binaryDataAttributeType) }
        public static var uuid: AttributeType { AttributeType(.UUIDAttributeType) }
        public static var uri: AttributeType { AttributeType(.URIAttributeType) }
        public static var transformable: AttributeType { AttributeType(.transformableAttributeType) }
        public static var objectID: AttributeType { AttributeType(.objectIDAttributeType) }
        public static var composite: AttributeType { AttributeType(.compositeAttributeType) }
    }

    /// The attribute type in its iOS 15 spelling; the same value as `attributeType`.
    public var type: AttributeType {
        get { AttributeType(attributeType) }
        set { attributeType = newValue.attributeType }
    }
}
#endif
