#if !canImport(CoreData)
import ModelQuery

/// A relationship between two entities (`NSRelationshipDescription`).
open class NSRelationshipDescription: NSPropertyDescription {
    /// Core Data declares it `unowned(unsafe)`: the relationship does not keep its destination alive.
    open weak var destinationEntity: NSEntityDescription? {
        willSet { requireEditable(model, "relationship '\(name)'") }
    }
    /// Core Data declares it `unowned(unsafe)`: the relationship does not keep its inverse alive.
    open weak var inverseRelationship: NSRelationshipDescription? {
        willSet { requireEditable(model, "relationship '\(name)'") }
    }
    /// 1 for a to-one relationship; 0 (the default) for an unbounded to-many one.
    open var maxCount: Int = 0 {
        willSet { requireEditable(model, "relationship '\(name)'") }
    }
    open var minCount: Int = 0 {
        willSet { requireEditable(model, "relationship '\(name)'") }
    }
    open var deleteRule: NSDeleteRule = .nullifyDeleteRule {
        willSet { requireEditable(model, "relationship '\(name)'") }
    }
    open var isOrdered: Bool = false {
        willSet { requireEditable(model, "relationship '\(name)'") }
    }

    /// False exactly when `maxCount` is 1, as Core Data documents.
    open var isToMany: Bool { maxCount != 1 }

    public required init() {
        super.init()
    }

    /// Copies keep their destination and inverse; a model copy points them at its own entities.
    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        guard let other = other as? NSRelationshipDescription else { return }
        destinationEntity = other.destinationEntity
        inverseRelationship = other.inverseRelationship
        maxCount = other.maxCount
        minCount = other.minCount
        deleteRule = other.deleteRule
        isOrdered = other.isOrdered
    }

    override var kindName: String { "NSRelationshipDescription" }

    override var descriptionFields: [(String, String)] {
        super.descriptionFields + [
            ("destination entity", destinationEntity?.name ?? "(null)"), ("inverseRelationship", inverseRelationship?.name ?? "(null)"),
            ("minCount", String(minCount)), ("maxCount", String(maxCount)), ("isOrdered", isOrdered ? "1" : "0"),
            ("deleteRule", String(deleteRule.rawValue)),
        ]
    }
}
#endif
