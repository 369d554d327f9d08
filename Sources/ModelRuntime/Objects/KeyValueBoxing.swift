#if !canImport(CoreData)
import ModelQuery

/// Attribute values as key-value coding gives them on Apple platforms, where Objective-C boxes
/// numbers: an `NSNumber` for Integer 16, 32 and 64, Double, Float and Boolean values, an
/// `NSDecimalNumber` for Decimal ones. Code written against Core Data casts them freely —
/// `value(forKey: "count") as? Int` for an Integer 64 attribute, `as? Double`, `as? Bool` —
/// which a Swift `Int64` would refuse. Objects keep the Swift values in their slots (generated
/// accessors read those directly); only the key-value results are boxed.
enum KeyValueBoxing {
    @inline(__always)
    static func boxed(_ value: Any?) -> Any? {
        guard let value else { return nil }
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(Int64.self): return NSNumber(value: value as! Int64)
        case ObjectIdentifier(Int32.self): return NSNumber(value: value as! Int32)
        case ObjectIdentifier(Int16.self): return NSNumber(value: value as! Int16)
        case ObjectIdentifier(Int.self): return NSNumber(value: value as! Int)
        case ObjectIdentifier(Double.self): return NSNumber(value: value as! Double)
        case ObjectIdentifier(Float.self): return NSNumber(value: value as! Float)
        case ObjectIdentifier(Bool.self): return NSNumber(value: value as! Bool)
        case ObjectIdentifier(Decimal.self): return NSDecimalNumber(decimal: value as! Decimal)
        default: return value
        }
    }
}
#endif
