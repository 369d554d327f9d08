/// Turns an archived `NSMappingModel` (or a single archived `NSExpression`) into
/// ``MappingModel`` values. Expression trees and user info values are walked with a depth limit,
/// so a hostile archive whose references loop ends in an error, never in a crash.
struct MappingArchiveReader {
    typealias Failure = KeyedArchiveReader.Failure
    typealias Fields = KeyedArchiveReader.Fields

    let archive: KeyedArchiveReader

    static let maximumDepth = 64

    func mappingModel() throws(Failure) -> MappingModel {
        let root = try archive.object(archive.root, of: ["NSMappingModel"], what: "the root object")
        var mappings: [MappingModel.EntityMapping] = []
        for (index, member) in try archive.array(root[field: "NSEntityMappings"], what: "NSEntityMappings").enumerated() {
            guard let uid = try archive.reference(member) else { throw Failure(message: "entity mapping \(index + 1) is null") }
            mappings.append(try entityMapping(uid, what: "entity mapping \(index + 1)"))
        }
        return MappingModel(entityMappings: mappings)
    }

    func entityMapping(_ uid: UInt64, what: String) throws(Failure) -> MappingModel.EntityMapping {
        let fields = try archive.object(uid, of: ["NSEntityMapping"], what: what)
        guard let name = try archive.string(fields[field: "NSMappingName"], what: "the name of \(what)") else {
            throw Failure(message: "\(what) has no name")
        }
        let what = "entity mapping '\(name)'"
        let typeNumber = try archive.integer(fields[field: "NSMappingType"], what: "the mapping type of \(what)")
        guard let kind = MappingModel.EntityMapping.Kind(rawValue: Int(clamping: typeNumber)) else {
            throw Failure(message: "\(what) has mapping type \(typeNumber), which is not an NSEntityMappingType")
        }
        return MappingModel.EntityMapping(
            name: name, kind: kind,
            sourceEntityName: try archive.string(fields[field: "NSSourceEntityName"], what: "the source entity of \(what)"),
            sourceEntityVersionHash: try data(fields[field: "NSSourceEntityVersionHash"], what: "the source version hash of \(what)"),
            destinationEntityName: try archive.string(fields[field: "NSDestinationEntityName"], what: "the destination entity of \(what)"),
            destinationEntityVersionHash: try data(
                fields[field: "NSDestinationEntityVersionHash"], what: "the destination version hash of \(what)"),
            sourceExpression: try expression(fields[field: "NSSourceExpression"], what: "the source expression of \(what)", depth: 0),
            entityMigrationPolicyClassName: try archive.string(
                fields[field: "NSEntityMigrationPolicyClassName"], what: "the policy class of \(what)"),
            userInfo: try userInfo(fields[field: "NSUserInfo"], what: "the user info of \(what)"),
            attributeMappings: try propertyMappings(fields[field: "NSAttributeMappings"], what: "an attribute mapping of \(what)"),
            relationshipMappings: try propertyMappings(fields[field: "NSRelationshipMappings"], what: "a relationship mapping of \(what)"))
    }

    func propertyMappings(_ value: PropertyList?, what: String) throws(Failure) -> [MappingModel.PropertyMapping] {
        var mappings: [MappingModel.PropertyMapping] = []
        for member in try archive.array(value, what: what) {
            guard let uid = try archive.reference(member) else { throw Failure(message: "\(what) is null") }
            let fields = try archive.object(uid, of: ["NSPropertyMapping"], what: what)
            let name = try archive.string(fields[field: "NSDestinationPropertyName"], what: "the property name of \(what)")
            let what = name.map { "the mapping of '\($0)'" } ?? what
            mappings.append(
                MappingModel.PropertyMapping(
                    name: name, valueExpression: try expression(fields[field: "NSValueExpression"], what: "the value of \(what)", depth: 0),
                    userInfo: try userInfo(fields[field: "NSUserInfo"], what: "the user info of \(what)")))
        }
        return mappings
    }

    func data(_ value: PropertyList?, what: String) throws(Failure) -> [UInt8]? {
        guard let uid = try archive.reference(value) else { return nil }
        guard case .data(let bytes) = archive.entry(uid) else { throw Failure(message: "\(what) is not data") }
        return bytes
    }

    // MARK: Expressions

    func expression(_ value: PropertyList?, what: String, depth: Int) throws(Failure) -> MappingExpression? {
        guard let uid = try archive.reference(value) else { return nil }
        guard depth < Self.maximumDepth else { throw Failure(message: "\(what) is nested too deeply") }
        let (className, fields) = try archive.object(uid)
        func operand(_ key: String, _ role: String) throws(Failure) -> MappingExpression {
            guard let operand = try expression(fields[field: key], what: "the \(role) of \(what)", depth: depth + 1) else {
                throw Failure(message: "\(what) has no \(role)")
            }
            return operand
        }
        func arguments(_ key: String) throws(Failure) -> [MappingExpression] {
            var result: [MappingExpression] = []
            for member in try archive.array(fields[field: key], what: "the arguments of \(what)") {
                guard let argument = try expression(member, what: "an argument of \(what)", depth: depth + 1) else {
                    throw Failure(message: "an argument of \(what) is null")
                }
                result.append(argument)
            }
            return result
        }
        switch className {
        case "NSConstantValueExpression":
            return .constant(try constant(fields[field: "NSConstantValue"], what: "the constant of \(what)"))
        case "NSSelfExpression":
            return .evaluatedObject
        case "NSVariableExpression":
            guard let name = try archive.string(fields[field: "NSVariable"], what: "the variable of \(what)") else {
                throw Failure(message: "\(what) names no variable")
            }
            return .variable(name)
        case "NSKeyPathExpression":
            let target = try operand("NSOperand", "operand")
            let members = try archive.array(fields[field: "NSArguments"], what: "the arguments of \(what)")
            guard members.count == 1, let specifierUID = try archive.reference(members[0]) else {
                throw Failure(message: "\(what) is a key path without exactly one key path argument")
            }
            // The key is an NSKeyPathSpecifierExpression, or in older archives a string constant.
            let specifier = try archive.object(
                specifierUID, of: ["NSKeyPathSpecifierExpression", "NSConstantValueExpression"], what: "the key path of \(what)")
            let key = specifier[field: "NSKeyPath"] ?? specifier[field: "NSConstantValue"]
            guard let path = try archive.string(key, what: "the key path of \(what)") else {
                throw Failure(message: "\(what) has no key path")
            }
            return .keyPath(operand: target, path: path)
        case "NSFunctionExpression":
            guard let selector = try archive.string(fields[field: "NSSelectorName"], what: "the selector of \(what)") else {
                throw Failure(message: "\(what) has no selector")
            }
            return .function(target: try operand("NSOperand", "operand"), selector: selector, arguments: try arguments("NSArguments"))
        case "NSAggregateExpression":
            return .aggregate(try arguments("NSCollection"))
        case "NSFetchRequestExpression":
            return .fetch(
                request: try operand("NSFRExpression", "fetch request"), context: try operand("NSMOCExpression", "context"),
                countOnly: try archive.bool(fields[field: "NSCountOnlyFlag"], what: "the count flag of \(what)"))
        default:
            throw Failure(message: "\(what) is an \(className), which modelgen does not read")
        }
    }

    func constant(_ value: PropertyList?, what: String) throws(Failure) -> MappingConstant {
        guard let uid = try archive.reference(value) else { return .null }
        switch archive.entry(uid) {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .boolean(let flag): return .boolean(flag)
        case .data(let bytes): return .data(bytes)
        case .date(let seconds): return .date(seconds)
        case .dictionary:
            let (className, fields) = try archive.object(uid)
            switch className {
            case "NSDate":
                guard case .real(let seconds)? = fields[field: "NS.time"] else {
                    throw Failure(message: "\(what) is a date without a time")
                }
                return .date(seconds)
            case "NSString", "NSMutableString":
                return .string(try archive.string(value, what: what) ?? "")
            default:
                throw Failure(message: "\(what) is an \(className), which is not a constant modelgen reads")
            }
        case .array, .uid: throw Failure(message: "\(what) is not a constant value")
        }
    }

    // MARK: User info

    func userInfo(_ value: PropertyList?, what: String) throws(Failure) -> [String: PropertyList] {
        var result: [String: PropertyList] = [:]
        for (key, member) in try archive.dictionary(value, what: what) {
            result[key] = try propertyListValue(member, what: "'\(key)' in \(what)", depth: 0)
        }
        return result
    }

    func propertyListValue(_ value: PropertyList, what: String, depth: Int) throws(Failure) -> PropertyList {
        guard depth < Self.maximumDepth else { throw Failure(message: "\(what) is nested too deeply") }
        guard let uid = try archive.reference(value) else { throw Failure(message: "\(what) is null") }
        switch archive.entry(uid) {
        case .dictionary:
            let (className, fields) = try archive.object(uid)
            switch className {
            case "NSDate":
                guard case .real(let seconds)? = fields[field: "NS.time"] else {
                    throw Failure(message: "\(what) is a date without a time")
                }
                return .date(seconds)
            case "NSString", "NSMutableString":
                return .string(try archive.string(value, what: what) ?? "")
            case "NSArray", "NSMutableArray":
                var items: [PropertyList] = []
                for member in try archive.array(value, what: what) {
                    items.append(try propertyListValue(member, what: "a member of \(what)", depth: depth + 1))
                }
                return .array(items)
            case "NSDictionary", "NSMutableDictionary":
                var entries: [(key: String, value: PropertyList)] = []
                for (key, member) in try archive.dictionary(value, what: what) {
                    entries.append((key, try propertyListValue(member, what: "'\(key)' in \(what)", depth: depth + 1)))
                }
                return .dictionary(entries)
            default:
                throw Failure(message: "\(what) is an \(className), which is not a property-list value")
            }
        case .uid, .array: throw Failure(message: "\(what) is not a property-list value")
        case let plain: return plain
        }
    }
}
