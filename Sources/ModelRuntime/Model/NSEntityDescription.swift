#if !canImport(CoreData)
import ModelQuery

/// An entity of a managed object model (`NSEntityDescription`).
open class NSEntityDescription: NSObject, NSCopying {
    weak var managedObjectModelReference: NSManagedObjectModel?
    weak var superentityReference: NSEntityDescription?
    private var ownProperties: [NSPropertyDescription] = []
    private var ownSubentities: [NSEntityDescription] = []
    private var storedIndexes: [NSFetchIndexDescription] = []
    let layoutCache = ModelCache<EntityLayout>()
    private let lookupCache = ModelCache<EntityLookups>()
    let engineCaches = EngineCaches()

    open var name: String? {
        willSet { requireEditable(managedObjectModelReference, "the name of entity '\(name ?? "")'") }
    }
    /// The class of the entity's objects; `NSManagedObject` until set.
    open var managedObjectClassName: String! = "NSManagedObject" {
        willSet { requireEditable(managedObjectModelReference, "entity '\(name ?? "")'") }
    }
    open var isAbstract: Bool = false {
        willSet { requireEditable(managedObjectModelReference, "entity '\(name ?? "")'") }
    }
    open var userInfo: [AnyHashable: Any]? {
        willSet { requireEditable(managedObjectModelReference, "entity '\(name ?? "")'") }
    }
    open var versionHashModifier: String? {
        willSet { requireEditable(managedObjectModelReference, "entity '\(name ?? "")'") }
    }
    open var renamingIdentifier: String? {
        willSet { requireEditable(managedObjectModelReference, "entity '\(name ?? "")'") }
    }
    /// Each constraint lists property names (or property descriptions) unique together.
    open var uniquenessConstraints: [[Any]] = [] {
        willSet { requireEditable(managedObjectModelReference, "entity '\(name ?? "")'") }
    }

    public override init() {
        super.init()
    }

    /// Core Data declares it `unowned(unsafe)`; nil until the entity belongs to a model.
    open var managedObjectModel: NSManagedObjectModel! { managedObjectModelReference }

    open var superentity: NSEntityDescription? { superentityReference }

    /// Setting the sub-entities makes the receiver their superentity.
    open var subentities: [NSEntityDescription] {
        get { ownSubentities }
        set {
            requireEditable(managedObjectModelReference, "the sub-entities of entity '\(name ?? "")'")
            for entity in ownSubentities where entity.superentityReference === self { entity.superentityReference = nil }
            ownSubentities = newValue
            for entity in newValue { entity.superentityReference = self }
        }
    }

    open var subentitiesByName: [String: NSEntityDescription] {
        Dictionary(ownSubentities.compactMap { entity in entity.name.map { ($0, entity) } }) { first, _ in first }
    }

    /// The properties, inherited ones first. Setting them replaces the properties the receiver
    /// declares (inherited ones stay with the superentity).
    open var properties: [NSPropertyDescription] {
        get { lineage.reversed().flatMap(\.ownProperties) }
        set {
            requireEditable(managedObjectModelReference, "the properties of entity '\(name ?? "")'")
            for property in ownProperties where property.entityReference === self { property.entityReference = nil }
            let inherited = Set((superentityReference?.properties ?? []).map(ObjectIdentifier.init))
            ownProperties = newValue.filter { !inherited.contains(ObjectIdentifier($0)) }
            for property in ownProperties { property.entityReference = self }
        }
    }

    /// The receiver and its ancestors, nearest first; stops at a cycle of `subentities` a
    /// program may have built.
    var lineage: [NSEntityDescription] {
        var result: [NSEntityDescription] = [self]
        var current = superentityReference
        while let next = current, !result.contains(where: { $0 === next }) {
            result.append(next)
            current = next.superentityReference
        }
        return result
    }

    /// The properties the receiver declares itself.
    var declaredProperties: [NSPropertyDescription] { ownProperties }

    /// Once the model is in use, the name lookups are built once and shared.
    private var lookups: EntityLookups {
        lookupCache.value(frozen: managedObjectModelReference?.isInUse ?? false) { EntityLookups(properties) }
    }

    open var propertiesByName: [String: NSPropertyDescription] { lookups.properties }

    open var attributesByName: [String: NSAttributeDescription] { lookups.attributes }

    open var relationshipsByName: [String: NSRelationshipDescription] { lookups.relationships }

    open var indexes: [NSFetchIndexDescription] {
        get { storedIndexes }
        set {
            requireEditable(managedObjectModelReference, "the indexes of entity '\(name ?? "")'")
            storedIndexes = newValue
            for index in newValue { index.entityReference = self }
        }
    }

    /// The relationships whose destination is `entity`.
    open func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        properties.compactMap { $0 as? NSRelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Whether the receiver is `entity` or one of its sub-entities, at any depth.
    open func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        var steps = 0
        while let candidate = current, steps < 10_000 {
            if candidate === entity { return true }
            current = candidate.superentityReference
            steps += 1
        }
        return false
    }

    /// The entity's version hash, computed as Core Data computes it (`docs/VersionHashes.md`).
    open var versionHash: Data {
        if let model = managedObjectModelReference, let name, let hash = model.entityVersionHashesByName[name] { return hash }
        return ModelSchemaBridge.standaloneHash(of: self)
    }

    /// Version hashes of the properties the entity declares, by name.
    func propertyVersionHashes() -> [String: Data] {
        if let model = managedObjectModelReference, let name { return model.propertyVersionHashes[name] ?? [:] }
        return ModelSchemaBridge.standalonePropertyHashes(of: self)
    }

    /// A copy with copies of the declared properties and indexes; no model, superentity or
    /// sub-entities (a model copy links them again).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSEntityDescription()
        copy.name = name
        copy.managedObjectClassName = managedObjectClassName
        copy.isAbstract = isAbstract
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.uniquenessConstraints = uniquenessConstraints.map { $0.map { ($0 as? NSPropertyDescription)?.name ?? $0 } }
        copy.properties = ownProperties.map { $0.copy(with: zone) as! NSPropertyDescription }
        let copiedByName = copy.propertiesByName
        copy.indexes = storedIndexes.map { index in
            let indexCopy = index.copy(with: zone) as! NSFetchIndexDescription
            for element in indexCopy.elements { element.property = element.propertyName.flatMap { copiedByName[$0] } }
            return indexCopy
        }
        return copy
    }

    open override var description: String {
        "(<NSEntityDescription>) name \(name ?? "(null)"), managedObjectClassName \(managedObjectClassName ?? "(null)"), "
            + "renamingIdentifier \(renamingIdentifier ?? name ?? "(null)"), isAbstract \(isAbstract ? 1 : 0), "
            + "superentity name \(superentity?.name ?? "(null)"), properties {\(properties.map(\.name).joined(separator: ", "))}, "
            + "subentities {\(subentities.compactMap(\.name).joined(separator: ", "))}, userInfo \(describe(userInfo)), "
            + "versionHashModifier \(versionHashModifier ?? "(null)"), uniquenessConstraints \(uniquenessConstraints)"
    }
}
/// An entity's properties by name, inherited ones included (a redeclared name maps to the
/// sub-entity's property).
struct EntityLookups {
    let properties: [String: NSPropertyDescription]
    let attributes: [String: NSAttributeDescription]
    let relationships: [String: NSRelationshipDescription]

    init(_ all: [NSPropertyDescription]) {
        properties = Dictionary(all.map { ($0.name, $0) }) { _, last in last }
        attributes = Dictionary(all.compactMap { property in (property as? NSAttributeDescription).map { (property.name, $0) } }) {
            _, last in last
        }
        relationships = Dictionary(all.compactMap { property in (property as? NSRelationshipDescription).map { (property.name, $0) } }) {
            _, last in last
        }
    }
}
#endif
