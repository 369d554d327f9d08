import Foundation
import ModelSchema

/// Turns the elements of one `contents` file into a ``ModelVersion``. Every declaration carries
/// the position of its element; what Core Data ignores but Xcode leaves behind is dropped with a
/// warning; what modelgen cannot hold is a warning naming the element.
struct ElementReader {
    let path: String
    let diagnostics: DiagnosticCollector

    func location(_ element: XcodeXMLElement) -> SourceLocation {
        SourceLocation(file: path, line: element.line, column: element.column)
    }

    func readModel(_ root: XcodeXMLElement, versionName: String) -> ModelVersion {
        var version = ModelVersion(name: versionName, location: location(root))
        if let identifier = root["userDefinedModelVersionIdentifier"], !identifier.isEmpty { version.versionIdentifier = identifier }
        for element in root.children {
            switch element.name {
            case "entity": version.entities.append(readEntity(element))
            case "composite": version.composites.append(readComposite(element))
            case "configuration": version.configurations.append(readConfiguration(element))
            case "elements": break  // editor layout only
            case "fetchRequest":
                diagnostics.warning(
                    "fetch request template '\(element["name"] ?? "")' is not carried over (modelgen models have no fetch request templates; they do not affect version hashes)",
                    at: location(element))
            default:
                diagnostics.warning("unsupported element <\(element.name)> is not carried over", at: location(element))
            }
        }
        return version
    }

    private func readEntity(_ element: XcodeXMLElement) -> Entity {
        let name = element["name"] ?? ""
        var entity = Entity(name: name, location: location(element))
        // Kept exactly as written (`.Folder`, `Data.Bookmark`, `NSManagedObject`): it is what the
        // compiled model records as the entity's class.
        if let className = element["representedClassName"], className != name { entity.className = className }
        entity.parentName = element["parentEntity"]
        entity.isAbstract = element.flag("isAbstract")
        entity.versionHashModifier = element["versionHashModifier"]
        entity.renamingIdentifier = element["elementID"]
        for child in element.children {
            switch child.name {
            case "attribute": entity.attributes.append(readAttribute(child, owner: "entity '\(name)'"))
            case "relationship": entity.relationships.append(readRelationship(child))
            case "uniquenessConstraints":
                entity.uniquenessConstraints = child.children.map { constraint in constraint.children.compactMap { $0["value"] } }
            case "fetchIndex": entity.fetchIndexes.append(readFetchIndex(child))
            case "compoundIndexes":
                entity.compoundIndexes += child.children.filter { $0.name == "compoundIndex" }.map { index in
                    index.children.filter { $0.name == "index" }.compactMap { $0["value"] }
                }
            case "fetchedProperty": entity.fetchedProperties.append(readFetchedProperty(child, entityName: name))
            case "userInfo": entity.userInfo = child.userInfo
            default:
                diagnostics.warning("unsupported element <\(child.name)> in entity '\(name)' is not carried over", at: location(child))
            }
        }
        return entity
    }

    private func readAttribute(_ element: XcodeXMLElement, owner: String) -> Attribute {
        let name = element["name"] ?? ""
        let here = location(element)
        let typeName = element["attributeType"] ?? "Undefined"
        let type: AttributeType
        if typeName == "Composite" {
            type = .composite(element["composite"] ?? "")
        } else if let scalar = TypeNames.scalarTypesByName[typeName] {
            type = scalar
        } else {
            diagnostics.warning(
                "attribute '\(name)' of \(owner) has type '\(typeName)', which modelgen does not know; read as Undefined", at: here)
            type = .undefined
        }
        var attribute = Attribute(name: name, type: type, isOptional: element.flag("optional"), location: here)
        attribute.isTransient = element.flag("transient")
        attribute.isIndexed = element.flag("indexed")
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute.allowsCloudEncryption = element.flag("allowsCloudEncryption")
        if element.flag("derived") { attribute.derivationExpression = element["derivationExpression"] ?? "" }
        attribute.valueTransformerName = transformerName(element, type: type, context: "attribute '\(name)' of \(owner)")
        attribute.customClassName = element["customClassName"]
        attribute.renamingIdentifier = element["elementID"]
        attribute.versionHashModifier = element["versionHashModifier"]
        attribute.defaultValue = element["defaultValueString"].flatMap { XcodeLiterals.literal($0, of: type) }
        if type == .string || type == .binaryData {
            attribute.validation.minimumLength = element["minValueString"].flatMap { Int($0) }
            attribute.validation.maximumLength = element["maxValueString"].flatMap { Int($0) }
        } else {
            attribute.validation.minimum = element["minValueString"].flatMap { XcodeLiterals.literal($0, of: type) }
            attribute.validation.maximum = element["maxValueString"].flatMap { XcodeLiterals.literal($0, of: type) }
        }
        attribute.validation.regularExpression = element["regularExpressionString"]
        for child in element.children where child.name == "userInfo" { attribute.userInfo = child.userInfo }
        return attribute
    }

    /// Core Data uses a value transformer only for Transformable attributes, and an empty name
    /// means none. Xcode leaves both behind when a type changes; they are dropped with a warning.
    private func transformerName(_ element: XcodeXMLElement, type: AttributeType, context: String) -> String? {
        guard let name = element["valueTransformerName"] else { return nil }
        if name.isEmpty {
            diagnostics.warning(
                "\(context) has an empty value transformer name; it is dropped (Core Data reads an empty name as none)",
                at: location(element))
            return nil
        }
        if type != .transformable {
            diagnostics.warning(
                "\(context) is \(type.name) but names the value transformer '\(name)', which Core Data uses only for Transformable attributes; it is dropped",
                at: location(element))
            return nil
        }
        return name
    }

    private func readRelationship(_ element: XcodeXMLElement) -> Relationship {
        let name = element["name"] ?? ""
        var relationship = Relationship(name: name, destinationName: element["destinationEntity"] ?? "", location: location(element))
        relationship.isToMany = element.flag("toMany")
        relationship.isOrdered = element.flag("ordered")
        relationship.inverseName = element["inverseName"]
        relationship.isOneWay = relationship.inverseName == nil
        relationship.isOptional = element.flag("optional")
        relationship.isTransient = element.flag("transient")
        relationship.minCount = element["minCount"].flatMap { Int($0) }
        if relationship.isToMany { relationship.maxCount = element["maxCount"].flatMap { Int($0) } }
        relationship.renamingIdentifier = element["elementID"]
        relationship.versionHashModifier = element["versionHashModifier"]
        switch element["deletionRule"] ?? "Nullify" {
        case "Cascade": relationship.deleteRule = .cascade
        case "Deny": relationship.deleteRule = .deny
        case "No Action": relationship.deleteRule = .noAction
        default: relationship.deleteRule = .nullify
        }
        for child in element.children where child.name == "userInfo" { relationship.userInfo = child.userInfo }
        return relationship
    }

    /// `<fetchedProperty name="…"><fetchRequest name="…" entity="Note" predicateString="…"/></fetchedProperty>`.
    private func readFetchedProperty(_ element: XcodeXMLElement, entityName: String) -> FetchedProperty {
        let name = element["name"] ?? ""
        let request = element.children.first { $0.name == "fetchRequest" }
        if request == nil {
            diagnostics.warning("fetched property '\(entityName).\(name)' has no fetch request", at: location(element))
        }
        var property = FetchedProperty(
            name: name, entityName: request?["entity"] ?? "", isOptional: element.flag("optional"), location: location(element))
        if let predicate = request?["predicateString"], !predicate.isEmpty { property.predicate = predicate }
        for child in element.children where child.name == "userInfo" { property.userInfo = child.userInfo }
        return property
    }

    private func readFetchIndex(_ element: XcodeXMLElement) -> FetchIndex {
        let elements = element.children.filter { $0.name == "fetchIndexElement" }
        let kind: FetchIndex.Kind = elements.contains { $0["type"] == "RTree" } ? .rTree : .binary
        return FetchIndex(
            name: element["name"] ?? "",
            elements: elements.map {
                FetchIndex.Element(propertyName: $0["property"] ?? "", isAscending: $0["order"] != "descending", location: location($0))
            },
            kind: kind, location: location(element))
    }

    private func readComposite(_ element: XcodeXMLElement) -> CompositeType {
        let name = element["name"] ?? ""
        let fields = element.children.filter { $0.name == "attribute" }.map { readAttribute($0, owner: "composite '\(name)'") }
        return CompositeType(name: name, attributes: fields, location: location(element))
    }

    private func readConfiguration(_ element: XcodeXMLElement) -> Configuration {
        Configuration(
            name: element["name"] ?? "", entityNames: element.children.compactMap { $0["name"] },
            usedWithCloudKit: element.flag("usedWithCloudKit"), location: location(element))
    }
}

/// Defaults and bounds as Xcode writes them: strings (`YES`, `0.0`, a date as seconds since 2001).
enum XcodeLiterals {
    static func literal(_ text: String, of type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64: return Int64(text).map(AttributeValue.integer)
        case .decimal, .double, .float: return Double(text) != nil ? .number(text) : nil
        case .string: return .string(text)
        case .boolean: return .boolean(text == "YES" || text == "1" || text == "true")
        case .date:
            guard let seconds = Double(text) else { return nil }
            let formatter = ISO8601DateFormatter()
            return .date(formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)))
        case .uuid: return UUID(uuidString: text).map { .uuid($0.uuidString) }
        case .uri: return .uri(text)
        case .binaryData, .transformable, .objectID, .undefined, .composite: return nil
        }
    }
}
