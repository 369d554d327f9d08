import Foundation
import ModelSchema

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Gives the declarations of a version read from an Xcode model the line and column of their
/// elements in its `contents` file (`<entity>`, and its `<attribute>` and `<relationship>`
/// elements; `<composite>` and its fields), so that diagnostics point at them. Declarations are
/// matched to elements by name and, for a name declared more than once, by order.
enum XcodeElementLocator {
    static func locate(_ version: ModelVersion) -> ModelVersion {
        guard let path = version.location?.file, let data = FileManager.default.contents(atPath: path) else { return version }
        let recorder = Recorder(path: path, text: Array(data))
        let parser = XMLParser(data: data)
        parser.delegate = recorder
        guard parser.parse() else { return version }
        var located = version
        var entityOrder = Occurrences()
        for index in located.entities.indices {
            let name = located.entities[index].name
            let key = "entity \(name)"
            guard let location = entityOrder.next(key, in: recorder.locations) else { continue }
            located.entities[index].location = location
            var properties = Occurrences()
            for property in located.entities[index].attributes.indices {
                let propertyKey = "\(key) \(entityOrder.count(key) - 1) attribute \(located.entities[index].attributes[property].name)"
                if let location = properties.next(propertyKey, in: recorder.locations) {
                    located.entities[index].attributes[property].location = location
                }
            }
            for property in located.entities[index].relationships.indices {
                let propertyKey =
                    "\(key) \(entityOrder.count(key) - 1) relationship \(located.entities[index].relationships[property].name)"
                if let location = properties.next(propertyKey, in: recorder.locations) {
                    located.entities[index].relationships[property].location = location
                }
            }
        }
        var compositeOrder = Occurrences()
        for index in located.composites.indices {
            let key = "composite \(located.composites[index].name)"
            guard let location = compositeOrder.next(key, in: recorder.locations) else { continue }
            located.composites[index].location = location
            var fields = Occurrences()
            for field in located.composites[index].attributes.indices {
                let fieldKey = "\(key) \(compositeOrder.count(key) - 1) attribute \(located.composites[index].attributes[field].name)"
                if let location = fields.next(fieldKey, in: recorder.locations) {
                    located.composites[index].attributes[field].location = location
                }
            }
        }
        return located
    }

    /// How many times each key has been taken, so the n-th declaration of a name gets the n-th element.
    private struct Occurrences {
        private var taken: [String: Int] = [:]

        func count(_ key: String) -> Int { taken[key] ?? 0 }

        mutating func next(_ key: String, in locations: [String: [SourceLocation]]) -> SourceLocation? {
            let index = taken[key, default: 0]
            taken[key] = index + 1
            guard let list = locations[key], index < list.count else { return nil }
            return list[index]
        }
    }

    /// Records where each element of interest starts, keyed by what it declares.
    private final class Recorder: NSObject, XMLParserDelegate {
        // The parser calls back on the thread that runs it; nothing else touches the recorder.
        let path: String
        let lineStarts: [Int]
        let text: [UInt8]
        var locations: [String: [SourceLocation]] = [:]
        /// The key and occurrence of the `<entity>` or `<composite>` being read.
        private var container: String?
        private var depth = 0
        private var containerDepth = 0
        /// The last column computed, so a long line is counted once, not once per element.
        private var counted = (line: 0, offset: 0, column: 1)

        init(path: String, text: [UInt8]) {
            self.path = path
            self.text = text
            var starts = [0]
            for (offset, byte) in text.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
            lineStarts = starts
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            depth += 1
            guard let name = attributes["name"] else { return }
            let location = startOfTag(elementName, line: parser.lineNumber, column: parser.columnNumber)
            if depth == 2, elementName == "entity" || elementName == "composite" {
                let key = "\(elementName) \(name)"
                locations[key, default: []].append(location)
                container = "\(key) \(locations[key]!.count - 1)"
                containerDepth = depth
            } else if let container, depth == containerDepth + 1, elementName == "attribute" || elementName == "relationship" {
                locations["\(container) \(elementName) \(name)", default: []].append(location)
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            if depth == containerDepth { container = nil }
            depth -= 1
        }

        /// The parser reports where a start tag ends; the diagnostic points at its `<`, found
        /// by looking back on the reported line (tags of models are written on one line).
        private func startOfTag(_ elementName: String, line: Int, column reported: Int) -> SourceLocation {
            guard line >= 1, line <= lineStarts.count else { return .file(path) }
            let start = lineStarts[line - 1]
            let end = min(text.count, line < lineStarts.count ? lineStarts[line] : text.count, start + max(reported, 0))
            let needle = Array("<\(elementName)".utf8)
            var offset = end - needle.count
            while offset >= start {
                if text[offset..<offset + needle.count].elementsEqual(needle) {
                    return SourceLocation(file: path, line: line, column: column(of: offset, line: line, lineStart: start))
                }
                offset -= 1
            }
            return SourceLocation(file: path, line: line, column: 1)
        }

        /// The 1-based column, in Unicode scalars, of the byte at `offset`.
        private func column(of offset: Int, line: Int, lineStart: Int) -> Int {
            if counted.line != line || counted.offset > offset { counted = (line, lineStart, 1) }
            // Every byte that does not continue a UTF-8 sequence starts a scalar.
            for byte in text[counted.offset..<offset] where byte & 0xC0 != 0x80 { counted.column += 1 }
            counted.offset = offset
            return counted.column
        }
    }
}
