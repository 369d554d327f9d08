#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// An object's values in place: the cells of its state (``ObjectState``), laid out by its
/// ``ValueLayout``. Every read and write of a value goes through here; this is the only code
/// that knows the layout.
///
/// A view, valid while its state lives and used within one read or write on the state's queue
/// (see docs/runtime/Safety.md).
struct ValueCells {
    let fields: UnsafeMutablePointer<ObjectState.Fields>
    /// The start of the values area: the tags, then the cells.
    let base: UnsafeMutableRawPointer

    @inline(__always)
    private func cell(_ slot: Int) -> ValueLayout.Cell { fields.pointee.cells[slot] }

    @inline(__always)
    private func tag(_ slot: Int) -> UInt8 { base.load(fromByteOffset: slot, as: UInt8.self) }

    @inline(__always)
    private func setTag(_ tag: UInt8, _ slot: Int) { base.storeBytes(of: tag, toByteOffset: slot, as: UInt8.self) }

    @inline(__always)
    private func anyCell(_ cell: ValueLayout.Cell) -> UnsafeMutablePointer<Any?> {
        (base + Int(cell.offset)).assumingMemoryBound(to: Any?.self)
    }

    @inline(__always)
    private func foreign(_ address: UnsafeRawPointer) -> ForeignValue {
        Unmanaged<ForeignValue>.fromOpaque(address.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
    }

    // MARK: Life

    /// Sets every value to nil in fresh memory.
    @inline(__always)
    func initialize() {
        let count = fields.pointee.count
        // The tags, a word at a time.
        var word = 0
        while word < count {
            base.storeBytes(of: 0, toByteOffset: word, as: UInt64.self)
            word &+= 8
        }
        guard fields.pointee.hasAnyCells else { return }
        let cells = fields.pointee.cells
        for slot in 0..<count where cells[slot].kind == .any {
            (base + Int(cells[slot].offset)).initializeMemory(as: Any?.self, to: nil)
        }
    }

    /// Destroys every value, leaving the memory uninitialised.
    func destroyAll() {
        let holds = fields.pointee.existentialLayoutHolds
        let cells = fields.pointee.cells
        for slot in 0..<fields.pointee.count {
            let cell = cells[slot]
            if cell.kind == .any {
                StoredValueCast.destroy(anyCell(cell), layoutHolds: holds)
            } else {
                clearTyped(slot, cell)
            }
        }
    }

    /// Empties the typed cell at `slot`: releases what it holds and tags it absent.
    @inline(__always)
    private func clearTyped(_ slot: Int, _ cell: ValueLayout.Cell) {
        let tag = tag(slot)
        if tag == ValueLayout.Tag.absent { return }
        let address = base + Int(cell.offset)
        if tag == ValueLayout.Tag.foreign {
            Unmanaged<ForeignValue>.fromOpaque(address.load(as: UnsafeRawPointer.self)).release()
        } else if cell.kind == .string {
            address.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        }
        setTag(ValueLayout.Tag.absent, slot)
    }

    // MARK: Values as `Any?`

    /// The value at `slot`, as the `Any?` it was stored as.
    func value(at slot: Int) -> Any? {
        let cell = cell(slot)
        if cell.kind == .any { return anyCell(cell).pointee }
        let tag = tag(slot)
        if tag == ValueLayout.Tag.absent { return nil }
        let address = base + Int(cell.offset)
        if tag == ValueLayout.Tag.foreign { return foreign(address).value }
        switch cell.kind {
        case .int64: return address.load(as: Int64.self)
        case .int32: return address.load(as: Int32.self)
        case .int16: return address.load(as: Int16.self)
        case .bool: return address.load(as: Bool.self)
        case .double: return address.load(as: Double.self)
        case .float: return address.load(as: Float.self)
        case .date: return address.load(as: Date.self)
        case .string: return address.load(as: String.self)
        case .any: return nil
        }
    }

    /// Every value, in slot order.
    func boxedValues() -> ContiguousArray<Any?> {
        let count = fields.pointee.count
        var values = ContiguousArray<Any?>()
        values.reserveCapacity(count)
        for slot in 0..<count { values.append(value(at: slot)) }
        return values
    }

    /// Stores `value` at `slot`, destroying the value there. A typed cell keeps a value of its
    /// type unboxed, nil as its tag, and any other value boxed.
    @inline(__always)
    func assign(_ value: consuming Any?, at slot: Int) {
        let cell = cell(slot)
        if cell.kind == .any {
            let address = anyCell(cell)
            StoredValueCast.destroy(address, layoutHolds: fields.pointee.existentialLayoutHolds)
            address.initialize(to: value)
            return
        }
        clearTyped(slot, cell)
        guard fields.pointee.existentialLayoutHolds else { return assignCast(value, at: slot, cell: cell) }
        // The value is moved into plain stack memory first: moving it anywhere is free, while a
        // value left in a variable is destroyed at the end (an `Any?`'s destroy goes through its
        // type's witnesses, even for nil).
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        assignMoved(value, at: slot, cell: cell, through: &scratch)
    }

    /// ``assign(_:at:)`` of a typed cell, `value` moved into `scratch` (room for an `Any?`): a
    /// value of the cell's type, told by the existential's metadata word, has its bits moved
    /// from the start of the existential's inline buffer (see ``StoredValueCast``); any other is
    /// moved into a box.
    @inline(__always)
    private func assignMoved(_ value: consuming Any?, at slot: Int, cell: ValueLayout.Cell, through scratch: UnsafeMutableRawPointer) {
        let existential = scratch.initializeMemory(as: Any?.self, to: value)
        guard let metadata = StoredValueCast.metadata(at: scratch) else { return }
        let address = base + Int(cell.offset)
        if metadata == cell.storedType {
            if cell.kind == .string {
                // The string's two words, moved: the cell's memory now holds a `String`.
                address.copyMemory(from: scratch, byteCount: MemoryLayout<String>.size)
                address.bindMemory(to: String.self, capacity: 1)
            } else {
                address.storeBytes(of: scratch.load(as: UInt64.self), as: UInt64.self)
            }
            setTag(ValueLayout.Tag.value, slot)
        } else {
            storeForeign(existential.move()!, at: address, slot: slot)
        }
    }

    /// ``assign(_:at:)`` of a typed cell where the existential layout is not the one
    /// ``StoredValueCast`` reads: the value's type is asked of the runtime.
    private func assignCast(_ value: consuming Any?, at slot: Int, cell: ValueLayout.Cell) {
        guard let value else { return }
        let address = base + Int(cell.offset)
        if storeCast(value, cell.kind, at: address) {
            setTag(ValueLayout.Tag.value, slot)
        } else {
            storeForeign(value, at: address, slot: slot)
        }
    }

    private func storeForeign(_ value: consuming Any, at address: UnsafeMutableRawPointer, slot: Int) {
        address.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(ForeignValue(value)).toOpaque()), as: UnsafeRawPointer.self)
        setTag(ValueLayout.Tag.foreign, slot)
    }

    /// Stores `value` unboxed at `address` when its dynamic type is exactly `kind`'s (the path
    /// for a platform whose existential layout differs).
    private func storeCast(_ value: Any, _ kind: ValueLayout.Kind, at address: UnsafeMutableRawPointer) -> Bool {
        guard let type = kind.storedType, Swift.type(of: value) == type else { return false }
        switch kind {
        case .int64: address.storeBytes(of: value as! Int64, as: Int64.self)
        case .int32: address.storeBytes(of: value as! Int32, as: Int32.self)
        case .int16: address.storeBytes(of: value as! Int16, as: Int16.self)
        case .bool: address.storeBytes(of: value as! Bool, as: Bool.self)
        case .double: address.storeBytes(of: value as! Double, as: Double.self)
        case .float: address.storeBytes(of: value as! Float, as: Float.self)
        case .date: address.storeBytes(of: value as! Date, as: Date.self)
        case .string: address.initializeMemory(as: String.self, to: value as! String)
        case .any: return false
        }
        return true
    }

    /// Readies the values for a write: committed values that are the values themselves are
    /// copied out first, and the generation advances.
    @inline(__always)
    func willWrite() {
        if case .values = fields.pointee.committed { fields.pointee.committed = .copy(boxedValues()) }
        fields.pointee.generation &+= 1
    }

    // MARK: Typed reads and writes

    /// Copies the value at `slot` into `destination` (uninitialised memory for a value of the
    /// type `type` identifies, of `size` bytes) when it is of exactly that type, one of
    /// ``StoredValueCast/isInlineScalar(_:)``'s, without boxing it.
    @inline(__always)
    func copy(at slot: Int, type: ObjectIdentifier, size: Int, into destination: UnsafeMutableRawPointer) -> StoredValueCast.Copy {
        let cell = cell(slot)
        let address = base + Int(cell.offset)
        if cell.kind == .any {
            return StoredValueCast.copy(
                address, type: type, size: size, into: destination, layoutHolds: fields.pointee.existentialLayoutHolds)
        }
        let tag = tag(slot)
        if tag == ValueLayout.Tag.absent { return .absent }
        guard tag == ValueLayout.Tag.value, cell.storedType == unsafeBitCast(type, to: UnsafeRawPointer.self) else { return .other }
        if cell.kind == .string {
            destination.initializeMemory(as: String.self, to: address.load(as: String.self))
        } else if size == 8 {
            destination.storeBytes(of: address.load(as: UInt64.self), as: UInt64.self)
        } else {
            destination.copyMemory(from: address, byteCount: size)
        }
        return .copied
    }

    /// Reads the value of `column` of the current row of `statement`, an attribute of `type`,
    /// into `slot` (nil for NULL), destroying the value there: unboxed into a typed cell.
    @inline(__always)
    func read(_ statement: Statement, _ column: Int32, as type: NSAttributeType, into slot: Int) {
        let cell = cell(slot)
        if cell.kind == .any {
            let address = anyCell(cell)
            StoredValueCast.destroy(address, layoutHolds: fields.pointee.existentialLayoutHolds)
            StoreValueCodec.read(statement, column, as: type, into: address)
            return
        }
        clearTyped(slot, cell)
        if statement.isNull(at: column) { return }
        let address = base + Int(cell.offset)
        switch cell.kind {
        case .int64: address.storeBytes(of: statement.int64(at: column), as: Int64.self)
        case .int32: address.storeBytes(of: Int32(truncatingIfNeeded: statement.int64(at: column)), as: Int32.self)
        case .int16: address.storeBytes(of: Int16(truncatingIfNeeded: statement.int64(at: column)), as: Int16.self)
        case .bool: address.storeBytes(of: statement.int64(at: column) != 0, as: Bool.self)
        case .double: address.storeBytes(of: statement.double(at: column), as: Double.self)
        case .float: address.storeBytes(of: Float(statement.double(at: column)), as: Float.self)
        case .date: address.storeBytes(of: Date(timeIntervalSinceReferenceDate: statement.double(at: column)), as: Date.self)
        case .string:
            guard let text = statement.string(at: column) else { return }
            address.initializeMemory(as: String.self, to: text)
        case .any: return
        }
        setTag(ValueLayout.Tag.value, slot)
    }

    /// Binds the value at `column`'s slot to parameter `index` of `statement`: nil as NULL, a
    /// typed cell's value by a load, anything else through ``StoreValueCodec``.
    @inline(__always)
    func bind(_ column: AttributeColumn, to statement: Statement, at index: Int32) {
        let slot = column.slot
        let cell = cell(slot)
        if cell.kind == .any {
            let address = anyCell(cell)
            if fields.pointee.existentialLayoutHolds {
                RowBinding.bind(address, column: column, to: statement, at: index)
            } else {
                StoreValueCodec.bind(address.pointee, as: column.type, to: statement, at: index)
            }
            return
        }
        let tag = tag(slot)
        let address = base + Int(cell.offset)
        if tag == ValueLayout.Tag.absent { return statement.bindNull(at: index) }
        if tag == ValueLayout.Tag.foreign {
            return StoreValueCodec.bind(foreign(address).value, as: column.type, to: statement, at: index)
        }
        _ = RowBinding.bindUnboxed(address, kind: cell.kind, to: statement, at: index)
    }
}
#endif
