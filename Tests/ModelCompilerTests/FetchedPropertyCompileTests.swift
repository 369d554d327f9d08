import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Fetched properties compiled into the `.mom` as `NSFetchedPropertyDescription` objects with
/// their fetch request and its predicate archived, read back to the same values, the same bytes
/// every time, and no version hash changed.
struct FetchedPropertyCompileTests {
    static let model = """
        entities:
          Author:
            attributes:
              alias: String
            relationships:
              books: { to: Book, toMany: true, inverse: author }
            fetchedProperties:
              sameFolder: { entity: Book, predicate: "folder == $FETCH_SOURCE" }
              goodOnes: { entity: Book, predicate: "author.alias == $FETCH_SOURCE.alias AND rating >= 3", optional: false }
              startingWithA: { entity: Book, predicate: 'title BEGINSWITH[cd] "a"', userInfo: { shown: yes } }
              tagged: { entity: Book, predicate: 'ANY tags.name IN {"x","y"}' }
              open: { entity: Book, predicate: "NOT (done == YES)" }
              everything: { entity: Book, predicate: TRUEPREDICATE }
              limited: { entity: Book, predicate: "rating >= $FETCHED_PROPERTY.userInfo.limit", userInfo: { limit: "4" } }
              unfiltered: { entity: Book, documentation: Every book. }
          Book:
            attributes:
              title: String
              rating: Integer 16
              done: Bool
              folder: String?
            relationships:
              author: { to: Author, inverse: books }
              tags: { to: Tag, toMany: true, inverse: books }
          Tag:
            attributes:
              name: String
            relationships:
              books: { to: Book, toMany: true, inverse: tags }
        """

    static func version() throws -> ModelVersion {
        let result = Pipeline.load(text: model, path: "Library.model.yaml")
        #expect(result.diagnostics.map(\.description) == [])
        return try #require(result.model?.versions.first)
    }

    @Test func compiledFetchedPropertiesReadBackWithTheirPredicatesInCanonicalForm() throws {
        let version = try Self.version()
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: version.name).version
        #expect(decoded == CompiledModel.momContent(of: version))
        let fetched = try #require(decoded.entity(named: "Author")).fetchedProperties
        #expect(
            fetched.map(\.name) == ["sameFolder", "goodOnes", "startingWithA", "tagged", "open", "everything", "limited", "unfiltered"])
        #expect(Set(fetched.map(\.entityName)) == ["Book"])
        #expect(
            fetched.map(\.predicate) == [
                "folder == $FETCH_SOURCE", "author.alias == $FETCH_SOURCE.alias AND rating >= 3", #"title BEGINSWITH[cd] "a""#,
                #"ANY tags.name IN {"x", "y"}"#, "NOT done == YES", "TRUEPREDICATE", "rating >= $FETCHED_PROPERTY.userInfo.limit", nil,
            ])
        #expect(fetched.map(\.isOptional) == [true, false, true, true, true, true, true, true])
        #expect(fetched[2].userInfo == ["shown": "yes"])
        #expect(fetched[7].documentation == nil)
        #expect(VersionHashes(decoded) == VersionHashes(version))
    }

    @Test func compilingTwiceGivesTheSameBytes() throws {
        let version = try Self.version()
        #expect(CompiledModel.mom(for: version) == CompiledModel.mom(for: version))
        let again = try Self.version()
        #expect(CompiledModel.mom(for: again) == CompiledModel.mom(for: version))
    }

    @Test func fetchedPropertiesStayOutOfTheVersionHashes() throws {
        let version = try Self.version()
        let without = version.withoutFetchedProperties
        #expect(VersionHashes(without) == VersionHashes(version))
        #expect(
            CompiledModel.versionInfo(for: Model(name: "L", versions: [without], currentVersionName: version.name))
                == CompiledModel.versionInfo(for: Model(name: "L", versions: [version], currentVersionName: version.name)))
    }

    @Test func theArchiveHoldsCoreDatasClassesAndKeys() throws {
        let version = try Self.version()
        let archive = try BinaryPropertyList.decode(CompiledModel.mom(for: version))
        let graph = ArchiveGraph(archive)
        let property = try #require(graph.entries["property Author.goodOnes"])
        #expect(property["$class"]?.description == "NSFetchedPropertyDescription")
        // Non-optional, read-only and transient, no validation, user info or modifier.
        #expect(property["_P"]?.description == "\(0xFD)")
        #expect(graph.entries["property Author.sameFolder"]?["_P"]?.description == "\(0xFF)")
        #expect(graph.entries["property Author.startingWithA"]?["_P"]?.description == "\(0xBF)")
        #expect(property["NSIsReadOnly"]?.description == "true")
        #expect(property["NSIsTransient"]?.description == "true")
        #expect(property["NSIsOptional"] == nil)
        #expect(property["NSEntity"]?.description == "<entity Author>")
        #expect(property["_NSFetchRequestEntityName"]?.description == "Book")
        guard case .object(let requestClass, let request)? = property["NSFetchRequest"] else {
            Issue.record("no fetch request: \(property)")
            return
        }
        #expect(requestClass == "NSFetchRequest")
        #expect(
            ArchiveGraph.Value.map(request.filter { $0.key != "NSPredicate" }).description
                == "{$class: NSFetchRequest, NSAllocationType: 0, NSBatchSize: 0, NSEntity: <entity Book>, NSFetchLimit: 0, NSFetchOffset: 0, NSFetchRequestFlags: 30, NSHasFetchRequestFlags: true, NSHavingPredicate: nil, NSRelationshipKeyPathsForPrefetching: nil, NSResultType: 0, NSSortDescriptors: nil, NSValuesToFetch: nil, NSValuesToGroupBy: nil}"
        )
        #expect(
            request["NSPredicate"]?.description.hasPrefix(
                "NSCompoundPredicate{$class: NSCompoundPredicate, NSCompoundPredicateType: 1, NSSubpredicates: [") == true)
        #expect(graph.entries["property Author.unfiltered"]?["NSFetchRequest"]?.description.contains("NSPredicate: nil") == true)
        // Fetched properties come after the attributes and relationships.
        #expect(try Self.propertyOrder(archive, entity: "Author").prefix(2) == ["alias", "books"])
        let chains = Self.classChains(archive)
        #expect(chains["NSFetchedPropertyDescription"] == ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"])
        #expect(chains["NSFetchRequest"] == ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"])
    }

    static func classChains(_ archive: PropertyList) -> [String: [String]] {
        guard case .array(let objects)? = archive["$objects"] else { return [:] }
        var chains: [String: [String]] = [:]
        for object in objects {
            if let name = object["$classname"]?.stringValue, case .array(let chain)? = object["$classes"] {
                chains[name] = chain.compactMap(\.stringValue)
            }
        }
        return chains
    }

    static func propertyOrder(_ archive: PropertyList, entity name: String) throws -> [String] {
        let decoded = try CompiledModel.decodeMom(BinaryPropertyList.encode(archive), versionName: "V").version
        let entity = try #require(decoded.entity(named: name))
        return entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
    }

    @Test func xcodeFetchedPropertiesCompileAndReadBack() throws {
        let result = Pipeline.load(XcodePatternTests.folder.appendingPathComponent("FetchedProperties.xcdatamodel").path)
        #expect(result.diagnostics.isEmpty)
        let version = try #require(result.model?.versions.first)
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: version.name).version
        let author = try #require(decoded.entity(named: "Author"))
        #expect(
            author.fetchedProperties == [
                FetchedProperty(name: "recentBooks", entityName: "Book", predicate: "author == $FETCH_SOURCE AND year > 2000"),
                FetchedProperty(name: "allBooks", entityName: "Book"),
            ])
    }

    @Test func aRequestWhoseEntityIsANameReadsBackTheName() throws {
        // A version the checks would refuse (no entity 'Missing'): the request names the entity.
        let version = ModelVersion(
            name: "V",
            entities: [Entity(name: "A", fetchedProperties: [FetchedProperty(name: "lost", entityName: "Missing", predicate: "x == 1")])])
        let graph = ArchiveGraph(try BinaryPropertyList.decode(CompiledModel.mom(for: version)))
        guard case .object(_, let request)? = graph.entries["property A.lost"]?["NSFetchRequest"] else {
            Issue.record("no fetch request")
            return
        }
        #expect(request["NSEntity"]?.description == "Missing")
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: "V").version
        #expect(decoded.entities.first?.fetchedProperties == [FetchedProperty(name: "lost", entityName: "Missing", predicate: "x == 1")])
    }

    @Test func aPredicateThatDoesNotParseIsArchivedAsFalsePredicate() throws {
        let version = ModelVersion(
            name: "V", entities: [Entity(name: "A", fetchedProperties: [FetchedProperty(name: "bad", entityName: "A", predicate: "x ==")])])
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: "V").version
        #expect(decoded.entities.first?.fetchedProperties.first?.predicate == "FALSEPREDICATE")
        #expect(decoded == CompiledModel.momContent(of: version))
    }

    @Test func anArchivedPredicateTheReaderCannotExpressIsAnErrorNamingTheProperty() throws {
        let version = try Self.version()
        let archive = try BinaryPropertyList.decode(CompiledModel.mom(for: version))
        // Every operator becomes a custom selector operator (type 11).
        let edited = Self.replacingOperatorTypes(in: archive, with: 11)
        #expect(throws: CompiledModel.ReadError.self) {
            try CompiledModel.decodeMom(BinaryPropertyList.encode(edited), versionName: "V")
        }
        do {
            _ = try CompiledModel.decodeMom(BinaryPropertyList.encode(edited), versionName: "V")
        } catch {
            #expect(error.message.contains("fetched property 'Author."))
            #expect(error.message.contains("operator type 11 (a custom selector), which modelgen does not read"))
        }
    }

    static func replacingOperatorTypes(in archive: PropertyList, with type: Int64) -> PropertyList {
        guard case .dictionary(let top) = archive else { return archive }
        return .dictionary(
            top.map { entry in
                guard entry.key == "$objects", case .array(let objects) = entry.value else { return entry }
                return (
                    entry.key,
                    .array(
                        objects.map { object in
                            guard case .dictionary(let fields) = object, fields.contains(where: { $0.key == "NSOperatorType" }) else {
                                return object
                            }
                            return .dictionary(fields.map { $0.key == "NSOperatorType" ? ($0.key, .integer(type)) : $0 })
                        })
                )
            })
    }
}

extension ModelVersion {
    /// The version with every entity's fetched properties removed.
    var withoutFetchedProperties: ModelVersion {
        var copy = self
        for index in copy.entities.indices { copy.entities[index].fetchedProperties = [] }
        return copy
    }
}
