/// A `Decoder` that decodes nothing but records what a type asks for: the keys of its keyed
/// containers, the items of its unkeyed ones, and which values may be null (synthesized
/// conformances call `decodeNil` only through `decodeIfPresent`). Every value it hands out is a
/// placeholder (false, zero, empty text, one item per list).
struct ShapeDecoder: Decoder {
    let recorder: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Nesting deeper than this means a type contains itself.
    static let maximumDepth = 64

    init(recorder: ShapeRecorder, depth: Int) {
        self.recorder = recorder
        self.depth = depth
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedShapeContainer<Key>(object: recorder.object(), depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedShapeContainer(item: recorder.list(), depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleShapeContainer(recorder: recorder, depth: depth)
    }

    /// Decodes `type` with a fresh recorder one level deeper and returns the placeholder value
    /// with its shape.
    static func shape<T: Decodable>(of type: T.Type, depth: Int) throws -> (T, MustacheShape) {
        guard depth < maximumDepth else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "\(T.self) nests more than \(maximumDepth) levels deep"))
        }
        let recorder = ShapeRecorder()
        let value = try T(from: ShapeDecoder(recorder: recorder, depth: depth + 1))
        return (value, recorder.shape)
    }

    /// The shape of a single value of a standard type, or nil for other types.
    static func scalarShape(_ type: Any.Type) -> MustacheShape? {
        if type == Bool.self { return .bool }
        if type == String.self || type is any Numeric.Type { return .value }
        return nil
    }
}

/// What one decoder's value turned out to be. A class: containers record into it after the
/// decoder that made them is gone.
final class ShapeRecorder {
    private enum Kind {
        case unknown
        case single(MustacheShape)
        case object(ObjectRecorder)
        case list(ShapeRecorder)
    }

    private var kind = Kind.unknown
    var isOptional = false

    func object() -> ObjectRecorder {
        if case .object(let object) = kind { return object }
        let object = ObjectRecorder()
        kind = .object(object)
        return object
    }

    func list() -> ShapeRecorder {
        if case .list(let item) = kind { return item }
        let item = ShapeRecorder()
        kind = .list(item)
        return item
    }

    func record(_ shape: MustacheShape) {
        kind = .single(shape)
    }

    var shape: MustacheShape {
        let shape: MustacheShape =
            switch kind {
            case .unknown: .value
            case .single(let shape): shape
            case .object(let object): .object(object.members.mapValues(\.shape))
            case .list(let item): .list(item.shape)
            }
        return isOptional ? .optional(shape) : shape
    }
}

final class ObjectRecorder {
    var members: [String: ShapeRecorder] = [:]

    func member(_ key: some CodingKey) -> ShapeRecorder {
        if let known = members[key.stringValue] { return known }
        let recorder = ShapeRecorder()
        members[key.stringValue] = recorder
        return recorder
    }
}

struct KeyedShapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: ObjectRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    /// Called by `decodeIfPresent` before it decodes: the key may be null.
    func decodeNil(forKey key: Key) throws -> Bool {
        object.member(key).isOptional = true
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        object.member(key).record(.bool)
        return false
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, shape) = try ShapeDecoder.shape(of: type, depth: depth)
        object.member(key).record(shape)
        return value
    }

    private func scalar<T: Decodable>(_ key: Key) throws -> T {
        guard let placeholder = SingleShapeContainer.placeholder(T.self) else { return try decode(T.self, forKey: key) }
        object.member(key).record(.value)
        return placeholder
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        KeyedDecodingContainer(KeyedShapeContainer<NestedKey>(object: object.member(key).object(), depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        UnkeyedShapeContainer(item: object.member(key).list(), depth: depth + 1)
    }

    func superDecoder() throws -> any Decoder { ShapeDecoder(recorder: ShapeRecorder(), depth: depth + 1) }

    func superDecoder(forKey key: Key) throws -> any Decoder { ShapeDecoder(recorder: object.member(key), depth: depth + 1) }
}

/// A list's container: it offers one item, whose shape is the list's item shape.
struct UnkeyedShapeContainer: UnkeyedDecodingContainer {
    let item: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(item: ShapeRecorder, depth: Int) {
        self.item = item
        self.depth = depth
    }

    mutating func decodeNil() throws -> Bool {
        item.isOptional = true
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        if let scalar = ShapeDecoder.scalarShape(type), let placeholder = SingleShapeContainer.placeholder(type) {
            item.record(scalar)
            return placeholder
        }
        let (value, shape) = try ShapeDecoder.shape(of: type, depth: depth)
        item.record(shape)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return KeyedDecodingContainer(KeyedShapeContainer<NestedKey>(object: item.object(), depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return UnkeyedShapeContainer(item: item.list(), depth: depth + 1)
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return ShapeDecoder(recorder: item, depth: depth + 1)
    }
}

struct SingleShapeContainer: SingleValueDecodingContainer {
    let recorder: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        recorder.isOptional = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = ShapeDecoder.scalarShape(type), let placeholder = Self.placeholder(type) {
            recorder.record(scalar)
            return placeholder
        }
        let (value, shape) = try ShapeDecoder.shape(of: type, depth: depth)
        recorder.record(shape)
        return value
    }

    /// False, zero or empty text for the standard single values.
    static func placeholder<T>(_ type: T.Type) -> T? {
        if type == Bool.self { return false as? T }
        if type == String.self { return "" as? T }
        if let numeric = type as? any AdditiveArithmetic.Type { return numeric.zero as? T }
        return nil
    }
}
