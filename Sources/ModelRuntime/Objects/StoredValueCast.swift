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

    /// What ``copy(_:type:into:)`` found.
    @usableFromInline
    enum Copy: UInt8 {
        /// The value was of the asked type and is now in the destination.
        case copied
        /// The `Any?` was nil.
        case absent
        /// A value of another dynamic type: the caller casts it.
        case other
    }

    /// Copies the value of the `Any?` at `existential` into `destination` (uninitialised memory
    /// for a value of the type `type` identifies) when its dynamic type is exactly that type, one
    /// of ``isInlineScalar(_:)``'s, without copying the `Any`. An `Any?` is the three-word buffer
    /// and then the type's metadata, nil having a null metadata word (checked by
    /// `StoredValueCastTests`).
    @usableFromInline
    static func copy(_ existential: UnsafeRawPointer, type: ObjectIdentifier, into destination: UnsafeMutableRawPointer) -> Copy {
        let metadata = existential.load(fromByteOffset: 3 * MemoryLayout<UInt>.stride, as: UInt.self)
        if metadata == 0 { return .absent }
        guard metadata == metadataWord(type) else { return .other }
        switch type {
        case ObjectIdentifier(String.self):
            destination.initializeMemory(as: String.self, to: existential.load(as: String.self))
        case ObjectIdentifier(Data.self):
            destination.initializeMemory(as: Data.self, to: existential.load(as: Data.self))
        default:
            // The other types are plain bits (integers, floating point, `Date`, `Bool`, `UUID`).
            destination.copyMemory(from: existential, byteCount: trivialSize(type))
        }
        return .copied
    }

    @inline(__always)
    private static func metadataWord(_ type: ObjectIdentifier) -> UInt { UInt(bitPattern: unsafeBitCast(type, to: Int.self)) }

    /// The size of the trivial types of ``isInlineScalar(_:)``.
    private static func trivialSize(_ type: ObjectIdentifier) -> Int {
        switch type {
        case ObjectIdentifier(Int64.self), ObjectIdentifier(Double.self), ObjectIdentifier(Date.self), ObjectIdentifier(Int.self):
            return 8
        case ObjectIdentifier(UUID.self): return 16
        case ObjectIdentifier(Int32.self), ObjectIdentifier(Float.self): return 4
        case ObjectIdentifier(Int16.self): return 2
        case ObjectIdentifier(Bool.self): return 1
        default: preconditionFailure("not a stored scalar type")
        }
    }

    /// The value of `value`, whose dynamic type the caller has checked to be exactly `T`, one of
    /// the types of ``isInlineScalar(_:)``.
    @inlinable @inline(__always)
    static func load<T>(_ value: Any, as _: T.Type) -> T {
        withUnsafeBytes(of: value) { $0.load(as: T.self) }
    }
}
#endif
