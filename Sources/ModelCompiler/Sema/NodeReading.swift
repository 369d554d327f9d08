import ModelSchema

/// Reads the keys of one YAML mapping, checking each against the keys that context allows.
/// Keys it does not know are reported with a "did you mean" suggestion.
struct MappingReader {
    let node: YAMLNode
    let context: String
    private var values: [String: YAMLNode] = [:]
    private(set) var keys: [(name: String, key: YAMLNode)] = []

    /// Nil (after reporting) when `node` is not a mapping. A null node reads as an empty mapping.
    init?(_ node: YAMLNode, context: String, diagnostics: DiagnosticCollector) {
        self.node = node
        self.context = context
        if node.isNull { return }
        guard let entries = node.mappingEntries else {
            diagnostics.error("expected a mapping for \(context), found \(node.kindDescription)", at: node.location)
            return nil
        }
        for entry in entries {
            guard let name = entry.key.scalarValue else {
                diagnostics.error("keys in \(context) must be plain names, found \(entry.key.kindDescription)", at: entry.key.location)
                continue
            }
            guard values[name] == nil else {
                diagnostics.error("duplicate key '\(name)' in \(context)", at: entry.key.location)
                continue
            }
            values[name] = entry.value
            keys.append((name, entry.key))
        }
    }

    subscript(_ key: String) -> YAMLNode? { values[key] }

    /// Reports every key not in `allowed`. With `extensionPrefix`, keys starting with it are
    /// the user's own (a place for YAML anchors to live) and are ignored.
    func rejectUnknownKeys(allowed: [String], extensionPrefix: String? = nil, diagnostics: DiagnosticCollector) {
        let known = Set(allowed)
        for (name, key) in keys where !known.contains(name) {
            if let extensionPrefix, name.hasPrefix(extensionPrefix) { continue }
            diagnostics.error(
                "unknown key '\(name)' in \(context)\(Suggestions.didYouMean(name, in: allowed))", at: key.location)
        }
    }
}

/// Typed readers for scalar values. Each reports a located error and returns nil on mismatch.
struct ScalarReader {
    let diagnostics: DiagnosticCollector

    func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let value = node.scalarValue, !node.isNull else {
            diagnostics.error("\(what) must be a string, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return value
    }

    /// A non-empty string without surrounding white space, for names.
    func name(_ node: YAMLNode, _ what: String) -> String? {
        guard let value = string(node, what) else { return nil }
        if value.isEmpty {
            diagnostics.error("\(what) must not be empty", at: node.location)
            return nil
        }
        return value
    }

    func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        if case .bool(let value)? = node.coreValue { return value }
        diagnostics.error("\(what) must be true or false, found '\(node.scalarValue ?? node.kindDescription)'", at: node.location)
        return nil
    }

    func int(_ node: YAMLNode, _ what: String, minimum: Int = 0, maximum: Int = .max) -> Int? {
        guard case .int(let value)? = node.coreValue else {
            if let text = node.scalarValue, NumberLiteralLimits.digits(of: text) != nil, !text.contains(where: { ".eE".contains($0) }) {
                diagnostics.error("\(what) \(text) is out of range (\(minimum)...\(Int.max))", at: node.location)
                return nil
            }
            diagnostics.error("\(what) must be an integer, found '\(node.scalarValue ?? node.kindDescription)'", at: node.location)
            return nil
        }
        guard value >= minimum else {
            diagnostics.error("\(what) must be at least \(minimum), found \(value)", at: node.location)
            return nil
        }
        guard value <= maximum else {
            diagnostics.error("\(what) must be at most \(maximum), found \(value)", at: node.location)
            return nil
        }
        return value
    }

    /// A list of strings; a single scalar is accepted as a one-element list.
    func stringList(_ node: YAMLNode, _ what: String) -> [(String, SourceLocation)]? {
        if node.scalarValue != nil, !node.isNull {
            return string(node, what).map { [($0, node.location)] }
        }
        guard let items = node.sequenceItems else {
            diagnostics.error("\(what) must be a list of names, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return items.compactMap { item in string(item, "an item of \(what)").map { ($0, item.location) } }
    }

    /// User info: a mapping of string keys to scalar values, kept as text like Xcode does.
    func userInfo(_ node: YAMLNode) -> [String: String] {
        guard let reader = MappingReader(node, context: "userInfo", diagnostics: diagnostics) else { return [:] }
        var result: [String: String] = [:]
        for (name, key) in reader.keys {
            guard let value = reader[name], let text = value.scalarValue, value.mappingEntries == nil else {
                diagnostics.error("userInfo values must be scalars", at: key.location)
                continue
            }
            result[name] = value.isNull ? "" : text
        }
        return result
    }
}

extension Array {
    /// `compactMap` into storage reserved for every element up front. The schema of a large model
    /// holds hundreds of thousands of small arrays; growing them by doubling wastes a third.
    func compactMapReserved<T>(_ transform: (Element) throws -> T?) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self {
            if let value = try transform(element) { result.append(value) }
        }
        return result
    }
}
