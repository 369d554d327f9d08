#if !canImport(CoreData)
import ModelQuery

/// A property whose value is the result of a fetch request (`NSFetchedPropertyDescription`).
///
/// The request's predicate may use two variables: `$FETCH_SOURCE`, the object whose property is
/// read, and `$FETCHED_PROPERTY`, this description (so `$FETCHED_PROPERTY.userInfo.limit` reads
/// its user info). Reading the property runs the request in the object's context, once: the
/// result is kept with the object until the object is refreshed or turned into a fault
/// (`refresh(_:mergeChanges:)`), as in Core Data, and is not updated when the fetched objects
/// change. Fetched properties are not stored, not saved, and not part of any version hash.
open class NSFetchedPropertyDescription: NSPropertyDescription {
    private var storedFetchRequest: NSFetchRequest<NSFetchRequestResult>?
    /// The destination entity's name, for a request whose entity is found in the model when it
    /// is read (a loaded or copied description), as Core Data's descriptions keep it.
    private var lazyEntityName: String?

    public required init() {
        super.init()
    }

    /// The request whose results are the property's value. A request without an entity is
    /// given the one its destination names in the property's model.
    ///
    /// Setting a request whose entity belongs to another model than the property's entity stops
    /// the program, as Core Data raises ("entity model mismatch").
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        get {
            guard let request = storedFetchRequest, request.entity == nil, let lazyEntityName else { return storedFetchRequest }
            let resolved = request.copy(resultType: NSFetchRequestResult.self)
            resolved.entity = model?.entitiesByName[lazyEntityName]
            return resolved
        }
        set {
            requireEditable(model, "fetched property '\(name)'")
            if let newValue, let entity = newValue.entity {
                precondition(
                    entity.managedObjectModelReference === model,
                    "Can't use fetch request with fetched property description (entity model mismatch).")
            }
            if let newValue, newValue.entity == nil, let lazyEntityName {
                newValue.entity = model?.entitiesByName[lazyEntityName]
            }
            storedFetchRequest = newValue
            lazyEntityName = nil
        }
    }

    /// A fetched property is never stored: always transient, as in Core Data.
    open override var isTransient: Bool {
        get { true }
        set {}
    }

    /// Gives the description a request whose entity is found by name when it is read.
    func setFetchRequest(_ request: NSFetchRequest<NSFetchRequestResult>, destinationName: String) {
        request.entity = nil
        storedFetchRequest = request
        lazyEntityName = destinationName
    }

    /// The destination entity's name: the request's entity or the name kept for it.
    var destinationEntityName: String? { storedFetchRequest?.entity?.name ?? lazyEntityName ?? storedFetchRequest?.entityName }

    /// Copies keep a copy of the request without its entity, and its name, so a copy in another
    /// model fetches that model's entity.
    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        guard let other = other as? NSFetchedPropertyDescription, let request = other.storedFetchRequest else { return }
        let name = other.destinationEntityName
        let copied = request.copy(resultType: NSFetchRequestResult.self)
        copied.entity = nil
        storedFetchRequest = copied
        lazyEntityName = name
    }

    override var kindName: String { "NSFetchedPropertyDescription" }

    open override var description: String {
        super.description + ", fetchRequest \(fetchRequest.map { String(describing: $0) } ?? "(null)")"
    }
}
#endif
