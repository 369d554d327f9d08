#if !canImport(CoreData)
import ModelQuery

/// Runs one entity mapping of a migration. The manager calls, for every mapping in order:
/// ``begin(_:with:)``, ``createDestinationInstances(forSource:in:manager:)`` for each source
/// instance, ``endInstanceCreation(forMapping:manager:)``; then for every mapping
/// ``createRelationships(forDestination:in:manager:)`` for each destination instance it created
/// and ``endRelationshipCreation(forMapping:manager:)``; then
/// ``performCustomValidation(forMapping:manager:)``, the destination's save, and
/// ``end(_:manager:)``. Subclasses override the steps they need; the defaults evaluate the
/// mapping's property expressions.
///
/// Methods a mapping's expressions call by selector (`FUNCTION($entityPolicy, "name:", $source.x)`)
/// are Objective-C methods on Apple platforms. On Linux a subclass lists them in
/// ``migrationFunctions``, and is found by the class name the mapping model gives when it is
/// registered with ``register(_:as:)``.
open class NSEntityMigrationPolicy: NSObject {
    public override required init() {
        super.init()
    }

    /// The methods `FUNCTION($entityPolicy, "selector:", …)` calls on this class's policies, by
    /// selector name (one colon per argument). Override it, calling `super` to keep the
    /// superclass's:
    ///
    /// ```swift
    /// final class NamePolicy: NSEntityMigrationPolicy {
    ///     func fullName(_ first: String?, _ last: String?) -> String { … }
    ///     #if !canImport(CoreData)
    ///     override class var migrationFunctions: [String: MigrationFunction] {
    ///         super.migrationFunctions.merging([
    ///             "fullNameWithFirst:last:": MigrationFunction(NamePolicy.self) { policy, arguments in
    ///                 policy.fullName(arguments[0] as? String, arguments[1] as? String)
    ///             }
    ///         ]) { $1 }
    ///     }
    ///     #endif
    /// }
    /// ```
    open class var migrationFunctions: [String: MigrationFunction] { [:] }

    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Creates the destination instance of `sInstance`, sets its attributes from the mapping's
    /// attribute mappings, and associates the two (``NSMigrationManager/associate(sourceInstance:withDestinationInstance:for:)``).
    open func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        guard let entityName = mapping.destinationEntityName else { return }
        let destination = NSEntityDescription.insertNewObject(forEntityName: entityName, into: manager.destinationContext)
        for propertyMapping in mapping.attributeMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            let value = manager.evaluate(
                expression, source: sInstance, destination: destination, mapping: mapping, propertyMapping: propertyMapping, policy: self)
            destination.setValue(value, forKey: name)
        }
        manager.associate(sourceInstance: sInstance, withDestinationInstance: destination, for: mapping)
    }

    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Sets the relationships of `dInstance` from the mapping's relationship mappings, evaluated
    /// with the source instance it was created from; a value of several objects for a to-one
    /// relationship gives its first.
    open func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        guard let source = manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [dInstance]).first else {
            return
        }
        for propertyMapping in mapping.relationshipMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression,
                let relationship = dInstance.entity.relationshipsByName[name]
            else { continue }
            let value = manager.evaluate(
                expression, source: source, destination: dInstance, mapping: mapping, propertyMapping: propertyMapping, policy: self)
            let objects = NSMigrationManager.objects(in: value)
            if relationship.isToMany {
                dInstance.setValue(relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects), forKey: name)
            } else {
                dInstance.setValue(objects.first, forKey: name)
            }
        }
    }

    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}
}

/// A Swift method a mapping's expressions call by its selector name on Linux:
/// `FUNCTION($entityPolicy, "fullName:", $source.name)` calls the function listed under
/// `"fullName:"` in the policy class's ``NSEntityMigrationPolicy/migrationFunctions``, with
/// the argument values.
public struct MigrationFunction: Sendable {
    let call: @Sendable (NSEntityMigrationPolicy, [Any?]) -> Any?

    /// A function of policies of class `Policy`; `body` gets the policy and the arguments'
    /// values (numbers as `NSNumber`, to-many values as sets, nil for nil).
    public init<Policy: NSEntityMigrationPolicy>(_ policy: Policy.Type, _ body: @escaping @Sendable (Policy, [Any?]) -> Any?) {
        call = { receiver, arguments in
            guard let receiver = receiver as? Policy else { return nil }
            return body(receiver, arguments)
        }
    }
}

extension NSEntityMigrationPolicy: SelectorCallable {

    package func callSelector(_ selector: String, arguments: [Any?]) -> Any?? {
        guard let function = Swift.type(of: self).migrationFunctions[selector] else { return nil }
        return .some(function.call(self, arguments))
    }

    /// Makes `policyClass` the class a mapping model's policy class name resolves to: its
    /// module-qualified name (`App.NamePolicy`), its name alone (`NamePolicy`, which also
    /// matches a name under any module prefix, such as Xcode's `REPLACE_AT_RUNTIME.` or
    /// another module's), and `name` when given. Linux has no Objective-C runtime to find a
    /// class by its name; `NSClassFromString` is tried too, for names it finds.
    public static func register(_ policyClass: NSEntityMigrationPolicy.Type, as name: String? = nil) {
        PolicyClassRegistry.register(policyClass, as: name)
    }
}

/// The policy classes found by name (``NSEntityMigrationPolicy/register(_:as:)``).
enum PolicyClassRegistry {
    private static let classes = LockedCache<[String: NSEntityMigrationPolicy.Type]>([:])

    static func register(_ policyClass: NSEntityMigrationPolicy.Type, as name: String?) {
        let qualified = String(reflecting: policyClass)
        let plain = String(describing: policyClass)
        classes.withLock {
            $0[qualified] = policyClass
            $0[plain] = policyClass
            if let name { $0[name] = policyClass }
        }
    }

    /// The class for `name`: registered under it, found by `NSClassFromString`, or registered
    /// under its last dotted component.
    static func policyClass(named name: String) -> NSEntityMigrationPolicy.Type? {
        if name == "NSEntityMigrationPolicy" { return NSEntityMigrationPolicy.self }
        if let found = classes.withLock({ $0[name] }) { return found }
        if let found = NSClassFromString(name) as? NSEntityMigrationPolicy.Type { return found }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let last = String(name[name.index(after: dot)...])
        return classes.withLock { $0[last] }
    }
}
#endif
