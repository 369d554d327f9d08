import Foundation
import ModelSchema

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of an Xcode `contents` file: its name, attributes, child elements and where its
/// start tag begins (the `<`), so that diagnostics point at the element.
struct XcodeXMLElement: Sendable {
    let name: String
    let attributes: [String: String]
    fileprivate(set) var children: [XcodeXMLElement]
    let line: Int
    let column: Int
    /// The text directly inside the element (Xcode's mapping models keep values there).
    fileprivate(set) var text = ""

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }

    /// `<userInfo><entry key="k" value="v"/></userInfo>` as a dictionary.
    var userInfo: [String: String] {
        var result: [String: String] = [:]
        for entry in children where entry.name == "entry" {
            if let key = entry["key"] { result[key] = entry["value"] ?? "" }
        }
        return result
    }
}

/// Parses a `contents` file strictly with `XMLParser` into ``XcodeXMLElement`` trees. XMLParser
/// reports positions (FoundationXML's `XMLDocument` does not) and stops at the first error.
enum XcodeXMLTree {
    enum Failure: Error {
        /// The text is not well-formed XML; `line` and `column` are where the parser stopped.
        case malformed(reason: String, line: Int, column: Int)
    }

    static func parse(_ data: Data) -> Result<XcodeXMLElement, Failure> {
        let bytes = [UInt8](data)
        let builder = TreeBuilder(bytes: bytes)
        // Fed from a stream, XMLParser hands libxml2 the document in chunks. Given the whole
        // `Data` at once it passes one chunk, and libxml2 refuses a chunk over 10 MB ("huge input
        // lookup") unless its huge-document option is set, which XMLParser never sets: a large
        // but valid model would be rejected as malformed.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.delegate = builder
        let parsed = parser.parse()
        if !parsed || parser.parserError != nil || builder.root == nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            let reason =
                builder.sawElement || parser.parserError != nil ? XcodeModelReader.describeXMLError(code) : "it holds no element"
            return .failure(.malformed(reason: reason, line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)))
        }
        return .success(builder.root!)
    }
}

/// Builds the element tree while XMLParser reads; each element's position is found by searching
/// back from where the parser reports the end of its start tag to the `<` that opens it.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    let bytes: [UInt8]
    /// Byte offset of the start of each line (line 1 at index 0).
    let lineStarts: [Int]
    var stack: [XcodeXMLElement] = []
    var root: XcodeXMLElement?
    var sawElement = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
        }
        lineStarts = starts
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        sawElement = true
        let (line, column) = startOfTag(elementName, reportedLine: parser.lineNumber, reportedColumn: parser.columnNumber)
        stack.append(XcodeXMLElement(name: elementName, attributes: attributes, children: [], line: line, column: column))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            if root == nil { root = element }
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    /// The line and column (in Unicode scalars) of the `<name` that opens the element whose start
    /// tag ends near the reported position; the reported position when it cannot be found.
    func startOfTag(_ name: String, reportedLine: Int, reportedColumn: Int) -> (Int, Int) {
        let fallback = (max(1, reportedLine), max(1, reportedColumn))
        guard reportedLine >= 1, reportedLine <= lineStarts.count else { return fallback }
        let pattern = [UInt8(ascii: "<")] + Array(name.utf8)
        guard
            let offset = bytes.withUnsafeBufferPointer({ buffer -> Int? in
                // The reported column may count bytes or characters; counting characters reaches as
                // far or further, so the search starts there.
                var end = lineStarts[reportedLine - 1]
                var remaining = max(0, reportedColumn - 1)
                while end < buffer.count, remaining > 0, buffer[end] != UInt8(ascii: "\n") {
                    end += 1
                    if end == buffer.count || buffer[end] & 0xC0 != 0x80 { remaining -= 1 }
                }
                var index = min(end, buffer.count) - pattern.count
                while index >= 0 {
                    if buffer[index] == pattern[0] {
                        var step = 1
                        while step < pattern.count, buffer[index + step] == pattern[step] { step += 1 }
                        if step == pattern.count { return index }
                    }
                    index -= 1
                }
                return nil
            })
        else { return fallback }
        let line = lineNumber(ofOffset: offset)
        let column = String(decoding: bytes[lineStarts[line - 1]..<offset], as: UTF8.self).unicodeScalars.count + 1
        return (line, column)
    }

    /// The 1-based line holding a byte offset (binary search over the line starts).
    func lineNumber(ofOffset offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }
}
