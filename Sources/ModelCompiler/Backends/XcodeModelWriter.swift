import Foundation
import ModelSchema

/// Writes a ``Model`` as an Xcode `.xcdatamodeld`: one `contents` XML per version in the form
/// Xcode's model editor writes, plus `.xccurrentversion`. Enums and documentation have no place
/// in Xcode's format: enum attributes are written as their raw type.
public enum XcodeModelWriter {
    /// Files relative to the folder that will hold `<Name>.xcdatamodeld`.
    public static func files(for model: Model) -> [(path: String, text: String)] {
        let folder = "\(model.name).xcdatamodeld"
        var files = model.versions.map { version in
            ("\(folder)/\(version.name).xcdatamodel/contents", contents(of: version))
        }
        files.append(("\(folder)/.xccurrentversion", currentVersionPlist(model.currentVersionName)))
        return files
    }

    static func currentVersionPlist(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(escape(name)).xcdatamodel</string>
        </dict>
        </plist>

        """
    }

    public static func contents(of version: ModelVersion) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
            #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="\#(escape(version.versionIdentifier ?? ""))">"#,
        ]
        for entity in version.entities.sorted(by: { $0.name < $1.name }) { lines += entityLines(entity) }
        for composite in version.composites.sorted(by: { $0.name < $1.name }) {
            if composite.attributes.isEmpty {
                lines.append("    " + element("composite", [("name", composite.name)]) + "/>")
                continue
            }
            lines.append("    " + element("composite", [("name", composite.name)]) + ">")
            for field in composite.attributes { lines.append("        " + attributeElement(field) + "/>") }
            lines.append("    </composite>")
        }
        for configuration in version.configurations.sorted(by: { $0.name < $1.name }) {
            var attributes = [("name", configuration.name)]
            if configuration.usedWithCloudKit { attributes.append(("usedWithCloudKit", "YES")) }
            lines.append("    " + element("configuration", attributes) + ">")
            for name in configuration.entityNames { lines.append("        " + element("memberEntity", [("name", name)]) + "/>") }
            lines.append("    </configuration>")
        }
        lines.append("</model>")
        return lines.joined(separator: "\n")
    }

    private static func entityLines(_ entity: Entity) -> [String] {
        var attributes = [("name", entity.name), ("representedClassName", entity.className ?? entity.name)]
        if let parent = entity.parentName { attributes.append(("parentEntity", parent)) }
        if entity.isAbstract { attributes.append(("isAbstract", "YES")) }
        if let renaming = entity.renamingIdentifier { attributes.append(("elementID", renaming)) }
        if let modifier = entity.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        attributes.append(("syncable", "YES"))
        var children: [String] = []
        // Xcode lists the attributes, then the relationships, each sorted by name.
        let properties =
            entity.attributes.sorted { $0.name < $1.name }.map { ($0.name, [attributeElement($0)], $0.userInfo) }
            + entity.relationships.sorted { $0.name < $1.name }.map { ($0.name, [relationshipElement($0)], $0.userInfo) }
        for (_, opening, userInfo) in properties {
            if userInfo.isEmpty {
                children.append("        " + opening[0] + "/>")
            } else {
                children.append("        " + opening[0] + ">")
                children += userInfoLines(userInfo, indent: "            ")
                children.append("        </\(opening[0].hasPrefix("<attribute") ? "attribute" : "relationship")>")
            }
        }
        for fetched in entity.fetchedProperties.sorted(by: { $0.name < $1.name }) {
            var attributes = [("name", fetched.name)]
            if fetched.isOptional { attributes.append(("optional", "YES")) }
            children.append("        " + element("fetchedProperty", attributes) + ">")
            var request = [("name", "fetchedPropertyFetchRequest"), ("entity", fetched.entityName)]
            if let predicate = fetched.predicate { request.append(("predicateString", predicate)) }
            children.append("            " + element("fetchRequest", request) + "/>")
            if !fetched.userInfo.isEmpty { children += userInfoLines(fetched.userInfo, indent: "            ") }
            children.append("        </fetchedProperty>")
        }
        for index in entity.fetchIndexes {
            children.append("        " + element("fetchIndex", [("name", index.name)]) + ">")
            for indexElement in index.elements {
                children.append(
                    "            "
                        + element(
                            "fetchIndexElement",
                            [
                                ("property", indexElement.propertyName), ("type", index.kind == .rTree ? "RTree" : "Binary"),
                                ("order", indexElement.isAscending ? "ascending" : "descending"),
                            ]) + "/>")
            }
            children.append("        </fetchIndex>")
        }
        if !entity.compoundIndexes.isEmpty {
            children.append("        <compoundIndexes>")
            for members in entity.compoundIndexes {
                children.append("            <compoundIndex>")
                for member in members { children.append("                " + element("index", [("value", member)]) + "/>") }
                children.append("            </compoundIndex>")
            }
            children.append("        </compoundIndexes>")
        }
        if !entity.uniquenessConstraints.isEmpty {
            children.append("        <uniquenessConstraints>")
            for constraint in entity.uniquenessConstraints {
                children.append("            <uniquenessConstraint>")
                for member in constraint { children.append("                " + element("constraint", [("value", member)]) + "/>") }
                children.append("            </uniquenessConstraint>")
            }
            children.append("        </uniquenessConstraints>")
        }
        if !entity.userInfo.isEmpty { children += userInfoLines(entity.userInfo, indent: "        ") }
        let opening = "    " + element("entity", attributes)
        return children.isEmpty ? [opening + "/>"] : [opening + ">"] + children + ["    </entity>"]
    }

    private static func userInfoLines(_ userInfo: [String: String], indent: String) -> [String] {
        [indent + "<userInfo>"]
            + userInfo.keys.sorted().map { indent + "    " + element("entry", [("key", $0), ("value", userInfo[$0]!)]) + "/>" }
            + [indent + "</userInfo>"]
    }

    /// The opening tag of an attribute, without its closing `>` or `/>`.
    static func attributeElement(_ attribute: Attribute) -> String {
        var attributes = [("name", attribute.name)]
        if attribute.isOptional { attributes.append(("optional", "YES")) }
        if attribute.isTransient { attributes.append(("transient", "YES")) }
        if case .composite(let name) = attribute.type {
            attributes.append(("attributeType", "Composite"))
            attributes.append(("composite", name))
        } else {
            attributes.append(("attributeType", xcodeTypeName(attribute.type)))
        }
        let validation = attribute.validation
        if attribute.type == .string || attribute.type == .binaryData {
            if let minimum = validation.minimumLength { attributes.append(("minValueString", String(minimum))) }
            if let maximum = validation.maximumLength { attributes.append(("maxValueString", String(maximum))) }
        } else {
            if let minimum = validation.minimum { attributes.append(("minValueString", literal(minimum))) }
            if let maximum = validation.maximum { attributes.append(("maxValueString", literal(maximum))) }
        }
        if let pattern = validation.regularExpression { attributes.append(("regularExpressionString", pattern)) }
        if let value = attribute.defaultValue { attributes.append(("defaultValueString", literal(value))) }
        if attribute.isDerived { attributes.append(("derived", "YES")) }
        if let expression = attribute.derivationExpression { attributes.append(("derivationExpression", expression)) }
        if attribute.type.isNumeric || attribute.type == .boolean {
            attributes.append(("usesScalarValueType", "YES"))
        } else if attribute.type == .date || attribute.type == .uuid {
            attributes.append(("usesScalarValueType", "NO"))
        }
        if let transformer = attribute.valueTransformerName { attributes.append(("valueTransformerName", transformer)) }
        if let customClass = attribute.customClassName { attributes.append(("customClassName", customClass)) }
        if attribute.allowsExternalBinaryDataStorage { attributes.append(("allowsExternalBinaryDataStorage", "YES")) }
        if attribute.preservesValueInHistoryOnDeletion { attributes.append(("preserveAfterDeletion", "YES")) }
        if attribute.allowsCloudEncryption { attributes.append(("allowsCloudEncryption", "YES")) }
        if attribute.isIndexed { attributes.append(("indexed", "YES")) }
        if let renaming = attribute.renamingIdentifier { attributes.append(("elementID", renaming)) }
        if let modifier = attribute.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        return element("attribute", attributes)
    }

    static func relationshipElement(_ relationship: Relationship) -> String {
        var attributes = [("name", relationship.name)]
        if relationship.isOptional { attributes.append(("optional", "YES")) }
        if relationship.isTransient { attributes.append(("transient", "YES")) }
        if relationship.isToMany {
            attributes.append(("toMany", "YES"))
            if let maxCount = relationship.maxCount { attributes.append(("maxCount", String(maxCount))) }
        } else {
            attributes.append(("maxCount", "1"))
        }
        if let minCount = relationship.minCount { attributes.append(("minCount", String(minCount))) }
        if relationship.isOrdered { attributes.append(("ordered", "YES")) }
        let rule =
            switch relationship.deleteRule {
            case .nullify: "Nullify"
            case .cascade: "Cascade"
            case .deny: "Deny"
            case .noAction: "No Action"
            }
        attributes.append(("deletionRule", rule))
        attributes.append(("destinationEntity", relationship.destinationName))
        if let inverse = relationship.inverseName {
            attributes.append(("inverseName", inverse))
            attributes.append(("inverseEntity", relationship.destinationName))
        }
        if let renaming = relationship.renamingIdentifier { attributes.append(("elementID", renaming)) }
        if let modifier = relationship.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        return element("relationship", attributes)
    }

    static func xcodeTypeName(_ type: AttributeType) -> String {
        type == .binaryData ? "Binary" : type.name
    }

    /// Defaults and bounds as Xcode writes them: Booleans as YES/NO, dates as seconds since 2001.
    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .number(let text), .string(let text), .uuid(let text), .uri(let text): return text
        case .boolean(let flag): return flag ? "YES" : "NO"
        case .date(let text):
            guard let date = ISO8601.date(from: text) else { return text }
            let seconds = date.timeIntervalSinceReferenceDate
            return seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
        }
    }

    private static func element(_ name: String, _ attributes: [(String, String)]) -> String {
        "<\(name)" + attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    static func escape(_ text: String) -> String {
        TextEscaping.xmlAttribute(text)
    }
}
