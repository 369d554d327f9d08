/// A mapping model as values: how the store of one model version becomes a store of another, as
/// Core Data's `NSMappingModel` describes it. A `.cdm` file (Xcode's compiled
/// `.xcmappingmodel`) is a keyed archive of one; the compiler writes it, the runtime reads it and
/// runs it. Entity mappings keep their order: Core Data runs them in that order.
public struct MappingModel: Hashable, Sendable {
    public var entityMappings: [EntityMapping]

    public init(entityMappings: [EntityMapping]) {
        self.entityMappings = entityMappings
    }
}

extension MappingModel {
    /// One entity mapping (`MappingModel.EntityMapping`; `EntityMapping` alone is the lightweight migration plan's): which source entity's instances become which destination entity's, by
    /// which expressions, through which migration policy (Core Data's `NSEntityMapping`).
    public struct EntityMapping: Hashable, Sendable {
        /// `NSEntityMappingType`, with Core Data's raw values.
        public enum Kind: Int, Hashable, Sendable {
            case undefined = 0
            case custom = 1
            case add = 2
            case remove = 3
            case copy = 4
            case transform = 5
        }

        public var name: String
        public var kind: Kind
        public var sourceEntityName: String?
        /// The source entity's version hash (32 bytes), as Core Data compares it with the source model.
        public var sourceEntityVersionHash: [UInt8]?
        public var destinationEntityName: String?
        public var destinationEntityVersionHash: [UInt8]?
        /// The expression that yields the source instances (a fetch of the source entity, usually).
        public var sourceExpression: MappingExpression?
        /// The class name of the `NSEntityMigrationPolicy` subclass, as written in the mapping model.
        public var entityMigrationPolicyClassName: String?
        public var userInfo: [String: PropertyList]
        public var attributeMappings: [PropertyMapping]
        public var relationshipMappings: [PropertyMapping]

        public init(
            name: String, kind: Kind, sourceEntityName: String? = nil, sourceEntityVersionHash: [UInt8]? = nil,
            destinationEntityName: String? = nil, destinationEntityVersionHash: [UInt8]? = nil,
            sourceExpression: MappingExpression? = nil, entityMigrationPolicyClassName: String? = nil,
            userInfo: [String: PropertyList] = [:], attributeMappings: [PropertyMapping] = [],
            relationshipMappings: [PropertyMapping] = []
        ) {
            self.name = name
            self.kind = kind
            self.sourceEntityName = sourceEntityName
            self.sourceEntityVersionHash = sourceEntityVersionHash
            self.destinationEntityName = destinationEntityName
            self.destinationEntityVersionHash = destinationEntityVersionHash
            self.sourceExpression = sourceExpression
            self.entityMigrationPolicyClassName = entityMigrationPolicyClassName
            self.userInfo = userInfo
            self.attributeMappings = attributeMappings
            self.relationshipMappings = relationshipMappings
        }
    }

    /// How one destination property gets its value (Core Data's `NSPropertyMapping`). A mapping
    /// without a value expression leaves the property for the policy to set.
    public struct PropertyMapping: Hashable, Sendable {
        /// The destination property's name.
        public var name: String?
        public var valueExpression: MappingExpression?
        public var userInfo: [String: PropertyList]

        public init(name: String?, valueExpression: MappingExpression? = nil, userInfo: [String: PropertyList] = [:]) {
            self.name = name
            self.valueExpression = valueExpression
            self.userInfo = userInfo
        }
    }
}
