#if !canImport(CoreData)
import Foundation

/// A value a predicate can hold as a constant and compare with values read from objects, when
/// the value's own equality is not the one predicates should use. The runtime's managed objects
/// and object IDs adopt it (an object and its ID compare equal); so can an app's own types.
public protocol PredicateComparableValue {
    /// The value equality and ordering use in place of `self`.
    var predicateComparisonValue: Any { get }
    /// How `predicateFormat` writes the value.
    var predicateFormatDescription: String { get }
}

/// The value rules predicates and sort descriptors share: numbers compare across Int, Double,
/// Decimal and Bool; strings compare with Unicode canonical equivalence; dates by time; nil
/// equals only nil and sorts first; other values compare with their own `Hashable` equality.
package enum QueryValues {
    package enum Number {
        case integer(Int64)
        case double(Double)
        case decimal(Decimal)
    }

    /// `value` as an instance of the Foundation class `type`, without bridging: casting a Swift
    /// value to an `NS…` class on Linux converts it first (allocating), so check the metatype.
    @inline(__always)
    package static func object<T: AnyObject>(_ value: Any, as type: T.Type) -> T? {
        Swift.type(of: value) is T.Type ? (value as! T) : nil
    }

    /// Whether `type` is a plain value type predicates compare directly: known without a
    /// dynamic cast (a metatype comparison), so hot paths skip protocol conformance lookups.
    @inline(__always)
    static func isPlainScalar(_ type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        return id == ObjectIdentifier(String.self) || id == ObjectIdentifier(Int.self) || id == ObjectIdentifier(Double.self)
            || id == ObjectIdentifier(Bool.self) || id == ObjectIdentifier(Date.self) || id == ObjectIdentifier(Int64.self)
            || id == ObjectIdentifier(Int32.self) || id == ObjectIdentifier(Int16.self) || id == ObjectIdentifier(Float.self)
            || id == ObjectIdentifier(Decimal.self) || id == ObjectIdentifier(UUID.self)
    }

    package static func number(_ value: Any) -> Number? {
        let type = Swift.type(of: value)
        if type == Int.self { return .integer(Int64(value as! Int)) }
        if type == String.self { return nil }
        if type == Double.self { return .double(value as! Double) }
        switch value {
        case let v as Int: return .integer(Int64(v))
        case let v as Double: return .double(v)
        case is String: return nil
        case let v as Bool: return .integer(v ? 1 : 0)
        case let v as Int64: return .integer(v)
        case let v as Int32: return .integer(Int64(v))
        case let v as Int16: return .integer(Int64(v))
        case let v as Int8: return .integer(Int64(v))
        case let v as UInt: return v <= UInt(Int64.max) ? .integer(Int64(v)) : .double(Double(v))
        case let v as UInt64: return v <= UInt64(Int64.max) ? .integer(Int64(v)) : .double(Double(v))
        case let v as UInt32: return .integer(Int64(v))
        case let v as UInt16: return .integer(Int64(v))
        case let v as UInt8: return .integer(Int64(v))
        case let v as Float: return .double(Double(v))
        case let v as Decimal: return .decimal(v)
        default:
            if let v = object(value, as: NSDecimalNumber.self) { return .decimal(v.decimalValue) }
            guard let v = object(value, as: NSNumber.self) else { return nil }
            let type = String(cString: v.objCType)
            return type == "d" || type == "f" ? .double(v.doubleValue) : .integer(v.int64Value)
        }
    }

    package static func string(_ value: Any) -> String? {
        let type = Swift.type(of: value)
        if type == String.self { return (value as! String) }
        if isPlainScalar(type) { return nil }
        if let v = value as? String { return v }
        if let v = value as? Substring { return String(v) }
        if let v = object(value, as: NSString.self) { return v as String }
        return nil
    }

    /// The elements of an array, set, ordered set or other collection (not a string or data);
    /// a dictionary gives its values.
    package static func collectionElements(_ value: Any) -> [Any]? {
        if isPlainScalar(type(of: value)) { return nil }
        switch value {
        case is String, is Substring, is Data: return nil
        case let v as [Any]: return v
        case let v as Set<AnyHashable>: return Array(v)
        case let v as [String: Any]: return Array(v.values)
        default: break
        }
        if type(of: value) is AnyClass {
            if let v = object(value, as: NSArray.self) { return v.map { $0 } }
            if let v = object(value, as: NSSet.self) { return v.map { $0 } }
            if let v = object(value, as: NSOrderedSet.self) { return v.map { $0 } }
            if let v = object(value, as: NSDictionary.self) { return v.allValues }
            return nil
        }
        if let v = value as? any Collection { return elements(of: v) }
        return nil
    }

    static func isUnordered(_ value: Any) -> Bool {
        value is Set<AnyHashable> || object(value, as: NSSet.self) != nil
    }

    private static func elements<C: Collection>(of collection: C) -> [Any] {
        collection.map { $0 }
    }

    /// The value comparisons use: nil for `NSNull`, the comparison value of custom values.
    static func normalized(_ value: Any?) -> Any? {
        guard let value = KeyPathReader.unwrapped(value) else { return nil }
        if isPlainScalar(type(of: value)) { return value }
        if let custom = value as? any PredicateComparableValue { return custom.predicateComparisonValue }
        return value
    }

    package static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        equalNormalized(normalized(lhs), normalized(rhs))
    }

    static func equalNormalized(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let l?, let r?): return equalValues(l, r)
        }
    }

    private static func equalValues(_ lhs: Any, _ rhs: Any) -> Bool {
        if let l = number(lhs), let r = number(rhs) { return compare(l, r) == .orderedSame }
        if let l = string(lhs), let r = string(rhs) { return l == r }
        if let l = lhs as? Date, let r = rhs as? Date { return l == r }
        if let l = collectionElements(lhs), let r = collectionElements(rhs) {
            if isUnordered(lhs) {
                return l.count == r.count && l.allSatisfy { e in r.contains { equal(e, $0) } }
            }
            return l.count == r.count && zip(l, r).allSatisfy { equal($0, $1) }
        }
        if let l = lhs as? AnyHashable, let r = rhs as? AnyHashable { return l == r }
        if type(of: lhs) is AnyClass, type(of: rhs) is AnyClass {
            return (lhs as AnyObject) === (rhs as AnyObject)
        }
        return false
    }

    /// The order of two values, or nil when they cannot be ordered (a number and a string).
    /// nil sorts before every value.
    static func compare(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult? {
        compareNormalized(normalized(lhs), normalized(rhs))
    }

    static func compareNormalized(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let l?, let r?):
            if let l = number(l), let r = number(r) { return compare(l, r) }
            if let l = string(l), let r = string(r) { return order(l, r) }
            if let l = l as? Date, let r = r as? Date { return order(l, r) }
            if let l = l as? UUID, let r = r as? UUID { return order(l.uuidString, r.uuidString) }
            if let l = l as? Data, let r = r as? Data {
                return l.lexicographicallyPrecedes(r) ? .orderedAscending : l == r ? .orderedSame : .orderedDescending
            }
            return nil
        }
    }

    static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : lhs == rhs ? .orderedSame : .orderedDescending
    }

    static func compare(_ lhs: Number, _ rhs: Number) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.integer(let l), .integer(let r)): return order(l, r)
        case (.decimal(let l), _): return order(l, decimal(rhs))
        case (_, .decimal(let r)): return order(decimal(lhs), r)
        default: return order(double(lhs), double(rhs))
        }
    }

    static func double(_ number: Number) -> Double {
        switch number {
        case .integer(let v): return Double(v)
        case .double(let v): return v
        case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue
        }
    }

    static func decimal(_ number: Number) -> Decimal {
        switch number {
        case .integer(let v): return Decimal(v)
        case .double(let v): return Decimal(v)
        case .decimal(let v): return v
        }
    }

    /// The sum of numbers (`@sum`): an integer while every operand is one, else a Double, or a
    /// Decimal when any operand is. 0 for no operands; nil when an operand is not a number.
    static func sum(_ values: [Any]) -> Any? {
        var total = Number.integer(0)
        for value in values {
            guard let n = number(value) else { return nil }
            total = add(total, n)
        }
        return box(total)
    }

    static func divide(_ value: Any, by count: Int) -> Any? {
        guard let n = number(value) else { return nil }
        switch n {
        case .decimal(let v): return v / Decimal(count)
        default: return double(n) / Double(count)
        }
    }

    static func add(_ lhs: Number, _ rhs: Number) -> Number {
        switch (lhs, rhs) {
        case (.integer(let l), .integer(let r)):
            let (sum, overflow) = l.addingReportingOverflow(r)
            return overflow ? .double(Double(l) + Double(r)) : .integer(sum)
        case (.decimal, _), (_, .decimal): return .decimal(decimal(lhs) + decimal(rhs))
        default: return .double(double(lhs) + double(rhs))
        }
    }

    static func box(_ number: Number) -> Any {
        switch number {
        case .integer(let v): return Int(truncatingIfNeeded: v)
        case .double(let v): return v
        case .decimal(let v): return v
        }
    }
}
#endif
