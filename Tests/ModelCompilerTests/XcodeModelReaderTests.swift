import Foundation
import ModelCompiler
import ModelSchema
import Testing

struct XcodeModelReaderTests {
    static func load(_ xml: String) throws -> Pipeline.Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try xml.write(to: url.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return Pipeline.load(url.path)
    }

    @Test func olderFormatsWithoutClassNamesImport() throws {
        let result = try Self.load(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model userDefinedModelVersionIdentifier="" type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1811" systemVersion="11D50" minimumToolsVersion="Xcode 4.3" macOSVersion="Automatic" iOSVersion="Automatic">
                <entity name="Note" syncable="YES">
                    <attribute name="body" optional="YES" attributeType="String" syncable="YES"/>
                    <attribute name="created" attributeType="Date" defaultDateTimeInterval="0" syncable="YES"/>
                </entity>
            </model>
            """)
        let entity = try #require(result.model?.versions.first?.entities.first)
        #expect(entity.name == "Note" && entity.className == nil)
        #expect(entity.attributes.map(\.name) == ["body", "created"])
        #expect(!result.hasErrors)
    }

    @Test func whatYAMLCannotHoldIsAWarningNamingTheElement() throws {
        let result = try Self.load(
            """
            <model>
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                    <fetchedProperty name="related" optional="YES"><fetchRequest name="r" entity="Note"/></fetchedProperty>
                </entity>
                <fetchRequest name="AllNotes" entity="Note"/>
            </model>
            """)
        let messages = result.diagnostics.map(\.message)
        #expect(result.model?.versions.first?.entity(named: "Note")?.fetchedProperties.map(\.name) == ["related"])
        #expect(messages.contains { $0.contains("fetch request template 'AllNotes'") })
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
        // The fetched property compiles into the .mom, so only the template is reported.
        #expect(result.diagnostics.map(\.location.line) == [6])
    }

    @Test func invalidXMLIsAnError() throws {
        let result = try Self.load("<model><entity name=\"A\"></model>")
        #expect(result.hasErrors)
        #expect(result.diagnostics.first?.message.contains("not valid XML") == true)
    }

    @Test func everyAttributeOptionIsRead() throws {
        let result = try Self.load(
            """
            <model userDefinedModelVersionIdentifier="7">
                <entity name="Doc" representedClassName="DocumentObject" elementID="Document" versionHashModifier="h">
                    <attribute name="size" attributeType="Integer 32" minValueString="0" maxValueString="10" defaultValueString="3" usesScalarValueType="YES" elementID="length"/>
                    <attribute name="title" attributeType="String" minValueString="1" maxValueString="80" regularExpressionString="[A-Z].*"/>
                    <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" allowsCloudEncryption="YES"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/>
                    <fetchIndex name="bySize"><fetchIndexElement property="size" type="Binary" order="descending"/></fetchIndex>
                    <userInfo><entry key="k" value="v"/></userInfo>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Doc"/></configuration>
            </model>
            """)
        let version = try #require(result.model?.versions.first)
        #expect(version.versionIdentifier == "7")
        let doc = try #require(version.entities.first)
        #expect(doc.className == "DocumentObject" && doc.renamingIdentifier == "Document" && doc.versionHashModifier == "h")
        #expect(doc.userInfo == ["k": "v"])
        let size = try #require(doc.attribute(named: "size"))
        #expect(size.validation.minimum == .integer(0) && size.validation.maximum == .integer(10) && size.defaultValue == .integer(3))
        #expect(size.renamingIdentifier == "length")
        let title = try #require(doc.attribute(named: "title"))
        #expect(
            title.validation.minimumLength == 1 && title.validation.maximumLength == 80 && title.validation.regularExpression == "[A-Z].*")
        let blob = try #require(doc.attribute(named: "blob"))
        #expect(blob.allowsExternalBinaryDataStorage && blob.allowsCloudEncryption)
        #expect(doc.attribute(named: "count")?.derivationExpression == "pages.@count")
        #expect(doc.fetchIndexes.first?.elements.first?.isAscending == false)
        #expect(version.configurations.first?.usedWithCloudKit == true)
    }
}

struct XcodeModelRobustnessTests {
    /// libxml2 refuses a single pushed chunk over 10 MB; contents that large (exports of big
    /// models reach it) must still read.
    @Test func contentsLargerThanTenMegabytesRead() throws {
        let padding = String(repeating: "<!-- padding -->\n", count: 700_000)
        let result = try XcodeModelReaderTests.load(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(padding)<entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """)
        #expect(padding.utf8.count > 10_000_000)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(result.model?.versions.first?.entities.map(\.name) == ["Note"])
    }

    @Test(arguments: ["", "   \n", "<?xml version=\"1.0\"?>\n<!-- only a comment -->", "<model", "\u{0}\u{1}garbage"])
    func brokenContentsAreErrorsNotCrashes(_ text: String) throws {
        let result = try XcodeModelReaderTests.load(text)
        #expect(result.hasErrors)
        #expect(result.model == nil)
    }

    @Test func mutatedFixtureContentsNeverCrash() throws {
        let original = Array(
            try String(
                contentsOf: CoreDataFixtureTests.coredata.appendingPathComponent(
                    "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents"), encoding: .utf8
            ).utf8)
        var generator = SplitMix64(seed: 99)
        let alphabet = Array("<>/=\"' &;!?-abcYES".utf8)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                if Bool.random(using: &generator) {
                    bytes[index] = alphabet.randomElement(using: &generator)!
                } else {
                    bytes.remove(at: index)
                }
            }
            _ = try XcodeModelReaderTests.load(String(decoding: bytes, as: UTF8.self))
        }
    }
}
