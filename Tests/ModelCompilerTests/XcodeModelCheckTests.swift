import Foundation
import ModelSchema
import Testing

@testable import ModelCompiler

/// Xcode models go through the same checks as YAML models, with Core Data's naming rules, plus
/// the check that the Swift generated from them compiles.
struct XcodeModelCheckTests {
    static func errors(_ result: Pipeline.Result) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    @Test func capitalisedPropertyNamesAreLegalCoreData() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Library",
            """
            <entity name="Book" representedClassName="Book">
                <attribute name="Title" optional="YES" attributeType="String"/>
                <relationship name="Shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="Books"/>
            </entity>
            <entity name="Shelf">
                <relationship name="Books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="Shelf"/>
            </entity>
            """)
        let result = Pipeline.load(path)
        #expect(Self.errors(result) == [])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func inheritanceCyclesUnknownDestinationsAndDuplicateEntitiesAreErrors() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Broken",
            """
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
            <entity name="Trip">
                <relationship name="stop" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Stopp"/>
            </entity>
            <entity name="Trip"/>
            <entity name="Stop">
                <attribute name="name" attributeType="String"/>
                <attribute name="name" attributeType="String"/>
            </entity>
            """)
        let result = Pipeline.load(path)
        let contents = scratch.path("Broken.xcdatamodeld/Broken.xcdatamodel/contents")
        // The body starts on line 3, indented by nothing; its nested elements by four spaces.
        #expect(
            result.diagnostics.filter { $0.severity == .error }.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
                "3:1 inheritance cycle: A → B → A",
                "6:5 unknown destination entity 'Stopp' of relationship 'Trip.stop'; did you mean 'Stop'?",
                "8:1 entity 'Trip' is declared twice",
                "11:5 'Stop' declares more than one property named 'name'",
            ])
        #expect(result.diagnostics.allSatisfy { $0.location.file == contents })
        #expect(result.diagnostics.first { $0.message.hasPrefix("entity 'Trip'") }?.notes.map(\.location.line) == [5])
    }

    @Test func propertiesNamedAfterManagedObjectMethodsAreErrors() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Notes", #"<entity name="Note"><attribute name="description" optional="YES" attributeType="String"/></entity>"#)
        #expect(
            Self.errors(Pipeline.load(path)) == [
                "attribute name 'description' collides with a member of NSManagedObject; choose another name"
            ])
    }

    @Test func classNamesThatAreNotSwiftIdentifiersAreErrors() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Escape",
            """
            <entity name="Evil" representedClassName="../../../x"/>
            <entity name="Spaced" representedClassName="My Class"/>
            """)
        #expect(
            Set(Self.errors(Pipeline.load(path))) == [
                "class name '../../../x' of entity 'Evil' cannot be named in Swift; use a Swift class name, '.Name' (current module), 'Module.Name' or 'NSManagedObject'",
                "class name 'My Class' of entity 'Spaced' cannot be named in Swift; use a Swift class name, '.Name' (current module), 'Module.Name' or 'NSManagedObject'",
            ])
    }

    @Test func anEntityNamedLikeTheModelTypeIsAnError() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel("Foo", #"<entity name="FooModel"/>"#)
        #expect(Self.errors(Pipeline.load(path)) == ["'FooModel' is the name of the type generated for model 'Foo'; choose another name"])
        let composite = try scratch.writeXcodeModel("Bar", #"<composite name="BarModel"/>"#)
        #expect(
            Self.errors(Pipeline.load(composite)) == ["'BarModel' is the name of the type generated for model 'Bar'; choose another name"])
    }

    @Test func twoEntitiesWithOneClassAreAnError() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Shared", #"<entity name="Trip" representedClassName="Journey"/><entity name="Journey"/>"#)
        #expect(Self.errors(Pipeline.load(path)) == ["entities 'Trip' and 'Journey' would both generate class 'Journey'"])
        let withComposite = try scratch.writeXcodeModel("Mixed", #"<entity name="Place"/><composite name="Place"/>"#)
        #expect(
            Self.errors(Pipeline.load(withComposite)) == [
                "composite 'Place' and the class of entity 'Place' would both be declared as 'Place'"
            ])
    }

    @Test func classesDifferingOnlyInCaseAreAnError() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel("Cased", #"<entity name="Trip"/><entity name="TRIP"/>"#)
        #expect(
            Self.errors(Pipeline.load(path)) == [
                "the classes 'Trip' of entity 'Trip' and 'TRIP' of entity 'TRIP' differ only in case; their files would be one file on a case-insensitive file system"
            ])
    }

    @Test func anEmptyVersionNameIsAnError() throws {
        let scratch = try ScratchFolder()
        try scratch.write(
            "Odd.xcdatamodeld/.xcdatamodel/contents",
            #"<?xml version="1.0"?><model type="com.apple.IDECoreDataModeler.DataModel"><entity name="Trip"/></model>"#)
        #expect(Self.errors(Pipeline.load(scratch.path("Odd.xcdatamodeld"))) == ["a version name cannot be empty"])
    }

    @Test func generateRefusesAPropertyNamedLikeTheNestedKeysType() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Keyed",
            """
            <entity name="Item">
                <attribute name="Keys" optional="YES" attributeType="String"/>
            </entity>
            """)
        #expect(Self.errors(Pipeline.load(path)) == [])
        let output = Pipeline.run(.init(modelPath: path, product: .swiftSources, outputFolder: scratch.path("out")))
        #expect(output.files.isEmpty)
        #expect(
            output.diagnostics.filter { $0.severity == .error }.map(\.message) == [
                "property 'Item.Keys' collides with the 'Keys' enum generated classes declare"
            ])
    }

    @Test func generateRefusesToManyRelationshipsWhoseAccessorsWouldCollide() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Lists",
            """
            <entity name="List">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="list"/>
                <relationship name="Items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="List"/>
            </entity>
            <entity name="Item">
                <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items"/>
                <relationship name="List" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="Items"/>
            </entity>
            """)
        let output = Pipeline.run(.init(modelPath: path, product: .swiftSources, outputFolder: scratch.path("out")))
        #expect(output.files.isEmpty)
        #expect(
            output.diagnostics.filter { $0.severity == .error }.map(\.message) == [
                "to-many relationships 'items' and 'Items' of 'List' would both generate 'addToItems'"
            ])
    }

    @Test func customClassNamesMustBeSwiftTypes() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel(
            "Types",
            """
            <entity name="Item">
                <attribute name="tags" optional="YES" attributeType="Transformable" customClassName="[String]"/>
                <attribute name="map" optional="YES" attributeType="Transformable" customClassName="[String: Foundation.Data]"/>
                <attribute name="leading" optional="YES" attributeType="Transformable" customClassName=".Color"/>
                <attribute name="injected" optional="YES" attributeType="Transformable" customClassName="NSArray&#10;import Evil"/>
            </entity>
            """)
        #expect(
            Set(Self.errors(Pipeline.load(path))) == [
                "attribute 'Item.leading' would have the Swift type '.Color?', which is not a Swift type",
                "attribute 'Item.injected' would have the Swift type 'NSArray\nimport Evil?', which is not a Swift type",
            ])
    }

    @Test func aYAMLSwiftTypeIsCheckedToo() {
        let text = "entities:\n  Item:\n    attributes:\n      value: { type: Transformable, swiftType: \"NSArray)\", optional: true }\n"
        #expect(
            Self.errors(Pipeline.load(text: text, path: "Items.model.yaml")) == [
                "attribute 'Item.value' would have the Swift type 'NSArray)?', which is not a Swift type"
            ])
    }

    @Test func documentationWithCarriageReturnsStaysInComments() throws {
        let text = "entities:\n  Item:\n    documentation: \"One\\rimport Evil\\r\\nTwo\"\n    attributes:\n      name: String\n"
        let model = try #require(Pipeline.load(text: text, path: "Items.model.yaml").model)
        let files = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
        let source = try #require(files.first { $0.name == "Item+CoreData.swift" }).contents
        #expect(source.contains("/// One\n/// import Evil\n/// Two\n"))
        #expect(!source.unicodeScalars.contains("\r"))
    }

    @Test func importWritesTheYAMLModelAndReportsItsErrorsForFixingByHand() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel("Odd", #"<entity name="Item"><attribute name="x" attributeType="Mystery"/></entity>"#)
        #expect(Self.errors(Pipeline.load(path)).count == 1)
        let output = Pipeline.run(.init(modelPath: path, product: .yamlModel, outputFolder: scratch.path("out")))
        #expect(output.files.map(\.path) == ["Odd.model.yaml"])
        #expect(
            output.diagnostics.filter { $0.severity == .error }.map(\.location.file) == [scratch.path("out/Odd.model.yaml")])
    }

    @Test func generateWritesNothingForAModelWithErrors() throws {
        let scratch = try ScratchFolder()
        let path = try scratch.writeXcodeModel("Escape", #"<entity name="Evil" representedClassName="../x"/>"#)
        let output = Pipeline.run(.init(modelPath: path, product: .swiftSources, outputFolder: scratch.path("out/a/b")))
        #expect(output.hasErrors)
        #expect(output.files.isEmpty)
    }
}
