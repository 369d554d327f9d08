#if !canImport(CoreData)
import ModelQuery

/// The entities of persistent history's records (`Transaction`, `Change`) that
/// `entityDescription(with:)` returns: descriptions of no model, for fetch requests over history
/// (which read the records, never a table of the store).
enum HistoryEntity {
    static func make(name: String, attributes: [(String, NSAttributeType)]) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName =
            name == NSPersistentHistoryTransaction.entityName
            ? "NSPersistentHistoryTransaction" : "NSPersistentHistoryChange"
        entity.properties = attributes.map { attributeName, type in
            let attribute = NSAttributeDescription()
            attribute.name = attributeName
            attribute.attributeType = type
            return attribute
        }
        return entity
    }
}
#endif
