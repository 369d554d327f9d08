import CYAML
import ModelSchema

/// A YAML syntax error, with the position libyaml (or the composer) stopped at.
public struct YAMLError: Error, Sendable, Equatable {
    public let message: String
    public let location: SourceLocation

    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }
}

/// Reads YAML text into composed ``YAMLNode`` trees, one per document.
///
/// libyaml does the scanning and parsing; this type composes its events into nodes, resolving
/// aliases, applying merge keys and rejecting what a model file must never contain: duplicate
/// keys, unbounded alias expansion and unbounded nesting.
public struct YAMLParser: Sendable {
    public struct Options: Sendable {
        /// Apply YAML 1.1 merge keys (`<<: *base`). On for model files; the conformance test
        /// turns it off because YAML 1.2 has no merge keys.
        public var resolvesMergeKeys = true
        /// Upper bound on the number of nodes a document may expand to through aliases. A
        /// "billion laughs" document reaches it after a few levels and is rejected at once.
        public var maximumExpandedNodes = 4_000_000
        /// Upper bound on collection nesting. Model files need a handful of levels; the bound
        /// keeps every later recursive walk far away from the stack limit.
        public var maximumDepth = 512

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses every document of `bytes`. `path` is only used for locations.
    public func parseStream(_ bytes: [UInt8], path: String) throws(YAMLError) -> [YAMLNode] {
        var composer = Composer(path: path, options: options, bytes: bytes)
        return try composer.run()
    }

    /// A key repeated in one mapping: the later entry is left out and parsing goes on, so the
    /// rest of the file is still read and checked.
    public struct DuplicateKey: Sendable, Equatable {
        public let error: YAMLError
        /// Where the key was first written.
        public let first: SourceLocation
    }

    /// Parses every document of `bytes`, as ``parseStream(_:path:)`` does, except that a
    /// duplicate key is not an error that stops parsing: each is appended to `duplicates`, and
    /// the mapping keeps the key's first entry.
    public func parseStream(_ bytes: [UInt8], path: String, duplicates: inout [DuplicateKey]) throws(YAMLError) -> [YAMLNode] {
        var composer = Composer(path: path, options: options, bytes: bytes)
        composer.duplicates = []
        defer { duplicates += composer.duplicates ?? [] }
        return try composer.run()
    }

    public func parseStream(_ text: String, path: String) throws(YAMLError) -> [YAMLNode] {
        try parseStream(Array(text.utf8), path: path)
    }
}

private struct Composer {
    let path: String
    let file: YAMLNode.File
    let options: YAMLParser.Options
    let bytes: [UInt8]

    /// An open collection. A class, so that appending to it never copies what it holds.
    private final class Frame {
        let isMapping: Bool
        let tag: String?
        let anchor: String?
        let mark: yaml_mark_t
        /// The number of nodes the collection expands to so far, aliases included.
        var weight = 1
        var items: [YAMLNode] = []
        var entries: [YAMLNode.Entry] = []
        var pendingKey: YAMLNode?
        /// Each key's identity and where it was first written.
        var keys: [String: SourceLocation] = [:]

        init(isMapping: Bool, tag: String?, anchor: String?, mark: yaml_mark_t) {
            self.isMapping = isMapping
            self.tag = tag
            self.anchor = anchor
            self.mark = mark
        }
    }

    private var strictChecks: YAMLStrictChecks
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    private var openAnchors: Set<String> = []
    private var documents: [YAMLNode] = []
    private var documentRoot: YAMLNode?
    /// Non-nil when duplicate keys are recorded rather than thrown.
    var duplicates: [YAMLParser.DuplicateKey]?

    init(path: String, options: YAMLParser.Options, bytes: [UInt8]) {
        self.path = path
        self.file = YAMLNode.File(path: path)
        self.strictChecks = YAMLStrictChecks(bytes: bytes, path: path)
        self.options = options
        self.bytes = bytes
    }

    mutating func run() throws(YAMLError) -> [YAMLNode] {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(message: "could not initialise the YAML parser", location: .file(path))
        }
        defer { yaml_parser_delete(&parser) }

        let input = bytes
        return try input.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> [YAMLNode] in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw syntaxError(parser)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                try strictChecks.observe(event)
                try handle(event)
            }
            try strictChecks.finish()
            return documents
        }
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: path, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private func syntaxError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        let mark = parser.problem_mark
        var message = problem
        let offset = Int(mark.index)
        if problem.contains("cannot start any token"), offset < bytes.count, bytes[offset] == 0x09 {
            message = "a tab character cannot be used here; YAML indentation and separation need spaces"
        } else if let context = parser.context.map({ String(cString: $0) }) {
            let start = parser.context_mark
            message += " \(context) started at line \(start.line + 1), column \(start.column + 1)"
        }
        if parser.error == YAML_READER_ERROR {
            // Reader errors (invalid UTF-8, control characters) carry a byte offset, not a line.
            return YAMLError(
                message: readerMessage(problem, parser: parser), location: strictChecks.location(ofByte: Int(parser.problem_offset)))
        }
        return YAMLError(message: message, location: location(mark))
    }

    private func readerMessage(_ problem: String, parser: yaml_parser_t) -> String {
        switch problem {
        case "invalid leading UTF-8 octet", "incomplete UTF-8 octet sequence", "invalid trailing UTF-8 octet",
            "invalid length of a UTF-8 sequence", "invalid Unicode character":
            return "the file is not valid UTF-8 text (\(problem) at byte \(parser.problem_offset))"
        case "control characters are not allowed":
            return "the file contains a control character (byte value \(parser.problem_value)); is it a binary file?"
        default:
            return problem
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private mutating func handle(_ event: yaml_event_t) throws(YAMLError) {
        let start = location(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            anchors = [:]
            documentRoot = nil
        case YAML_DOCUMENT_END_EVENT:
            if let documentRoot { documents.append(documentRoot) }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value: String
            if let pointer = scalar.value {
                let buffer = UnsafeBufferPointer(start: pointer, count: Int(scalar.length))
                value = String(decoding: buffer, as: UTF8.self)
            } else {
                value = ""
            }
            let node = YAMLNode(
                .scalar(value, Self.style(scalar.style)), tag: Self.resolvedTag(Self.string(scalar.tag)),
                file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            try complete(node, weight: 1, anchor: Self.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            if openAnchors.contains(name) {
                throw YAMLError(message: "alias '*\(name)' refers to a node that contains it (recursive alias)", location: start)
            }
            guard let target = anchors[name] else {
                throw YAMLError(message: "alias '*\(name)' refers to an unknown anchor", location: start)
            }
            try complete(target.node, weight: target.weight, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            try open(
                Frame(
                    isMapping: false, tag: Self.resolvedTag(Self.string(data.tag)), anchor: Self.string(data.anchor), mark: event.start_mark
                ))
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            try open(
                Frame(
                    isMapping: true, tag: Self.resolvedTag(Self.string(data.tag)), anchor: Self.string(data.anchor), mark: event.start_mark)
            )
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            try close()
        default:
            break
        }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    /// Tags arrive with their handle already expanded (`!!str` is `tag:yaml.org,2002:str`). The
    /// non-specific tag `!` is kept: on a scalar it means "a string, whatever it looks like".
    private static func resolvedTag(_ tag: String?) -> String? {
        tag
    }

    private mutating func open(_ frame: Frame) throws(YAMLError) {
        if stack.count >= options.maximumDepth {
            throw YAMLError(message: "collections are nested more than \(options.maximumDepth) levels deep", location: location(frame.mark))
        }
        if let anchor = frame.anchor { openAnchors.insert(anchor) }
        stack.append(frame)
    }

    private mutating func close() throws(YAMLError) {
        guard let frame = stack.popLast() else { return }
        if let anchor = frame.anchor { openAnchors.remove(anchor) }
        let content: YAMLNode.Content
        if frame.isMapping {
            content = .mapping(Self.compacted(options.resolvesMergeKeys ? try Self.applyingMergeKeys(frame.entries) : frame.entries))
        } else {
            content = .sequence(Self.compacted(frame.items))
        }
        let node = YAMLNode(content, tag: frame.tag, file: file, line: Int(frame.mark.line) + 1, column: Int(frame.mark.column) + 1)
        try complete(node, weight: frame.weight, anchor: frame.anchor)
    }

    private mutating func complete(_ node: YAMLNode, weight: Int, anchor: String?) throws(YAMLError) {
        if let anchor { anchors[anchor] = (node, weight) }
        guard let frame = stack.last else {
            documentRoot = node
            return
        }
        frame.weight += weight
        try checkBudget(frame.weight, at: node.location)
        guard frame.isMapping else {
            frame.items.append(node)
            return
        }
        guard let key = frame.pendingKey else {
            frame.pendingKey = node
            return
        }
        let identity = Self.keyIdentity(key)
        if let first = frame.keys[identity] {
            let error = YAMLError(message: "duplicate key \(Self.keyDescription(key)) in mapping", location: key.location)
            guard duplicates != nil else { throw error }
            duplicates!.append(.init(error: error, first: first))
            frame.pendingKey = nil
            return
        }
        frame.keys[identity] = key.location
        frame.entries.append(YAMLNode.Entry(key: key, value: node))
        frame.pendingKey = nil
    }

    /// Arrays grown by appending keep up to twice the storage they need; a tree of millions of
    /// small collections keeps them for its whole life, so each is copied to its exact size.
    private static func compacted<Element>(_ array: [Element]) -> [Element] {
        guard array.capacity > array.count + 1 else { return array }
        return [Element](unsafeUninitializedCapacity: array.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: array)
        }
    }

    private func checkBudget(_ weight: Int, at location: SourceLocation) throws(YAMLError) {
        if weight > options.maximumExpandedNodes {
            throw YAMLError(
                message:
                    "aliases expand this document to more than \(options.maximumExpandedNodes) nodes; refusing to expand it (is it an alias bomb?)",
                location: location)
        }
    }

    static func isMergeKey(_ node: YAMLNode) -> Bool {
        if node.tag == YAMLTag.merge { return true }
        if case .scalar("<<", .plain) = node.content, node.tag == nil { return true }
        return false
    }

    /// YAML 1.1 merge keys: keys written in the mapping win over merged ones, and earlier merged
    /// mappings win over later ones.
    private static func applyingMergeKeys(_ entries: [YAMLNode.Entry]) throws(YAMLError) -> [YAMLNode.Entry] {
        guard entries.contains(where: { isMergeKey($0.key) }) else { return entries }
        var result = entries.filter { !isMergeKey($0.key) }
        var present = Set(result.map { keyIdentity($0.key) })
        for entry in entries where isMergeKey(entry.key) {
            let sources: [YAMLNode]
            switch entry.value.content {
            case .mapping: sources = [entry.value]
            case .sequence(let items) where items.allSatisfy({ $0.mappingEntries != nil }): sources = items
            default:
                throw YAMLError(
                    message: "the value of a merge key '<<' must be a mapping or a sequence of mappings", location: entry.value.location)
            }
            for source in sources {
                for merged in source.mappingEntries ?? [] where present.insert(keyIdentity(merged.key)).inserted {
                    result.append(merged)
                }
            }
        }
        return result
    }

    /// Two keys are the same key when they have the same kind and the same content; quoting style
    /// does not matter, so `name` and `"name"` collide.
    static func keyIdentity(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let value, _): return "s(\(node.tag ?? ""))" + value
        case .sequence(let items): return "[" + items.map(keyIdentity).joined(separator: ",") + "]"
        case .mapping(let entries):
            return "{" + entries.map { keyIdentity($0.key) + ":" + keyIdentity($0.value) }.joined(separator: ",") + "}"
        }
    }

    private static func keyDescription(_ node: YAMLNode) -> String {
        if let value = node.scalarValue { return "'\(value)'" }
        return node.kindDescription
    }
}
