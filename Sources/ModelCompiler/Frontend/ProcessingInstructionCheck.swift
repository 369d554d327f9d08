/// Finds a processing instruction without data (`<?target?>`), outside comments and CDATA
/// sections. libxml2 hands FoundationXML a null pointer for its data and FoundationXML reads it,
/// which stops the process, so such documents are refused before they are parsed. Xcode never
/// writes processing instructions other than the XML declaration.
enum ProcessingInstructionCheck {
    struct Problem: Equatable {
        /// 1-based line and column (in characters) of the `<?`.
        let line: Int
        let column: Int
        let target: String
    }

    static func firstProblem(in bytes: [UInt8]) -> Problem? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                index += 1
            } else if starts(bytes, at: index, with: "<!--") {
                index = end(of: "-->", in: bytes, from: index + 4)
            } else if starts(bytes, at: index, with: "<![CDATA[") {
                index = end(of: "]]>", in: bytes, from: index + 9)
            } else if bytes[index + 1] == UInt8(ascii: "?") {
                var end = index + 2
                while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
                if end > index + 2, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                    let (line, column) = position(of: index, in: bytes)
                    return Problem(line: line, column: column, target: String(decoding: bytes[(index + 2)..<end], as: UTF8.self))
                }
                index = end
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "<")
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with text: String) -> Bool {
        let pattern = Array(text.utf8)
        return bytes.count - index >= pattern.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    /// The index just past the first `terminator` at or after `start`, or the end of the bytes.
    private static func end(of terminator: String, in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if starts(bytes, at: index, with: terminator) { return index + terminator.utf8.count }
            index += 1
        }
        return bytes.count
    }

    /// Line and column (in characters; the bytes are known to be UTF-8) of a byte offset.
    private static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = bytes[lineStart..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return (line, column)
    }
}
