#if !canImport(CoreData)
/// The storage type of an attribute, with Core Data's raw values (`NSAttributeType`).
public enum NSAttributeType: UInt, Sendable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case UUIDAttributeType = 1100
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    /// iOS 17 / macOS 14 composite attributes.
    case compositeAttributeType = 2100
}

/// What happens to the destination objects when the source object is deleted (`NSDeleteRule`).
public enum NSDeleteRule: UInt, Sendable {
    case noActionDeleteRule = 0
    case nullifyDeleteRule = 1
    case cascadeDeleteRule = 2
    case denyDeleteRule = 3
}

/// How a fetch index element is stored (`NSFetchIndexElementType`).
public enum NSFetchIndexElementType: UInt, Sendable {
    case binary = 0
    case rTree = 1
}

extension NSAttributeType {
    /// The class Core Data records for values of the type (`attributeValueClassName`); nil for
    /// undefined and Transformable.
    var defaultValueClassName: String? {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType, .floatAttributeType,
            .booleanAttributeType:
            "NSNumber"
        case .decimalAttributeType: "NSDecimalNumber"
        case .stringAttributeType: "NSString"
        case .dateAttributeType: "NSDate"
        case .binaryDataAttributeType: "NSData"
        case .UUIDAttributeType: "NSUUID"
        case .URIAttributeType: "NSURL"
        case .objectIDAttributeType: "NSManagedObjectID"
        case .compositeAttributeType: "NSDictionary"
        case .undefinedAttributeType, .transformableAttributeType: nil
        }
    }
}
#endif
