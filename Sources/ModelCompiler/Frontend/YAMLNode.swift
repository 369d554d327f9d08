import ModelSchema

/// A composed YAML node: the syntax tree the model reader works on. Every node knows where it
/// was written; nodes reached through an alias keep the location of the anchored original.
public struct YAMLNode: Sendable {
    public enum ScalarStyle: Sendable, Equatable {
        case plain
        case singleQuoted
        case doubleQuoted
        case literal
        case folded
    }

    public struct Entry: Sendable {
        public let key: YAMLNode
        public let value: YAMLNode
    }

    public enum Content: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([Entry])
    }

    /// The path of the file a node comes from, shared by all its nodes.
    public final class File: Sendable {
        public let path: String
        public init(path: String) { self.path = path }
    }

    public let content: Content
    /// The node's explicit tag, fully resolved (`tag:yaml.org,2002:str`), or nil when untagged.
    public let tag: String?
    // Position kept compact: a large model has millions of nodes.
    private let file: File
    private let line: Int32
    private let column: Int32

    public init(_ content: Content, tag: String? = nil, file: File, line: Int, column: Int) {
        self.content = content
        self.tag = tag
        self.file = file
        self.line = Int32(clamping: line)
        self.column = Int32(clamping: column)
    }

    public var location: SourceLocation {
        SourceLocation(file: file.path, line: Int(line), column: Int(column))
    }

    /// The text of a scalar node, or nil for collections.
    public var scalarValue: String? {
        if case .scalar(let value, _) = content { return value }
        return nil
    }

    public var sequenceItems: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    public var mappingEntries: [Entry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// True for a plain scalar that YAML's core schema reads as null (`~`, `null`, empty).
    public var isNull: Bool {
        if case .scalar(let value, .plain) = content, tag == nil || tag == YAMLTag.null {
            return ["", "~", "null", "Null", "NULL"].contains(value)
        }
        return tag == YAMLTag.null
    }

    /// A short word for the node's kind, used in diagnostics ("expected a mapping, found a sequence").
    public var kindDescription: String {
        switch content {
        case .scalar: isNull ? "null" : "a scalar"
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }
}

/// The standard tags of the YAML core schema.
public enum YAMLTag {
    public static let prefix = "tag:yaml.org,2002:"
    public static let null = prefix + "null"
    public static let bool = prefix + "bool"
    public static let int = prefix + "int"
    public static let float = prefix + "float"
    public static let str = prefix + "str"
    public static let seq = prefix + "seq"
    public static let map = prefix + "map"
    public static let merge = prefix + "merge"
}
