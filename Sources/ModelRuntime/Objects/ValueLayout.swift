#if !canImport(CoreData)
import ModelQuery

/// Where an object's values sit in its state (``ObjectState``), slot by slot.
///
/// Attributes of the common types keep their value unboxed, in a cell of the value's own size:
/// 8 bytes for integers, `Bool`, `Double`, `Float` and `Date`, 16 for a `String`. Every other
/// slot (relationships, to-manys, binary data, UUIDs, decimals, transformable and composite
/// values) keeps an `Any?` (32 bytes). The values area starts with one tag byte per slot
/// (padded to a whole word) saying what a typed cell holds: nothing (nil), a value of the cell's
/// type, or a value of another type (a ``ForeignValue`` box, whose reference the cell holds:
/// `setPrimitiveValue(_:forKey:)` and friends store what they are given). An `Any?` cell
/// records nil itself and ignores its tag.
///
/// Layouts are interned by their cells' kinds and live for the rest of the process, so a state
/// refers to its layout without counting references, and two engine entities with the same
/// kinds of slots share one layout (an object moving between them keeps its state).
final class ValueLayout: @unchecked Sendable {
    /// What a slot's cell holds.
    enum Kind: UInt8 {
        case any, int64, int32, int16, bool, double, float, date, string

        /// The kind of an attribute of `type`'s slot.
        init(_ type: NSAttributeType) {
            switch type {
            case .integer64AttributeType: self = .int64
            case .integer32AttributeType: self = .int32
            case .integer16AttributeType: self = .int16
            case .booleanAttributeType: self = .bool
            case .doubleAttributeType: self = .double
            case .floatAttributeType: self = .float
            case .dateAttributeType: self = .date
            case .stringAttributeType: self = .string
            default: self = .any
            }
        }

        /// The Swift type the cell's values are of (nil for `.any`).
        var storedType: Any.Type? {
            switch self {
            case .any: nil
            case .int64: Int64.self
            case .int32: Int32.self
            case .int16: Int16.self
            case .bool: Bool.self
            case .double: Double.self
            case .float: Float.self
            case .date: Date.self
            case .string: String.self
            }
        }

        /// ``storedType``'s metadata: what an `Any` holding such a value records.
        var storedMetadata: UnsafeRawPointer? { storedType.map { unsafeBitCast($0, to: UnsafeRawPointer.self) } }

        /// The cell's size in bytes. A scalar's cell is one word, which `ValueCells` copies whole.
        var size: Int {
            switch self {
            case .any: MemoryLayout<Any?>.stride
            case .string: MemoryLayout<String>.stride
            case .int64: Self.word(MemoryLayout<Int64>.size)
            case .int32: Self.word(MemoryLayout<Int32>.size)
            case .int16: Self.word(MemoryLayout<Int16>.size)
            case .bool: Self.word(MemoryLayout<Bool>.size)
            case .double: Self.word(MemoryLayout<Double>.size)
            case .float: Self.word(MemoryLayout<Float>.size)
            case .date: Self.word(MemoryLayout<Date>.size)
            }
        }

        private static func word(_ size: Int) -> Int {
            precondition(size <= 8, "ValueLayout: a scalar attribute type is wider than a word on this platform")
            return 8
        }
    }

    /// One slot's cell: its kind, its byte offset from the start of the values area, and the
    /// type metadata of its values (what an `Any` holding one records; nil for `.any`).
    struct Cell {
        let kind: Kind
        let offset: Int32
        let storedType: UnsafeRawPointer?
    }

    /// What a state needs of its layout, as plain values (making a state from them counts no
    /// references).
    struct Shape {
        let cells: UnsafeMutablePointer<Cell>
        let count: Int32
        let wordCount: Int
        let hasAnyCells: Bool
        let existentialLayoutHolds: Bool
    }

    /// What a typed cell's tag says it holds.
    enum Tag {
        static let absent: UInt8 = 0
        static let value: UInt8 = 1
        static let foreign: UInt8 = 2
    }

    /// The number of slots.
    let count: Int
    /// The values area's size in words (tags first, then the cells).
    let wordCount: Int
    /// The cells, one per slot; never freed.
    let cells: UnsafeMutablePointer<Cell>
    /// Whether any slot keeps an `Any?` (`.any` cells need initialising).
    let hasAnyCells: Bool
    /// ``StoredValueCast/layoutHolds``, kept where the cells' readers find it without the
    /// once-check a static's every read makes.
    let existentialLayoutHolds = StoredValueCast.layoutHolds

    var shape: Shape {
        Shape(
            cells: cells, count: Int32(count), wordCount: wordCount, hasAnyCells: hasAnyCells,
            existentialLayoutHolds: existentialLayoutHolds)
    }

    private init(kinds: [Kind]) {
        count = kinds.count
        let tagBytes = (kinds.count + 7) & ~7
        cells = .allocate(capacity: max(kinds.count, 1))
        var offset = tagBytes
        for (slot, kind) in kinds.enumerated() {
            (cells + slot).initialize(to: Cell(kind: kind, offset: Int32(offset), storedType: kind.storedMetadata))
            offset += kind.size
        }
        wordCount = offset / 8
        hasAnyCells = kinds.contains(.any)
    }

    /// The layout of slots of `kinds`: made once per distinct list and kept.
    static func of(_ kinds: [Kind]) -> ValueLayout {
        interned.withLock { known in
            if let layout = known[kinds] { return layout }
            let layout = ValueLayout(kinds: kinds)
            known[kinds] = layout
            return layout
        }
    }

    /// The layout of an entity's slots (``EngineEntity/slotKinds``).
    static func of(_ slots: [SlotKind]) -> ValueLayout {
        of(
            slots.map { slot in
                if case .attribute(let type, _) = slot { return Kind(type) }
                return .any
            })
    }

    /// No slots: the layout of a state that holds no values.
    static let empty = ValueLayout.of([Kind]())

    private static let interned = LockedCache<[[Kind]: ValueLayout]>([:])
}

/// A value of another type than its typed cell's, kept boxed (see ``ValueLayout``).
final class ForeignValue {
    let value: Any

    init(_ value: Any) { self.value = value }
}
#endif
