import ModelSchema

/// The template values of an entity's typed batch-insert helper (`entityBatchInsert.mustache`):
/// a value type with one stored property per stored attribute (inherited ones included; required
/// ones non-optional, as the class declares them), the value each one stores in a batch-insert
/// row, and the to-one relationships that rows can link on platforms without Core Data.
extension SwiftModelView {
    struct BatchInsertMembers {
        var fields: [SwiftTemplateContext.BatchField] = []
        var links: [SwiftTemplateContext.BatchLink] = []
        var initParameters = ""
        var keys = ""
    }

    func batchInsertMembers(_ entity: Entity) -> BatchInsertMembers {
        let (attributes, relationships) = lookup.allProperties(of: entity)
        var fields: [SwiftTemplateContext.BatchField] = []
        var parameters: [String] = []
        var keys: [String] = []
        for attribute in attributes where !attribute.isTransient && !attribute.isDerived {
            let accessor = SwiftTypes.accessor(for: attribute, lookup: lookup)
            guard let write = SwiftRuntimeAccessors.attribute(attribute, lookup: lookup).write else { continue }
            let name = SwiftPropertyName.spelling(attribute.name)
            let optional = accessor.swiftType.hasSuffix("?")
            fields.append(
                SwiftTemplateContext.BatchField(
                    name: name, swiftType: accessor.swiftType, literal: SwiftNames.literal(attribute.name), position: String(keys.count),
                    storedValue: Self.replacingNewValue(in: write, with: "rows[index].\(name)")))
            parameters.append("\(name): \(accessor.swiftType)" + (optional ? " = nil" : ""))
            keys.append(SwiftNames.literal(attribute.name))
        }
        var links: [SwiftTemplateContext.BatchLink] = []
        for relationship in relationships where !relationship.isToMany && !relationship.isTransient {
            links.append(
                SwiftTemplateContext.BatchLink(
                    name: SwiftPropertyName.spelling(relationship.name), position: String(keys.count), relationshipName: relationship.name))
            keys.append(SwiftNames.literal(relationship.name))
        }
        return BatchInsertMembers(
            fields: fields, links: links, initParameters: parameters.joined(separator: ", "), keys: keys.joined(separator: ", "))
    }

    /// `expression` (a setter's stored value, written with `newValue`) for another value.
    static func replacingNewValue(in expression: String, with value: String) -> String {
        var result = ""
        var rest = Substring(expression)
        while let range = rest.range(of: "newValue") {
            result += rest[..<range.lowerBound] + value
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
