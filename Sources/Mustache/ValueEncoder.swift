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
/// Members and items are kept in stored properties and changed in place (never copied out and
/// back, which would copy the whole collection for every key).
final class EncodingSlot {
    private var single = MustacheValue.null
    private var members: [String: EncodingSlot]?
    private var items: [EncodingSlot]?

    var value: MustacheValue {
        if let members { return .object(members.mapValues(\.value)) }
        if let items { return .list(items.map(\.value)) }
        return single
    }

    func set(_ value: MustacheValue) {
        single = value
        members = nil
        items = nil
    }

    /// The slot of `key`, making this slot an object if it is not one yet.
    func member(_ key: String) -> EncodingSlot {
        makeObject()
        if let known = members?[key] { return known }
        let slot = EncodingSlot()
        members?[key] = slot
        return slot
    }

    func makeObject() {
        guard members == nil else { return }
        items = nil
        members = [:]
    }

    /// A new last item, making this slot a list if it is not one yet.
    func appendItem() -> EncodingSlot {
        makeList()
        let slot = EncodingSlot()
        items?.append(slot)
        return slot
    }

    func makeList() {
        guard items == nil else { return }
        members = nil
        items = []
    }

    var count: Int { items?.count ?? 0 }

    /// Encodes `value` into this slot: standard single values directly, others through their
    /// own `encode(to:)`.
    func encode<T: Encodable>(_ value: T) throws {
        if let text = value as? String {
            set(.string(text))
        } else if let flag = value as? Bool {
            set(.bool(flag))
        } else if let number = value as? Int {
            set(.int(number))
        } else if let number = value as? Double {
            set(.double(number))
        } else if let number = value as? Float {
            set(.double(Double(number)))
        } else if let number = value as? any BinaryInteger {
            set(.int(Int(clamping: number)))
        } else {
            try value.encode(to: ValueEncoder(slot: self))
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
