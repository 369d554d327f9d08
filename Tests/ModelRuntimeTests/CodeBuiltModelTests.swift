#if !canImport(CoreData)
import ModelCompiler
import ModelRuntime
import ModelSchema
import Testing

/// Models built in code, the way Core Data tests build them, link their objects as Core Data
/// does and hash exactly like the same model compiled by momc or by modelgen.
struct CodeBuiltModelTests {
    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = false) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    static func relationship(_ name: String, to destination: NSEntityDescription, maxCount: Int, optional: Bool = true)
        -> NSRelationshipDescription
    {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = maxCount
        relationship.isOptional = optional
        return relationship
    }

    static func entity(_ name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName = name
        return entity
    }

    /// SampleModel3_v2 of the CoreDataPlus fixture, rebuilt in code.
    @Test func aModelBuiltInCodeHashesLikeMomcCompiledIt() throws {
        let pet = Self.entity("Pet")
        let user = Self.entity("User")
        let owner = Self.relationship("owner", to: user, maxCount: 1)
        let petOfUser = Self.relationship("pet", to: pet, maxCount: 1)
        owner.inverseRelationship = petOfUser
        petOfUser.inverseRelationship = owner
        pet.properties = [Self.attribute("name", .stringAttributeType), owner]
        user.properties = [
            Self.attribute("name", .stringAttributeType), petOfUser, Self.attribute("petName", .stringAttributeType, optional: true),
        ]
        let model = NSManagedObjectModel()
        model.entities = [pet, user]
        let bundle = try CompiledModelBundle(
            contentsOf: ModelLoadingTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd"))
        let v2 = try #require(bundle.versions.first { $0.name == "SampleModel3_v2" })
        #expect(model.entityVersionHashesByName == v2.entityHashes)
        #expect(model.versionChecksum == v2.checksum)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: ["NSStoreModelVersionHashes": v2.entityHashes]))
        var changed = v2.entityHashes
        changed["Pet"] = Data(repeating: 0, count: 32)
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: ["NSStoreModelVersionHashes": changed]))
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [:]))
        #expect(!model.isConfiguration(withName: "Unknown", compatibleWithStoreMetadata: ["NSStoreModelVersionHashes": v2.entityHashes]))
    }

    /// Trips 2 of the sample, built in code: inheritance-free but with a composite, a derived
    /// attribute, an ordered to-many, a many-to-many, constraints and an index.
    @Test func aModelBuiltInCodeHashesLikeTheSameModelCompiledFromYAML() throws {
        let compiled = try #require(Pipeline.load(Fixtures.tripsModel.path).model)
        let yamlVersion = try #require(compiled.versions.first { $0.name == "Trips 2" })

        let trip = Self.entity("Trip")
        let stop = Self.entity("Stop")
        let tag = Self.entity("Tag")
        let stops = Self.relationship("stops", to: stop, maxCount: 0)
        stops.isOrdered = true
        stops.deleteRule = .cascadeDeleteRule
        let tripOfStop = Self.relationship("trip", to: trip, maxCount: 1, optional: false)
        let tags = Self.relationship("tags", to: tag, maxCount: 0)
        let trips = Self.relationship("trips", to: trip, maxCount: 0)
        stops.inverseRelationship = tripOfStop
        tripOfStop.inverseRelationship = stops
        tags.inverseRelationship = trips
        trips.inverseRelationship = tags
        let stopCount = NSDerivedAttributeDescription()
        stopCount.name = "stopCount"
        stopCount.attributeType = .integer64AttributeType
        stopCount.isOptional = false
        stopCount.derivationExpression = NSExpression(format: "stops.@count")
        #expect(stopCount.derivationFormat == "count:(stops)")
        let status = Self.attribute("status", .stringAttributeType)
        status.defaultValue = "planned"
        trip.properties = [
            Self.attribute("id", .UUIDAttributeType), Self.attribute("name", .stringAttributeType),
            Self.attribute("startDate", .dateAttributeType),
            Self.attribute("endDate", .dateAttributeType, optional: true), Self.attribute("isFavorite", .booleanAttributeType),
            Self.attribute("rating", .integer16AttributeType), status, stopCount, stops, tags,
        ]
        trip.uniquenessConstraints = [["id"]]
        let byStartDate = NSFetchIndexElementDescription(property: trip.attributesByName["startDate"]!, collationType: .binary)
        let byName = NSFetchIndexElementDescription(property: trip.attributesByName["name"]!, collationType: .binary)
        byName.isAscending = false
        trip.indexes = [NSFetchIndexDescription(name: "byStartDate", elements: [byStartDate, byName])]
        let location = NSCompositeAttributeDescription()
        location.name = "location"
        location.isOptional = true
        location.elements = [
            Self.attribute("latitude", .doubleAttributeType), Self.attribute("longitude", .doubleAttributeType),
            Self.attribute("placeName", .stringAttributeType, optional: true),
        ]
        stop.properties = [
            Self.attribute("name", .stringAttributeType), Self.attribute("arrival", .dateAttributeType, optional: true),
            Self.attribute("notes", .stringAttributeType, optional: true), location, tripOfStop,
        ]
        tag.properties = [Self.attribute("name", .stringAttributeType), Self.attribute("color", .stringAttributeType), trips]
        tag.uniquenessConstraints = [["name"]]
        let model = NSManagedObjectModel()
        model.entities = [trip, stop, tag]

        let expected = VersionHashes(yamlVersion)
        #expect(model.entityVersionHashesByName == expected.entityHashes.mapValues { Data($0) })
        #expect(model.versionChecksum == expected.versionChecksum)
        let propertyHashes = VersionHashes.propertyHashes(yamlVersion)
        for entity in model.entities {
            for property in entity.properties {
                #expect(
                    property.versionHash == Data(propertyHashes[entity.name!]?[property.name] ?? []), "\(entity.name!).\(property.name)")
            }
        }
    }

    @Test func settingPropertiesSubentitiesAndEntitiesLinksTheBackReferences() {
        let base = Self.entity("Base")
        let derived = Self.entity("Derived")
        let title = Self.attribute("title", .stringAttributeType)
        let extra = Self.attribute("extra", .integer32AttributeType)
        base.properties = [title]
        base.subentities = [derived]
        derived.properties = [extra]
        #expect(derived.superentity === base && title.entity === base && extra.entity === derived)
        #expect(derived.properties.map(\.name) == ["title", "extra"])
        #expect(derived.attributesByName.keys.sorted() == ["extra", "title"])
        #expect(base.subentitiesByName["Derived"] === derived)
        let model = NSManagedObjectModel()
        model.entities = [base, derived]
        #expect(base.managedObjectModel === model && model.entitiesByName["Derived"] === derived)
        base.subentities = []
        #expect(derived.superentity == nil)
        model.entities = []
        #expect(base.managedObjectModel == nil)
    }

    @Test func coreDataDefaultsAndRawValues() {
        let attribute = NSAttributeDescription()
        #expect(attribute.attributeType == .undefinedAttributeType && attribute.isOptional && !attribute.isTransient)
        attribute.attributeType = .decimalAttributeType
        #expect(attribute.attributeValueClassName == "NSDecimalNumber")
        attribute.attributeType = .transformableAttributeType
        #expect(attribute.attributeValueClassName == nil)
        let relationship = NSRelationshipDescription()
        #expect(relationship.maxCount == 0 && relationship.isToMany && relationship.deleteRule == .nullifyDeleteRule)
        relationship.maxCount = 1
        #expect(!relationship.isToMany)
        #expect(NSEntityDescription().managedObjectClassName == "NSManagedObject")
        #expect(NSCompositeAttributeDescription().attributeType == .compositeAttributeType)
        let modern = NSAttributeDescription()
        modern.type = .uuid
        #expect(modern.attributeType == .UUIDAttributeType && modern.type == .uuid && modern.attributeValueClassName == "NSUUID")
        let raw: [(NSAttributeType, UInt)] = [
            (.undefinedAttributeType, 0), (.integer16AttributeType, 100), (.integer32AttributeType, 200), (.integer64AttributeType, 300),
            (.decimalAttributeType, 400), (.doubleAttributeType, 500), (.floatAttributeType, 600), (.stringAttributeType, 700),
            (.booleanAttributeType, 800), (.dateAttributeType, 900), (.binaryDataAttributeType, 1000), (.UUIDAttributeType, 1100),
            (.URIAttributeType, 1200), (.transformableAttributeType, 1800), (.objectIDAttributeType, 2000), (.compositeAttributeType, 2100),
        ]
        for (type, value) in raw { #expect(type.rawValue == value) }
        #expect(
            [NSDeleteRule.noActionDeleteRule, .nullifyDeleteRule, .cascadeDeleteRule, .denyDeleteRule].map(\.rawValue) == [0, 1, 2, 3])
    }

    @Test func descriptionsAreEqualOnlyToThemselves() {
        let first = Self.entity("Same")
        let second = Self.entity("Same")
        #expect(first != second && first == first)
        #expect(Set([first, second, first]).count == 2)
        #expect(first.description.contains("name Same"))
        #expect(Self.attribute("title", .stringAttributeType).description.contains("attributeType 700"))
    }

    @Test func validationPredicatesAndPartialIndexesAreKeptButNotHashed() throws {
        let entity = Self.entity("Item")
        let title = Self.attribute("title", .stringAttributeType)
        entity.properties = [title]
        let before = entity.versionHash
        title.setValidationPredicates([NSPredicate(format: "length >= 1")], withValidationWarnings: ["too short"])
        #expect(title.validationPredicates.map(\.predicateFormat) == ["length >= 1"])
        #expect(title.validationWarnings.compactMap { $0 as? String } == ["too short"])
        #expect(entity.versionHash == before)
        let copy = try #require(title.copy(with: nil) as? NSAttributeDescription)
        #expect(copy.validationPredicates.count == 1)
        let index = NSFetchIndexDescription(
            name: "byTitle", elements: [NSFetchIndexElementDescription(property: title, collationType: .binary)])
        index.partialIndexPredicate = NSPredicate(format: "title != nil")
        entity.indexes = [index]
        #expect(entity.indexes.first?.partialIndexPredicate?.predicateFormat == "title != nil")
        #expect(entity.versionHash == before)
    }

    @Test func versionHashModifiersChangeTheHashes() {
        let entity = Self.entity("Item")
        let title = Self.attribute("title", .stringAttributeType)
        entity.properties = [title]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let before = entity.versionHash
        let titleBefore = title.versionHash
        title.versionHashModifier = "2"
        #expect(title.versionHash != titleBefore && entity.versionHash != before)
        title.versionHashModifier = nil
        #expect(title.versionHash == titleBefore && entity.versionHash == before)
        // Outside a model the same hashes come out.
        let loose = Self.entity("Item")
        loose.properties = [Self.attribute("title", .stringAttributeType)]
        #expect(loose.versionHash == before)
        #expect(Self.attribute("title", .stringAttributeType).versionHash == titleBefore)
    }

    @Test func copiesAreDeepAndLinkedAmongThemselves() throws {
        let model = try #require(
            NSManagedObjectModel(contentsOf: ModelLoadingTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd"))
        )
        model.markInUse()
        let copy = try #require(model.copy(with: nil) as? NSManagedObjectModel)
        #expect(copy.entityVersionHashesByName == model.entityVersionHashesByName)
        let car = try #require(copy.entitiesByName["Car"])
        #expect(car !== model.entitiesByName["Car"])
        #expect(car.relationshipsByName["owner"]?.destinationEntity === copy.entitiesByName["Person"])
        #expect(car.relationshipsByName["owner"]?.inverseRelationship === copy.entitiesByName["Person"]?.relationshipsByName["cars"])
        #expect(copy.entitiesByName["SportCar"]?.superentity === car)
        #expect(!copy.isInUse)
        car.name = "Vehicle"  // the copy is editable although the original is in use
        #expect(model.entitiesByName["Car"]?.name == "Car")
    }

    @Test func mergingCombinesModelsAndRefusesDuplicateEntities() throws {
        let first = NSManagedObjectModel()
        first.entities = [Self.entity("A")]
        first.setEntities(first.entities, forConfigurationName: "Local")
        let second = NSManagedObjectModel()
        second.entities = [Self.entity("B")]
        let merged = try #require(NSManagedObjectModel(byMerging: [first, second]))
        #expect(merged.entities.compactMap(\.name) == ["A", "B"])
        #expect(merged.entities(forConfigurationName: "Local")?.compactMap(\.name) == ["A"])
        #expect(merged.entities(forConfigurationName: nil)?.count == 2)
        #expect(NSManagedObjectModel(byMerging: [first, first]) == nil)
        #expect(NSManagedObjectModel.mergedModel(from: []) != nil)
    }
}
#endif
