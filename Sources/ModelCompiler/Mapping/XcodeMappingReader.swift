import Foundation
import ModelSchema

/// Reads a mapping model saved by Xcode's editor: a `.xcmappingmodel` folder whose
/// `xcmapping.xml` is a Core Data XML store of `XDDEVMAPPINGMODEL`, `XDDEVENTITYMAPPING`,
/// `XDDEVATTRIBUTEMAPPING` and `XDDEVRELATIONSHIPMAPPING` objects. Value expressions are keyed
/// archives of `NSExpression` (`valueexpressiondata`); the source and destination versions are
/// named by their `.xcdatamodel` paths and embedded as Xcode's own model archives, read as
/// outlines to compare with the model's versions.
struct XcodeMappingReader {
    static let suffix = ".xcmappingmodel"
    static let fileName = "xcmapping.xml"

    let diagnostics: DiagnosticCollector

    /// One `<object>` of the store: its attributes' texts and its relationships' target ids.
    struct StoreObject {
        let type: String
        let id: String
        var attributes: [String: (text: String, location: SourceLocation)] = [:]
        var relationships: [String: [String]] = [:]
        let location: SourceLocation
    }

    static func isMappingModel(_ path: String) -> Bool {
        let trimmed = path.trimmingSlashes
        return trimmed.hasSuffix(suffix) || (trimmed.hasSuffix("/" + fileName) && trimmed.dropLast(fileName.count + 1).hasSuffix(suffix))
    }

    static func name(of path: String) -> String {
        var trimmed = path.trimmingSlashes
        if trimmed.hasSuffix("/" + fileName) { trimmed = String(trimmed.dropLast(fileName.count + 1)) }
        let file = (trimmed as NSString).lastPathComponent
        return file.hasSuffix(suffix) ? String(file.dropLast(suffix.count)) : file
    }

    /// Whether the mapping model at `mappingPath` names versions inside a folder called
    /// `modelFolder` (`SampleModel.xcdatamodeld`), as Xcode records the models it maps.
    static func namesModelFolder(_ modelFolder: String, mappingPath: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: mappingPath + "/" + fileName) else { return false }
        let text = String(decoding: data, as: UTF8.self)
        return text.contains(">\(modelFolder)/") || text.contains("/\(modelFolder)/")
    }

    func read(_ path: String) -> MappingSource? {
        let trimmed = path.trimmingSlashes
        let xmlPath = trimmed.hasSuffix(Self.fileName) ? trimmed : trimmed + "/" + Self.fileName
        guard let data = FileManager.default.contents(atPath: xmlPath) else {
            diagnostics.error("cannot read the mapping model: no \(Self.fileName) here", at: .file(trimmed))
            return nil
        }
        if let problem = UTF8Check.firstProblem(in: [UInt8](data)) {
            diagnostics.error(
                "the mapping model is not valid XML: \(problem.description)",
                at: SourceLocation(file: xmlPath, line: problem.line, column: problem.column))
            return nil
        }
        let root: XcodeXMLElement
        switch XcodeXMLTree.parse(data) {
        case .failure(.malformed(let reason, let line, let column)):
            diagnostics.error(
                "the mapping model is not valid XML: \(reason)", at: SourceLocation(file: xmlPath, line: line, column: column))
            return nil
        case .success(let element):
            root = element
        }
        guard root.name == "database" else {
            diagnostics.error("expected a <database> root element", at: location(root, xmlPath))
            return nil
        }
        var objects: [String: StoreObject] = [:]
        for element in root.children where element.name == "object" {
            let object = storeObject(element, xmlPath)
            objects[object.id] = object
        }
        guard let model = objects.values.filter({ $0.type == "XDDEVMAPPINGMODEL" }).min(by: { $0.location < $1.location }) else {
            diagnostics.error("the mapping model holds no XDDEVMAPPINGMODEL object", at: location(root, xmlPath))
            return nil
        }
        let listed = (model.relationships["entitymappings"] ?? []).compactMap { objects[$0] }.filter { $0.type == "XDDEVENTITYMAPPING" }
        let ordered = listed.enumerated().sorted { lhs, rhs in
            let left = Int(lhs.element.attributes["mappingnumber"]?.text ?? "") ?? Int.max
            let right = Int(rhs.element.attributes["mappingnumber"]?.text ?? "") ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        return MappingSource(
            name: Self.name(of: trimmed), path: xmlPath,
            sourceVersion: versionReference(model, side: "source", xmlPath),
            destinationVersion: versionReference(model, side: "destination", xmlPath),
            entityMappings: ordered.map { entityMapping($0, objects: objects) }, listsEveryProperty: true)
    }

    private func location(_ element: XcodeXMLElement, _ path: String) -> SourceLocation {
        SourceLocation(file: path, line: element.line, column: element.column)
    }

    private func storeObject(_ element: XcodeXMLElement, _ path: String) -> StoreObject {
        var object = StoreObject(type: element["type"] ?? "", id: element["id"] ?? "", location: location(element, path))
        for child in element.children {
            guard let name = child["name"] else { continue }
            switch child.name {
            case "attribute": object.attributes[name] = (child.text, location(child, path))
            case "relationship": object.relationships[name] = (child["idrefs"] ?? "").split(separator: " ").map(String.init)
            default: break
            }
        }
        return object
    }

    private static let knownAttributes: [String: Set<String>] = [
        "XDDEVMAPPINGMODEL": ["sourcemodelpath", "sourcemodeldata", "destinationmodelpath", "destinationmodeldata"],
        "XDDEVENTITYMAPPING": [
            "name", "migrationpolicyclassname", "sourcename", "destinationname", "mappingtypename", "mappingnumber",
            "autogenerateexpression",
        ],
        "XDDEVATTRIBUTEMAPPING": ["name", "valueexpressiondata", "autogenerateexpression"],
        "XDDEVRELATIONSHIPMAPPING": ["name", "valueexpressiondata", "autogenerateexpression"],
    ]

    /// Warns about what Xcode may write that this reader does not carry over.
    private func warnAboutUnread(_ object: StoreObject) {
        let known = Self.knownAttributes[object.type] ?? []
        for (name, value) in object.attributes.sorted(by: { $0.key < $1.key }) where !known.contains(name) {
            diagnostics.warning("'\(name)' of this \(object.type) is not carried into the compiled mapping model", at: value.location)
        }
    }

    private func versionReference(_ model: StoreObject, side: String, _ path: String) -> MappingSource.VersionReference? {
        warnAboutUnread(model)
        guard let modelPath = model.attributes["\(side)modelpath"] else {
            diagnostics.error("the mapping model names no \(side) model", at: model.location)
            return nil
        }
        var outline: ModelOutline?
        if let embedded = model.attributes["\(side)modeldata"] {
            if let bytes = Data(base64Encoded: embedded.text, options: .ignoreUnknownCharacters) {
                outline = XcodeEmbeddedModelReader.outline([UInt8](bytes))
            }
            if outline == nil {
                diagnostics.warning(
                    "Xcode's copy of the \(side) model cannot be read; it is not compared with the model", at: embedded.location)
            }
        }
        return MappingSource.VersionReference(
            name: XcodeModelReader.baseName(modelPath.text.trimmingCharacters(in: .whitespacesAndNewlines)), location: modelPath.location,
            embeddedOutline: outline)
    }

    private func entityMapping(_ object: StoreObject, objects: [String: StoreObject]) -> EntityMappingSource {
        warnAboutUnread(object)
        let text = { (name: String) -> String? in
            object.attributes[name].map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        }
        let properties = { (relationship: String, type: String) -> [PropertyMappingSource] in
            (object.relationships[relationship] ?? []).compactMap { objects[$0] }.filter { $0.type == type }.map { propertyMapping($0) }
        }
        return EntityMappingSource(
            name: text("name"), typeName: text("mappingtypename"), typeLocation: object.attributes["mappingtypename"]?.location,
            sourceEntityName: text("sourcename"),
            destinationEntityName: text("destinationname"), sourceLocation: object.attributes["sourcename"]?.location,
            destinationLocation: object.attributes["destinationname"]?.location, policyClassName: text("migrationpolicyclassname"),
            sourceExpression: nil,
            attributeMappings: properties("attributemappings", "XDDEVATTRIBUTEMAPPING"),
            relationshipMappings: properties("relationshipmappings", "XDDEVRELATIONSHIPMAPPING"), location: object.location)
    }

    private func propertyMapping(_ object: StoreObject) -> PropertyMappingSource {
        warnAboutUnread(object)
        var expression: MappingExpression?
        if let archived = object.attributes["valueexpressiondata"] {
            if let bytes = Data(base64Encoded: archived.text, options: .ignoreUnknownCharacters) {
                do {
                    expression = try MappingExpressionArchive.decode([UInt8](bytes))
                } catch {
                    diagnostics.error("the value expression cannot be read: \(error.message)", at: archived.location)
                }
            } else {
                diagnostics.error("the value expression is not base64 data", at: archived.location)
            }
        }
        // A mapping stored without an expression and with `autogenerateexpression` 0 is left
        // without a value (how modelgen's export writes `null`; attributes Xcode's editor leaves
        // to generate carry no flag at all).
        let isLeftEmpty = expression == nil && object.attributes["autogenerateexpression"]?.text == "0"
        return PropertyMappingSource(
            name: object.attributes["name"]?.text ?? "", valueExpression: expression, hasNoValue: isLeftEmpty, location: object.location)
    }
}
