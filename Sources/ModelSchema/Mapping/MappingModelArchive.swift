/// The `.cdm` file of a mapping model: an `NSKeyedArchiver` archive (binary property list) of an
/// `NSMappingModel`, as Xcode compiles an `.xcmappingmodel`. ``encode(_:)`` writes the object
/// graph Xcode writes — the same classes, class chains, keys and kinds of values, the objects in
/// the same order — and is deterministic; ``decode(_:)`` reads Xcode's archives and ours. What is
/// confirmed against an Xcode-compiled `.cdm` is described in `docs/CompiledModel.md`.
public enum MappingModelArchive {
    public struct ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// The bytes of the `.cdm` file.
    public static func encode(_ model: MappingModel) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let root = builder.mappingModel(model)
        return BinaryPropertyList.encode(builder.archive(root: root))
    }

    /// The mapping model a `.cdm` file holds. Damaged or hostile bytes are a ``ReadError``: every
    /// reference is bounds-checked and expression trees are depth-limited.
    public static func decode(_ bytes: [UInt8]) throws(ReadError) -> MappingModel {
        let plist: PropertyList
        do {
            plist = try BinaryPropertyList.decode(bytes)
        } catch {
            throw ReadError(message: "not a compiled mapping model: \(error.message)")
        }
        do throws(KeyedArchiveReader.Failure) {
            let reader = MappingArchiveReader(archive: try KeyedArchiveReader(plist))
            return try reader.mappingModel()
        } catch {
            throw ReadError(message: error.message)
        }
    }
}

/// A single `NSExpression` as a keyed archive of its own, as Xcode's editor stores a value
/// expression (`valueexpressiondata` in `xcmapping.xml`).
public enum MappingExpressionArchive {
    public static func encode(_ expression: MappingExpression) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let root = builder.expression(expression)
        return BinaryPropertyList.encode(builder.archive(root: root))
    }

    public static func decode(_ bytes: [UInt8]) throws(MappingModelArchive.ReadError) -> MappingExpression {
        let plist: PropertyList
        do {
            plist = try BinaryPropertyList.decode(bytes)
        } catch {
            throw MappingModelArchive.ReadError(message: "not an archived expression: \(error.message)")
        }
        do throws(KeyedArchiveReader.Failure) {
            let archive = try KeyedArchiveReader(plist)
            let reader = MappingArchiveReader(archive: archive)
            guard let expression = try reader.expression(.uid(archive.root), what: "the root expression", depth: 0) else {
                throw KeyedArchiveReader.Failure(message: "the root expression is null")
            }
            return expression
        } catch {
            throw MappingModelArchive.ReadError(message: error.message)
        }
    }
}

extension KeyedArchiveBuilder {
    /// `NSMappingModel`: the entity mappings in order, then the same mappings by name.
    mutating func mappingModel(_ model: MappingModel) -> PropertyList {
        let (root, _) = reserve()
        let (list, _) = reserve()
        let mappings = model.entityMappings.map { entityMapping($0) }
        fill(list, classChain: Self.arrayChain(mutable: false), fields: [("NS.objects", .array(mappings))])
        let (byName, _) = reserve()
        let names = model.entityMappings.map { string($0.name) }
        fill(
            byName, classChain: ["NSMutableDictionary", "NSDictionary", "NSObject"],
            fields: [("NS.keys", .array(names)), ("NS.objects", .array(mappings))])
        fill(root, classChain: ["NSMappingModel", "NSObject"], fields: [("NSEntityMappings", list), ("NSEntityMappingsByName", byName)])
        return root
    }

    mutating func entityMapping(_ mapping: MappingModel.EntityMapping) -> PropertyList {
        let (uid, _) = reserve()
        let name = string(mapping.name)
        let sourceName = optionalString(mapping.sourceEntityName)
        let destinationName = optionalString(mapping.destinationEntityName)
        let sourceHash = mapping.sourceEntityVersionHash.map { value(.data($0)) } ?? Self.null
        let destinationHash = mapping.destinationEntityVersionHash.map { value(.data($0)) } ?? Self.null
        let source = mapping.sourceExpression.map { expression($0) } ?? Self.null
        let userInfo = userInfoObject(mapping.userInfo.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        let policy = optionalString(mapping.entityMigrationPolicyClassName)
        let attributes = propertyMappings(mapping.attributeMappings)
        let relationships = propertyMappings(mapping.relationshipMappings)
        fill(
            uid, classChain: ["NSEntityMapping", "NSObject"],
            fields: [
                ("NSDestinationEntityName", destinationName), ("NSSourceEntityName", sourceName), ("NSMappingName", name),
                ("NSDestinationEntityVersionHash", destinationHash), ("NSUserInfo", userInfo), ("NSSourceEntityVersionHash", sourceHash),
                ("NSSourceExpression", source), ("NSRelationshipMappings", relationships),
                ("NSMappingType", .integer(Int64(mapping.kind.rawValue))),
                ("NSEntityMigrationPolicyClassName", policy), ("NSAttributeMappings", attributes),
            ])
        return uid
    }

    mutating func propertyMappings(_ mappings: [MappingModel.PropertyMapping]) -> PropertyList {
        let (list, _) = reserve()
        let members = mappings.map { propertyMapping($0) }
        fill(list, classChain: Self.arrayChain(mutable: false), fields: [("NS.objects", .array(members))])
        return list
    }

    mutating func propertyMapping(_ mapping: MappingModel.PropertyMapping) -> PropertyList {
        let (uid, _) = reserve()
        let name = optionalString(mapping.name)
        let value = mapping.valueExpression.map { expression($0) } ?? Self.null
        let userInfo = userInfoObject(mapping.userInfo.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        fill(
            uid, classChain: ["NSPropertyMapping", "NSObject"],
            fields: [
                ("NSValueExpression", value), ("NSUserInfo", userInfo), ("NSPropertyTransforms", Self.null),
                ("NSDestinationPropertyName", name),
            ])
        return uid
    }
}
