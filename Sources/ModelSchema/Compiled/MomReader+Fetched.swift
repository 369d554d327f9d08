/// Fetched properties read back from `NSFetchedPropertyDescription` objects: the entity their
/// fetch request fetches (its `NSEntity`, an entity of the model or the name of one, else
/// `_NSFetchRequestEntityName`) and its predicate, printed in the canonical `NSPredicate` format.
extension MomReader {
    func fetchedProperty(_ fields: Fields, name: String, entityName: String) throws(Failure) -> FetchedProperty {
        let what = "fetched property '\(entityName).\(name)'"
        let flags = try propertyFlags(fields, name: name, what: what)
        var destination: String?
        var predicate: ModelPredicate?
        if let requestUID = try archive.reference(fields[field: "NSFetchRequest"]) {
            let request = try archive.object(requestUID, of: ["NSFetchRequest"], what: "the fetch request of \(what)")
            destination = try requestEntityName(request[field: "NSEntity"], what: "the entity of the fetch request of \(what)")
            predicate = try MappingArchiveReader(archive: archive).predicate(
                request[field: "NSPredicate"], what: "the predicate of \(what)")
        }
        if destination == nil {
            destination = try archive.string(fields[field: "_NSFetchRequestEntityName"], what: "the entity name of \(what)")
        }
        guard let destination else { throw Failure(message: "\(what) names no entity to fetch") }
        return FetchedProperty(
            name: name, entityName: destination, predicate: predicate?.description, isOptional: flags.isOptional,
            userInfo: flags.userInfo)
    }

    /// An entity of the model, or an entity's name (a request whose entity is resolved later).
    func requestEntityName(_ value: PropertyList?, what: String) throws(Failure) -> String? {
        guard let uid = try archive.reference(value) else { return nil }
        if let name = entityNames[uid] { return name }
        if case .string(let text) = archive.entry(uid) { return text }
        let className = try archive.object(uid).className
        guard className == "NSString" || className == "NSMutableString" else {
            throw Failure(message: "\(what) is an \(className) that is not an entity of the model")
        }
        return try archive.string(value, what: what)
    }
}
