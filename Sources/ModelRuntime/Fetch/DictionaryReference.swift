#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A to-one relationship selected in a dictionary fetch: its value in a row is the
/// `NSManagedObjectID` of the related object, as Core Data gives it, of the sub-entity the row's
/// destination-entity column names when the destination has sub-entities.
struct DictionaryReference {
    let destination: EngineEntity
    /// The result column holding the destination's `Z_ENT`, when there is one.
    let entityColumn: Int32?
    let model: EngineModel?

    /// The reference a to-one key column of a fetch holds; nil for other columns.
    init?(column: FetchSQL.ResultColumn, among columns: [FetchSQL.ResultColumn], in model: EngineModel?) {
        guard case .property(let keyPath, let described) = column, case .foreignKey(let entityName, let property) = described.role,
            let owner = model?.entity(named: entityName), let slot = owner.slotsByName[property],
            let destination = owner.destinations[slot]
        else { return nil }
        self.destination = destination
        self.model = model
        entityColumn = columns.firstIndex {
            guard case .property(keyPath, let other) = $0, case .foreignEntity(entityName, property) = other.role else { return false }
            return true
        }.map { Int32($0) }
    }

    /// The ID of the object the row's key at `column` refers to, in `store`.
    func objectID(_ statement: Statement, _ column: Int32, store: NSPersistentStore) -> NSManagedObjectID {
        var entity = destination
        if let entityColumn, !statement.isNull(at: entityColumn),
            let named = model?.entity(number: Int(statement.int64(at: entityColumn))),
            destination.entityNumbers.contains(named.number)
        {
            entity = named
        }
        return NSManagedObjectID(
            entity: entity.description, rootEntityNumber: entity.rootNumber, key: .permanent(statement.int64(at: column)), store: store)
    }
}
#endif
