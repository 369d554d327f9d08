#if !canImport(CoreData)
import ModelQuery

/// A value a dictionary fetch computes rather than reads from one attribute
/// (`NSExpressionDescription`): an aggregate such as `sum:(amount)`, or arithmetic on attributes.
/// Put it in `NSFetchRequest.propertiesToFetch` (or `propertiesToGroupBy`); each result
/// dictionary holds the value under `name`, converted to `expressionResultType`. As in Core
/// Data, it is never one of an entity's `properties`.
open class NSExpressionDescription: NSPropertyDescription {
    /// The expression the store evaluates.
    open var expression: NSExpression?
    /// The type of the value in the results (`.integer64AttributeType` for a count, for example).
    open var expressionResultType: NSAttributeType = .undefinedAttributeType

    /// The name newer SDKs give ``expressionResultType``.
    public var resultType: NSAttributeDescription.AttributeType {
        get { NSAttributeDescription.AttributeType(rawValue: expressionResultType) }
        set { expressionResultType = newValue.rawValue }
    }

    public required init() {
        super.init()
    }

    override func copyFields(from other: NSPropertyDescription) {
        super.copyFields(from: other)
        guard let other = other as? NSExpressionDescription else { return }
        expression = other.expression
        expressionResultType = other.expressionResultType
    }

    override var kindName: String { "NSExpressionDescription" }

    override var descriptionFields: [(String, String)] {
        super.descriptionFields + [
            ("expression", expression.map { "\($0)" } ?? "(null)"), ("resultType", "\(expressionResultType.rawValue)"),
        ]
    }
}
#endif
