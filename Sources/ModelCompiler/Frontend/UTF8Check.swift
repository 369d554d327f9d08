/// Finds the first byte sequence that is not UTF-8, with its line and column, before bytes reach
/// a parser that cannot cope with it (FoundationXML stops the process when an attribute name or a
/// processing-instruction target is not UTF-8).
enum UTF8Check {
    struct Problem: Equatable {
        /// 1-based line and column (in characters) of the first bad byte.
        let line: Int
        let column: Int
        let byte: UInt8

        var description: String {
            "byte 0x\(String(byte, radix: 16, uppercase: true)) at line \(line), column \(column) is not UTF-8"
        }
    }

    static func firstProblem(in bytes: [UInt8]) -> Problem? {
        var index = 0
        var line = 1
        var column = 1
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            guard length > 0 else { return Problem(line: line, column: column, byte: bytes[index]) }
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (Unicode table 3-7), or 0.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return 0
        }
        guard bytes.count - index >= length else { return 0 }
        guard (low...high).contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
