import ModelSchema
import Mustache

/// The template values of an entity's typed batch-insert helper (`entityBatchInsert.mustache`):
/// a value type with one stored property per stored attribute (inherited ones included; required
/// ones non-optional, as the class declares them), the value each one stores in a batch-insert
/// row, and the to-one relationships that rows can link on platforms without Core Data.
extension SwiftModelView {
    func batchInsertMembers(_ entity: Entity) -> [String: MustacheValue] {
        let (attributes, relationships) = lookup.allProperties(of: entity)
        var fields: [MustacheValue] = []
        var parameters: [String] = []
        var keys: [String] = []
        for attribute in attributes where !attribute.isTransient && !attribute.isDerived {
            let accessor = SwiftTypes.accessor(for: attribute, lookup: lookup)
            guard let write = SwiftRuntimeAccessors.attribute(attribute, lookup: lookup).write else { continue }
            let name = SwiftPropertyName.spelling(attribute.name)
            let optional = accessor.swiftType.hasSuffix("?")
            fields.append([
                "name": .string(name), "swiftType": .string(accessor.swiftType), "literal": .string(SwiftNames.literal(attribute.name)),
                "position": .string(String(keys.count)),
                "storedValue": .string(Self.replacingNewValue(in: write, with: "rows[index].\(name)")),
            ])
            parameters.append("\(name): \(accessor.swiftType)" + (optional ? " = nil" : ""))
            keys.append(SwiftNames.literal(attribute.name))
        }
        var links: [MustacheValue] = []
        for relationship in relationships where !relationship.isToMany && !relationship.isTransient {
            links.append([
                "name": .string(SwiftPropertyName.spelling(relationship.name)), "position": .string(String(keys.count)),
                "relationshipName": .string(relationship.name),
            ])
            keys.append(SwiftNames.literal(relationship.name))
        }
        return [
            "batchFields": .list(fields), "batchLinks": .list(links), "hasBatchLinks": .bool(!links.isEmpty),
            "batchInitParameters": .string(parameters.joined(separator: ", ")), "batchKeys": .string(keys.joined(separator: ", ")),
        ]
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
