import Foundation
import ModelSchema
import Testing

@testable import ModelCompiler

/// The patterns of real apps' Xcode models (`Tests/Fixtures/xcode-patterns`): each imports
/// without errors, keeps what Core Data reads, and survives YAML and Xcode export with the same
/// checksums.
struct XcodePatternTests {
    static let folder = Fixtures.root.appendingPathComponent("xcode-patterns")

    static let models = [
        "ModuleClasses.xcdatamodel", "GenericEntities.xcdatamodel", "LeftoverTransformers.xcdatamodel",
        "CapitalisedNames.xcdatamodel", "ToManyFetchIndex.xcdatamodel", "UndefinedAttributes.xcdatamodel",
        "CompoundIndexes.xcdatamodel", "FetchedProperties.xcdatamodel", "Library.xcdatamodeld", "AbstractEntities.xcdatamodel",
    ]

    static func load(_ name: String) -> Pipeline.Result {
        Pipeline.load(folder.appendingPathComponent(name).path)
    }

    static func checksums(_ model: Model) -> [String] {
        model.versions.map { "\($0.name): \(VersionHashes($0).versionChecksum)" }
    }

    static func generate(_ model: Model) throws -> [String: String] {
        let files = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
    }

    @Test(arguments: models)
    func importsWithoutErrors(_ name: String) throws {
        let result = Self.load(name)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(result.model != nil)
    }

    @Test(arguments: models)
    func yamlRoundTripValidatesWithTheSameChecksums(_ name: String) throws {
        let imported = try #require(Self.load(name).model)
        let reread = try RoundTripTests.throughYAML(imported)
        #expect(!reread.hasErrors, "\(reread.diagnostics)")
        let model = try #require(reread.model)
        #expect(Self.checksums(model) == Self.checksums(imported))
        #expect(ModelDump.json(model) == ModelDump.json(imported))
        #expect(CompiledModel.versionInfo(for: model) == CompiledModel.versionInfo(for: imported))
    }

    @Test(arguments: models)
    func xcodeExportRoundTripKeepsTheChecksums(_ name: String) throws {
        let imported = try #require(Self.load(name).model)
        var again = try XcodeExportRoundTripTests.throughXcode(imported)
        again.name = imported.name
        #expect(Self.checksums(again) == Self.checksums(imported))
        #expect(ModelDump.json(again) == ModelDump.json(imported))
    }

    @Test(arguments: RoundTripTests.xcodeModels)
    func fixtureModelsRoundTripWithTheSameChecksums(_ path: String) throws {
        let imported = try #require(Pipeline.load(RoundTripTests.coredata.appendingPathComponent(path).path).model)
        let throughYAML = try #require(try RoundTripTests.throughYAML(imported).model)
        let exported = try XcodeExportRoundTripTests.throughXcode(throughYAML)
        #expect(Self.checksums(throughYAML) == Self.checksums(imported))
        #expect(Self.checksums(exported) == Self.checksums(imported))
    }

    // MARK: Class names

    @Test func moduleQualifiedClassNamesAreKeptExactly() throws {
        let version = try #require(Self.load("ModuleClasses.xcdatamodel").model?.versions.first)
        #expect(version.entity(named: "Folder")?.className == ".Folder")
        #expect(version.entity(named: "Bookmark")?.className == "Data.Bookmark")
        let graph = ArchiveGraph(try BinaryPropertyList.decode(CompiledModel.mom(for: version)))
        #expect(graph.entries["entity Folder"]?["NSClassNameForEntity"] == .scalar(".Folder"))
        #expect(graph.entries["entity Bookmark"]?["NSClassNameForEntity"] == .scalar("Data.Bookmark"))
    }

    @Test func currentModuleClassIsGeneratedWithoutAnObjectiveCName() throws {
        let model = try #require(Self.load("ModuleClasses.xcdatamodel").model)
        let files = try Self.generate(model)
        #expect(files.keys.sorted() == ["Folder+CoreData.swift", "ModuleClasses+Model.swift", "SmartFolder+CoreData.swift"])
        let folder = try #require(files["Folder+CoreData.swift"])
        #expect(folder.contains("public class Folder: NSManagedObject {"))
        #expect(!folder.contains("@objc(Folder)"))
        #expect(files["SmartFolder+CoreData.swift"]?.contains("public class SmartFolder: Folder {") == true)
    }

    @Test func classInAnotherModuleIsImportedNotGenerated() throws {
        let model = try #require(Self.load("ModuleClasses.xcdatamodel").model)
        let folder = try #require(try Self.generate(model)["Folder+CoreData.swift"])
        #expect(folder.contains("import Data\n"))
        // `Data.Bookmark` would name Foundation's `Data`; the imported class is named bare.
        #expect(folder.contains("public var bookmarks: Set<Bookmark>"))
        #expect(SwiftClassName("Store.Bookmark").swiftType == "Store.Bookmark")
        #expect(SwiftClassName("Data.Bookmark").swiftType == "Bookmark")
    }

    @Test func genericEntitiesGetNoClassAndAreReachedAsNSManagedObject() throws {
        let model = try #require(Self.load("GenericEntities.xcdatamodel").model)
        let files = try Self.generate(model)
        #expect(files.keys.sorted() == ["GenericEntities+Model.swift", "Note+CoreData.swift", "Photo+CoreData.swift"])
        let note = try #require(files["Note+CoreData.swift"])
        #expect(note.contains("public var attachments: Set<NSManagedObject>"))
        #expect(note.contains("public var tag: NSManagedObject?"))
        #expect(note.contains("func addToAttachments(_ value: NSManagedObject)"))
        // A class below a generic entity declares the properties it inherits from it.
        let photo = try #require(files["Photo+CoreData.swift"])
        #expect(photo.contains("public class Photo: NSManagedObject {"))
        #expect(photo.contains("@NSManaged public var data: Data?") && photo.contains("@NSManaged public var note: Note?"))
        #expect(photo.contains("@NSManaged public var caption: String?"))
    }

    @Test func unmappableClassNameIsALocatedErrorBeforeAnyFile() throws {
        let result = try XcodeModelReaderTests.load(
            """
            <model>
                <entity name="Note" representedClassName="App.Models.Note">
                    <attribute name="text" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """)
        let model = try #require(result.model)
        #expect(throws: SwiftGenerator.GenerationError.self) { try SwiftGenerator.generate(model, options: SwiftGenerator.Options()) }
        do {
            _ = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
        } catch {
            guard case .names(let problems) = error else {
                Issue.record("expected a names error, got \(error)")
                return
            }
            #expect(problems.count == 1)
            #expect(problems.first?.location.line == 2 && problems.first?.location.column == 5)
            #expect(problems.first?.message.contains("'App.Models.Note'") == true)
        }
    }

    @Test func propertyThatWouldOverrideNSManagedObjectIsRefused() throws {
        let result = try XcodeModelReaderTests.load(
            """
            <model>
                <entity name="Note" representedClassName="Note">
                    <attribute name="description" optional="YES" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" destinationEntity="Note"/>
                    <relationship name="Items" optional="YES" toMany="YES" destinationEntity="Note"/>
                </entity>
            </model>
            """)
        let model = try #require(result.model)
        do {
            _ = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
            Issue.record("generation should fail")
        } catch {
            guard case .names(let problems) = error else {
                Issue.record("expected a names error, got \(error)")
                return
            }
            #expect(problems.map(\.location.line) == [3, 5])
            #expect(problems.contains { $0.message.contains("'Note.description' would override a member of NSManagedObject") })
            #expect(problems.contains { $0.message.contains("would both generate 'addToItems'") })
        }
    }

    // MARK: Names

    @Test func capitalisedNamesAreStyleWarningsAndValidSwift() throws {
        let imported = try #require(Self.load("CapitalisedNames.xcdatamodel").model)
        let yaml = YAMLModelWriter.text(for: try #require(imported.versions.first))
        #expect(yaml.contains("      Label: String?\n"))
        let reread = try RoundTripTests.throughYAML(imported)
        let warnings = reread.diagnostics.filter { $0.severity == .warning }.map(\.message)
        #expect(warnings.contains("attribute name 'Label' should start with a lowercase letter"))
        #expect(warnings.contains("relationship name 'Box' should start with a lowercase letter"))
        #expect(warnings.contains("attribute name 'default' is a Swift keyword; generated code writes it as `default`"))
        let files = try Self.generate(imported)
        let box = try #require(files["Box+CoreData.swift"])
        #expect(box.contains("@NSManaged public var Label: String?"))
        #expect(box.contains("public var `default`: Bool?"))
        #expect(box.contains("static let `default` = \"default\""))
        #expect(box.contains("@objc(addItemsObject:)"))
        #expect(files["Item+CoreData.swift"]?.contains("@NSManaged public var Box: Box?") == true)
    }

    // MARK: Transformers, indexes, Undefined

    @Test func leftoverTransformerNamesAreDroppedWithLocatedWarnings() throws {
        let result = Self.load("LeftoverTransformers.xcdatamodel")
        let photo = try #require(result.model?.versions.first?.entity(named: "Photo"))
        #expect(photo.attribute(named: "caption")?.valueTransformerName == nil)
        #expect(photo.attribute(named: "link")?.valueTransformerName == nil)
        #expect(photo.attribute(named: "metadata")?.valueTransformerName == nil)
        #expect(photo.attribute(named: "palette")?.valueTransformerName == "NSSecureUnarchiveFromData")
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.count == 3)
        #expect(warnings.map(\.location.line) == [4, 5, 6])
        #expect(warnings.allSatisfy { $0.location.column == 9 })
        #expect(warnings[0].message.contains("String but names the value transformer 'CaptionTransformer'"))
        #expect(warnings[2].message.contains("empty value transformer name"))
    }

    @Test func fetchIndexOverToManyRelationshipIsKeptWithAWarning() throws {
        let imported = try #require(Self.load("ToManyFetchIndex.xcdatamodel").model)
        #expect(imported.versions.first?.entity(named: "Playlist")?.fetchIndexes.map(\.name) == ["bySongs", "byName"])
        let reread = try RoundTripTests.throughYAML(imported)
        #expect(!reread.hasErrors)
        #expect(reread.diagnostics.contains { $0.severity == .warning && $0.message.contains("index 'bySongs' includes to-many") })
    }

    @Test func undefinedAttributesKeepTheirType() throws {
        let version = try #require(Self.load("UndefinedAttributes.xcdatamodel").model?.versions.first)
        let sheet = try #require(version.entity(named: "Sheet"))
        #expect(sheet.attribute(named: "selection")?.type == .undefined)
        #expect(YAMLModelWriter.text(for: version).contains("selection: { type: Undefined, transient: true }"))
        #expect(
            XcodeModelWriter.contents(of: version).contains(#"<attribute name="selection" transient="YES" attributeType="Undefined"/>"#))
        let graph = ArchiveGraph(try BinaryPropertyList.decode(CompiledModel.mom(for: version)))
        #expect(graph.entries["property Sheet.selection"]?["NSAttributeType"] == .scalar("0"))
        #expect(AttributeType.undefined.coreDataTypeCode == 0)
        let sheetFile = try #require(
            try Self.generate(Model(name: "U", versions: [version], currentVersionName: version.name))["Sheet+CoreData.swift"])
        #expect(sheetFile.contains("public var selection: Any? {"))
    }

    @Test func storedUndefinedAttributeIsAnError() {
        let result = Pipeline.load(text: "entities:\n  Sheet:\n    attributes:\n      selection: Undefined?\n", path: "U.model.yaml")
        #expect(
            result.diagnostics.map(\.description) == [
                "U.model.yaml:4:7: error: attribute 'Sheet.selection' has type Undefined, which Core Data allows only on transient attributes; add 'transient: true'"
            ])
    }

    // MARK: Compound indexes, fetched properties

    @Test func compoundIndexesAreKeptAndCompiled() throws {
        let version = try #require(Self.load("CompoundIndexes.xcdatamodel").model?.versions.first)
        #expect(version.entity(named: "Event")?.compoundIndexes == [["day", "kind"], ["title"]])
        #expect(YAMLModelWriter.text(for: version).contains("    compoundIndexes: [[day, kind], [title]]\n"))
        let graph = ArchiveGraph(try BinaryPropertyList.decode(CompiledModel.mom(for: version)))
        #expect(graph.entries["entity Event"]?["NSCompoundIndexes"]?.description == "[[day, kind], [title]]")
    }

    @Test func compoundIndexNamingAnUnknownPropertyIsAnError() {
        let result = Pipeline.load(
            text: "entities:\n  Event:\n    attributes:\n      day: Date\n    compoundIndexes: [[day, kinds]]\n", path: "E.model.yaml")
        #expect(
            result.diagnostics.map(\.description) == ["E.model.yaml:5:29: error: compound index names unknown property 'kinds' of 'Event'"])
    }

    @Test func fetchedPropertiesAreKeptAndDoNotChangeHashes() throws {
        let result = Self.load("FetchedProperties.xcdatamodel")
        // They compile into the .mom (FetchedPropertyCompileTests), so reading them says nothing.
        #expect(result.diagnostics.isEmpty)
        let version = try #require(result.model?.versions.first)
        let author = try #require(version.entity(named: "Author"))
        #expect(author.fetchedProperties.map(\.name) == ["recentBooks", "allBooks"])
        #expect(author.fetchedProperties.first?.entityName == "Book")
        #expect(author.fetchedProperties.first?.predicate == "author == $FETCH_SOURCE AND year > 2000")
        #expect(author.fetchedProperties.last?.predicate == nil)
        #expect(VersionHashes(version.withoutFetchedProperties) == VersionHashes(version))
        #expect(
            YAMLModelWriter.text(for: version).contains(
                "      recentBooks: { entity: Book, predicate: \"author == $FETCH_SOURCE AND year > 2000\" }\n"))
        let exported = XcodeModelWriter.contents(of: version)
        #expect(
            exported.contains(
                #"<fetchRequest name="fetchedPropertyFetchRequest" entity="Book" predicateString="author == $FETCH_SOURCE AND year &gt; 2000"/>"#
            ))
    }

    @Test func fetchedPropertyOfUnknownEntityIsAnError() {
        let result = Pipeline.load(
            text: "entities:\n  Author:\n    fetchedProperties:\n      books: { entity: Bok }\n  Book: {}\n", path: "F.model.yaml")
        #expect(
            result.diagnostics.contains {
                $0.description == "F.model.yaml:4:24: error: unknown entity 'Bok' fetched by 'Author.books'; did you mean 'Book'?"
            })
    }

    // MARK: Xcode 3 versions, positions

    @Test func xcode3VersionIsNamedAndTheOthersAreRead() throws {
        let result = Self.load("Library.xcdatamodeld")
        let model = try #require(result.model)
        #expect(model.versions.map(\.name) == ["Library 2"])
        #expect(model.currentVersionName == "Library 2")
        let warning = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1 && warning.severity == .warning)
        #expect(warning.location.file.hasSuffix("Library.xcdatamodeld/Library.xcdatamodel"))
        #expect(warning.message.hasPrefix("version 'Library' is in the binary format of Xcode 3"))
    }

    @Test func unreadableCurrentVersionIsAnError() throws {
        let folder = try RoundTripTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Library.xcdatamodeld")
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("Library.xcdatamodeld"), to: copy)
        let plist = copy.appendingPathComponent(".xccurrentversion")
        let text = try String(contentsOf: plist, encoding: .utf8).replacingOccurrences(
            of: "Library 2.xcdatamodel", with: "Library.xcdatamodel")
        try text.write(to: plist, atomically: true, encoding: .utf8)
        let result = Pipeline.load(copy.path)
        #expect(result.model == nil)
        #expect(result.diagnostics.contains { $0.severity == .error && $0.message == "the current version 'Library' cannot be read" })
    }

    @Test func xcode3VersionOnItsOwnIsAnError() {
        let result = Self.load("Library.xcdatamodeld/Library.xcdatamodel")
        #expect(result.hasErrors)
        #expect(result.model == nil)
    }

    @Test func diagnosticsPointAtTheElement() throws {
        let result = try XcodeModelReaderTests.load(
            "<model>\n  <entity name=\"A\">\n    <attribute name=\"x\"\n        attributeType=\"Mystery\"/>\n  </entity>\n  <gadget/>\n</model>"
        )
        // The unknown type is read as Undefined (a warning), which a stored attribute cannot have (an error).
        #expect(
            result.diagnostics.map { "\($0.location.line):\($0.location.column)" } == ["3:5", "3:5", "6:3"], "\(result.diagnostics)")
        #expect(result.model?.versions.first?.entity(named: "A")?.location?.line == 2)
    }
}

/// Names Core Data accepts but YAML or Swift treat specially.
struct ImportedNameTests {
    @Test func namesYAMLWouldReadAsOtherValuesAreQuotedAndReadBack() throws {
        let result = try XcodeModelReaderTests.load(
            """
            <model>
                <entity name="Switch" representedClassName="Switch">
                    <attribute name="on" optional="YES" attributeType="Boolean"/>
                    <attribute name="null" optional="YES" attributeType="String"/>
                    <attribute name="true" optional="YES" attributeType="String"/>
                    <attribute name="y" optional="YES" attributeType="Integer 16"/>
                </entity>
            </model>
            """)
        let model = try #require(result.model)
        let yaml = YAMLModelWriter.text(for: try #require(model.versions.first))
        #expect(yaml.contains("      \"on\": Boolean?\n") && yaml.contains("      \"null\": String?\n"))
        let reread = try RoundTripTests.throughYAML(model)
        #expect(!reread.hasErrors, "\(reread.diagnostics)")
        #expect(reread.model?.versions.first?.entities.first?.attributes.map(\.name) == ["on", "null", "true", "y"])
        let files = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
        let switchFile = try #require(files.first { $0.name == "Switch+CoreData.swift" }?.contents)
        #expect(switchFile.contains("@NSManaged public var `true`: String?"))
    }

    @Test func yamlAcceptsEveryClassNameFormCoreDataRecords() {
        let text = """
            entities:
              Folder: { class: .Folder }
              Bookmark: { class: Store.Bookmark }
              Tag: { class: NSManagedObject }
              Label: { class: NSManagedObject }
            """
        #expect(Pipeline.load(text: text, path: "C.model.yaml").diagnostics.isEmpty)
        let bad = Pipeline.load(text: "entities:\n  Folder: { class: App.Models.Folder }\n", path: "C.model.yaml")
        #expect(
            bad.diagnostics.map(\.description) == [
                "C.model.yaml:2:20: error: class name 'App.Models.Folder' of entity 'Folder' is not a Swift class name, '.Name' (current module), 'Module.Name' or 'NSManagedObject'"
            ])
    }

    @Test func metatypeMemberNamesAreRefusedByTheGenerator() throws {
        let result = Pipeline.load(text: "entities:\n  Shape:\n    attributes:\n      Type: String?\n", path: "S.model.yaml")
        #expect(!result.hasErrors)
        #expect(result.diagnostics.first?.message.contains("'X.Type' is a metatype") == true)
        let model = try #require(result.model)
        #expect(throws: SwiftGenerator.GenerationError.self) { try SwiftGenerator.generate(model, options: SwiftGenerator.Options()) }
    }
}
