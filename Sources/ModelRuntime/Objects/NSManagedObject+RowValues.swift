#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A stored row read into an object's storage: the read side of the store's row layout, as
/// `RowWriter` is the write side.
extension NSManagedObject {
    /// Reads the current row of `statement` (columns as `shape` places them) into the object's
    /// values, in place, and makes them its committed values at the row's `Z_OPT`. A to-one's
    /// destination is the graph's object of that row of `store`: the registered one, or a new
    /// hollow one `maker` makes. (No closure: one capturing the graph and the store would retain
    /// and release both for every row.)
    func readRow(
        _ statement: Statement, shape: RowShape, store: NSPersistentStore, maker: inout ObjectGraph.HollowObjectMaker
    ) {
        let entity = engine
        let map = shape.columns
        let count = entity.slotCount
        // Each slot is written once, in place, straight from its column; the values become the
        // committed ones (a write of them all: the generation advances).
        let cells = valueCells()
        let fields = cells.fields
        fields.pointee.committed = .values
        fields.pointee.generation &+= 1
        do {
            for slot in 0..<count {
                if case .attribute(let type, let column?) = entity.slotKinds[slot] {
                    // The common case, read in place.
                    let index = map[Int(column)]
                    if index >= 0 {
                        cells.read(statement, index, as: type, into: slot)
                    } else {
                        cells.assign(nil, at: slot)
                    }
                    continue
                }
                let value: Any?
                switch entity.slotKinds[slot] {
                case .attribute(let type, let column?):
                    let index = map[Int(column)]
                    value = index >= 0 ? StoreValueCodec.read(statement, index, as: type) : nil
                case .attribute(_, nil), .transientRelationship, .toOne(nil, _):
                    value = nil
                case .composite(let leaves, let columns):
                    var dictionary: [String: Any] = [:]
                    for (leaf, column) in zip(leaves, columns) where map[Int(column)] >= 0 {
                        if let value = StoreValueCodec.read(statement, map[Int(column)], as: leaf.type) {
                            RowSnapshot.set(value, at: leaf.path[...], in: &dictionary)
                        }
                    }
                    value = dictionary.isEmpty ? nil : dictionary
                case .toOne(let keyColumn?, let entityColumn):
                    let key = map[Int(keyColumn)]
                    if key >= 0, !statement.isNull(at: key), let destination = entity.destinations[slot] {
                        let destinationEntity =
                            entityColumn.flatMap { column in
                                map[Int(column)] >= 0 ? entity.model?.entity(number: Int(statement.int64(at: map[Int(column)]))) : nil
                            } ?? destination
                        value = maker.graph.object(
                            entity: destinationEntity, primaryKey: statement.int64(at: key), store: store, maker: &maker)
                    } else {
                        value = nil
                    }
                case .toManyByInverseKey, .toManyByJoinTable:
                    value = ToManyUnloaded.marker
                }
                cells.assign(value, at: slot)
            }
        }
        // Transformable attributes with a registered transformer hold its objects, not `Data`.
        for (slot, name) in entity.writeChecks.transformedSlots {
            if let data = cells.value(at: slot) as? Data, let transformer = ValueTransformer.registered(name) {
                cells.assign(transformer.reverseTransformedValue(data), at: slot)
            }
        }
        fields.pointee.version = shape.optimisticLock >= 0 ? statement.int64(at: shape.optimisticLock) : 0
    }

    /// Makes a fault whose row is gone an inaccessible object (`shouldDeleteInaccessibleFaults`):
    /// its values stay nil and its to-many relationships empty, and it reads as deleted.
    func becomeInaccessible() {
        for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) { values[slot] = ToMany() }
        faultState = .materialized
        inaccessibleFlag = true
    }
}
#endif
