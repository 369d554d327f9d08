#if !canImport(CoreData)
/// The slots of a saved or fetched object written since its values were last committed (read
/// from or written to the store). Writes mark their slot; committing, rolling back and refreshing
/// clear the set. Whether a marked slot still differs from its committed value is decided when
/// asked (`changedValues()`, `hasPersistentChangedValues`, save), so a value set back to its
/// committed value is unchanged again, as in Core Data; unmarked slots are never compared.
///
/// The first 64 slots live in one word; an entity with more slots spills into an array.
struct ChangedSlots {
    private var low: UInt64 = 0
    private var high: [UInt64] = []
    /// Every slot counts as written (a bulk change such as a merge).
    private(set) var isAll = false

    var isEmpty: Bool { !isAll && low == 0 && high.isEmpty }

    func contains(_ slot: Int) -> Bool {
        if isAll { return true }
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    mutating func insert(_ slot: Int) {
        if isAll { return }
        if slot < 64 {
            low |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        if word >= high.count { high.append(contentsOf: repeatElement(0, count: word - high.count + 1)) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    /// Marks every slot.
    mutating func insertAll() { isAll = true }

    mutating func removeAll() {
        low = 0
        high = []
        isAll = false
    }

    /// The marked slots below `count`, in increasing order.
    func slots(below count: Int) -> [Int] {
        if isAll { return Array(0..<count) }
        var result: [Int] = []
        var bits = low
        while bits != 0 {
            let slot = bits.trailingZeroBitCount
            if slot < count { result.append(slot) }
            bits &= bits - 1
        }
        for (index, word) in high.enumerated() {
            var bits = word
            while bits != 0 {
                let slot = (index + 1) * 64 + bits.trailingZeroBitCount
                if slot < count { result.append(slot) }
                bits &= bits - 1
            }
        }
        return result
    }
}
#endif
