#if !canImport(CoreData)
import ModelQuery

/// What an entity mapping does (Core Data's raw values).
public enum NSEntityMappingType: UInt, @unchecked Sendable {
    case undefinedEntityMappingType = 0
    /// The migration policy creates the destination instances.
    case customEntityMappingType = 1
    /// An entity new in the destination: no source instances.
    case addEntityMappingType = 2
    /// An entity the destination drops: its instances are not migrated.
    case removeEntityMappingType = 3
    /// Instances migrated as they are.
    case copyEntityMappingType = 4
    /// An entity in both models whose instances are mapped by the property mappings.
    case transformEntityMappingType = 5
}

/// How instances of a source entity become instances of a destination entity: the source
/// expression that yields them, the property mappings that give the destination's values, and
/// the migration policy that runs it all. Entities are named, not referenced: the migration
/// manager finds them in its models (``NSMigrationManager/sourceEntity(for:)``).
open class NSEntityMapping: NSObject {
    private var storedName: String?

    /// The mapping's name, by which expressions and the manager's association lookups name it;
    /// by default the source entity's name, "To", and the destination entity's
    /// (`CarToCar`), as Core Data composes it.
    open var name: String! {
        get { storedName ?? "\(sourceEntityName ?? "")To\(destinationEntityName ?? "")" }
        set { storedName = newValue }
    }

    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType
    open var sourceEntityName: String?
    /// The source entity's version hash, which must equal the source model's.
    open var sourceEntityVersionHash: Data?
    open var destinationEntityName: String?
    open var destinationEntityVersionHash: Data?
    /// Run in this order.
    open var attributeMappings: [NSPropertyMapping]?
    /// Run in this order.
    open var relationshipMappings: [NSPropertyMapping]?
    /// The expression whose value is the collection of source instances (usually a `FETCH`).
    open var sourceExpression: NSExpression?
    open var userInfo: [AnyHashable: Any]?
    /// The name of the ``NSEntityMigrationPolicy`` subclass that runs the mapping; nil for
    /// `NSEntityMigrationPolicy` itself. How a name is resolved on Linux:
    /// ``NSEntityMigrationPolicy/register(_:as:)``.
    open var entityMigrationPolicyClassName: String?

    public override init() {
        super.init()
    }

    open override var description: String {
        "<NSEntityMapping: \(name ?? "") (\(mappingType)), \(sourceEntityName ?? "nil") → \(destinationEntityName ?? "nil")>"
    }
}

/// How one destination property gets its value: an expression evaluated with `$source` (the
/// source instance), `$manager`, `$entityMapping`, `$propertyMapping` and `$entityPolicy`.
open class NSPropertyMapping: NSObject {
    /// The destination property's name.
    open var name: String?
    open var valueExpression: NSExpression?
    open var userInfo: [AnyHashable: Any]?

    public override init() {
        super.init()
    }

    open override var description: String {
        "<NSPropertyMapping: \(name ?? "nil") = \(valueExpression.map { $0.description } ?? "nil")>"
    }
}
#endif
