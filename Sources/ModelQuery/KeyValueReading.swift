#if !canImport(CoreData)
import Foundation

/// An object predicates and sort descriptors can read by key, as key-value coding reads an
/// `NSObject` on Apple platforms. The runtime's managed objects adopt it; so can any class or
/// struct. Dictionaries with `String` keys are read without adopting anything.
public protocol KeyValueReadable {
    /// The value of the property named `key`, or nil when it has none (or no such property).
    func value(forKey key: String) -> Any?
}

/// A type whose Swift key paths have string names, so `NSSortDescriptor(keyPath:ascending:)` and
/// `NSExpression(forKeyPath:)` can turn a `KeyPath` into the key Core Data understands. Generated
/// classes adopt it with a table of their properties' key paths. The requirement takes an
/// `AnyKeyPath` (rooted at the receiver) so that non-final classes can adopt it and subclasses
/// can override it with their own table.
public protocol KeyPathStringConvertible {
    /// The string key path of `keyPath` (`"trip.name"`), or nil when the key path has no name.
    static func keyPathString(for keyPath: AnyKeyPath) -> String?
}

/// Key-value reading of the model's description objects, as Objective-C's key-value coding gives
/// them on Apple platforms: a key path in a predicate or expression can read a description, as
/// `$FETCHED_PROPERTY.userInfo.limit` in a fetched property's predicate does, or
/// `entity.name` of an object. Booleans and numbers come boxed, as key-value coding boxes them.
package protocol DescriptionKeyValueReading: AnyObject {
    /// The value of the public property named `key`; nil for another key.
    func describedValue(forKey key: String) -> Any?
}

extension KeyValueReadable {
    /// The value at a dotted key path, through to-one relationships, collections and collection
    /// operators (`@count`, `@sum`, `@avg`, `@min`, `@max`), as `value(forKeyPath:)` reads it.
    public func value(forKeyPath keyPath: String) -> Any? {
        KeyPathReader.value(at: KeyPathReader.components(keyPath), of: self)
    }
}

func keyPathString<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> String? {
    guard let named = Root.self as? any KeyPathStringConvertible.Type else { return nil }
    return named.keyPathString(for: keyPath)
}

/// Reads key paths of key-value objects, dictionaries and collections with key-value coding's
/// rules: a key applied to a collection maps over its elements (nil elements become `NSNull`),
/// collection operators aggregate, a missing object or key gives nil.
package enum KeyPathReader {
    package static func components(_ keyPath: String) -> [String] {
        // A single key (the common case) needs no splitting.
        if !keyPath.utf8.contains(UInt8(ascii: ".")) { return [keyPath] }
        return keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    package static func value(at components: [String], of object: Any?) -> Any? {
        value(at: components[...], of: object)
    }

    static func value(at components: ArraySlice<String>, of object: Any?) -> Any? {
        guard let first = components.first else { return object }
        guard let object = unwrapped(object) else { return nil }
        let rest = components.dropFirst()
        // Objects first: the common case, and no collection checks on them.
        if let readable = object as? any KeyValueReadable {
            if first.hasPrefix("@") { return nil }
            return value(at: rest, of: readable.value(forKey: first))
        }
        if let dictionary = object as? [String: Any] {
            return value(at: rest, of: dictionary[first])
        }
        if first.hasPrefix("@") {
            return collectionOperator(first, rest: rest, of: object)
        }
        if let description = object as? any DescriptionKeyValueReading {
            return value(at: rest, of: description.describedValue(forKey: first))
        }
        if let dictionary = QueryValues.object(object, as: NSDictionary.self) {
            return value(at: rest, of: dictionary.object(forKey: first))
        }
        if let dictionary = object as? [AnyHashable: Any] {
            return value(at: rest, of: dictionary[AnyHashable(first)])
        }
        if let elements = QueryValues.collectionElements(object) {
            return elements.map { element -> Any in
                value(at: components, of: element) ?? NSNull()
            }
        }
        return nil
    }

    /// `Optional<Any>` values hidden inside `Any` and `NSNull` become nil.
    package static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let type = Swift.type(of: value)
        if QueryValues.isPlainScalar(type) { return value }
        // A class instance is never an Optional; checking the metatype needs no conformance lookup.
        if type is AnyClass { return type is NSNull.Type ? nil : value }
        if let optional = value as? any OptionalProtocol { return unwrapped(optional.wrappedAny) }
        return value
    }

    private static func collectionOperator(_ name: String, rest: ArraySlice<String>, of object: Any) -> Any? {
        guard let elements = QueryValues.collectionElements(object) else { return nil }
        func operands() -> [Any] {
            elements.compactMap { unwrapped(value(at: rest, of: $0)) }
        }
        switch name {
        case "@count":
            return rest.isEmpty ? elements.count : value(at: rest, of: elements.count)
        case "@sum":
            return QueryValues.sum(operands())
        case "@avg":
            let values = operands()
            guard !values.isEmpty, let sum = QueryValues.sum(values) else { return nil }
            return QueryValues.divide(sum, by: values.count)
        case "@min":
            return operands().min { QueryValues.compare($0, $1) == .orderedAscending }
        case "@max":
            return operands().max { QueryValues.compare($0, $1) == .orderedAscending }
        case "@distinctUnionOfObjects":
            var seen: [Any] = []
            for value in operands() where !seen.contains(where: { QueryValues.equal($0, value) }) {
                seen.append(value)
            }
            return seen
        case "@unionOfObjects":
            return operands()
        default:
            return nil
        }
    }
}

protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}
#endif
