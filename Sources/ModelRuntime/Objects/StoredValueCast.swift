#if !canImport(CoreData)
import ModelQuery

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

    // MARK: Reading an `Any?` in place

    /// Where an `Any?` records its dynamic type: after the three-word inline buffer. Nil has a
    /// null metadata word.
    static let metadataOffset = 3 * MemoryLayout<UnsafeRawPointer>.stride

    /// Whether `Any?` has the layout described above, with the common value types at the start of
    /// the buffer (checked once with known values). When it does not, the readers here report
    /// every value as unknown and callers take the general path.
    static let layoutHolds: Bool = {
        let stride = MemoryLayout<Any?>.stride
        guard MemoryLayout<Any?>.size == 4 * MemoryLayout<UnsafeRawPointer>.stride else { return false }
        let samples: ContiguousArray<Any?> = [nil, Int64(-7), "a string longer than fifteen bytes", 2.5]
        return samples.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            func metadata(_ index: Int) -> UnsafeRawPointer? {
                base.load(fromByteOffset: index * stride + metadataOffset, as: UnsafeRawPointer?.self)
            }
            func type<T>(_ type: T.Type) -> UnsafeRawPointer { unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self) }
            return metadata(0) == nil && metadata(1) == type(Int64.self) && metadata(2) == type(String.self)
                && metadata(3) == type(Double.self)
                && base.load(fromByteOffset: stride, as: Int64.self) == -7
                && base.load(fromByteOffset: 2 * stride, as: String.self) == "a string longer than fifteen bytes"
                && base.load(fromByteOffset: 3 * stride, as: Double.self) == 2.5
        }
    }()

    /// The type metadata recorded in the `Any?` at `existential` (nil for nil). Only meaningful
    /// when ``layoutHolds``.
    @inline(__always)
    static func metadata(at existential: UnsafeRawPointer) -> UnsafeRawPointer? {
        existential.load(fromByteOffset: metadataOffset, as: UnsafeRawPointer?.self)
    }

    /// The type metadata recorded in `value` (nil for nil), or nil when ``layoutHolds`` is false.
    @inline(__always)
    static func metadata(of value: borrowing Any?) -> UnsafeRawPointer? {
        guard layoutHolds else { return nil }
        return withUnsafeBytes(of: value) { metadata(at: $0.baseAddress!) }
    }

    /// Copies the value of the `Any?` at `existential` into `destination` (uninitialised memory
    /// for a value of the type `type` identifies, of `size` bytes: `MemoryLayout<T>.size`, which
    /// the caller knows at compile time) when its dynamic type is exactly that type, one of
    /// ``isInlineScalar(_:)``'s, without copying the `Any`.
    ///
    /// `layoutHolds` is ``layoutHolds``, read by the caller from where it keeps it
    /// (``ValueLayout/existentialLayoutHolds``): reading the lazily made static itself costs a call
    /// to the runtime's once-check on every value.
    @usableFromInline
    static func copy(
        _ existential: UnsafeRawPointer, type: ObjectIdentifier, size: Int, into destination: UnsafeMutableRawPointer,
        layoutHolds: Bool
    ) -> Copy {
        guard layoutHolds else { return .other }
        guard let metadata = metadata(at: existential) else { return .absent }
        guard metadata == unsafeBitCast(type, to: UnsafeRawPointer.self) else { return .other }
        switch type {
        case ObjectIdentifier(String.self):
            destination.initializeMemory(as: String.self, to: existential.load(as: String.self))
        case ObjectIdentifier(Data.self):
            destination.initializeMemory(as: Data.self, to: existential.load(as: Data.self))
        default:
            // The other types are plain bits (integers, floating point, `Date`, `Bool`, `UUID`).
            // Word by word for the common sizes: a `copyMemory` of a size known only at run time
            // is a call to `memcpy`.
            switch size {
            case 8: destination.storeBytes(of: existential.load(as: UInt64.self), as: UInt64.self)
            case 16:
                destination.storeBytes(of: existential.load(as: UInt64.self), as: UInt64.self)
                destination.storeBytes(of: existential.load(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            case let byteCount: destination.copyMemory(from: existential, byteCount: byteCount)
            }
        }
        return .copied
    }

    /// Destroys the `Any?` at `existential`, leaving the memory uninitialised. Nil and the plain
    /// value types of ``isInlineScalar(_:)`` need nothing done and a `String` a release, each
    /// told by the metadata word; anything else takes the general path, through the value's
    /// type (which the generic destroy of an `Any?` takes for every value, nil included).
    /// `layoutHolds` is ``layoutHolds``, read by the caller (see
    /// ``copy(_:type:size:into:layoutHolds:)``).
    @inline(__always)
    static func destroy(_ existential: UnsafeMutablePointer<Any?>, layoutHolds: Bool) {
        guard layoutHolds else {
            existential.deinitialize(count: 1)
            return
        }
        guard let metadata = metadata(at: UnsafeRawPointer(existential)) else { return }
        if metadata == Self.metadata(String.self) {
            UnsafeMutableRawPointer(existential).assumingMemoryBound(to: String.self).deinitialize(count: 1)
        } else if metadata == Self.metadata(Int64.self) || metadata == Self.metadata(Double.self)
            || metadata == Self.metadata(Date.self) || metadata == Self.metadata(Bool.self) || metadata == Self.metadata(Int32.self)
            || metadata == Self.metadata(Int16.self) || metadata == Self.metadata(Float.self) || metadata == Self.metadata(Int.self)
        {
            return
        } else {
            _ = existential.move()
        }
    }

    @inline(__always)
    private static func metadata<T>(_ type: T.Type) -> UnsafeRawPointer { unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self) }

    /// The value of `value`, whose dynamic type the caller has checked to be exactly `T`, one of
    /// the types of ``isInlineScalar(_:)``.
    @inlinable @inline(__always)
    static func load<T>(_ value: Any, as _: T.Type) -> T {
        withUnsafeBytes(of: value) { $0.load(as: T.self) }
    }
}
#endif
