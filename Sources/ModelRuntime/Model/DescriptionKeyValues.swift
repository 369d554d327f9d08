#if !canImport(CoreData)
import ModelQuery

extension NSPropertyDescription: DescriptionKeyValueReading {
    package func describedValue(forKey key: String) -> Any? {
        switch key {
        case "name": name
        case "isOptional", "optional": NSNumber(value: isOptional)
        case "isTransient", "transient": NSNumber(value: isTransient)
        case "userInfo": userInfo
        case "entity": entityReference
        case "versionHashModifier": versionHashModifier
        case "renamingIdentifier": renamingIdentifier
        case "isIndexedBySpotlight", "indexedBySpotlight": NSNumber(value: isIndexedBySpotlight)
        case "validationPredicates": validationPredicates
        case "validationWarnings": validationWarnings
        case "versionHash": versionHash
        default: kindValue(forKey: key)
        }
    }

    /// The keys of the receiver's kind of property.
    func kindValue(forKey key: String) -> Any? {
        switch (self, key) {
        case (let attribute as NSAttributeDescription, "attributeType"): NSNumber(value: attribute.attributeType.rawValue)
        case (let attribute as NSAttributeDescription, "attributeValueClassName"): attribute.attributeValueClassName
        case (let attribute as NSAttributeDescription, "defaultValue"): attribute.defaultValue
        case (let attribute as NSAttributeDescription, "valueTransformerName"): attribute.valueTransformerName
        case (let relationship as NSRelationshipDescription, "destinationEntity"): relationship.destinationEntity
        case (let relationship as NSRelationshipDescription, "inverseRelationship"): relationship.inverseRelationship
        case (let relationship as NSRelationshipDescription, "minCount"): NSNumber(value: relationship.minCount)
        case (let relationship as NSRelationshipDescription, "maxCount"): NSNumber(value: relationship.maxCount)
        case (let relationship as NSRelationshipDescription, "deleteRule"): NSNumber(value: relationship.deleteRule.rawValue)
        case (let relationship as NSRelationshipDescription, "isToMany"), (let relationship as NSRelationshipDescription, "toMany"):
            NSNumber(value: relationship.isToMany)
        case (let relationship as NSRelationshipDescription, "isOrdered"), (let relationship as NSRelationshipDescription, "ordered"):
            NSNumber(value: relationship.isOrdered)
        case (let fetched as NSFetchedPropertyDescription, "fetchRequest"): fetched.fetchRequest
        default: nil
        }
    }
}

extension NSEntityDescription: DescriptionKeyValueReading {
    package func describedValue(forKey key: String) -> Any? {
        switch key {
        case "name": name
        case "managedObjectClassName": managedObjectClassName
        case "isAbstract", "abstract": NSNumber(value: isAbstract)
        case "userInfo": userInfo
        case "superentity": superentity
        case "subentities": subentities
        case "properties": properties
        case "propertiesByName": propertiesByName
        case "attributesByName": attributesByName
        case "relationshipsByName": relationshipsByName
        case "managedObjectModel": managedObjectModelReference
        case "versionHashModifier": versionHashModifier
        case "renamingIdentifier": renamingIdentifier
        case "versionHash": versionHash
        default: nil
        }
    }
}
#endif
