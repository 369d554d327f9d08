#if !canImport(CoreData)
/// The primary keys of a fetch's rows, in result order: four bytes a key while every key fits in
/// 32 bits without sign (Core Data numbers each table's rows from 1, so nearly every store's
/// keys do), eight from the first key that does not. A batched fetch keeps one key per row for
/// as long as any of its objects lives, so the narrow form is most of what a large batched
/// result costs beside its objects.
struct RowKeys {
    private var narrow: [UInt32] = []
    /// Every key, once one did not fit in `narrow` (which is then empty).
    private var wide: [Int64]?

    init() {}

    var count: Int { wide?.count ?? narrow.count }
    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }

    subscript(position: Int) -> Int64 {
        if let wide { return wide[position] }
        return Int64(narrow[position])
    }

    mutating func append(_ key: Int64) {
        if wide == nil {
            if let small = UInt32(exactly: key) {
                narrow.append(small)
                return
            }
            wide = narrow.map { Int64($0) }
            narrow = []
        }
        wide!.append(key)
    }
}
#endif
