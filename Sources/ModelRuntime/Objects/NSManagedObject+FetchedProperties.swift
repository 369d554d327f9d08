#if !canImport(CoreData)
import ModelQuery

extension NSManagedObject {
    /// The value of the fetched property named `key` (nil when the entity has none, or the object
    /// no context): the results of its request in the object's context, with `$FETCH_SOURCE`
    /// bound to the object and `$FETCHED_PROPERTY` to the description. The first read runs the
    /// request; later reads return the same results until the object is refreshed or turned into
    /// a fault, as in Core Data. A request that fails stops the program with Core Data's reason
    /// ("CoreData could not fulfill a fetched property because …"), as Core Data raises.
    func fetchedPropertyValue(forKey key: String) -> Any? {
        guard let property = entity.propertiesByName[key] as? NSFetchedPropertyDescription else { return nil }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        if let known = state.fields.pointee.fetchedValues?[key] { return known }
        guard let context = managedObjectContext, let template = property.fetchRequest else { return nil }
        let request = template.copy(resultType: NSFetchRequestResult.self)
        request.predicate = template.predicate?.withSubstitutionVariables(["FETCH_SOURCE": self, "FETCHED_PROPERTY": property])
        let results: [NSFetchRequestResult]
        do {
            results = try context.fetch(request)
        } catch {
            preconditionFailure("CoreData could not fulfill a fetched property because '\(error.localizedDescription)'")
        }
        var known = state.fields.pointee.fetchedValues ?? [:]
        known[key] = results
        state.fields.pointee.fetchedValues = known
        return results
    }

    /// Forgets the fetched properties' results, so the next read runs their requests again.
    func forgetFetchedPropertyValues() {
        guard hasState else { return }
        state.fields.pointee.fetchedValues = nil
    }
}
#endif
