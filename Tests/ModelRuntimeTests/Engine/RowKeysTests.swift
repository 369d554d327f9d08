#if !canImport(CoreData)
@testable import ModelRuntime
import Testing

struct RowKeysTests {
    @Test func keysThatFitInThirtyTwoBitsComeBackInOrder() {
        var keys = RowKeys()
        #expect(keys.isEmpty)
        let values: [Int64] = [1, 2, 7, 0, Int64(UInt32.max), 300]
        for key in values { keys.append(key) }
        #expect(keys.count == values.count)
        #expect(keys.indices.map { keys[$0] } == values)
    }

    @Test func aKeyBeyondThirtyTwoBitsWidensTheListWithoutLosingEarlierKeys() {
        var keys = RowKeys()
        let values: [Int64] = [5, Int64(UInt32.max), Int64(UInt32.max) + 1, 9, -3, .max, .min]
        for key in values { keys.append(key) }
        #expect(keys.count == values.count)
        #expect(keys.indices.map { keys[$0] } == values)
    }

    @Test func aNegativeFirstKeyIsKeptExactly() {
        var keys = RowKeys()
        keys.append(-1)
        keys.append(4)
        #expect(keys[0] == -1)
        #expect(keys[1] == 4)
    }
}
#endif
