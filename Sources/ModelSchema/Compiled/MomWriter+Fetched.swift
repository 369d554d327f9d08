/// Fetched properties in a `.mom`, as Core Data's `-[NSFetchedPropertyDescription encodeWithCoder:]`
/// writes them (public decompilations show the coder): the property keys, `NSFetchRequest`
/// (an archived `NSFetchRequest`) and `_NSFetchRequestEntityName`.
extension MomWriter {
    /// The flags of a fetch request with `NSFetchRequest`'s defaults: includes subentities (2),
    /// property values (4), pending changes (0x10), returns objects as faults (8); not distinct
    /// (1), does not refresh refetched objects (0x20). Core Data's encoder passes them through
    /// `-_encodedFetchRequestFlagsForFlags:`, which the decompiled builds show returning its
    /// argument.
    static let defaultFetchRequestFlags: Int64 = 0x1E

    func fetchedProperty(_ fetched: FetchedProperty, of entity: Entity) -> PropertyList {
        let (object, isNew) = archive.reserve(identity: "property:\(entity.name).\(fetched.name)")
        guard isNew else { return object }
        // NSFetchedPropertyDescription answers YES to -isTransient and -isReadOnly, which the
        // property coder asks for the Boolean keys and the _P bits.
        var fields = commonPropertyFields(
            name: fetched.name, entity: entity, isOptional: fetched.isOptional, isReadOnly: true, isTransient: true,
            renamingIdentifier: nil, versionHashModifier: nil, userInfo: fetched.userInfo)
        fields.append(("NSFetchRequest", fetchRequest(entityName: fetched.entityName, predicate: fetched.predicate)))
        fields.append(("_NSFetchRequestEntityName", archive.string(fetched.entityName)))
        archive.fill(object, classChain: ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"], fields: fields)
        return object
    }

    /// An `NSFetchRequest` of `entityName`'s objects matching `predicate`, with every other
    /// setting at its default, keys in the order its encoder writes them. `NSEntity` refers to the
    /// entity object (the coder encodes it conditionally, and the entity is in the model); a name
    /// no entity has is written as the name, the form of a request whose entity is resolved
    /// later. A predicate that does not parse (a version the compiler's checks refuse) is
    /// archived as `FALSEPREDICATE`, so it fetches nothing rather than everything.
    func fetchRequest(entityName: String, predicate text: String?) -> PropertyList {
        let (request, _) = archive.reserve()
        let entityObject = lookup.entity(named: entityName).map { entity($0) } ?? archive.string(entityName)
        let predicate = text.map { text in (try? ModelPredicate(format: text)) ?? .falsePredicate }
        let predicateObject = predicate.map { archive.predicate($0) } ?? Self.null
        archive.fill(
            request, classChain: ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"],
            fields: [
                ("NSValuesToGroupBy", Self.null), ("NSHavingPredicate", Self.null), ("NSFetchOffset", .integer(0)),
                ("NSValuesToFetch", Self.null), ("NSEntity", entityObject), ("NSPredicate", predicateObject),
                ("NSSortDescriptors", Self.null), ("NSFetchLimit", .integer(0)), ("NSBatchSize", .integer(0)),
                ("NSRelationshipKeyPathsForPrefetching", Self.null), ("NSResultType", .integer(0)), ("NSAllocationType", .integer(0)),
                ("NSHasFetchRequestFlags", .boolean(true)), ("NSFetchRequestFlags", .integer(Self.defaultFetchRequestFlags)),
            ])
        return request
    }
}

extension FetchedProperty {
    /// The predicate as a `.mom` gives it back: parsed and printed in its canonical form
    /// (`FALSEPREDICATE` for text that does not parse, as it is archived); nil for none.
    public var canonicalPredicate: String? {
        predicate.map { text in ((try? ModelPredicate(format: text)) ?? .falsePredicate).description }
    }
}
