#if !canImport(CoreData)
import ModelQuery

/// An object's values with related objects replaced by their IDs, to move between a child
/// context's graph and its parent's: taken from an object in one graph, applied to the object
/// with the same ID in the other, whose objects the IDs then name.
struct ObjectSnapshot {
    /// One slot's value.
    enum Value {
        /// An attribute's value, as the object holds it.
        case value(Any?)
        /// A to-one relationship's destination, by ID.
        case toOne(NSManagedObjectID?)
        /// A to-many relationship's destinations, by ID, in the relationship's order.
        case toMany([NSManagedObjectID])
        /// A to-many relationship not loaded yet.
        case unloaded
    }

    /// The values taken, by slot, in the order taken.
    let values: [(slot: Int, value: Value)]

    /// The slots the snapshot holds values of.
    var slots: [Int] { values.map(\.slot) }

    /// The values of `object` in `slots`, or in every slot of its entity when `slots` is nil.
    init(of object: NSManagedObject, slots: [Int]?) {
        values = (slots ?? Array(0..<object.engine.slotCount)).map { slot in
            let value = object.values[slot]
            if value is ToManyUnloaded { return (slot, .unloaded) }
            if let toMany = value as? ToMany { return (slot, .toMany(toMany.objects.map(\.id))) }
            if object.engine.properties[slot] is NSRelationshipDescription {
                return (slot, .toOne((value as? NSManagedObject)?.id))
            }
            return (slot, .value(value))
        }
    }

    /// Writes the values into `object`, an object of `graph`, which gives the objects the IDs name
    /// (registered ones, else new hollow ones). An unloaded to-many leaves a loaded one as it is.
    func apply(to object: NSManagedObject, in graph: ObjectGraph) {
        for (slot, value) in values {
            switch value {
            case .value(let value): object.values[slot] = value
            case .toOne(let id): object.values[slot] = id.map { graph.object(with: $0) }
            case .toMany(let ids): object.values[slot] = ToMany(ids.map { graph.object(with: $0) })
            case .unloaded: if object.values[slot] == nil { object.values[slot] = ToManyUnloaded.marker }
            }
        }
    }
}
#endif
