import Foundation
import ModelSchema

/// How attribute types are spelled in model files.
enum TypeNames {
    /// Canonical spellings (those of Xcode's model editor) and accepted Swift-flavoured aliases.
    static let scalarTypesByName: [String: AttributeType] = {
        var table: [String: AttributeType] = [:]
        for type in AttributeType.scalarTypes { table[type.name] = type }
        let aliases: [String: AttributeType] = [
            "Int16": .integer16, "Int32": .integer32, "Int64": .integer64, "Bool": .boolean,
            "Binary Data": .binaryData, "Data": .binaryData, "URL": .uri,
        ]
        table.merge(aliases) { canonical, _ in canonical }
        return table
    }()

    /// A type expression split into the type name and the optional marker: `Date?` → (`Date`, true).
    static func split(_ expression: String) -> (name: String, isOptional: Bool) {
        var text = expression.trimmingCharacters(in: .whitespaces)
        var isOptional = false
        if text.hasSuffix("?") {
            isOptional = true
            text = String(text.dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return (text, isOptional)
    }
}
