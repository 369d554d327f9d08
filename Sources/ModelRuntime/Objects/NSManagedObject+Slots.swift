#if !canImport(CoreData)
import ModelQuery
import Synchronization

/// A loaded to-many relationship: its objects in order, and their identities for membership.
struct ToMany {
    var objects: [NSManagedObject]
    var members: Set<ObjectIdentifier>

    init(_ objects: [NSManagedObject] = []) {
        var unique: [NSManagedObject] = []
        var members: Set<ObjectIdentifier> = []
        unique.reserveCapacity(objects.count)
        for object in objects where members.insert(ObjectIdentifier(object)).inserted { unique.append(object) }
        self.objects = unique
        self.members = members
    }

    func contains(_ object: NSManagedObject) -> Bool { members.contains(ObjectIdentifier(object)) }

    mutating func insert(_ object: NSManagedObject) {
        if members.insert(ObjectIdentifier(object)).inserted { objects.append(object) }
    }

    mutating func remove(_ object: NSManagedObject) {
        if members.remove(ObjectIdentifier(object)) != nil { objects.removeAll { $0 === object } }
    }
}

/// The value of a to-many slot not yet read from the store.
final class ToManyUnloaded: @unchecked Sendable {
    static let marker = ToManyUnloaded()
}

/// Equality and descriptions of slot values.
enum SlotValues {
    static func equal(_ a: Any?, _ b: Any?) -> Bool {
        if let a, let b, let same = sameScalar(a, b) { return same }
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let a as NSManagedObject, let b as NSManagedObject): return a === b
        case (let a as ToMany, let b as ToMany): return a.members == b.members
        case (is ToManyUnloaded, is ToManyUnloaded): return true
        case (is ToManyUnloaded, _), (_, is ToManyUnloaded): return false
        case (let a?, let b?): return QueryValues.equal(a, b)
        }
    }

    /// Equality of two values of the same common attribute type, without bridging; nil for others.
    private static func sameScalar(_ a: Any, _ b: Any) -> Bool? {
        let type = Swift.type(of: a)
        guard type == Swift.type(of: b) else { return nil }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): return load(a, b, as: String.self)
        case ObjectIdentifier(Int64.self): return load(a, b, as: Int64.self)
        case ObjectIdentifier(Double.self): return load(a, b, as: Double.self)
        case ObjectIdentifier(Bool.self): return load(a, b, as: Bool.self)
        case ObjectIdentifier(Date.self): return load(a, b, as: Date.self)
        case ObjectIdentifier(Int32.self): return load(a, b, as: Int32.self)
        case ObjectIdentifier(Int16.self): return load(a, b, as: Int16.self)
        default: return nil
        }
    }

    /// Equality of two values both of dynamic type `T` (see ``StoredValueCast/load(_:as:)``).
    @inline(__always)
    private static func load<T: Equatable>(_ a: Any, _ b: Any, as type: T.Type) -> Bool {
        StoredValueCast.load(a, as: type) == StoredValueCast.load(b, as: type)
    }

    static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let object as NSManagedObject: return object.objectID.description
        case let toMany as ToMany: return "(" + toMany.objects.map(\.objectID.description).joined(separator: ", ") + ")"
        case is ToManyUnloaded: return "<relationship fault>"
        case let value?: return "\(value)"
        }
    }
}

// MARK: - Slot access

extension NSManagedObject {
    /// The slot of the property named `key` in objects of the entity the receiver stands for in
    /// the models in use. A slot belongs to one entity of one model: objects of a sub-entity or of
    /// another model version may keep the property elsewhere, so generated classes resolve their
    /// slots per entity through a ``SlotTable`` instead.
    public class func slot(forKey key: String) -> Int {
        guard let slot = EngineModel.of(entity().managedObjectModel).entity(for: entity())?.slotsByName[key] else {
            preconditionFailure("\(String(describing: self)) has no property \(key)")
        }
        return slot
    }

    /// The value at `slot`, firing the fault first: an attribute's value, a to-one's object, or a
    /// to-many's objects as an `NSSet` (`NSOrderedSet` when ordered), as `value(forKey:)` gives.
    public final func value(atSlot slot: Int) -> Any? {
        if faultState != .materialized { fireFault() }
        return publicValue(atSlot: slot)
    }

    /// The attribute or to-one value at `slot` as `T` (nil when unset or of another type). A
    /// value stored in exactly `T` (the common attribute types) is read without a dynamic cast.
    @inlinable
    public final func value<T>(atSlot slot: Int, as type: T.Type) -> T? {
        guard StoredValueCast.isInlineScalar(T.self) else { return value(atSlot: slot) as? T }
        // The value is copied out of its slot in place: no `Any` is copied, cast or destroyed.
        return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer -> T? in
            let destination = buffer.baseAddress!
            let copy = copyStoredScalar(
                atSlot: slot, type: ObjectIdentifier(T.self), size: MemoryLayout<T>.size, into: UnsafeMutableRawPointer(destination))
            switch copy {
            case .copied: return destination.move()
            case .absent: return nil
            case .other: return StoredValueCast.cast(value(atSlot: slot), to: T.self)
            }
        }
    }

    /// Copies the value at `slot` into `destination` when its dynamic type is exactly `type`, one
    /// of ``StoredValueCast/isInlineScalar(_:)``'s types, firing the fault first.
    @usableFromInline
    final func copyStoredScalar(atSlot slot: Int, type: ObjectIdentifier, size: Int, into destination: UnsafeMutableRawPointer)
        -> StoredValueCast.Copy
    {
        if faultState != .materialized { fireFault() }
        if engine.toManySlots[slot] { return .other }
        guard let cells = cellsIfAny() else { return .absent }
        return cells.copy(at: slot, type: type, size: size, into: destination)
    }

    /// Sets the value at `slot` as `setValue(_:forKey:)` does: the change is recorded and, for a
    /// relationship, the inverse is updated. A to-many takes a collection of objects. The value
    /// is taken over (`consuming`), so one already of its attribute's stored type is stored
    /// without a copy.
    public final func setValue(_ value: consuming Any?, atSlot slot: Int) {
        if faultState != .materialized { fireFault() }
        // A value already of its attribute's stored type (the common case) is stored as it is,
        // told by its type metadata alone (see ``StoredValueCast/metadata(of:)``).
        if let stored = engine.writeChecks.storedTypes[slot], StoredValueCast.metadata(of: value) == stored {
            storeChange(value, atSlot: slot)
        } else if case .attribute(let type, _) = engine.slotKinds[slot] {
            // Another attribute value is told by its slot kind, without a cast of its property.
            storeChange(StoreValueCodec.normalized(value, as: type), atSlot: slot)
        } else if engine.properties[slot] is NSRelationshipDescription {
            if engine.isRelationshipToMany(slot) {
                setToMany(ToMany(Self.objects(in: value)), atSlot: slot)
            } else {
                setToOne(value as? NSManagedObject, atSlot: slot)
            }
        } else {
            storeChange(normalizedAttribute(value, slot: slot), atSlot: slot)
        }
    }

    /// The objects of the to-many relationship at `slot`, loading them when needed.
    public final func objects(atSlot slot: Int) -> [NSManagedObject] {
        if faultState != .materialized { fireFault() }
        return loadedToMany(slot).objects
    }

    /// The stored value at `slot` without firing the fault (`primitiveValue(forKey:)`).
    public final func primitiveValue(atSlot slot: Int) -> Any? {
        if faultState == .hollow { fireFault() }
        return publicValue(atSlot: slot)
    }

    /// Stores `value` at `slot` without inverse maintenance (`setPrimitiveValue(_:forKey:)`).
    public final func setPrimitiveValue(_ value: Any?, atSlot slot: Int) {
        if faultState == .hollow { fireFault() }
        if engine.isRelationshipToMany(slot) {
            storeChange(ToMany(Self.objects(in: value)), atSlot: slot)
        } else if engine.properties[slot] is NSRelationshipDescription {
            storeChange(value as? NSManagedObject, atSlot: slot)
        } else {
            storeChange(normalizedAttribute(value, slot: slot), atSlot: slot)
        }
    }

    func normalizedAttribute(_ value: Any?, slot: Int) -> Any? {
        WriteChecks.normalized(value, kind: engine.slotKinds[slot])
    }

    static func objects(in value: Any?) -> [NSManagedObject] {
        guard let value = KeyPathReader.unwrapped(value) else { return [] }
        if let objects = value as? [NSManagedObject] { return objects }
        if let set = value as? Set<NSManagedObject> { return Array(set) }
        if let set = QueryValues.object(value, as: NSOrderedSet.self) { return set.array.compactMap { $0 as? NSManagedObject } }
        if let elements = QueryValues.collectionElements(value) { return elements.compactMap { $0 as? NSManagedObject } }
        return []
    }

    func publicValue(atSlot slot: Int, loading: Bool = true) -> Any? {
        // Only to-many slots hold a value of the engine's own types; every other slot's value is
        // returned as stored, without a dynamic cast (casting a bridged value such as a `String`
        // to a class type goes through Foundation's bridging).
        guard engine.toManySlots[slot] else { return storedValue(at: slot) }
        let value = values[slot]
        if value is ToManyUnloaded {
            guard loading else { return nil }
            return collection(of: loadedToMany(slot), slot: slot)
        }
        if let toMany = value as? ToMany { return collection(of: toMany, slot: slot) }
        return value
    }

    private func collection(of toMany: ToMany, slot: Int) -> Any {
        if (engine.properties[slot] as? NSRelationshipDescription)?.isOrdered == true { return NSOrderedSet(array: toMany.objects) }
        return NSSet(array: toMany.objects)
    }

    /// The to-many at `slot`, read from the store first when it is still unloaded.
    func loadedToMany(_ slot: Int) -> ToMany {
        if let toMany = values[slot] as? ToMany { return toMany }
        let loaded = ToMany(context?.loadToMany(of: self, slot: slot) ?? [])
        setLoadedValue(loaded, at: slot, onlyOverUnloaded: true)
        return loaded
    }

    func fireFault() {
        let wasHollow = faultState == .hollow
        faultState = .materialized
        if wasHollow { context?.fulfillFault(self) }
        // An inserted object turned into a fault by a refresh was never fetched.
        if !insertedFlag { awakeFromFetch() }
    }

    /// Records a change of `slot`: the object becomes updated in its context.
    func storeChange(_ value: consuming Any?, atSlot slot: Int) {
        let cells = valueCells()
        cells.willWrite()
        cells.assign(value, at: slot)
        cells.fields.pointee.writtenSlots.insert(slot)
        if !changedFlag {
            changedFlag = true
            // The context tracks inserted objects as inserted; they join its changed objects
            // once saved (or adopted as a stored row).
            if !insertedFlag { context?.graph.noteChanged(self) }
        }
    }

    // MARK: Relationship maintenance

    // The inverse's slot is looked up per object at the other end (``EngineEntity/inverseSlot(_:on:)``):
    // an object of a sub-entity of the destination keeps the inverse in a slot of its own.

    func setToOne(_ destination: NSManagedObject?, atSlot slot: Int) {
        let old = values[slot] as? NSManagedObject
        if old === destination { return }
        storeChange(destination, atSlot: slot)
        if let old, let inverse = engine.inverseSlot(slot, on: old.engine) { old.removeInverse(self, atSlot: inverse) }
        if let destination, let inverse = engine.inverseSlot(slot, on: destination.engine) {
            destination.addInverse(self, atSlot: inverse)
        }
    }

    func setToMany(_ new: ToMany, atSlot slot: Int) {
        let old = loadedToMany(slot)
        storeChange(new, atSlot: slot)
        guard engine.inverseSlots[slot] != nil else { return }
        for object in old.objects where !new.contains(object) {
            if let inverse = engine.inverseSlot(slot, on: object.engine) { object.removeInverse(self, atSlot: inverse) }
        }
        for object in new.objects where !old.contains(object) {
            if let inverse = engine.inverseSlot(slot, on: object.engine) { object.addInverse(self, atSlot: inverse) }
        }
    }

    func addToMany(_ object: NSManagedObject, atSlot slot: Int) {
        var current = loadedToMany(slot)
        guard !current.contains(object) else { return }
        current.insert(object)
        storeChange(current, atSlot: slot)
        if let inverse = engine.inverseSlot(slot, on: object.engine) { object.addInverse(self, atSlot: inverse) }
    }

    func removeFromToMany(_ object: NSManagedObject, atSlot slot: Int) {
        var current = loadedToMany(slot)
        guard current.contains(object) else { return }
        current.remove(object)
        storeChange(current, atSlot: slot)
        if let inverse = engine.inverseSlot(slot, on: object.engine) { object.removeInverse(self, atSlot: inverse) }
    }

    /// The inverse side: `source` no longer relates to the receiver.
    func removeInverse(_ source: NSManagedObject, atSlot slot: Int) {
        if faultState != .materialized { fireFault() }
        if engine.isRelationshipToMany(slot) {
            var current = loadedToMany(slot)
            guard current.contains(source) else { return }
            current.remove(source)
            storeChange(current, atSlot: slot)
        } else if values[slot] as? NSManagedObject === source {
            storeChange(nil, atSlot: slot)
        }
    }

    /// The inverse side: `source` now relates to the receiver. A to-one inverse that pointed
    /// elsewhere is taken from its previous object (which loses the receiver from its side of
    /// the relationship, in its own slot).
    func addInverse(_ source: NSManagedObject, atSlot slot: Int) {
        if faultState != .materialized { fireFault() }
        if engine.isRelationshipToMany(slot) {
            var current = loadedToMany(slot)
            guard !current.contains(source) else { return }
            current.insert(source)
            storeChange(current, atSlot: slot)
        } else {
            let previous = values[slot] as? NSManagedObject
            if previous === source { return }
            storeChange(source, atSlot: slot)
            if let previous, let previousSlot = engine.inverseSlot(slot, on: previous.engine) {
                // The previous object may be a fault (a batch released, a destination not read
                // yet): its values are loaded before it changes, or the change would be lost.
                if previous.faultState != .materialized { previous.fireFault() }
                if previous.engine.isRelationshipToMany(previousSlot) {
                    var current = previous.loadedToMany(previousSlot)
                    current.remove(self)
                    previous.storeChange(current, atSlot: previousSlot)
                } else if previous.values[previousSlot] as? NSManagedObject === self {
                    previous.storeChange(nil, atSlot: previousSlot)
                }
            }
        }
    }
}

/// Which class makes the objects of an entity, and which entity a class stands for.
enum ClassRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var classesByEntity: [ObjectIdentifier: KnownClass] = [:]
    nonisolated(unsafe) private static var models: [WeakModel] = []

    struct WeakModel {
        weak var model: NSManagedObjectModel?
    }

    /// A class known for an entity; the weak reference tells a live entity from one whose
    /// address was reused.
    struct KnownClass {
        weak var entity: NSEntityDescription?
        let type: NSManagedObject.Type
        /// For `NSManagedObject` (no class found): ``classesSeen`` when it was looked up.
        var classesSeen = 0
    }
    /// How many times a user class was recorded by ``note(_:for:)``.
    nonisolated(unsafe) private static var classesSeen = 0
    /// Raised after each class ``note(_:for:)`` records, so a cached answer of
    /// ``objectClass(for:)`` is known to still hold while it is unchanged.
    static let generation = Atomic<Int>(0)

    static func unqualified(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// Records that objects of `entity` are of `type` (a subclass, made by user code).
    static func note(_ type: NSManagedObject.Type, for entity: NSEntityDescription) {
        guard type != NSManagedObject.self else { return }
        lock.lock()
        defer { lock.unlock() }
        if let known = classesByEntity[ObjectIdentifier(entity)], known.entity === entity, known.type == type { return }
        classesByEntity = classesByEntity.filter { $0.value.entity != nil }
        classesByEntity[ObjectIdentifier(entity)] = KnownClass(entity: entity, type: type)
        classesSeen += 1
        generation.add(1, ordering: .releasing)
    }

    static func noteInUse(_ model: NSManagedObjectModel) {
        lock.lock()
        defer { lock.unlock() }
        models.removeAll { $0.model == nil || $0.model === model }
        models.append(WeakModel(model: model))
    }

    /// The class of `entity`'s objects: one seen making its objects, else the class named by
    /// `managedObjectClassName` when the Swift runtime knows it — as written, or, for a name
    /// without a module (generated classes are named so), in the module of a class already
    /// seen — else `NSManagedObject`. A class not found is looked up again once another class
    /// has been seen, since it may live in that class's module.
    static func objectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        lock.lock()
        let known = classesByEntity[ObjectIdentifier(entity)]
        let seen = classesSeen
        lock.unlock()
        if let known, known.entity === entity, known.type != NSManagedObject.self || known.classesSeen == seen { return known.type }
        var found: NSManagedObject.Type = NSManagedObject.self
        if let name = entity.managedObjectClassName, name != "NSManagedObject" {
            if let type = _typeByName(name) as? NSManagedObject.Type {
                found = type
            } else if !name.contains(".") {
                lock.lock()
                let modules = Set(classesByEntity.values.compactMap { module(of: $0.type) }).sorted()
                lock.unlock()
                found = modules.lazy.compactMap { _typeByName("\($0).\(name)") as? NSManagedObject.Type }.first ?? found
            }
        }
        lock.lock()
        classesByEntity[ObjectIdentifier(entity)] = KnownClass(entity: entity, type: found, classesSeen: seen)
        lock.unlock()
        return found
    }

    /// The module a class is declared in (the first part of its qualified name).
    private static func module(of type: NSManagedObject.Type) -> String? {
        guard type != NSManagedObject.self else { return nil }
        return String(reflecting: type).split(separator: ".").first.map(String.init)
    }

    /// The entity whose class name names `type`, in `model` or in the models in use.
    static func entity(for type: AnyClass, in model: NSManagedObjectModel?) -> NSEntityDescription? {
        let name = String(describing: type)
        let qualified = String(reflecting: type)
        lock.lock()
        let candidates = model.map { [$0] } ?? models.compactMap(\.model)
        lock.unlock()
        // A class name names the entity before an entity name does, in every model in use: a
        // model with an entity merely called like the class must not take another model's class.
        let entities = candidates.flatMap(\.entities)
        guard
            let match = entities.first(where: { $0.managedObjectClassName == qualified })
                ?? entities.first(where: { unqualified($0.managedObjectClassName ?? "") == name })
                ?? entities.first(where: { $0.name == name })
        else { return nil }
        if let objectType = type as? NSManagedObject.Type { note(objectType, for: match) }
        return match
    }
}
#endif
