#if !canImport(CoreData)
import ModelQuery
import Synchronization

/// The properties a generated class declares, by name, with their storage slots resolved for
/// each entity whose objects use the class's accessors.
///
/// A slot number belongs to an entity, not to a class: a sub-entity numbers its inherited
/// properties among its own, and another version of the model numbers them afresh. Generated
/// classes therefore keep one table (`private enum Slots { static let name = table[0] }`) and
/// read through ``SlotReference``s; the table resolves its names once per entity and keeps the
/// result in an immutable block that readers scan without a lock, so with one model in use a
/// read costs a load and an integer compare beyond the slot read itself.
///
/// A table lives for the rest of the process once made (it is meant for a `static let`), so its
/// references can hold it without reference counting.
public final class SlotTable: @unchecked Sendable {
    /// The property names, in the order of their references' indexes.
    let names: [String]
    /// Integers per resolved entity in a block: the entity's serial, then one slot per name.
    private let stride: Int
    /// The resolved entities: `[count, serial₀, slots₀…, serial₁, slots₁…]`. A block is never
    /// changed once published; adding an entity publishes a new one.
    private let resolved = Atomic<UnsafeMutablePointer<Int>?>(nil)
    private let lock = NSLock()
    /// Every block published (readers may still hold older ones, so none is freed); guarded by
    /// ``lock``, as is ``entries``.
    private var blocks: [UnsafeMutablePointer<Int>] = []
    private var entries: [Entry] = []
    /// Entities kept in the block at most; objects of further entities (many short-lived models
    /// at once) look their slots up by name.
    private static let maximumEntries = 8

    /// An entity's slots, by its serial (not a weak reference: see ``EngineEntity``).
    private struct Entry {
        let serial: Int
        let slots: [Int]
    }

    /// A table of the properties named `names`.
    public init(_ names: [String]) {
        self.names = names
        stride = names.count + 1
        _ = Unmanaged.passRetained(self)
    }

    /// The reference to the property at `index` of the names.
    public subscript(index: Int) -> SlotReference {
        precondition(names.indices.contains(index), "SlotTable: no property at index \(index)")
        return SlotReference(table: Unmanaged.passUnretained(self), index: index)
    }

    /// The slot of the name at `index` in objects of `entity`; -1 when the entity has no such
    /// property.
    func slot(_ index: Int, for entity: EngineEntity) -> Int {
        let slot = publishedSlot(index, serial: entity.serial)
        return slot == Int.min ? resolve(index, for: entity) : slot
    }

    /// ``slot(_:for:)`` as published for the entity numbered `serial` (-1 when the entity has no
    /// such property), or `Int.min` when the table has not resolved that entity: a scan of the
    /// published block, which needs no reference to the entity.
    @inline(__always)
    func publishedSlot(_ index: Int, serial: Int) -> Int {
        if let block = resolved.load(ordering: .acquiring) {
            var entry = block + 1
            for _ in 0..<block[0] {
                if entry[0] == serial { return entry[1 + index] }
                entry += stride
            }
        }
        return Int.min
    }

    private func resolve(_ index: Int, for entity: EngineEntity) -> Int {
        let slots = names.map { entity.slotsByName[$0] ?? -1 }
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll { !EngineEntity.isLive($0.serial) }
        if entries.contains(where: { $0.serial == entity.serial }) || entries.count >= Self.maximumEntries {
            return slots[index]
        }
        entries.append(Entry(serial: entity.serial, slots: slots))
        let block = UnsafeMutablePointer<Int>.allocate(capacity: 1 + entries.count * stride)
        block[0] = entries.count
        var position = block + 1
        for entry in entries {
            position[0] = entry.serial
            for (offset, slot) in entry.slots.enumerated() { position[1 + offset] = slot }
            position += stride
        }
        blocks.append(block)
        resolved.store(block, ordering: .releasing)
        return slots[index]
    }
}

/// One property of a ``SlotTable``: what generated accessors pass to `value(atSlot:)`,
/// `setValue(_:atSlot:)` and `objects(atSlot:)`.
public struct SlotReference: Sendable {
    /// Unretained: the table lives for the rest of the process, and a read takes no reference.
    let table: Unmanaged<SlotTable>
    let index: Int
}

extension NSManagedObject {
    /// The receiver's slot of the property `reference` names. The table is searched by the
    /// engine entity's serial number (no reference to the entity is taken); an entity it has not
    /// resolved yet is resolved once, off the hot path.
    @usableFromInline @inline(__always)
    final func resolvedSlot(_ reference: SlotReference) -> Int {
        let serial = engine.serial
        let slot = reference.table._withUnsafeGuaranteedRef { $0.publishedSlot(reference.index, serial: serial) }
        if slot >= 0 { return slot }
        return resolveSlot(reference)
    }

    @inline(never)
    private func resolveSlot(_ reference: SlotReference) -> Int {
        let slot = reference.table._withUnsafeGuaranteedRef { $0.slot(reference.index, for: engine) }
        if slot < 0 { missingProperty(reference) }
        return slot
    }

    private func missingProperty(_ reference: SlotReference) -> Never {
        preconditionFailure(
            "\(String(describing: type(of: self))) reads the property '\(reference.table.takeUnretainedValue().names[reference.index])', "
                + "which the entity '\(entity.name ?? "")' of its model does not have")
    }

    /// The value of the property `reference` names, as `value(atSlot:)` with a slot number gives it.
    public final func value(atSlot reference: SlotReference) -> Any? {
        value(atSlot: resolvedSlot(reference))
    }

    /// The attribute or to-one value of the property `reference` names as `T`, as
    /// `value(atSlot:as:)` with a slot number gives it: a value stored in exactly `T` (the common
    /// attribute types) is read from its slot without boxing or a dynamic cast.
    @inlinable
    public final func value<T>(atSlot reference: SlotReference, as type: T.Type) -> T? {
        value(atSlot: resolvedSlot(reference), as: type)
    }

    /// Sets the property `reference` names, as `setValue(_:atSlot:)` with a slot number does.
    public final func setValue(_ value: Any?, atSlot reference: SlotReference) {
        setValue(value, atSlot: resolvedSlot(reference))
    }

    /// The objects of the to-many relationship `reference` names.
    public final func objects(atSlot reference: SlotReference) -> [NSManagedObject] {
        objects(atSlot: resolvedSlot(reference))
    }
}
#endif
