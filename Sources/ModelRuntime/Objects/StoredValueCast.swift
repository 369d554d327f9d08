#if !canImport(CoreData)
import Foundation

/// Reads a slot value (an `Any`) as the Swift type it is stored in, without a dynamic cast.
///
/// Attribute values are kept as `Any`; `value as? Int64` on one goes through the runtime's
/// `swift_dynamicCast` (several hundred instructions, more for a bridged type). For the fixed
/// set of value types below, an `Any` holds the value inline, at the start of its container
/// (the existential layout: a three-word buffer, then the type; values of at most three words
/// and word alignment that can be moved bitwise sit in the buffer), so once the dynamic type
/// is known to be exactly `T`, the value is a plain load. Every other type, and every value of
/// another dynamic type (an `NSNumber`, a subclass), takes the ordinary cast, so results are
/// those of `as? T`.
@usableFromInline
enum StoredValueCast {
    /// Whether `T` is one of the value types an `Any` is known to hold inline.
    @inlinable @inline(__always)
    static func isInlineScalar<T>(_: T.Type) -> Bool {
        T.self == Int64.self || T.self == String.self || T.self == Double.self || T.self == Date.self || T.self == Bool.self
            || T.self == Int32.self || T.self == Int16.self || T.self == Float.self || T.self == UUID.self
            || T.self == Data.self || T.self == Int.self
    }

    /// `value as? T`, as a load when the value's dynamic type is exactly `T` and `T` is held inline.
    @inlinable @inline(__always)
    static func cast<T>(_ value: Any?, to _: T.Type) -> T? {
        guard let value else { return nil }
        if isInlineScalar(T.self), Swift.type(of: value) == T.self { return load(value, as: T.self) }
        return value as? T
    }

    /// The value of `value`, whose dynamic type the caller has checked to be exactly `T`, one of
    /// the types of ``isInlineScalar(_:)``.
    @inlinable @inline(__always)
    static func load<T>(_ value: Any, as _: T.Type) -> T {
        withUnsafeBytes(of: value) { $0.load(as: T.self) }
    }
}
#endif
