#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// The values the store's derived-attribute triggers computed while a save wrote its rows, read
/// from the store's connection.
extension RowWriter {
    /// Clears what derived-attribute triggers reported before a save writes to the store.
    func discardDerivedValueChanges() {
        _ = connection.takeDerivedValueChanges()
    }

    /// The values the store's derived-attribute triggers computed during a save, by object.
    func takeDerivedValueChanges() -> [(key: ObjectKey, property: String, value: SQLiteValue)] {
        connection.takeDerivedValueChanges().compactMap { change in
            guard let entity = store.engine.model.entity(number: Int(change.entityNumber)) else { return nil }
            return (ObjectKey(store: store, root: entity.rootNumber, primaryKey: change.primaryKey), change.propertyName, change.value)
        }
    }
}
#endif
