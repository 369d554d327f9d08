import Foundation
import Testing

@testable import ModelSchema

/// Reading `.mom` archives: every momc-written fixture decodes to a version whose entity hashes
/// are the ones momc recorded, a version written by modelgen reads back as what a `.mom`
/// carries, and broken archives are errors.
struct MomReaderTests {
    static let coredata = Fixtures.coredata

    /// Every `.mom` inside a `.momd` of the fixtures, with its bundle.
    static let fixtureMoms: [String] = {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: coredata.path)) ?? []
        var result: [String] = []
        for folder in folders.sorted() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: coredata.appendingPathComponent(folder).path)) ?? []
            for bundle in files.sorted() where bundle.hasSuffix(".momd") {
                let moms =
                    (try? FileManager.default.contentsOfDirectory(atPath: coredata.appendingPathComponent("\(folder)/\(bundle)").path))
                    ?? []
                result += moms.sorted().filter { $0.hasSuffix(".mom") }.map { "\(folder)/\(bundle)/\($0)" }
            }
        }
        return result
    }()

    @Test func everyFixtureBundleIsFound() {
        #expect(Self.fixtureMoms.count == 6)
    }

    @Test(arguments: fixtureMoms)
    func momcArchivesHashLikeTheirVersionInfo(_ path: String) throws {
        let url = Self.coredata.appendingPathComponent(path)
        let versionName = url.deletingPathExtension().lastPathComponent
        let info = try VersionInfo(plist: Data(contentsOf: url.deletingLastPathComponent().appendingPathComponent(VersionInfo.fileName)))
        let decoded = try CompiledModel.decodeMom([UInt8](Data(contentsOf: url)), versionName: versionName)
        let expected = try #require(info.versionHashes[versionName])
        let hashes = VersionHashes(decoded.version)
        #expect(hashes.entityHashes == expected)
        if let checksum = info.versionChecksums[versionName] { #expect(hashes.versionChecksum == checksum) }
        #expect(!decoded.versionIdentifiers.isEmpty)
    }

    @Test func momcArchiveDecodesInheritanceConstraintsIndexesAndFlags() throws {
        let url = Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel2.mom")
        let version = try CompiledModel.decodeMom([UInt8](Data(contentsOf: url)), versionName: "SampleModel2").version
        let car = try #require(version.entity(named: "Car"))
        #expect(version.entity(named: "SportCar")?.parentName == "Car")
        #expect(version.entity(named: "LuxuryCar")?.parentName == "SportCar")
        #expect(version.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        #expect(version.entity(named: "SportCar")?.renamingIdentifier == nil)
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(car.fetchIndexes.map(\.name) == ["byMakerAndNumberPlate"])
        #expect(car.fetchIndexes.first?.elements.map(\.propertyName) == ["maker", "numberPlate"])
        #expect(car.attribute(named: "numberPlate")?.isOptional == false)
        #expect(car.attribute(named: "maker")?.isOptional == true)
        let owner = try #require(car.relationship(named: "owner"))
        #expect(owner.destinationName == "Person" && owner.inverseName == "cars" && !owner.isToMany)
        #expect(version.entity(named: "Person")?.relationship(named: "cars")?.isToMany == true)
        #expect(version.entity(named: "LuxuryCar")?.attribute(named: "isLimitedEdition")?.defaultValue == .boolean(false))
    }

    static let everything = ModelVersion(
        name: "Everything",
        entities: [
            Entity(
                name: "Trip", className: "TripObject", isAbstract: false,
                attributes: [
                    Attribute(
                        name: "name", type: .string, defaultValue: .string("Trip"), versionHashModifier: "v2", userInfo: ["key": "value"]),
                    Attribute(name: "count", type: .integer16, isOptional: true, defaultValue: .integer(-3)),
                    Attribute(name: "ratio", type: .double, defaultValue: .number("2.50")),
                    Attribute(name: "price", type: .decimal, defaultValue: .number("-12.340")),
                    Attribute(name: "tiny", type: .decimal, defaultValue: .number("0.001")),
                    Attribute(name: "start", type: .date, defaultValue: .date("2024-01-31T12:00:00.25+02:00")),
                    Attribute(name: "id", type: .uuid, defaultValue: .uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8")),
                    Attribute(name: "link", type: .uri, defaultValue: .uri("https://example.com/a")),
                    Attribute(name: "done", type: .boolean, defaultValue: .boolean(true)),
                    Attribute(name: "photo", type: .binaryData, isOptional: true, allowsExternalBinaryDataStorage: true),
                    Attribute(name: "secret", type: .string, isOptional: true, allowsCloudEncryption: true),
                    Attribute(name: "kept", type: .string, isOptional: true, preservesValueInHistoryOnDeletion: true),
                    Attribute(name: "scratch", type: .string, isOptional: true, isTransient: true),
                    Attribute(name: "color", type: .transformable, isOptional: true, valueTransformerName: "ColorTransformer"),
                    Attribute(name: "where", type: .composite("Location"), isOptional: true),
                    Attribute(name: "stopCount", type: .integer64, derivationExpression: "stops.@count"),
                    Attribute(name: "renamed", type: .string, isOptional: true, renamingIdentifier: "oldName"),
                    Attribute(name: "anything", type: .undefined, isOptional: true, isTransient: true),
                ],
                relationships: [
                    Relationship(
                        name: "stops", destinationName: "Stop", isToMany: true, isOrdered: true, inverseName: "trip", deleteRule: .cascade,
                        minCount: 1, maxCount: 20)
                ],
                uniquenessConstraints: [["name", "start"]],
                fetchIndexes: [FetchIndex(name: "byName", elements: [FetchIndex.Element(propertyName: "name", isAscending: false)])],
                compoundIndexes: [["start", "count"], ["name"]],
                versionHashModifier: "entity-v2", renamingIdentifier: "Journey", userInfo: ["table": "trips"]),
            Entity(name: "Place", isAbstract: true, attributes: [Attribute(name: "title", type: .string, isOptional: true)]),
            Entity(
                name: "Stop", parentName: "Place",
                relationships: [
                    Relationship(
                        name: "trip", destinationName: "Trip", inverseName: "stops", deleteRule: .deny, isOptional: false,
                        versionHashModifier: "r", userInfo: ["a": "b"]),
                    Relationship(name: "next", destinationName: "Stop", inverseName: "next", deleteRule: .noAction),
                ]),
        ],
        composites: [
            CompositeType(
                name: "Point",
                attributes: [Attribute(name: "x", type: .double), Attribute(name: "y", type: .double, defaultValue: .number("1"))]),
            CompositeType(
                name: "Location",
                attributes: [Attribute(name: "label", type: .string), Attribute(name: "point", type: .composite("Point"))]),
        ],
        configurations: [Configuration(name: "Cloud", entityNames: ["Trip", "Stop"], usedWithCloudKit: true)],
        versionIdentifier: "7")

    @Test func whatModelgenWritesReadsBackAsWhatAMomCarries() throws {
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: Self.everything), versionName: "Everything")
        let expected = CompiledModel.momContent(of: Self.everything)
        #expect(decoded.version == expected)
        #expect(decoded.versionIdentifiers == ["7"])
        #expect(VersionHashes(decoded.version) == VersionHashes(Self.everything))
    }

    @Test func defaultsReadBackWithTheirValues() throws {
        let version = try CompiledModel.decodeMom(CompiledModel.mom(for: Self.everything), versionName: "E").version
        let trip = try #require(version.entity(named: "Trip"))
        #expect(trip.attribute(named: "count")?.defaultValue == .integer(-3))
        #expect(trip.attribute(named: "ratio")?.defaultValue == .number("2.5"))
        #expect(trip.attribute(named: "price")?.defaultValue == .number("-12.34"))
        #expect(trip.attribute(named: "tiny")?.defaultValue == .number("0.001"))
        #expect(trip.attribute(named: "start")?.defaultValue == .date("2024-01-31T10:00:00.250Z"))
        #expect(trip.attribute(named: "id")?.defaultValue == .uuid("6BA7B810-9DAD-11D1-80B4-00C04FD430C8"))
        #expect(trip.attribute(named: "link")?.defaultValue == .uri("https://example.com/a"))
        #expect(trip.attribute(named: "done")?.defaultValue == .boolean(true))
        #expect(trip.attribute(named: "stopCount")?.derivationExpression == "count:(stops)")
        #expect(version.composite(named: "Trip.where.point")?.attributes.map(\.name) == ["x", "y"])
        #expect(version.entity(named: "Stop")?.relationship(named: "trip")?.versionHashModifier == "r")
        #expect(trip.relationship(named: "stops")?.isOrdered == true)
        #expect(version.configurations == [Configuration(name: "Cloud", entityNames: ["Stop", "Trip"])])
    }

    @Test func aLongChainOfRelationshipsCompilesAndReadsBack() throws {
        // Each entity points at the next: encoded naively, every destination nests one level deeper.
        let count = 1000
        let entities = (0..<count).map { index in
            Entity(name: "E\(index)", relationships: [Relationship(name: "next", destinationName: "E\((index + 1) % count)")])
        }
        let version = ModelVersion(name: "Chain", entities: entities)
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: "Chain")
        #expect(decoded.version == CompiledModel.momContent(of: version))
    }

    // MARK: Broken and hostile archives

    static func archive(_ objects: [PropertyList], root: UInt64 = 1) -> [UInt8] {
        BinaryPropertyList.encode(
            .dictionary([
                ("$archiver", .string("NSKeyedArchiver")), ("$objects", .array(objects)), ("$top", .dictionary([("root", .uid(root))])),
                ("$version", .integer(100_000)),
            ]))
    }

    static func classEntry(_ name: String) -> PropertyList {
        .dictionary([("$classes", .array([.string(name), .string("NSObject")])), ("$classname", .string(name))])
    }

    @Test func brokenArchivesAreErrors() {
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("not a plist", Array("hello".utf8)),
            ("a plist that is not an archive", BinaryPropertyList.encode(.array([.integer(1)]))),
            ("root out of range", Self.archive([.string("$null")], root: 9)),
            ("root of another class", Self.archive([.string("$null"), .dictionary([("$class", .uid(2))]), Self.classEntry("NSString")])),
            (
                "entities that are not a dictionary",
                Self.archive([
                    .string("$null"), .dictionary([("NSEntities", .uid(1)), ("$class", .uid(2))]), Self.classEntry("NSManagedObjectModel"),
                ])
            ),
            (
                "a reference past the objects",
                Self.archive([
                    .string("$null"), .dictionary([("NSEntities", .uid(77)), ("$class", .uid(2))]), Self.classEntry("NSManagedObjectModel"),
                ])
            ),
            ("a class reference that is not a class", Self.archive([.string("$null"), .dictionary([("$class", .uid(1))])])),
            (
                "an entity flag that refers to a loop of references",
                Self.archive([
                    .string("$null"), .dictionary([("NSEntities", .uid(2)), ("$class", .uid(3))]),
                    .dictionary([("NS.keys", .array([.uid(4)])), ("NS.objects", .array([.uid(5)])), ("$class", .uid(6))]),
                    Self.classEntry("NSManagedObjectModel"), .string("E"),
                    .dictionary([("NSEntityName", .uid(4)), ("NSIsAbstract", .uid(8)), ("$class", .uid(7))]),
                    Self.classEntry("NSDictionary"), Self.classEntry("NSEntityDescription"), .uid(9), .uid(8),
                ])
            ),
        ]
        for (name, bytes) in cases {
            #expect(throws: CompiledModel.ReadError.self, "\(name)") { try CompiledModel.decodeMom(bytes, versionName: "V") }
        }
    }

    @Test func everyTruncationOrByteFlipOfARealArchiveIsAnErrorOrAModel() throws {
        let bytes = [UInt8](
            try Data(contentsOf: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd/SampleModel3_v2.mom")))
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? CompiledModel.decodeMom(Array(bytes[..<length]), versionName: "V")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var mutated = bytes
            let index = Int.random(in: 0..<mutated.count, using: &generator)
            mutated[index] = UInt8.random(in: 0...255, using: &generator)
            _ = try? CompiledModel.decodeMom(mutated, versionName: "V")
        }
    }

    @Test func anInheritanceLoopIsAnError() throws {
        var version = Self.everything
        version.entities[1].parentName = "Stop"
        #expect(throws: CompiledModel.ReadError(message: "the inheritance of entity 'Place' loops")) {
            try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: "V")
        }
    }

    @Test func aCompositeThatContainsItselfIsAnError() {
        // Model → entity → attribute whose only element is the attribute itself.
        let objects: [PropertyList] = [
            .string("$null"),
            .dictionary([("NSEntities", .uid(2)), ("$class", .uid(9))]),
            .dictionary([("NS.keys", .array([.uid(3)])), ("NS.objects", .array([.uid(4)])), ("$class", .uid(10))]),
            .string("E"),
            .dictionary([("NSEntityName", .uid(3)), ("NSProperties", .uid(5)), ("$class", .uid(11))]),
            .dictionary([("NS.keys", .array([.uid(6)])), ("NS.objects", .array([.uid(7)])), ("$class", .uid(10))]),
            .string("a"),
            .dictionary([("NSPropertyName", .uid(6)), ("NSAttributeType", .integer(2100)), ("NSElements", .uid(8)), ("$class", .uid(12))]),
            .dictionary([("NS.objects", .array([.uid(7)])), ("$class", .uid(13))]),
            Self.classEntry("NSManagedObjectModel"), Self.classEntry("NSDictionary"), Self.classEntry("NSEntityDescription"),
            Self.classEntry("NSCompositeAttributeDescription"), Self.classEntry("NSArray"),
        ]
        #expect(throws: CompiledModel.ReadError(message: "composite attribute 'E.a.a' contains itself or nests too deeply")) {
            try CompiledModel.decodeMom(Self.archive(objects), versionName: "V")
        }
    }

    @Test func sharedCollectionsThatExpandExponentiallyAreRefused() {
        // Each array holds the next one twice: 40 levels would expand to 2^40 objects.
        var bytes = Array("bplist00".utf8)
        // Hand-written plist: object i is an array of two references to object i + 1.
        let count = 41
        var offsets: [Int] = []
        for index in 0..<count {
            offsets.append(bytes.count)
            bytes += index == count - 1 ? [0xA0] : [0xA2, UInt8(index + 1), UInt8(index + 1)]
        }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(count)] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(throws: BinaryPropertyList.FormatError.self) { try BinaryPropertyList.decode(bytes) }
        #expect(throws: CompiledModel.ReadError.self) { try CompiledModel.decodeMom(bytes, versionName: "V") }
    }
}
