/// A small deterministic generator (SplitMix64), so a run with the same seed repeats exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Byte-level mutations of a seed input: the classic ones (bit flips, interesting values,
/// insertions, deletions, duplications, splices) plus tokens of the input's own format.
struct Mutator {
    /// Fragments worth inserting into inputs of this format (YAML syntax, XML markup, …).
    let tokens: [[UInt8]]
    /// Inputs are kept under this size so one mutant cannot make the run crawl.
    let maximumSize: Int

    static let interestingBytes: [UInt8] = [0x00, 0x01, 0x0F, 0x10, 0x7F, 0x80, 0xC0, 0xC3, 0xED, 0xF4, 0xFE, 0xFF]
    static let interestingIntegers: [UInt64] = [
        0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 32,
        0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, .max,
    ]

    func mutate(_ input: [UInt8], pool: [[UInt8]], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            mutateOnce(&bytes, pool: pool, using: &generator)
        }
        if bytes.count > maximumSize { bytes.removeLast(bytes.count - maximumSize) }
        return bytes
    }

    private func mutateOnce(_ bytes: inout [UInt8], pool: [[UInt8]], using generator: inout SplitMix64) {
        func position(inclusive: Bool = false) -> Int {
            let upper = inclusive ? bytes.count : max(bytes.count - 1, 0)
            return Int.random(in: 0...upper, using: &generator)
        }
        let choice = Int.random(in: 0..<11, using: &generator)
        if bytes.isEmpty, choice != 4, choice != 5 {
            bytes = tokens.randomElement(using: &generator) ?? [0]
            return
        }
        switch choice {
        case 0:  // flip one bit
            bytes[position()] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 1:  // random byte
            bytes[position()] = UInt8.random(in: 0...255, using: &generator)
        case 2:  // interesting byte
            bytes[position()] = Self.interestingBytes.randomElement(using: &generator)!
        case 3:  // interesting big-endian integer of 1, 2, 4 or 8 bytes
            let size = [1, 2, 4, 8].randomElement(using: &generator)!
            let value = Self.interestingIntegers.randomElement(using: &generator)!
            let start = position()
            for offset in 0..<size where start + offset < bytes.count {
                bytes[start + offset] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - offset)))
            }
        case 4:  // insert a token of the format
            if let token = tokens.randomElement(using: &generator) { bytes.insert(contentsOf: token, at: position(inclusive: true)) }
        case 5:  // insert random bytes
            let count = Int.random(in: 1...8, using: &generator)
            bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: position(inclusive: true))
        case 6:  // delete a range
            let start = position()
            let count = min(Int.random(in: 1...32, using: &generator), bytes.count - start)
            bytes.removeSubrange(start..<(start + count))
        case 7:  // duplicate a range
            let start = position()
            let count = min(Int.random(in: 1...64, using: &generator), bytes.count - start)
            bytes.insert(contentsOf: bytes[start..<(start + count)], at: position(inclusive: true))
        case 8:  // splice part of another input of the same reader
            guard let other = pool.randomElement(using: &generator), !other.isEmpty else { return }
            let start = Int.random(in: 0..<other.count, using: &generator)
            let count = min(Int.random(in: 1...128, using: &generator), other.count - start)
            bytes.insert(contentsOf: other[start..<(start + count)], at: position(inclusive: true))
        case 9:  // truncate
            bytes.removeLast(bytes.count - position())
        default:  // replace a token-sized run with a token
            guard let token = tokens.randomElement(using: &generator) else { return }
            let start = position()
            let count = min(token.count, bytes.count - start)
            bytes.replaceSubrange(start..<(start + count), with: token)
        }
    }
}
