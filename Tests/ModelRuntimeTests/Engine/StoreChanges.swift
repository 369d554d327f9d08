#if !canImport(CoreData)
import ModelRuntime

/// Changes of every kind a save writes, made to any model's store through Core Data's API: per
/// concrete entity one inserted object with every attribute set and every relationship pointing
/// at an existing object, one existing object updated (an attribute, an ordered to-many
/// reversed, a to-many losing a member), and one existing object deleted.
enum StoreChanges {
    /// Applies the changes; returns the existing objects it updated that are still there.
    static func apply(to context: NSManagedObjectContext, model: NSManagedObjectModel) throws -> [NSManagedObject] {
        var existing: [String: [NSManagedObject]] = [:]
        for entity in model.entities {
            let name = entity.name ?? ""
            let request = NSFetchRequest<NSManagedObject>(entityName: name)
            request.includesSubentities = false
            existing[name] = try context.fetch(request).sorted { key(of: $0) < key(of: $1) }
        }
        func anyObject(of entity: NSEntityDescription) -> NSManagedObject? {
            if let object = existing[entity.name ?? ""]?.first { return object }
            return entity.subentities.lazy.compactMap(anyObject).first
        }
        var updated: [NSManagedObject] = []
        for (offset, entity) in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }).enumerated() where !entity.isAbstract {
            let name = entity.name ?? ""
            let inserted = NSEntityDescription.insertNewObject(forEntityName: name, into: context)
            for (key, attribute) in entity.attributesByName where !attribute.isTransient {
                if let value = sample(attribute.attributeType, offset) { inserted.setValue(value, forKey: key) }
            }
            for (key, relationship) in entity.relationshipsByName where !relationship.isTransient {
                guard let destination = relationship.destinationEntity, var target = anyObject(of: destination) else { continue }
                // One-to-one: a target not linked yet, so no other object loses a required link.
                if !relationship.isToMany, let inverse = relationship.inverseRelationship, !inverse.isToMany {
                    if let free = existing[destination.name ?? ""]?.first(where: { $0.value(forKey: inverse.name) == nil }) {
                        target = free
                    } else if !relationship.isOptional, !destination.isAbstract {
                        // A required one-to-one gets a new destination of its own.
                        target = NSEntityDescription.insertNewObject(forEntityName: destination.name ?? "", into: context)
                        for (key, attribute) in destination.attributesByName where !attribute.isTransient {
                            if let value = sample(attribute.attributeType, offset + 500) { target.setValue(value, forKey: key) }
                        }
                    } else {
                        continue
                    }
                }
                if relationship.isOrdered {
                    inserted.mutableOrderedSetValue(forKey: key).add(target)
                } else if relationship.isToMany {
                    inserted.mutableSetValue(forKey: key).add(target)
                } else {
                    inserted.setValue(target, forKey: key)
                }
            }
            guard let objects = existing[name], let first = objects.first else { continue }
            let attributes = entity.attributesByName.values.filter { !$0.isTransient }.sorted { $0.name < $1.name }
            let changeable =
                attributes.first { $0.attributeType == .stringAttributeType }
                ?? attributes.first {
                    sample($0.attributeType, 0) is Int64 || sample($0.attributeType, 0) is Int32 || sample($0.attributeType, 0) is Int16
                }
            if let changeable {
                first.setValue(sample(changeable.attributeType, offset + 1000), forKey: changeable.name)
                updated.append(first)
            }
            for (key, relationship) in entity.relationshipsByName.sorted(by: { $0.key < $1.key }) where relationship.isToMany {
                if relationship.isOrdered {
                    let members = (first.value(forKey: key) as? NSOrderedSet)?.array ?? []
                    if members.count >= 2 { first.setValue(NSOrderedSet(array: members.reversed()), forKey: key) }
                } else {
                    let members = first.mutableSetValue(forKey: key)
                    if let member = members.anyObject() { members.remove(member) }
                }
            }
            // Not an object another one requires (nullifying a required to-one fails validation).
            let required = entity.relationshipsByName.values.contains { $0.inverseRelationship?.isOptional == false }
            if objects.count >= 3, !required, let last = objects.last { context.delete(last) }
        }
        return updated.filter { !$0.isDeleted }
    }

    static func key(of object: NSManagedObject) -> Int64 {
        Int64(object.objectID.uriRepresentation().lastPathComponent.dropFirst()) ?? 0
    }

    /// A value of the attribute type, different for each `seed`.
    static func sample(_ type: NSAttributeType, _ seed: Int) -> Any? {
        switch type {
        case .integer16AttributeType: Int16(seed % 30_000 + 3)
        case .integer32AttributeType: Int32(seed + 3)
        case .integer64AttributeType: Int64(seed + 3)
        case .booleanAttributeType: seed % 2 == 0
        case .doubleAttributeType: Double(seed) + 0.5
        case .floatAttributeType: Float(seed) + 0.25
        case .decimalAttributeType: Decimal(seed) + Decimal(string: "0.5")!
        case .stringAttributeType: "changed-\(seed)-\(UUID().uuidString)"
        case .dateAttributeType: Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(seed))
        case .UUIDAttributeType: UUID()
        case .URIAttributeType: URL(string: "https://example.com/\(seed)")!
        case .binaryDataAttributeType: Data([1, 2, UInt8(seed % 256)])
        default: nil
        }
    }
}
#endif
