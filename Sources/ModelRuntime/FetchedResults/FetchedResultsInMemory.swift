#if !canImport(CoreData)
import ModelQuery

/// How a controller applies a small change set to its sorted results without fetching: removes
/// the changed objects, then puts back each one that still belongs (same entity, in the
/// context, not deleted, predicate true) at the place a binary search over the sort descriptors
/// finds. Only for requests whose predicate, sort keys and section key path read the entity's
/// own stored attributes (so a change to another object cannot move one of the results), of
/// managed objects, with pending changes included, no limit, offset or store restriction.
/// `apply` gives up (nil: fetch instead) on an invalidated object, on a change set larger than
/// half the results, and on an object that sorts equal to a neighbour, where only the store
/// knows the order.
struct FetchedResultsInMemory {
    let entity: EngineEntity
    let includesSubentities: Bool
    let predicate: NSPredicate?
    let sortDescriptors: [NSSortDescriptor]
    unowned let context: NSManagedObjectContext

    init?<T>(request: NSFetchRequest<T>, context: NSManagedObjectContext, sectionNameKeyPath: String?) {
        guard request.resultType == .managedObjectResultType, request.fetchLimit == 0, request.fetchOffset == 0,
            request.includesPendingChanges, request.affectedStores == nil, let descriptors = request.sortDescriptors,
            let entity = try? context.engineEntity(of: request)
        else { return nil }
        guard descriptors.allSatisfy({ $0.block == nil && Self.isStoredAttribute($0.components, of: entity) }),
            sectionNameKeyPath.map({ Self.isStoredAttribute(KeyPathReader.components($0), of: entity) }) ?? true,
            request.predicate.map({ Self.readsStoredAttributesOnly($0, of: entity) }) ?? true
        else { return nil }
        self.entity = entity
        includesSubentities = request.includesSubentities
        predicate = request.predicate
        sortDescriptors = descriptors
        self.context = context
    }

    /// The results after the changes `info` reports, or nil when only a fetch can tell.
    func apply(_ info: [AnyHashable: Any], to results: [AnyObject]) -> [AnyObject]? {
        if info[NSInvalidatedObjectsKey] != nil { return nil }
        var changed: [NSManagedObject] = []
        var seen: Set<ObjectIdentifier> = []
        for key in [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSRefreshedObjectsKey, NSDeletedObjectsKey] {
            for object in info[key] as? Set<NSManagedObject> ?? [] where seen.insert(ObjectIdentifier(object)).inserted {
                changed.append(object)
            }
        }
        guard changed.count * 2 <= max(results.count, 8) else { return nil }
        var objects = results.filter { !seen.contains(ObjectIdentifier($0)) }
        for object in changed where belongs(object) {
            var low = 0
            var high = objects.count
            while low < high {
                let middle = (low + high) / 2
                if compare(objects[middle], object) == .orderedAscending { low = middle + 1 } else { high = middle }
            }
            if low < objects.count, compare(objects[low], object) == .orderedSame { return nil }
            if low > 0, compare(objects[low - 1], object) == .orderedSame { return nil }
            objects.insert(object, at: low)
        }
        return objects
    }

    private func belongs(_ object: NSManagedObject) -> Bool {
        guard object.managedObjectContext === context, !object.isDeleted else { return false }
        let number = object.engine.number
        guard includesSubentities ? entity.entityNumbers.contains(number) : number == entity.number else { return false }
        return predicate?.evaluate(with: object) ?? true
    }

    private func compare(_ lhs: AnyObject, _ rhs: AnyObject) -> ComparisonResult {
        NSSortDescriptor.compare(lhs, rhs, by: sortDescriptors)
    }

    private static func isStoredAttribute(_ components: [String], of entity: EngineEntity) -> Bool {
        guard components.count == 1, let slot = entity.slotsByName[components[0]], case .attribute(_, _?) = entity.slotKinds[slot]
        else { return false }
        return true
    }

    private static func readsStoredAttributesOnly(_ predicate: NSPredicate, of entity: EngineEntity) -> Bool {
        switch predicate {
        case let comparison as NSComparisonPredicate:
            return comparison.customSelector == nil && readsStoredAttributesOnly(comparison.leftExpression, of: entity)
                && readsStoredAttributesOnly(comparison.rightExpression, of: entity)
        case let compound as NSCompoundPredicate:
            return compound.predicates.allSatisfy { readsStoredAttributesOnly($0, of: entity) }
        default:
            return predicate.fixedValue != nil
        }
    }

    private static func readsStoredAttributesOnly(_ expression: NSExpression, of entity: EngineEntity) -> Bool {
        switch expression.kind {
        case .constant: return true
        case .keyPath(_, let components, nil): return isStoredAttribute(components, of: entity)
        case .aggregate(let elements): return elements.allSatisfy { readsStoredAttributesOnly($0, of: entity) }
        default: return false
        }
    }
}
#endif
