import ModelSchema

/// Renders `versions.lock`: every locked version, in the manifest's version order, as YAML
/// with one line per property. The same entries always give the same bytes.
public enum VersionLockWriter {
    public static let fileName = "versions.lock"

    static let header = """
        # What each shipped version of this model hashes to, as Core Data computes it: written by
        # `modelgen ship`, checked by `modelgen validate`. Do not edit by hand; a shipped version
        # never changes (add a new version instead).

        """

    public static func text(_ versions: [LockedVersion]) -> String {
        var text = header
        for version in versions {
            text += "\(scalar(version.name)):\n"
            text += "  checksum: \(scalar(version.checksum))\n"
            text += version.entities.isEmpty ? "  entities: {}\n" : "  entities:\n"
            for entity in version.entities {
                text += "    \(scalar(entity.name)):\n"
                text += "      hash: \(entity.hash)\n"
                if !entity.facts.isEmpty { text += "      facts: \(flow(entity.facts))\n" }
                if entity.properties.isEmpty {
                    text += "      properties: {}\n"
                    continue
                }
                text += "      properties:\n"
                for property in entity.properties {
                    text += "        \(scalar(property.name)): \(flow([LockFact("hash", property.hash)] + property.facts))\n"
                }
            }
        }
        return text
    }

    private static func flow(_ facts: [LockFact]) -> String {
        "{ " + facts.map { "\($0.key): \(scalar($0.value))" }.joined(separator: ", ") + " }"
    }

    static func scalar(_ text: String) -> String {
        // Hashes, numbers and booleans stay plain: the lock is read as text, never as typed values.
        if !text.isEmpty,
            text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        {
            return text
        }
        let plain = YAMLModelWriter.scalar(text)
        // In a flow mapping `,{}[]` end a plain scalar; `:` followed by space does too.
        if plain.first != "\"", plain.contains(where: { ",{}[]:#".contains($0) }) { return TextEscaping.yamlDoubleQuoted(text) }
        return plain
    }
}
