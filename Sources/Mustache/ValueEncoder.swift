extension MustacheValue {
    /// The context value of an `Encodable` value: structs become objects, arrays lists, `Bool`
    /// flags, text and numbers values. A nil optional becomes null under its key rather than
    /// leaving the key out, so a declared key never falls through to an outer context.
    public init(encoding value: some Encodable) throws {
        let slot = EncodingSlot()
        try value.encode(to: ValueEncoder(slot: slot))
        self = slot.value
    }
}

/// One value being encoded. A class: containers fill it after the encoder that made them is gone.
final class EncodingSlot {
    private enum Content {
        case single(MustacheValue)
        case object([String: EncodingSlot])
        case list([EncodingSlot])
    }

    private var content = Content.single(.null)

    var value: MustacheValue {
        switch content {
        case .single(let value): value
        case .object(let members): .object(members.mapValues(\.value))
        case .list(let items): .list(items.map(\.value))
        }
    }

    func set(_ value: MustacheValue) { content = .single(value) }

    /// The slot of `key`, making this slot an object if it is not one yet.
    func member(_ key: String) -> EncodingSlot {
        var members: [String: EncodingSlot] = [:]
        if case .object(let known) = content { members = known }
        let slot = members[key] ?? EncodingSlot()
        members[key] = slot
        content = .object(members)
        return slot
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([:])
    }

    /// A new last item, making this slot a list if it is not one yet.
    func appendItem() -> EncodingSlot {
        var items: [EncodingSlot] = []
        if case .list(let known) = content { items = known }
        let slot = EncodingSlot()
        items.append(slot)
        content = .list(items)
        return slot
    }

    func makeList() {
        if case .list = content { return }
        content = .list([])
    }

    var count: Int {
        if case .list(let items) = content { return items.count }
        return 0
    }

    /// Encodes `value` into this slot: standard single values directly, others through their
    /// own `encode(to:)`.
    func encode<T: Encodable>(_ value: T) throws {
        switch value {
        case let flag as Bool: set(.bool(flag))
        case let text as String: set(.string(text))
        case let number as Double: set(.double(number))
        case let number as Float: set(.double(Double(number)))
        case let number as any BinaryInteger: set(.int(Int(clamping: number)))
        default: try value.encode(to: ValueEncoder(slot: self))
        }
    }
}

struct ValueEncoder: Encoder {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeObject()
        return KeyedEncodingContainer(KeyedValueContainer<Key>(slot: slot))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeList()
        return UnkeyedValueContainer(slot: slot)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(slot: slot) }
}

struct KeyedValueContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { slot.member(key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try slot.member(key.stringValue).encode(value) }

    // Synthesized conformances encode optionals with `encodeIfPresent`, whose default leaves a nil
    // value's key out; these write null instead.
    private func optional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try slot.member(key.stringValue).encode(value) } else { slot.member(key.stringValue).set(.null) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try optional(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
        NestedKey
    > {
        let member = slot.member(key.stringValue)
        member.makeObject()
        return KeyedEncodingContainer(KeyedValueContainer<NestedKey>(slot: member))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let member = slot.member(key.stringValue)
        member.makeList()
        return UnkeyedValueContainer(slot: member)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(slot: slot.member("super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(slot: slot.member(key.stringValue)) }
}

struct UnkeyedValueContainer: UnkeyedEncodingContainer {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { [] }
    var count: Int { slot.count }

    mutating func encodeNil() throws { slot.appendItem().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try slot.appendItem().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let item = slot.appendItem()
        item.makeObject()
        return KeyedEncodingContainer(KeyedValueContainer<NestedKey>(slot: item))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let item = slot.appendItem()
        item.makeList()
        return UnkeyedValueContainer(slot: item)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(slot: slot.appendItem()) }
}

struct SingleValueContainer: SingleValueEncodingContainer {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { slot.set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try slot.encode(value) }
}
