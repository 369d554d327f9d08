/// A parse error in a template, with the 1-based line where it was found.
public struct MustacheError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let line: Int

    public var description: String { "line \(line): \(message)" }
}

/// Where a tag starts in its template: 1-based line and column (the column counted in Unicode
/// scalars, as compilers count it).
public struct MustacheLocation: Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A compiled Mustache template (the Mustache specification v1.4: interpolation, sections,
/// inverted sections, comments, partials, set delimiters, standalone-line rules).
public struct MustacheTemplate: Sendable {
    indirect enum Node: Sendable {
        case text(String)
        case variable(String, escaped: Bool, at: MustacheLocation)
        case section(String, [Node], inverted: Bool, at: MustacheLocation)
        case partial(String, indentation: String, at: MustacheLocation)
    }

    let nodes: [Node]

    public init(_ source: String) throws(MustacheError) {
        var parser = Parser(source: Array(source.unicodeScalars))
        nodes = try parser.parse()
    }

    /// Renders with `context` as the root of the context stack. `partials` supplies the source
    /// of a partial by name; a missing partial renders as nothing, as the specification asks.
    public func render(_ context: MustacheValue, partials: [String: String] = [:]) throws(MustacheError) -> String {
        try render([context], cache: PartialCache(sources: partials))
    }

    func render(_ stack: [MustacheValue], cache: PartialCache) throws(MustacheError) -> String {
        let renderer = Renderer(partials: cache)
        var output = ""
        try renderer.render(nodes, stack: stack, into: &output, depth: 0)
        return output
    }
}

/// A set of named templates that render with each other as partials. Each template (and each
/// indentation a partial is used at) is parsed once, however often it is rendered.
public final class MustacheLibrary {
    let cache: PartialCache

    public init(sources: [String: String]) {
        cache = PartialCache(sources: sources)
    }

    public func render(_ name: String, _ context: MustacheValue) throws(MustacheError) -> String {
        try render(name, stack: [context])
    }

    /// Renders with `stack` as the context stack, its last value on top (looked up first).
    public func render(_ name: String, stack: [MustacheValue]) throws(MustacheError) -> String {
        guard let template = try cache.template(name, indentation: "") else {
            throw MustacheError(message: "no template named '\(name)'", line: 1)
        }
        return try template.render(stack, cache: cache)
    }
}

/// Parsed partials by name and indentation.
final class PartialCache {
    let sources: [String: String]
    private var parsed: [String: MustacheTemplate] = [:]

    init(sources: [String: String]) {
        self.sources = sources
    }

    /// A template with every line indented as the standalone partial tag was.
    func template(_ name: String, indentation: String) throws(MustacheError) -> MustacheTemplate? {
        let key = indentation + "\u{0}" + name
        if let known = parsed[key] { return known }
        guard var source = sources[name] else { return nil }
        if !indentation.isEmpty {
            var indented = ""
            var atLineStart = true
            for character in source {
                if atLineStart { indented += indentation }
                indented.append(character)
                atLineStart = character == "\n"
            }
            source = indented
        }
        let template = try MustacheTemplate(source)
        parsed[key] = template
        return template
    }
}

// MARK: - Parsing

private struct Parser {
    let source: [Unicode.Scalar]
    var position = 0
    var openDelimiter: [Unicode.Scalar] = Array("{{".unicodeScalars)
    var closeDelimiter: [Unicode.Scalar] = Array("}}".unicodeScalars)
    /// Where the last tag ended: a tag is standalone only if no other tag shares its line.
    var lastTagEnd = -1
    /// The offset of the first scalar of every line.
    let lineStarts: [Int]

    init(source: [Unicode.Scalar]) {
        self.source = source
        lineStarts = [0] + source.indices.filter { source[$0] == "\n" }.map { $0 + 1 }
    }

    func location(at offset: Int) -> MustacheLocation {
        // The last line starting at or before `offset`.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return MustacheLocation(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    func line(at offset: Int) -> Int { location(at: offset).line }

    func matches(_ delimiter: [Unicode.Scalar], at offset: Int) -> Bool {
        guard offset + delimiter.count <= source.count else { return false }
        for (index, scalar) in delimiter.enumerated() where source[offset + index] != scalar { return false }
        return true
    }

    func find(_ delimiter: [Unicode.Scalar], from offset: Int) -> Int? {
        var index = offset
        while index + delimiter.count <= source.count {
            if matches(delimiter, at: index) { return index }
            index += 1
        }
        return nil
    }

    static func trimmed(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var slice = scalars
        while let first = slice.first, first == " " || first == "\t" || first == "\n" || first == "\r" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\n" || last == "\r" { slice = slice.dropLast() }
        return String(String.UnicodeScalarView(slice))
    }

    /// Parses until the end, or until the closing tag of `section` when given.
    mutating func parse(section: (name: String, line: Int)? = nil) throws(MustacheError) -> [MustacheTemplate.Node] {
        var nodes: [MustacheTemplate.Node] = []
        var text = ""
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)) }
            text = ""
        }
        while position < source.count {
            guard let tagStart = find(openDelimiter, from: position) else {
                text += String(String.UnicodeScalarView(source[position...]))
                position = source.count
                break
            }
            let contentStart = tagStart + openDelimiter.count
            var kind: Unicode.Scalar = " "
            if contentStart < source.count, "#^/!>&{=".unicodeScalars.contains(source[contentStart]) { kind = source[contentStart] }
            let closing =
                kind == "{" ? [Unicode.Scalar("}")] + closeDelimiter : kind == "=" ? [Unicode.Scalar("=")] + closeDelimiter : closeDelimiter
            guard let contentEnd = find(closing, from: contentStart + (kind == " " ? 0 : 1)) else {
                throw MustacheError(message: "unclosed tag", line: line(at: tagStart))
            }
            let tagEnd = contentEnd + closing.count
            let body = kind == " " ? source[contentStart..<contentEnd] : source[(contentStart + 1)..<contentEnd]
            let name = Self.trimmed(body)

            // Standalone: only white space before the tag on its line and after it to the line end.
            var lineStart = tagStart
            while lineStart > 0, source[lineStart - 1] != "\n" { lineStart -= 1 }
            let before = source[lineStart..<tagStart]
            var lineEnd = tagEnd
            while lineEnd < source.count, source[lineEnd] == " " || source[lineEnd] == "\t" { lineEnd += 1 }
            let endsLine =
                lineEnd == source.count || source[lineEnd] == "\n"
                || (source[lineEnd] == "\r" && lineEnd + 1 < source.count && source[lineEnd + 1] == "\n")
            let standalone =
                "#^/!>=".unicodeScalars.contains(kind) && endsLine && lastTagEnd <= lineStart
                && before.allSatisfy { $0 == " " || $0 == "\t" }

            text += String(String.UnicodeScalarView(source[position..<tagStart]))
            var indentation = ""
            if standalone {
                indentation = String(String.UnicodeScalarView(before))
                text.unicodeScalars.removeLast(before.count)
                position = lineEnd == source.count ? lineEnd : lineEnd + (source[lineEnd] == "\r" ? 2 : 1)
            } else {
                position = tagEnd
            }
            lastTagEnd = tagEnd

            switch kind {
            case "!":
                continue
            case "=":
                let parts = name.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Array($0.unicodeScalars) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw MustacheError(message: "a delimiter change needs two delimiters", line: line(at: tagStart))
                }
                openDelimiter = parts[0]
                closeDelimiter = parts[1]
            case "#", "^":
                flush()
                let children = try parse(section: (name, line(at: tagStart)))
                nodes.append(.section(name, children, inverted: kind == "^", at: location(at: tagStart)))
            case "/":
                guard let section, section.name == name else {
                    throw MustacheError(message: "closing tag '\(name)' does not match an open section", line: line(at: tagStart))
                }
                flush()
                return nodes
            case ">":
                flush()
                nodes.append(.partial(name, indentation: indentation, at: location(at: tagStart)))
            case "&", "{":
                flush()
                nodes.append(.variable(name, escaped: false, at: location(at: tagStart)))
            default:
                flush()
                nodes.append(.variable(name, escaped: true, at: location(at: tagStart)))
            }
        }
        if let section { throw MustacheError(message: "section '\(section.name)' is never closed", line: section.line) }
        flush()
        return nodes
    }
}

// MARK: - Rendering

private struct Renderer {
    let partials: PartialCache
    /// Recursive partials end when their data does; this guards against data that never does.
    static let maximumDepth = 256

    func lookup(_ name: String, in stack: [MustacheValue]) -> MustacheValue {
        if name == "." { return stack.last ?? .null }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first else { return .null }
        guard var value = stack.reversed().lazy.compactMap({ $0.member(first) }).first else { return .null }
        for part in parts.dropFirst() {
            guard let next = value.member(part) else { return .null }
            value = next
        }
        return value
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    func render(_ nodes: [MustacheTemplate.Node], stack: [MustacheValue], into output: inout String, depth: Int)
        throws(MustacheError)
    {
        guard depth < Self.maximumDepth else {
            throw MustacheError(message: "partials nest more than \(Self.maximumDepth) levels deep", line: 1)
        }
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name, let escaped, _):
                let text = lookup(name, in: stack).text
                output += escaped ? Self.escape(text) : text
            case .section(let name, let children, let inverted, _):
                let value = lookup(name, in: stack)
                if inverted {
                    if value.isFalsey { try render(children, stack: stack, into: &output, depth: depth) }
                } else if !value.isFalsey {
                    if case .list(let items) = value {
                        for item in items { try render(children, stack: stack + [item], into: &output, depth: depth) }
                    } else {
                        try render(children, stack: stack + [value], into: &output, depth: depth)
                    }
                }
            case .partial(let name, let indentation, _):
                guard let template = try partials.template(name, indentation: indentation) else { continue }
                try render(template.nodes, stack: stack, into: &output, depth: depth + 1)
            }
        }
    }
}
