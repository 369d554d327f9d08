import ModelSchema

/// How each attribute becomes a Swift property: its type, and whether `@NSManaged` can declare
/// it or an accessor has to convert through key-value coding.
enum SwiftTypes {
    enum AccessorKind {
        /// `@NSManaged var name: Type` — Objective-C can represent the type.
        case managed
        /// A computed property over the primitive value: `read` turns `primitiveValue(forKey:)`
        /// into the Swift value, `write` turns `newValue` into what is stored (nil: read-only).
        case computed(read: String, write: String?)
    }

    struct Accessor {
        let swiftType: String
        let kind: AccessorKind
        let note: String?
        let rawValueAccessor: (name: String, type: String, read: String)?
    }

    static func scalarName(_ type: AttributeType) -> String {
        switch type {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .double: "Double"
        case .float: "Float"
        case .boolean: "Bool"
        default: "Never"
        }
    }

    /// The `NSNumber` property that reads a scalar type.
    static func numberGetter(_ type: AttributeType) -> String {
        switch type {
        case .integer16: "int16Value"
        case .integer32: "int32Value"
        case .integer64: "int64Value"
        case .double: "doubleValue"
        case .float: "floatValue"
        case .boolean: "boolValue"
        default: "doubleValue"
        }
    }

    static func isScalar(_ type: AttributeType) -> Bool {
        type.isInteger || type == .double || type == .float || type == .boolean
    }

    /// The Swift value type of an attribute, without optionality.
    static func valueType(of attribute: Attribute, lookup: VersionLookup) -> String {
        if let enumName = attribute.enumName { return enumName }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: return scalarName(attribute.type)
        case .decimal: return "Decimal"
        case .string: return "String"
        case .date: return "Date"
        case .binaryData: return attribute.customClassName ?? "Data"
        case .uuid: return "UUID"
        case .uri: return "URL"
        case .transformable: return attribute.customClassName ?? "NSObject"
        case .objectID: return "NSManagedObjectID"
        case .undefined: return "Any"
        case .composite(let name): return name
        }
    }

    static func accessor(for attribute: Attribute, lookup: VersionLookup) -> Accessor {
        let key = "Keys.\(SwiftPropertyName.spelling(attribute.name))"
        let base = valueType(of: attribute, lookup: lookup)
        let optional = attribute.isOptional
        let swiftType = base + (optional ? "?" : "")
        let readOnly = attribute.isDerived

        if let enumName = attribute.enumName, let enumType = lookup.version.enumType(named: enumName) {
            let fallback = fallbackCase(for: attribute, in: enumType)
            let rawType = enumType.rawType == .string ? "String" : scalarName(enumType.rawType)
            let read =
                enumType.rawType == .string
                ? "(primitiveValue(forKey: \(key)) as? String).flatMap(\(enumName).init(rawValue:))"
                : "(primitiveValue(forKey: \(key)) as? NSNumber).flatMap { \(enumName)(rawValue: $0.\(numberGetter(enumType.rawType))) }"
            let write =
                enumType.rawType == .string
                ? "newValue\(optional ? "?" : "").rawValue"
                : (optional ? "newValue.map { NSNumber(value: $0.rawValue) }" : "NSNumber(value: newValue.rawValue)")
            let getter = optional ? read : "\(read) ?? .\(fallback)"
            let note =
                optional
                ? "A stored raw value that is not a case of `\(enumName)` reads as `nil`; `\(attribute.name)RawValue` still has it."
                : "A stored raw value that is not a case of `\(enumName)` reads as `.\(fallback)`; `\(attribute.name)RawValue` still has it."
            let rawGetter =
                enumType.rawType == .string
                ? "primitiveValue(forKey: \(key)) as? String"
                : "(primitiveValue(forKey: \(key)) as? NSNumber)?.\(numberGetter(enumType.rawType))"
            return Accessor(
                swiftType: swiftType, kind: .computed(read: getter, write: readOnly ? nil : write),
                note: note, rawValueAccessor: ("\(attribute.name)RawValue", rawType + "?", rawGetter))
        }

        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean:
            if !optional { return Accessor(swiftType: swiftType, kind: .managed, note: nil, rawValueAccessor: nil) }
            // Optional scalars have no Objective-C representation: go through NSNumber.
            return Accessor(
                swiftType: swiftType,
                kind: .computed(
                    read: "(primitiveValue(forKey: \(key)) as? NSNumber)?.\(numberGetter(attribute.type))",
                    write: readOnly ? nil : "newValue.map { NSNumber(value: $0) }"),
                note: nil, rawValueAccessor: nil)
        case .decimal:
            let read = "(primitiveValue(forKey: \(key)) as? NSDecimalNumber)?.decimalValue"
            return Accessor(
                swiftType: swiftType,
                kind: .computed(
                    read: optional ? read : "\(read) ?? 0",
                    write: readOnly
                        ? nil : (optional ? "newValue.map { NSDecimalNumber(decimal: $0) }" : "NSDecimalNumber(decimal: newValue)")),
                note: optional ? nil : "Reads as 0 until a value is set.", rawValueAccessor: nil)
        case .string, .date, .uuid, .uri, .objectID:
            return Accessor(swiftType: swiftType, kind: .managed, note: nil, rawValueAccessor: nil)
        case .binaryData where attribute.customClassName == nil:
            return Accessor(swiftType: swiftType, kind: .managed, note: nil, rawValueAccessor: nil)
        case .undefined:
            // Core Data keeps any object in an Undefined (always transient) attribute.
            return Accessor(
                swiftType: "Any?", kind: .computed(read: "primitiveValue(forKey: \(key))", write: readOnly ? nil : "newValue"),
                note: "Undefined in the model: a transient value of any type.", rawValueAccessor: nil)
        case .binaryData, .transformable:
            let read = "primitiveValue(forKey: \(key)) as? \(base)"
            return Accessor(
                swiftType: optional ? swiftType : base + "!",
                kind: .computed(read: read, write: readOnly ? nil : "newValue"),
                note: optional ? nil : "Implicitly unwrapped: the stored value is only known to be a `\(base)` at run time.",
                rawValueAccessor: nil)
        case .composite(let name):
            let read = "(primitiveValue(forKey: \(key)) as? [String: Any]).flatMap(\(name).init(coreDataDictionary:))"
            if !optional, let zero = compositeZero(name, lookup: lookup) {
                return Accessor(
                    swiftType: swiftType,
                    kind: .computed(read: "\(read) ?? \(zero)", write: readOnly ? nil : "newValue.coreDataDictionary"),
                    note: (zero.count <= 48 ? "Reads as `\(zero)`" : "Reads as a `\(name)` whose required fields are zero, empty or false")
                        + " until a value is set, or when the stored dictionary lacks a required field.",
                    rawValueAccessor: nil)
            }
            return Accessor(
                swiftType: optional ? swiftType : base + "!",
                kind: .computed(read: read, write: readOnly ? nil : "newValue?.coreDataDictionary"),
                note: optional ? nil : "Implicitly unwrapped: a composite is stored as a dictionary Core Data does not validate on read.",
                rawValueAccessor: nil)
        }
    }

    static func fallbackCase(for attribute: Attribute, in enumType: EnumType) -> String {
        let chosen = enumType.cases.first { $0.rawValue == attribute.defaultValue } ?? enumType.cases.first
        let name = chosen?.name ?? "unknown"
        return Names.swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    // MARK: Composite fields

    /// The value a required composite attribute reads as when nothing valid is stored: required
    /// fields zero (0, "", false, the reference date, empty data, the enum's fallback case,
    /// nested composites zero), optional fields nil. Nil when a field has no zero (a custom class).
    static func compositeZero(_ name: String, lookup: VersionLookup, depth: Int = 0) -> String? {
        guard depth < 64, let composite = lookup.composite(named: name) else { return nil }
        var arguments: [String] = []
        for field in composite.attributes where !field.isOptional {
            guard let zero = fieldZero(field, lookup: lookup, depth: depth) else { return nil }
            arguments.append("\(field.name): \(zero)")
        }
        return "\(name)(\(arguments.joined(separator: ", ")))"
    }

    private static func fieldZero(_ field: Attribute, lookup: VersionLookup, depth: Int) -> String? {
        if let enumName = field.enumName {
            return lookup.version.enumType(named: enumName).map { ".\(fallbackCase(for: field, in: $0))" }
        }
        switch field.type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: return "0"
        case .string: return "\"\""
        case .boolean: return "false"
        case .date: return "Date(timeIntervalSinceReferenceDate: 0)"
        case .binaryData where field.customClassName == nil: return "Data()"
        case .composite(let name): return compositeZero(name, lookup: lookup, depth: depth + 1)
        default: return nil
        }
    }

    /// An expression reading a field from a composite's dictionary (`dictionary["latitude"]`).
    static func compositeDecode(_ field: Attribute, from dictionary: String, lookup: VersionLookup) -> String {
        let raw = "\(dictionary)[\(SwiftNames.literal(field.name))]"
        let base = valueType(of: field, lookup: lookup)
        switch field.type {
        case .composite(let name): return "(\(raw) as? [String: Any]).flatMap(\(name).init(coreDataDictionary:))"
        case .decimal: return "(\(raw) as? NSDecimalNumber)?.decimalValue"
        case _ where isScalar(field.type): return "(\(raw) as? NSNumber)?.\(numberGetter(field.type))"
        default: return "\(raw) as? \(base)"
        }
    }

    /// An expression turning a field into what the composite's dictionary stores.
    static func compositeEncode(_ field: Attribute, lookup: VersionLookup) -> String {
        let optional = field.isOptional ? "?" : ""
        switch field.type {
        case .composite: return "\(field.name)\(optional).coreDataDictionary"
        case .decimal:
            return field.isOptional ? "\(field.name).map { NSDecimalNumber(decimal: $0) }" : "NSDecimalNumber(decimal: \(field.name))"
        case _ where isScalar(field.type):
            return field.isOptional ? "\(field.name).map { NSNumber(value: $0) }" : "NSNumber(value: \(field.name))"
        default: return field.name
        }
    }
}
