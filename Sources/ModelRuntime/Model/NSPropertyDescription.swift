#if !canImport(CoreData)
import ModelQuery

/// What attributes and relationships share (`NSPropertyDescription`).
open class NSPropertyDescription: NSObject, NSCopying {
    /// The entity that declares the property; set when the property is added to an entity's
    /// `properties`.
    weak var entityReference: NSEntityDescription?
    /// The composite attribute the property is an element of, if any.
    weak var compositeReference: NSCompositeAttributeDescription?

    open var name: String = "" {
        willSet { requireEditable(model, "the name of property '\(name)'") }
    }
    open var isOptional: Bool = true {
        willSet { requireEditable(model, "property '\(name)'") }
    }
    open var isTransient: Bool = false {
        willSet { requireEditable(model, "property '\(name)'") }
    }
    open var userInfo: [AnyHashable: Any]? {
        willSet { requireEditable(model, "property '\(name)'") }
    }
    open var versionHashModifier: String? {
        willSet { requireEditable(model, "property '\(name)'") }
    }
    open var renamingIdentifier: String? {
        willSet { requireEditable(model, "property '\(name)'") }
    }
    @available(*, deprecated, message: "Use NSEntityDescription.indexes instead")
    open var isIndexed: Bool {
        get { storedIsIndexed }
        set {
            requireEditable(model, "property '\(name)'")
            storedIsIndexed = newValue
        }
    }
    open var isIndexedBySpotlight: Bool = false {
        willSet { requireEditable(model, "property '\(name)'") }
    }
    var storedIsIndexed = false
    private var storedValidationPredicates: [NSPredicate] = []
    private var storedValidationWarnings: [Any] = []

    /// The predicates a value must satisfy; not part of any hash.
    open var validationPredicates: [NSPredicate] { storedValidationPredicates }
    /// One warning (an error message or code) per validation predicate.
    open var validationWarnings: [Any] { storedValidationWarnings }

    /// Sets the validation predicates and their warnings, which must be as many (Core Data
    /// raises otherwise).
    open func setValidationPredicates(_ validationPredicates: [NSPredicate]?, withValidationWarnings validationWarnings: [String]?) {
        requireEditable(model, "property '\(name)'")
        let predicates = validationPredicates ?? []
        let warnings = validationWarnings ?? []
        precondition(predicates.count == warnings.count, "Mismatch between length of validation predicates and warnings")
        storedValidationPredicates = predicates
        storedValidationWarnings = warnings
    }

    /// Validation loaded from a model: the warnings are the error codes (`NSNumber`s), as in
    /// models Xcode compiles.
    func setValidation(_ predicates: [NSPredicate], warnings: [NSNumber]) {
        requireEditable(model, "property '\(name)'")
        storedValidationPredicates = predicates
        storedValidationWarnings = warnings
    }

    public required override init() {
        super.init()
    }

    /// The entity of the property. Core Data declares it `unowned(unsafe)`; here it is nil until
    /// the property belongs to an entity.
    open var entity: NSEntityDescription! { entityReference }

    var model: NSManagedObjectModel? { entityReference?.managedObjectModelReference ?? compositeReference?.model }

    /// The property's version hash: what Core Data hashes for it when it computes its entity's
    /// version hash (`docs/VersionHashes.md`).
    open var versionHash: Data {
        if let entity = entityReference, let hash = entity.propertyVersionHashes()[name] { return hash }
        return Data(ModelSchemaBridge.standaloneHash(of: self))
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self.makeCopy(of: self)
        copy.copyFields(from: self)
        return copy
    }

    /// A new instance of the receiver's class. Subclasses are created with their designated
    /// `init()`, as `NSCopying` does in Objective-C.
    static func makeCopy(of property: NSPropertyDescription) -> NSPropertyDescription {
        let type = Swift.type(of: property)
        return type.init()
    }

    func copyFields(from other: NSPropertyDescription) {
        name = other.name
        isOptional = other.isOptional
        isTransient = other.isTransient
        userInfo = other.userInfo
        versionHashModifier = other.versionHashModifier
        renamingIdentifier = other.renamingIdentifier
        storedIsIndexed = other.storedIsIndexed
        storedValidationPredicates = other.storedValidationPredicates
        storedValidationWarnings = other.storedValidationWarnings
        isIndexedBySpotlight = other.isIndexedBySpotlight
    }

    var kindName: String { "NSPropertyDescription" }

    var descriptionFields: [(String, String)] {
        [
            ("name", name), ("isOptional", isOptional ? "1" : "0"), ("isTransient", isTransient ? "1" : "0"),
            ("entity", entityReference?.name ?? "(null)"), ("renamingIdentifier", renamingIdentifier ?? name),
            ("versionHashModifier", versionHashModifier ?? "(null)"), ("userInfo", describe(userInfo)),
        ]
    }

    open override var description: String {
        "(<\(kindName): \(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))>), "
            + descriptionFields.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }
}

func describe(_ userInfo: [AnyHashable: Any]?) -> String {
    guard let userInfo, !userInfo.isEmpty else { return "{}" }
    return "{" + userInfo.map { "\($0.key) = \($0.value)" }.sorted().joined(separator: "; ") + "}"
}
#endif
