import ModelSchema

/// Rewrites the `shipped` entry of a `versions.yaml` and leaves every other line as written
/// (comments, order, spacing). The entry is written in the mapping form, one version a line,
/// in the manifest's version order.
enum ManifestEditor {
    struct Shipped {
        let name: String
        let checksum: String?
    }

    /// The manifest text with `shipped` replaced (or appended), or a reason it cannot be edited.
    static func replacingShipped(in text: String, root: YAMLNode, with entries: [Shipped]) -> Result<String, EditError> {
        guard let rootEntries = root.mappingEntries, let first = rootEntries.first, first.key.location.column == 1 else {
            return .failure(
                EditError(
                    message: "versions.yaml is not a block mapping ('key: value' lines); write it that way so 'shipped' can be edited"))
        }
        var block = "shipped:\n"
        for entry in entries {
            block += "  \(YAMLModelWriter.scalar(entry.name)): \(entry.checksum.map(VersionLockWriter.scalar) ?? "~")\n"
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let key = rootEntries.first(where: { $0.key.scalarValue == "shipped" })?.key else {
            return .success(lines.map { $0 + "\n" }.joined() + block)
        }
        guard key.location.column == 1 else {
            return .failure(EditError(message: "'shipped' is not at the start of its line; write versions.yaml as a block mapping"))
        }
        let start = key.location.line - 1
        // The value: the lines after the key that are blank, indented, sequence items or
        // comments; comments and blank lines right before the next key belong to that key.
        var end = start + 1
        while end < lines.count, lines[end].isEmpty || " \t-#".contains(lines[end].first!) { end += 1 }
        while end > start + 1, isBlankOrComment(lines[end - 1]) { end -= 1 }
        let before = lines[..<start].map { $0 + "\n" }.joined()
        let after = lines[end...].map { $0 + "\n" }.joined()
        return .success(before + block + after)
    }

    private static func isBlankOrComment(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty || trimmed.first == "#"
    }

    struct EditError: Error {
        let message: String
    }
}
