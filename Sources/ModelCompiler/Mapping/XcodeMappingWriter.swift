import Foundation
import ModelSchema

/// Writes a mapping model as Xcode's editor saves one: `<X>.xcmappingmodel/xcmapping.xml`, a
/// Core Data XML store of `XDDEVMAPPINGMODEL`, `XDDEVENTITYMAPPING`, `XDDEVATTRIBUTEMAPPING` and
/// `XDDEVRELATIONSHIPMAPPING` objects in the layout of the fixtures Xcode wrote. Each entity
/// mapping lists every destination property, as Xcode's editor does; an expression that differs
/// from the generated one is stored archived (`valueexpressiondata`), a property left without a
/// value has `autogenerateexpression` 0. Xcode's embedded copies of the two models
/// (`sourcemodeldata`, `destinationmodeldata`, archives of Xcode's own model classes) are not
/// written; the versions are named by their paths in `<Model>.xcdatamodeld`. The text depends
/// only on the mapping.
enum XcodeMappingWriter {
    /// The header Xcode 15 writes: the store format and the version hashes of its editor's own
    /// model (copied from the fixtures), and a UUID derived from the mapping's text.
    static let storeModelHashes = [
        ("XDDevAttributeMapping", "0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc="),
        ("XDDevEntityMapping", "qeN1Ym3TkWN1G6dU9RfX6Kd2ccEvcDVWHpd3LpLgboI="),
        ("XDDevMappingModel", "EqtMzvRnVZWkXwBHu4VeVGy8UyoOe+bi67KC79kphlQ="),
        ("XDDevPropertyMapping", "XN33V44TTGY4JETlMoOB5yyTKxB+u4slvDIinv0rtGA="),
        ("XDDevRelationshipMapping", "akYY9LhehVA/mCb4ATLWuI9XGLcjpm14wWL1oEBtIcs="),
    ]
    static let hashesDigest = "+Hmc2uYZK6og+Pvx5GUJ7oW75UG4V/ksQanTjfTKUnxyGWJRMtB5tIRgVwGsrd7lz/QR57++wbvWsr6nxwyS0A=="

    /// `written` are the entity mappings as read (what they state explicitly), `compiled` the same
    /// mappings compiled.
    static func text(
        modelName: String, from: String, to: String, written: [EntityMappingSource], compiled: [MappingModel.EntityMapping]
    ) -> String {
        var objects: [String] = []
        var nextID = 102
        func newID() -> String {
            defer { nextID += 1 }
            return "z\(nextID)"
        }
        let modelID = newID()
        var entityIDs: [String] = []
        for (number, (source, mapping)) in zip(written, compiled).enumerated() {
            let entityID = newID()
            entityIDs.append(entityID)
            var attributeIDs: [String] = []
            var relationshipIDs: [String] = []
            for (list, type, isRelationship) in [
                (source.attributeMappings, "XDDEVATTRIBUTEMAPPING", false), (source.relationshipMappings, "XDDEVRELATIONSHIPMAPPING", true),
            ] {
                let properties = isRelationship ? mapping.relationshipMappings : mapping.attributeMappings
                let stated = Dictionary(list.map { ($0.name, $0) }) { first, _ in first }
                for property in properties {
                    guard let name = property.name else { continue }
                    let id = newID()
                    (isRelationship ? { relationshipIDs.append(id) } : { attributeIDs.append(id) })()
                    var fields: [String] = []
                    if let expression = stated[name]?.valueExpression {
                        fields.append(attribute("valueexpressiondata", "binary", base64(MappingExpressionArchive.encode(expression))))
                    }
                    if stated[name]?.hasNoValue == true {
                        fields.append(attribute("autogenerateexpression", "bool", "0"))
                    } else if isRelationship {
                        fields.append(attribute("autogenerateexpression", "bool", "1"))
                    }
                    fields.append(attribute("name", "string", name))
                    fields.append(relationship("entitymapping", "1/1", "XDDEVENTITYMAPPING", [entityID]))
                    objects.append(object(type, id, fields))
                }
            }
            var fields: [String] = []
            if let name = source.name { fields.append(attribute("name", "string", name)) }
            if let policy = mapping.entityMigrationPolicyClassName {
                fields.append(attribute("migrationpolicyclassname", "string", policy))
            }
            if let name = mapping.sourceEntityName { fields.append(attribute("sourcename", "string", name)) }
            fields.append(attribute("mappingtypename", "string", source.typeName ?? "Undefined"))
            fields.append(attribute("mappingnumber", "int16", String(number + 1)))
            if let name = mapping.destinationEntityName { fields.append(attribute("destinationname", "string", name)) }
            fields.append(attribute("autogenerateexpression", "bool", "1"))
            fields.append(relationship("mappingmodel", "1/1", "XDDEVMAPPINGMODEL", [modelID]))
            fields.append(relationship("attributemappings", "0/0", "XDDEVATTRIBUTEMAPPING", attributeIDs))
            fields.append(relationship("relationshipmappings", "0/0", "XDDEVRELATIONSHIPMAPPING", relationshipIDs))
            objects.append(object("XDDEVENTITYMAPPING", entityID, fields))
        }
        let versionPath = { (version: String) in "\(modelName).xcdatamodeld/\(version).xcdatamodel" }
        objects.insert(
            object(
                "XDDEVMAPPINGMODEL", modelID,
                [
                    attribute("sourcemodelpath", "string", versionPath(from)),
                    attribute("destinationmodelpath", "string", versionPath(to)),
                    relationship("entitymappings", "0/0", "XDDEVENTITYMAPPING", entityIDs),
                ]), at: 0)
        let body = objects.joined()
        return header(uuid: uuid(for: body), nextObjectID: nextID) + body + "</database>"
    }

    static func attribute(_ name: String, _ type: String, _ value: String) -> String {
        "        <attribute name=\"\(name)\" type=\"\(type)\">\(TextEscaping.xmlAttribute(value))</attribute>\n"
    }

    static func relationship(_ name: String, _ type: String, _ destination: String, _ ids: [String]) -> String {
        "        <relationship name=\"\(name)\" type=\"\(type)\" destination=\"\(destination)\" idrefs=\"\(ids.joined(separator: " "))\"></relationship>\n"
    }

    static func object(_ type: String, _ id: String, _ fields: [String]) -> String {
        "    <object type=\"\(type)\" id=\"\(id)\">\n" + fields.joined() + "    </object>\n"
    }

    /// Base64 in lines of 76 characters.
    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
    }

    static func uuid(for text: String) -> String {
        let hex = Digest.sha256(Array(text.utf8)).prefix(16).map { String($0, radix: 16, uppercase: true) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    static func header(uuid: String, nextObjectID: Int) -> String {
        let hashes = storeModelHashes.map { name, hash in
            """
                                    <key>\(name)</key>
                                    <data>
                    \t\t\(hash)
                    \t\t</data>

            """
        }.joined()
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>\(uuid)</UUID>
                    <nextObjectID>\(nextObjectID)</nextObjectID>
                    <metadata>
                        <plist version="1.0">
                            <dict>
                                <key>NSPersistenceFrameworkVersion</key>
                                <integer>1044</integer>
                                <key>NSStoreModelVersionHashes</key>
                                <dict>

            """ + hashes + """
                                    </dict>
                                    <key>NSStoreModelVersionHashesDigest</key>
                                    <string>\(hashesDigest)</string>
                                    <key>NSStoreModelVersionHashesVersion</key>
                                    <integer>3</integer>
                                    <key>NSStoreModelVersionIdentifiers</key>
                                    <array>
                                        <string></string>
                                    </array>
                                </dict>
                            </plist>
                        </metadata>
                    </databaseInfo>

                """
    }
}
