#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelSchema
import Testing

/// Loading compiled models: momc's bundles and single `.mom` files load with the version hashes
/// momc recorded, modelgen's bundles load with everything a `.mom` carries, and missing or
/// broken files give nil.
struct ModelLoadingTests {
    static let coredata = Fixtures.coredata

    @Test(arguments: ["CoreDataPlus-SampleModel/SampleModel.momd", "CoreDataPlus-SampleModel3/SampleModel3.momd"])
    func momcBundlesLoadTheirCurrentVersionWithItsRecordedHashes(_ path: String) throws {
        let url = Self.coredata.appendingPathComponent(path)
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        let bundle = try CompiledModelBundle(contentsOf: url)
        let current = try #require(bundle.currentVersion)
        #expect(model.entityVersionHashesByName == current.entityHashes)
        if let checksum = current.checksum { #expect(model.versionChecksum == checksum) }
        #expect(Set(model.entitiesByName.keys) == Set(current.entityHashes.keys))
        for entity in model.entities { #expect(entity.versionHash == current.entityHashes[entity.name ?? ""]) }
        #expect(!model.versionIdentifiers.isEmpty)
    }

    @Test func aSingleMomLoadsWithItsGraphLinked() throws {
        let url = Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel2.mom")
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        let byName = model.entitiesByName
        let car = try #require(byName["Car"])
        let sportCar = try #require(byName["SportCar"])
        let luxuryCar = try #require(byName["LuxuryCar"])
        let person = try #require(byName["Person"])
        #expect(luxuryCar.superentity === sportCar && sportCar.superentity === car)
        #expect(car.subentities.map(\.name) == ["SportCar"])
        #expect(luxuryCar.isKindOf(entity: car) && !car.isKindOf(entity: luxuryCar))
        #expect(luxuryCar.renamingIdentifier == "ExpensiveSportCar")
        // Inherited properties are part of properties, attributesByName and relationshipsByName.
        #expect(luxuryCar.attributesByName["numberPlate"] === car.attributesByName["numberPlate"])
        #expect(luxuryCar.propertiesByName.count == car.propertiesByName.count + 1)
        let owner = try #require(car.relationshipsByName["owner"])
        let cars = try #require(person.relationshipsByName["cars"])
        #expect(owner.destinationEntity === person && owner.inverseRelationship === cars && cars.inverseRelationship === owner)
        #expect(!owner.isToMany && cars.isToMany && owner.maxCount == 1 && cars.maxCount == 0)
        #expect(owner.deleteRule == .nullifyDeleteRule)
        #expect(owner.entity === car && car.managedObjectModel === model)
        #expect(person.relationships(forDestination: car).map(\.name) == ["cars"])
        #expect(car.uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["numberPlate"]])
        let index = try #require(car.indexes.first)
        #expect(index.name == "byMakerAndNumberPlate" && index.entity === car)
        #expect(index.elements.map(\.propertyName) == ["maker", "numberPlate"])
        #expect(index.elements.first?.property === car.attributesByName["maker"])
        #expect(index.elements.first?.indexDescription === index)
        let plate = try #require(car.attributesByName["numberPlate"])
        #expect(plate.attributeType == .stringAttributeType && plate.attributeValueClassName == "NSString" && !plate.isOptional)
        let limited = try #require(luxuryCar.attributesByName["isLimitedEdition"])
        #expect((limited.defaultValue as? NSNumber)?.boolValue == false)
    }

    @Test func aTransientAttributeOfUndefinedTypeLoadsAsUndefined() throws {
        let version = ModelVersion(
            name: "U", entities: [Entity(name: "Item", attributes: [Attribute(name: "scratch", type: .undefined, isTransient: true)])])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-undefined-\(UUID().uuidString).mom")
        try Data(CompiledModel.mom(for: version)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        let scratch = try #require(model.entitiesByName["Item"]?.attributesByName["scratch"])
        #expect(scratch.attributeType == .undefinedAttributeType && scratch.isTransient && scratch.attributeValueClassName == nil)
        #expect(scratch.versionHash == Data(VersionHashes.propertyHashes(version)["Item"]?["scratch"] ?? []))
    }

    @Test func bundlesMergeTheirModelsAndPickTheVersionAStoreWasWrittenWith() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd"),
            to: folder.appendingPathComponent("SampleModel3.momd"))
        let bundle = try #require(Bundle(path: folder.path))
        let current = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        let info = try CompiledModelBundle(contentsOf: folder.appendingPathComponent("SampleModel3.momd"))
        #expect(current.entityVersionHashesByName == info.currentVersion?.entityHashes)
        let v2 = try #require(info.versions.first { $0.name == "SampleModel3_v2" })
        let older = try #require(
            NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: ["NSStoreModelVersionHashes": v2.entityHashes]))
        #expect(older.entityVersionHashesByName == v2.entityHashes)
        #expect(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: ["NSStoreModelVersionHashes": ["Pet": Data()]]) == nil)
    }

    @Test func missingAndBrokenFilesGiveNil() throws {
        #expect(NSManagedObjectModel(contentsOf: URL(fileURLWithPath: "/nonexistent/Model.momd")) == nil)
        #expect(NSManagedObjectModel(contentsOf: URL(fileURLWithPath: "/nonexistent/Model.mom")) == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("Garbage.mom")
        try Data("not a model".utf8).write(to: garbage)
        #expect(NSManagedObjectModel(contentsOf: garbage) == nil)
        // A bundle whose VersionInfo names a version that has no .mom.
        let bundle = folder.appendingPathComponent("Broken.momd")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let info = CompiledModel.versionInfo(for: Model(name: "Broken", versions: [ModelVersion(name: "V1")], currentVersionName: "V1"))
        try Data(info).write(to: bundle.appendingPathComponent(VersionInfo.fileName))
        #expect(NSManagedObjectModel(contentsOf: bundle) == nil)
        #expect(throws: CompiledModelBundle.ReadError.self) { try CompiledModelBundle(contentsOf: bundle).decodeVersion(named: "../V1") }
    }

    @Test func aBundleCompiledByModelgenLoadsWithCompositesDerivedAttributesAndConfigurations() throws {
        let version = ModelVersion(
            name: "Trips 1",
            entities: [
                Entity(
                    name: "Trip",
                    attributes: [
                        Attribute(name: "name", type: .string, defaultValue: .string("Trip")),
                        Attribute(name: "rating", type: .integer16, defaultValue: .integer(3)),
                        Attribute(name: "location", type: .composite("Location"), isOptional: true),
                        Attribute(name: "stopCount", type: .integer64, derivationExpression: "stops.@count"),
                    ],
                    relationships: [
                        Relationship(name: "stops", destinationName: "Stop", isToMany: true, isOrdered: true, inverseName: "trip")
                    ]),
                Entity(name: "Stop", relationships: [Relationship(name: "trip", destinationName: "Trip", inverseName: "stops")]),
            ],
            composites: [
                CompositeType(
                    name: "Location", attributes: [Attribute(name: "latitude", type: .double), Attribute(name: "longitude", type: .double)])
            ],
            configurations: [Configuration(name: "Local", entityNames: ["Trip", "Stop"])], versionIdentifier: "1.0")
        let model = Model(name: "Trips", versions: [version], currentVersionName: "Trips 1")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-model-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in CompiledModel.files(for: model) {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        let loaded = try #require(NSManagedObjectModel(contentsOf: folder.appendingPathComponent("Trips.momd")))
        #expect(loaded.entityVersionHashesByName == VersionHashes(version).entityHashes.mapValues { Data($0) })
        #expect(loaded.versionChecksum == VersionHashes(version).versionChecksum)
        #expect(loaded.versionIdentifiers == ["1.0"])
        #expect(loaded.configurations == ["Local"])
        #expect(Set(loaded.entities(forConfigurationName: "Local")?.compactMap(\.name) ?? []) == ["Trip", "Stop"])
        let trip = try #require(loaded.entitiesByName["Trip"])
        let location = try #require(trip.attributesByName["location"] as? NSCompositeAttributeDescription)
        #expect(location.attributeType == .compositeAttributeType && location.elements.map(\.name) == ["latitude", "longitude"])
        let stopCount = try #require(trip.attributesByName["stopCount"] as? NSDerivedAttributeDescription)
        #expect(stopCount.derivationExpression?.description == "count:(stops)")
        #expect(stopCount.derivationExpression?.expressionType == .function)
        #expect((trip.attributesByName["rating"]?.defaultValue as? NSNumber)?.int64Value == 3)
        #expect(trip.attributesByName["name"]?.defaultValue as? String == "Trip")
        #expect(trip.relationshipsByName["stops"]?.isOrdered == true)
        #expect(
            try NSManagedObjectModel.checksumsForVersionedModel(at: folder.appendingPathComponent("Trips.momd")) == [
                "Trips 1": loaded.versionChecksum
            ])
    }
}
#endif
