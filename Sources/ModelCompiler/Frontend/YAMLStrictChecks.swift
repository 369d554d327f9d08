import CYAML
import ModelSchema

/// YAML 1.2 rules that libyaml's YAML 1.1 parser does not enforce, checked on its events and the
/// raw text, so that malformed documents are rejected instead of being read in a surprising way.
///
/// - a comment must be separated from what precedes it by white space (`"value"#no`);
/// - a directive needs the previous document closed with `...`;
/// - a plain scalar in a flow collection cannot start with `- `;
/// - continuation lines of a flow collection or quoted scalar in block context must be indented
///   more than the block they belong to;
/// - the leading empty lines of a block scalar cannot be longer than its first content line.
struct YAMLStrictChecks {
    private let bytes: [UInt8]
    private let path: String
    private var contexts: [(isFlow: Bool, column: Int, line: Int)] = []
    /// Byte ranges of scalars: a `#` inside them is content, not a comment.
    private var scalarRanges: [Range<Int>] = []
    private var documentEndedImplicitly = false
    private var hasSeenDocument = false
    private var lineStarts: [Int] = []

    init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    mutating func observe(_ event: yaml_event_t) throws(YAMLError) {
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            let start = event.data.document_start
            let hasDirectives = start.version_directive != nil || start.tag_directives.start != start.tag_directives.end
            if hasDirectives, hasSeenDocument, documentEndedImplicitly {
                throw YAMLError(
                    message: "a directive must follow a document end marker '...'", location: location(event.start_mark))
            }
        case YAML_DOCUMENT_END_EVENT:
            hasSeenDocument = true
            documentEndedImplicitly = event.data.document_end.implicit != 0
        case YAML_SEQUENCE_START_EVENT:
            contexts.append(
                (event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE, Int(event.start_mark.column), Int(event.start_mark.line)))
        case YAML_MAPPING_START_EVENT:
            contexts.append(
                (event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE, Int(event.start_mark.column), Int(event.start_mark.line)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let closed = contexts.popLast() else { return }
            if closed.isFlow, contexts.last?.isFlow != true {
                try checkContinuationLines(
                    after: closed.line, through: Int(event.end_mark.line), parentIndent: contexts.last?.column ?? -1,
                    what: "a flow collection")
            }
        case YAML_SCALAR_EVENT:
            try observeScalar(event)
        default:
            break
        }
    }

    private mutating func observeScalar(_ event: yaml_event_t) throws(YAMLError) {
        let scalar = event.data.scalar
        scalarRanges.append(Int(event.start_mark.index)..<Int(event.end_mark.index))
        let inFlow = contexts.last?.isFlow == true
        switch scalar.style {
        case YAML_PLAIN_SCALAR_STYLE where inFlow:
            if scalar.length >= 1, scalar.value[0] == UInt8(ascii: "-"), scalar.length == 1 || scalar.value[1] == UInt8(ascii: " ") {
                throw YAMLError(message: "a plain scalar in a flow collection cannot start with '-'", location: location(event.start_mark))
            }
        case YAML_SINGLE_QUOTED_SCALAR_STYLE where !inFlow, YAML_DOUBLE_QUOTED_SCALAR_STYLE where !inFlow:
            try checkContinuationLines(
                after: Int(event.start_mark.line), through: Int(event.end_mark.line), parentIndent: contexts.last?.column ?? -1,
                what: "a quoted scalar")
        case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE:
            try checkBlockScalarHeader(from: Int(event.start_mark.index))
        default:
            break
        }
    }

    /// After the whole stream parsed: every `#` outside a scalar starts a comment and needs
    /// white space (or a line start) before it.
    func finish() throws(YAMLError) {
        var rangeIndex = 0
        var index = 0
        while index < bytes.count {
            while rangeIndex < scalarRanges.count, scalarRanges[rangeIndex].upperBound <= index { rangeIndex += 1 }
            if rangeIndex < scalarRanges.count, scalarRanges[rangeIndex].contains(index) {
                index = scalarRanges[rangeIndex].upperBound
                continue
            }
            if bytes[index] == UInt8(ascii: "#") {
                if index > 0, !Self.isWhiteSpaceOrBreak(bytes[index - 1]) {
                    throw YAMLError(
                        message: "a comment must be separated from the content before it by white space",
                        location: location(ofByte: index))
                }
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                continue
            }
            index += 1
        }
    }

    private static func isWhiteSpaceOrBreak(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: Indentation

    private mutating func lineStart(_ line: Int) -> Int? {
        if lineStarts.isEmpty {
            lineStarts.append(0)
            for (index, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(index + 1) }
        }
        return line < lineStarts.count ? lineStarts[line] : nil
    }

    /// Leading spaces of a line, or nil when the line holds only white space.
    private func indentation(at offset: Int) -> Int? {
        var index = offset
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        var rest = index
        while rest < bytes.count, bytes[rest] == 0x20 || bytes[rest] == 0x09 || bytes[rest] == 0x0D { rest += 1 }
        if rest >= bytes.count || bytes[rest] == 0x0A { return nil }
        return index - offset
    }

    private mutating func checkContinuationLines(after firstLine: Int, through lastLine: Int, parentIndent: Int, what: String)
        throws(YAMLError)
    {
        guard lastLine > firstLine else { return }
        for line in (firstLine + 1)...lastLine {
            guard let offset = lineStart(line), let spaces = indentation(at: offset) else { continue }
            if spaces <= parentIndent {
                throw YAMLError(
                    message: "this line continues \(what) and must be indented more than the block it belongs to",
                    location: SourceLocation(file: path, line: line + 1, column: spaces + 1))
            }
        }
    }

    private mutating func checkBlockScalarHeader(from start: Int) throws(YAMLError) {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ">"), bytes[index] != 0x0A {
            index += 1
        }
        guard index < bytes.count, bytes[index] != 0x0A else { return }
        index += 1
        var hasIndentationIndicator = false
        while index < bytes.count, let scalar = Optional(bytes[index]),
            scalar == UInt8(ascii: "+") || scalar == UInt8(ascii: "-") || (scalar >= 0x31 && scalar <= 0x39)
        {
            if scalar >= 0x31 && scalar <= 0x39 { hasIndentationIndicator = true }
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            throw YAMLError(
                message: "a comment must be separated from the content before it by white space", location: location(ofByte: index))
        }
        guard !hasIndentationIndicator else { return }
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
        index += 1
        var longestEmptyLine = 0
        var longestEmptyLineStart = index
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if let spaces = indentation(at: index) {
                if longestEmptyLine > spaces {
                    throw YAMLError(
                        message: "a leading empty line of a block scalar has more spaces than its first content line",
                        location: location(ofByte: longestEmptyLineStart))
                }
                return
            }
            var spaces = 0
            while index + spaces < end, bytes[index + spaces] == 0x20 { spaces += 1 }
            if spaces > longestEmptyLine {
                longestEmptyLine = spaces
                longestEmptyLineStart = index
            }
            index = end + 1
        }
    }

    // MARK: Locations

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: path, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// Line and column of a byte offset; columns count characters, not bytes.
    func location(ofByte offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(file: path, line: line, column: column)
    }
}
