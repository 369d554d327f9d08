#if !canImport(CoreData)
import ModelQuery

/// The dictionary a batch insert's dictionary handler fills: an `NSMutableDictionary` whose
/// values for the entity's attributes and relationships sit in an array by slot, so the writer
/// reads a row by position instead of looking every property's name up in a Foundation
/// dictionary (which bridges and hashes each key, and boxes each value, on Linux).
///
/// It behaves as the `NSMutableDictionary` the handler is typed with: a key is a property when its
/// text is the property's name (as `String`, `NSString` or any other value bridging to
/// `NSString`, as in an ordinary dictionary, whose keys compare as strings); every other key is
/// kept in an ordinary dictionary beside the slots and is not inserted. Reading a value back
/// gives what an ordinary dictionary gives (the value stored and fetched through Foundation's
/// bridging: `NSNumber` for a number, `String` for a string). A value of its attribute's
/// stored Swift type (`Int64`, `Double`, `String`, `Date`, `Bool`) is kept as it is, since the
/// writer binds it exactly as it binds the bridged object; any other value is kept as
/// Foundation's bridging gives it back, which is what the writer saw from an ordinary dictionary.
///
/// Foundation on Linux bridges only `NSDictionary` and `NSMutableDictionary` themselves to Swift
/// dictionaries (`row as? [String: Any]` of any subclass is empty), so a handler that casts its
/// row to a Swift dictionary, or compares an ordinary dictionary with it, should copy it first
/// (`row.copy()` is an ordinary `NSDictionary`). Its state skips dynamic exclusivity checks: a
/// row is used by one batch insert on its context's queue.
final class BatchInsertRow: NSMutableDictionary {
    /// What every row of one batch insert shares: the names by slot and each slot's plain type.
    final class Layout {
        /// The property name of each slot that takes a value (attributes and relationships).
        let names: [String?]
        /// Per slot: the Swift type the writer binds without conversion, if any.
        let plainTypes: [ObjectIdentifier?]
        /// Slot by name, for names not found where the last key's successor would be.
        let slots: [String: Int]
        /// Slots in the order they were named last (the guess for the next key).
        @exclusivity(unchecked) fileprivate var following: [Int]

        init(names: [String?], plainTypes: [ObjectIdentifier?], slots: [String: Int]) {
            self.names = names
            self.plainTypes = plainTypes
            self.slots = slots
            following = [Int](repeating: -1, count: names.count + 1)
        }

        /// A layout without properties: every key is kept as an ordinary dictionary keeps it.
        convenience init() { self.init(names: [], plainTypes: [], slots: [:]) }

        convenience init(entity: EngineEntity) {
            var names = [String?](repeating: nil, count: entity.slotCount)
            var plainTypes = [ObjectIdentifier?](repeating: nil, count: entity.slotCount)
            var slots: [String: Int] = [:]
            for slot in entity.attributeSlots + entity.relationshipSlots {
                let name = entity.properties[slot].name
                names[slot] = name
                slots[name] = slot
                if case .attribute(let type, _) = entity.slotKinds[slot] {
                    switch type {
                    case .integer64AttributeType: plainTypes[slot] = ObjectIdentifier(Int64.self)
                    case .doubleAttributeType: plainTypes[slot] = ObjectIdentifier(Double.self)
                    case .stringAttributeType: plainTypes[slot] = ObjectIdentifier(String.self)
                    case .dateAttributeType: plainTypes[slot] = ObjectIdentifier(Date.self)
                    case .booleanAttributeType: plainTypes[slot] = ObjectIdentifier(Bool.self)
                    default: break
                    }
                }
            }
            self.init(names: names, plainTypes: plainTypes, slots: slots)
        }

        /// The slot named `name`, `previous` being the slot named before it (-1 at the start).
        @inline(__always)
        fileprivate func slot(named name: String, after previous: Int) -> Int? {
            let guess = following[previous + 1]
            if guess >= 0, names[guess] == name { return guess }
            guard let slot = slots[name] else { return nil }
            following[previous + 1] = slot
            return slot
        }
    }

    let layout: Layout
    /// The values by slot (nil: no value for that key).
    @exclusivity(unchecked) var values: ContiguousArray<Any?>
    /// How many slots hold a value.
    @exclusivity(unchecked) private var present = 0
    /// The slot set last, where the next key is looked for first.
    @exclusivity(unchecked) private var last = -1
    /// Keys that are no property of the entity, kept as an ordinary dictionary keeps them.
    private var others: NSMutableDictionary?

    init(layout: Layout) {
        self.layout = layout
        values = ContiguousArray(repeating: nil, count: layout.names.count)
        super.init(objects: nil, forKeys: nil, count: 0)
    }

    required convenience init(objects: UnsafePointer<AnyObject>!, forKeys keys: UnsafePointer<NSObject>!, count cnt: Int) {
        self.init(layout: Layout())
        for index in 0..<cnt { setObject(objects[index], forKey: keys[index] as AnyHashable) }
    }

    required convenience init?(coder aDecoder: NSCoder) {
        guard let decoded = NSDictionary(coder: aDecoder) else { return nil }
        self.init(layout: Layout())
        for (key, value) in decoded { if let key = key as? AnyHashable { setObject(value, forKey: key) } }
    }

    required convenience init(dictionaryLiteral elements: (Any, Any)...) {
        self.init(layout: Layout())
        for (key, value) in elements { if let key = key as? AnyHashable { setObject(value, forKey: key) } }
    }

    /// Empties the row for the next call of the handler (also when its values were swapped
    /// for another array).
    func reset() {
        for slot in values.indices { values[slot] = nil }
        present = 0
        last = -1
        others = nil
    }

    /// The slot of a key that names a property.
    @inline(__always)
    private func slot(of key: Any) -> Int? {
        // A `String` key (the usual one) is read without a dynamic cast.
        if let name = StoredValueCast.cast(key, to: String.self) { return layout.slot(named: name, after: last) }
        guard let text = (key as AnyObject) as? NSString else { return nil }
        return layout.slot(named: String._unconditionallyBridgeFromObjectiveC(text), after: last)
    }

    /// Whether `slot` holds no value, told by the `Any?`'s metadata word where its layout is
    /// known (comparing an `Any?` with nil copies and destroys it).
    @inline(__always)
    private func isEmpty(_ slot: Int) -> Bool {
        guard StoredValueCast.layoutHolds else { return values[slot] == nil }
        return values.withUnsafeBufferPointer { StoredValueCast.metadata(at: UnsafeRawPointer($0.baseAddress! + slot)) == nil }
    }

    override var count: Int { present + (others?.count ?? 0) }

    override func object(forKey aKey: Any) -> Any? {
        if let slot = slot(of: aKey) { return values[slot].map(Self.bridged) }
        return others?.object(forKey: aKey)
    }

    override func setObject(_ anObject: Any, forKey aKey: AnyHashable) {
        guard let slot = slot(of: aKey.base) else {
            if others == nil { others = NSMutableDictionary() }
            others!.setObject(anObject, forKey: aKey)
            return
        }
        if isEmpty(slot) { present += 1 }
        if let plain = layout.plainTypes[slot], ObjectIdentifier(type(of: anObject)) == plain {
            values[slot] = anObject
        } else {
            values[slot] = Self.bridged(anObject)
        }
        last = slot
    }

    override func removeObject(forKey aKey: Any) {
        guard let slot = slot(of: aKey) else {
            others?.removeObject(forKey: aKey)
            return
        }
        if values[slot] != nil {
            values[slot] = nil
            present -= 1
        }
    }

    override func removeAllObjects() { reset() }

    override func keyEnumerator() -> NSEnumerator { NSArray(array: allKeys).objectEnumerator() }

    override var allKeys: [Any] {
        var keys: [Any] = []
        keys.reserveCapacity(count)
        for slot in values.indices where values[slot] != nil { keys.append(layout.names[slot]!) }
        if let others { keys += others.allKeys }
        return keys
    }

    override func isEqual(_ object: Any?) -> Bool {
        let mine = copy() as! NSDictionary
        if let other = object as? BatchInsertRow { return mine.isEqual(other.copy()) }
        return mine.isEqual(object)
    }

    /// A value as an ordinary `NSDictionary` holding it gives it back: stored through Foundation's
    /// bridging (`NSNumber`, `NSString`, …) and fetched back (`String`, `Date`, …), as a
    /// Foundation collection stores and fetches its elements.
    static func bridged(_ value: Any) -> Any { NSArray(object: value).object(at: 0) }
}
#endif
