#if !canImport(CoreData)
import Foundation

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
///
/// The expression is kept as its `predicateFormat` text (`count:(stops)`, `now()`); the
/// `derivationExpression: NSExpression?` property arrives with the runtime's `NSExpression`.
open class NSDerivedAttributeDescription: NSAttributeDescription {
    /// The derivation's expression in Core Data's `predicateFormat` rendering.
    package var derivationFormat: String? {
        willSet { requireEditable(model, "attribute '\(name)'") }
    }

    public required init() {
        super.init()
    }

    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        derivationFormat = (other as? NSDerivedAttributeDescription)?.derivationFormat
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
