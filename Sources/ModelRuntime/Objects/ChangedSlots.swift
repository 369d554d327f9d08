#if !canImport(CoreData)
/// The slots of a saved or fetched object written since its values were last committed (read
/// from or written to the store). Writes mark their slot; committing, rolling back and refreshing
/// clear the set. Whether a marked slot still differs from its committed value is decided when
/// asked (`changedValues()`, `hasPersistentChangedValues`, save), so a value set back to its
/// committed value is unchanged again, as in Core Data; unmarked slots are never compared.
///
/// One 32-bit word, so the set fits beside an object's flags: slots 0 to 30 have a bit each, and
/// the top bit stands for every later slot (a write to any of them makes all of them candidates,
/// which the comparison then sorts out).
struct ChangedSlots {
    private var bits: UInt32 = 0

    private static let wide: UInt32 = 1 << 31

    var isEmpty: Bool { bits == 0 }
    /// Every slot counts as written (a bulk change such as a merge).
    var isAll: Bool { bits == .max }

    func contains(_ slot: Int) -> Bool {
        bits & Self.bit(slot) != 0
    }

    mutating func insert(_ slot: Int) {
        bits |= Self.bit(slot)
    }

    /// Marks every slot.
    mutating func insertAll() { bits = .max }

    mutating func removeAll() { bits = 0 }

    /// The marked slots below `count`, in increasing order.
    func slots(below count: Int) -> [Int] {
        var result: [Int] = []
        var low = bits & ~Self.wide
        while low != 0 {
            let slot = low.trailingZeroBitCount
            if slot < count { result.append(slot) }
            low &= low - 1
        }
        if bits & Self.wide != 0, count > 31 { result.append(contentsOf: 31..<count) }
        return result
    }

    private static func bit(_ slot: Int) -> UInt32 { slot < 31 ? 1 << UInt32(slot) : wide }
}
#endif
