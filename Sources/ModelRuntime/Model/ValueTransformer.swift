#if !canImport(CoreData)
import ModelQuery

/// A registered transformer's name (Foundation's `NSValueTransformerName`, which Linux's
/// Foundation does not have), with Foundation's names of the built-in transformers.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    /// Keyed unarchiving limited to ``NSSecureUnarchiveFromDataTransformer/allowedTopLevelClasses``.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
    /// Keyed unarchiving of any class (Core Data's old default for transformable attributes).
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
    public static let negateBooleanTransformerName = NSValueTransformerName("NSNegateBoolean")
    public static let isNilTransformerName = NSValueTransformerName("NSIsNil")
    public static let isNotNilTransformerName = NSValueTransformerName("NSIsNotNil")
}

/// Foundation's `ValueTransformer`, which Linux's Foundation does not have: converts values one
/// way (``transformedValue(_:)``) and back (``reverseTransformedValue(_:)``), registered by
/// name. Core Data uses the transformer a transformable attribute names to turn its value into
/// `Data` for the store (`transformedValue`) and back (`reverseTransformedValue`).
///
/// `ValueTransformer(forName:)` cannot return the registered instance itself (a Swift
/// initialiser makes a new object), so it returns a transformer that forwards to it: the same
/// conversions, another identity (`as? MyTransformer` on it fails).
open class ValueTransformer: NSObject, @unchecked Sendable {
    private static let registry = Registry()
    /// The registered transformer this one stands for (``init(forName:)``).
    private var forwarded: ValueTransformer?

    public override init() {
        super.init()
    }

    /// A transformer that forwards to the one registered as `name`; nil when none is.
    public convenience init?(forName name: NSValueTransformerName) {
        guard let registered = Self.registered(name) else { return nil }
        self.init()
        forwarded = registered
    }

    /// Registers `transformer` as `name` (nil removes the registration).
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registry.set(transformer, for: name)
    }

    /// The names registered, the built-in transformers' included.
    open class func valueTransformerNames() -> [NSValueTransformerName] { registry.names }

    /// The transformer registered as `name` itself.
    static func registered(_ name: NSValueTransformerName) -> ValueTransformer? { registry.transformer(for: name) }

    /// The class of the values ``transformedValue(_:)`` returns.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether ``reverseTransformedValue(_:)`` converts back.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The value converted; by default, the value itself.
    open func transformedValue(_ value: Any?) -> Any? {
        if let forwarded { return forwarded.transformedValue(value) }
        return value
    }

    /// The value converted back; by default ``transformedValue(_:)``'s conversion, as Foundation's.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        if let forwarded { return forwarded.reverseTransformedValue(value) }
        return transformedValue(value)
    }

    /// The transformers by name, the built-in ones registered first.
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var transformers: [NSValueTransformerName: ValueTransformer] = [
            .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
            .keyedUnarchiveFromDataTransformerName: KeyedUnarchiveFromDataTransformer(),
            .negateBooleanTransformerName: BooleanTransformer(kind: .negate),
            .isNilTransformerName: BooleanTransformer(kind: .isNil),
            .isNotNilTransformerName: BooleanTransformer(kind: .isNotNil),
        ]

        func set(_ transformer: ValueTransformer?, for name: NSValueTransformerName) {
            lock.withLock { transformers[name] = transformer }
        }

        func transformer(for name: NSValueTransformerName) -> ValueTransformer? {
            lock.withLock { transformers[name] }
        }

        var names: [NSValueTransformerName] {
            lock.withLock { transformers.keys.sorted { $0.rawValue < $1.rawValue } }
        }
    }
}

/// Foundation's `NSSecureUnarchiveFromDataTransformer`: objects to keyed-archive `Data` and back,
/// unarchiving only ``allowedTopLevelClasses`` (subclasses list their own, as on Apple
/// platforms). Swift values are archived as the Foundation objects they bridge to (`String` as
/// `NSString`, arrays as `NSArray`, …).
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    /// The classes an archive's root object may be: Foundation's property-list and value
    /// classes by default.
    open class var allowedTopLevelClasses: [AnyClass] {
        [
            NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self,
            NSURL.self, NSUUID.self, NSNull.self,
        ]
    }

    open override class func transformedValueClass() -> AnyClass { NSData.self }
    open override class func allowsReverseTransformation() -> Bool { true }

    /// The value archived (nil stays nil; a value that cannot be archived gives nil).
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return KeyedArchiveCoding.archive(value, secure: true)
    }

    /// The archive's root object, when it and everything in it are of the allowed classes (else
    /// nil, as for data that is no keyed archive).
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return KeyedArchiveCoding.unarchive(data, allowed: Self.allowedTopLevelClasses)
    }
}

/// `NSKeyedUnarchiveFromData`: keyed archiving without a class list.
private final class KeyedUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    override class func transformedValueClass() -> AnyClass { NSData.self }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return KeyedArchiveCoding.archive(value, secure: false)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return KeyedArchiveCoding.unarchive(data, allowed: nil)
    }
}

/// `NSNegateBoolean`, `NSIsNil` and `NSIsNotNil`.
private final class BooleanTransformer: ValueTransformer, @unchecked Sendable {
    enum Kind { case negate, isNil, isNotNil }
    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    override class func transformedValueClass() -> AnyClass { NSNumber.self }
    override class func allowsReverseTransformation() -> Bool { false }

    override func transformedValue(_ value: Any?) -> Any? {
        switch kind {
        case .negate: return !((value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false)
        case .isNil: return value == nil
        case .isNotNil: return value != nil
        }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        kind == .negate ? transformedValue(value) : nil
    }
}
#endif
