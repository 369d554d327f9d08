import Foundation
import ModelSchema

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Xcode's model files — a `.xcdatamodeld` folder of versions, a single `.xcdatamodel`
/// folder, or its `contents` XML — into ``Model`` values. Everything the YAML format can express
/// carries over; what it cannot (fetched properties, fetch requests) is reported as a warning
/// naming the element.
struct XcodeModelReader {
    static let versionedSuffix = ".xcdatamodeld"
    static let versionSuffix = ".xcdatamodel"

    let diagnostics: DiagnosticCollector

    func read(_ path: String) -> Model? {
        let trimmed = path.trimmingSlashes
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            diagnostics.error("no such file or folder", at: .file(path))
            return nil
        }
        let name = Self.baseName(trimmed)
        if trimmed.hasSuffix(Self.versionedSuffix) {
            return readVersioned(trimmed, modelName: name)
        }
        let contents = isDirectory.boolValue ? trimmed + "/contents" : trimmed
        guard let version = readVersion(contentsPath: contents, versionName: name) else { return nil }
        return Model(name: name, versions: [version], currentVersionName: name)
    }

    static func baseName(_ path: String) -> String {
        var file = (path as NSString).lastPathComponent
        for suffix in [versionedSuffix, versionSuffix, ".contents"] where file.hasSuffix(suffix) {
            file = String(file.dropLast(suffix.count))
        }
        return file
    }

    private func readVersioned(_ folder: String, modelName: String) -> Model? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let versionNames = entries.filter { $0.hasSuffix(Self.versionSuffix) }.map { String($0.dropLast(Self.versionSuffix.count)) }
            .sorted(by: Self.naturalOrder)
        guard !versionNames.isEmpty else {
            diagnostics.error("'\(folder)' holds no .xcdatamodel versions", at: .file(folder))
            return nil
        }
        let versions = versionNames.compactMap { versionName in
            readVersion(contentsPath: "\(folder)/\(versionName)\(Self.versionSuffix)/contents", versionName: versionName)
        }
        var current = versionNames.last!
        let currentVersionFile = folder + "/.xccurrentversion"
        if let data = FileManager.default.contents(atPath: currentVersionFile),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let file = plist["_XCCurrentVersionName"] as? String
        {
            let named = Self.baseName(file)
            if versionNames.contains(named) {
                current = named
            } else {
                diagnostics.error("the current version '\(named)' named by .xccurrentversion does not exist", at: .file(currentVersionFile))
            }
        } else if versionNames.count > 1 {
            diagnostics.warning("no readable .xccurrentversion; taking '\(current)' as the current version", at: .file(folder))
        }
        return Model(name: modelName, versions: versions, currentVersionName: current)
    }

    /// Orders "Model", "Model 2", "Model 10" as a person would: digit runs compare as numbers.
    static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        func chunks(_ text: String) -> [(isNumber: Bool, text: String)] {
            var result: [(Bool, String)] = []
            for character in text {
                let isDigit = character.isASCII && character.isNumber
                if let last = result.last, last.0 == isDigit {
                    result[result.count - 1].1.append(character)
                } else {
                    result.append((isDigit, String(character)))
                }
            }
            return result
        }
        let left = chunks(lhs)
        let right = chunks(rhs)
        for (a, b) in zip(left, right) where a.text != b.text {
            if a.isNumber, b.isNumber, let x = Int(a.text), let y = Int(b.text), x != y { return x < y }
            return a.text < b.text
        }
        return left.count < right.count
    }

    /// Words for the parser's error code. FoundationXML passes libxml2's codes through; Apple's
    /// Foundation uses `XMLParser.ErrorCode`.
    static func describeXMLError(_ code: Int) -> String {
        #if canImport(FoundationXML)
        switch code {
        case 4: return "it is empty"
        case 5: return "it ends before all its elements are closed, or continues after its root element"
        case 9: return "it contains a character XML does not allow"
        case 73: return "a tag is missing its '>'"
        case 76: return "an end tag does not match its start tag"
        case 77: return "an element is not closed"
        default: return "XML syntax error \(code)"
        }
        #else
        switch XMLParser.ErrorCode(rawValue: code) {
        case .emptyDocumentError?: return "it is empty"
        case .prematureDocumentEndError?: return "it ends before all its elements are closed"
        case .tagNameMismatchError?: return "an end tag does not match its start tag"
        default: return "XML syntax error \(code)"
        }
        #endif
    }

    // MARK: One version

    func readVersion(contentsPath: String, versionName: String) -> ModelVersion? {
        guard let data = FileManager.default.contents(atPath: contentsPath) else {
            diagnostics.error("cannot read the model contents", at: .file(contentsPath))
            return nil
        }
        // FoundationXML stops the process on names that are not UTF-8, so the bytes are checked
        // first; Xcode writes model contents as UTF-8.
        if let problem = UTF8Check.firstProblem(in: [UInt8](data)) {
            diagnostics.error(
                "the model contents are not valid XML: \(problem.description) (Xcode writes model contents as UTF-8)",
                at: SourceLocation(file: contentsPath, line: problem.line, column: problem.column))
            return nil
        }
        // XMLDocument recovers from malformed XML silently and crashes on a document without a
        // root element; a strict pass finds such problems, with their position, first.
        let check = WellFormednessCheck()
        let checker = XMLParser(data: data)
        checker.delegate = check
        let parsed = checker.parse()
        if !parsed || checker.parserError != nil || !check.sawElement {
            let code = (checker.parserError as NSError?)?.code ?? 0
            let reason = check.sawElement || checker.parserError != nil ? Self.describeXMLError(code) : "it holds no element"
            diagnostics.error(
                "the model contents are not valid XML: \(reason)",
                at: SourceLocation(file: contentsPath, line: max(1, checker.lineNumber), column: max(1, checker.columnNumber)))
            return nil
        }
        for problem in check.problems {
            diagnostics.error(problem.message, at: SourceLocation(file: contentsPath, line: problem.line, column: problem.column))
        }
        guard check.problems.isEmpty else { return nil }
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, options: [])
        } catch {
            diagnostics.error("the model contents are not valid XML: \(error.localizedDescription)", at: .file(contentsPath))
            return nil
        }
        guard let root = document.rootElement(), root.name == "model" else {
            diagnostics.error("expected a <model> root element", at: .file(contentsPath))
            return nil
        }
        var reader = ElementReader(path: contentsPath, diagnostics: diagnostics)
        return reader.readModel(root, versionName: versionName)
    }
}

/// Notes whether a strict parse saw any element at all, and finds values the model cannot hold
/// (relationship counts outside `0...UInt32.max`), with their position.
private final class WellFormednessCheck: NSObject, XMLParserDelegate {
    var sawElement = false
    var problems: [(message: String, line: Int, column: Int)] = []
    private var entityName = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        sawElement = true
        if elementName == "entity" { entityName = attributes["name"] ?? "" }
        guard elementName == "relationship" else { return }
        for key in ["minCount", "maxCount"] {
            guard let text = attributes[key] else { continue }
            if let count = Int(text), (0...Relationship.largestCount).contains(count) { continue }
            problems.append(
                (
                    "'\(key)' of relationship '\(entityName).\(attributes["name"] ?? "")' must be a whole number from 0 to \(Relationship.largestCount), found '\(text)'",
                    max(1, parser.lineNumber), max(1, parser.columnNumber)
                ))
        }
    }
}

/// Turns the elements of one `contents` file into a ``ModelVersion``.
private struct ElementReader {
    let path: String
    let diagnostics: DiagnosticCollector
    var location: SourceLocation { .file(path) }

    init(path: String, diagnostics: DiagnosticCollector) {
        self.path = path
        self.diagnostics = diagnostics
    }

    mutating func readModel(_ root: XMLElement, versionName: String) -> ModelVersion {
        var version = ModelVersion(name: versionName, location: location)
        if let identifier = root["userDefinedModelVersionIdentifier"], !identifier.isEmpty { version.versionIdentifier = identifier }
        for element in root.childElements {
            switch element.name {
            case "entity": version.entities.append(readEntity(element))
            case "composite": version.composites.append(readComposite(element))
            case "configuration": version.configurations.append(readConfiguration(element))
            case "elements": break  // editor layout only
            case "fetchRequest":
                diagnostics.warning(
                    "fetch request '\(element["name"] ?? "")' is not carried over (modelgen models have no fetch requests)", at: location)
            default:
                diagnostics.warning("unsupported element <\(element.name ?? "")> is not carried over", at: location)
            }
        }
        return version
    }

    private func readEntity(_ element: XMLElement) -> Entity {
        let name = element["name"] ?? ""
        var entity = Entity(name: name, location: location)
        if let className = element["representedClassName"], className != name { entity.className = className }
        entity.parentName = element["parentEntity"]
        entity.isAbstract = element.flag("isAbstract")
        entity.versionHashModifier = element["versionHashModifier"]
        entity.renamingIdentifier = element["elementID"]
        for child in element.childElements {
            switch child.name {
            case "attribute": entity.attributes.append(readAttribute(child, owner: "entity '\(name)'"))
            case "relationship": entity.relationships.append(readRelationship(child, entityName: name))
            case "uniquenessConstraints":
                entity.uniquenessConstraints = child.childElements.map { constraint in
                    constraint.childElements.compactMap { $0["value"] }
                }
            case "fetchIndex": entity.fetchIndexes.append(readFetchIndex(child))
            case "userInfo": entity.userInfo = child.userInfo
            case "fetchedProperty":
                diagnostics.warning(
                    "fetched property '\(name).\(child["name"] ?? "")' is not carried over (modelgen models have no fetched properties; they do not affect version hashes)",
                    at: location)
            case "compoundIndexes":
                diagnostics.warning(
                    "compound indexes of entity '\(name)' are not carried over; declare them as fetch indexes", at: location)
            default:
                diagnostics.warning("unsupported element <\(child.name ?? "")> in entity '\(name)' is not carried over", at: location)
            }
        }
        return entity
    }

    private func readAttribute(_ element: XMLElement, owner: String) -> Attribute {
        let name = element["name"] ?? ""
        let typeName = element["attributeType"] ?? "Undefined"
        let type: AttributeType
        if typeName == "Composite" {
            type = .composite(element["composite"] ?? "")
        } else if let scalar = TypeNames.scalarTypesByName[typeName] {
            type = scalar
        } else {
            diagnostics.warning(
                "attribute '\(name)' of \(owner) has type '\(typeName)', which modelgen does not know; read as String", at: location)
            type = .string
        }
        var attribute = Attribute(name: name, type: type, isOptional: element.flag("optional"), location: location)
        attribute.isTransient = element.flag("transient")
        attribute.isIndexed = element.flag("indexed")
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute.allowsCloudEncryption = element.flag("allowsCloudEncryption")
        if element.flag("derived") { attribute.derivationExpression = element["derivationExpression"] ?? "" }
        attribute.valueTransformerName = element["valueTransformerName"]
        attribute.customClassName = element["customClassName"]
        attribute.renamingIdentifier = element["elementID"]
        attribute.versionHashModifier = element["versionHashModifier"]
        attribute.defaultValue = element["defaultValueString"].flatMap { literal($0, of: type) }
        if type == .string || type == .binaryData {
            attribute.validation.minimumLength = element["minValueString"].flatMap { Int($0) }
            attribute.validation.maximumLength = element["maxValueString"].flatMap { Int($0) }
        } else {
            attribute.validation.minimum = element["minValueString"].flatMap { literal($0, of: type) }
            attribute.validation.maximum = element["maxValueString"].flatMap { literal($0, of: type) }
        }
        attribute.validation.regularExpression = element["regularExpressionString"]
        for child in element.childElements where child.name == "userInfo" { attribute.userInfo = child.userInfo }
        return attribute
    }

    /// Xcode writes defaults and bounds as strings (`YES`, `0.0`, a date as seconds since 2001).
    private func literal(_ text: String, of type: AttributeType) -> AttributeValue? {
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
        case .binaryData, .transformable, .objectID, .composite: return nil
        }
    }

    private func readRelationship(_ element: XMLElement, entityName: String) -> Relationship {
        let name = element["name"] ?? ""
        var relationship = Relationship(name: name, destinationName: element["destinationEntity"] ?? "", location: location)
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
        for child in element.childElements where child.name == "userInfo" { relationship.userInfo = child.userInfo }
        return relationship
    }

    private func readFetchIndex(_ element: XMLElement) -> FetchIndex {
        let elements = element.childElements.filter { $0.name == "fetchIndexElement" }
        let kind: FetchIndex.Kind = elements.contains { $0["type"] == "RTree" } ? .rTree : .binary
        return FetchIndex(
            name: element["name"] ?? "",
            elements: elements.map { FetchIndex.Element(propertyName: $0["property"] ?? "", isAscending: $0["order"] != "descending") },
            kind: kind, location: location)
    }

    private func readComposite(_ element: XMLElement) -> CompositeType {
        let name = element["name"] ?? ""
        let fields = element.childElements.filter { $0.name == "attribute" }.map { readAttribute($0, owner: "composite '\(name)'") }
        return CompositeType(name: name, attributes: fields, location: location)
    }

    private func readConfiguration(_ element: XMLElement) -> Configuration {
        Configuration(
            name: element["name"] ?? "", entityNames: element.childElements.compactMap { $0["name"] },
            usedWithCloudKit: element.flag("usedWithCloudKit"), location: location)
    }
}

extension XMLElement {
    fileprivate subscript(_ attribute: String) -> String? { self.attribute(forName: attribute)?.stringValue }

    fileprivate func flag(_ attribute: String) -> Bool { self[attribute] == "YES" }

    fileprivate var childElements: [XMLElement] { (children ?? []).compactMap { $0 as? XMLElement } }

    fileprivate var userInfo: [String: String] {
        var result: [String: String] = [:]
        for entry in childElements where entry.name == "entry" {
            if let key = entry["key"] { result[key] = entry["value"] ?? "" }
        }
        return result
    }
}
