#if !canImport(CoreData)
import ModelQuery

/// Per-entity facts the engine needs for every object and row, computed once per entity when
/// the model is in use (and afresh on each request while it can still change): every property
/// gets a slot number, inherited properties first in their declaration order, so object storage
/// can be a flat array and rows can be read by column index without looking names up.
package final class EntityLayout {
    /// The properties in slot order.
    package let properties: [NSPropertyDescription]
    /// Property name → slot.
    package let slotsByName: [String: Int]
    /// Slots of the attributes, and of the relationships, in slot order.
    package let attributeSlots: [Int]
    package let relationshipSlots: [Int]
    /// The entity's ancestors and the entity, root first.
    package let lineage: [NSEntityDescription]
    /// The entity and all its sub-entities at any depth, depth first.
    package let family: [NSEntityDescription]

    init(_ entity: NSEntityDescription) {
        // Fetched properties hold no stored value: they have no slot.
        let properties = entity.properties.filter { !($0 is NSFetchedPropertyDescription) }
        self.properties = properties
        slotsByName = Dictionary(properties.enumerated().map { ($1.name, $0) }) { _, last in last }
        attributeSlots = properties.indices.filter { properties[$0] is NSAttributeDescription }
        relationshipSlots = properties.indices.filter { properties[$0] is NSRelationshipDescription }
        var ancestors: [NSEntityDescription] = []
        var current: NSEntityDescription? = entity
        while let candidate = current, !ancestors.contains(where: { $0 === candidate }) {
            ancestors.append(candidate)
            current = candidate.superentity
        }
        lineage = ancestors.reversed()
        var family: [NSEntityDescription] = []
        var seen: Set<ObjectIdentifier> = []
        var pending = [entity]
        while let next = pending.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            family.append(next)
            pending += next.subentities.reversed()
        }
        self.family = family
    }
}

/// Values the engine derives from an entity (its table layout, prepared statement shapes),
/// one per type, kept with the entity once the model is in use.
final class EngineCaches: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [ObjectIdentifier: AnyObject] = [:]

    func value<T: AnyObject>(frozen: Bool, _ make: () -> T) -> T {
        guard frozen else { return make() }
        lock.lock()
        defer { lock.unlock() }
        if let known = values[ObjectIdentifier(T.self)] as? T { return known }
        let made = make()
        values[ObjectIdentifier(T.self)] = made
        return made
    }
}

extension NSEntityDescription {
    /// The entity's slot layout, computed once when the model is in use.
    package var layout: EntityLayout {
        layoutCache.value(frozen: managedObjectModelReference?.isInUse ?? false) { EntityLayout(self) }
    }

    /// The engine's own data of type `T` for this entity, made once by `make` when the model is
    /// in use (and on every call before, so it never describes an outdated model).
    package func engineData<T: AnyObject>(_ type: T.Type = T.self, make: (NSEntityDescription) -> T) -> T {
        engineCaches.value(frozen: managedObjectModelReference?.isInUse ?? false) { make(self) }
    }
}
#endif
