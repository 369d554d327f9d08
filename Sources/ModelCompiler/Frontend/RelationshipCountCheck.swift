import ModelSchema

/// Relationship counts in Xcode `contents` must be whole numbers in `0...UInt32.max` (version
/// hashes record them in 32 bits); anything else is a located error before the model is read.
enum RelationshipCountCheck {
    /// False when some count is out of range (each such count is reported).
    static func check(_ root: XcodeXMLElement, path: String, diagnostics: DiagnosticCollector) -> Bool {
        var valid = true
        for entity in root.children where entity.name == "entity" {
            for relationship in entity.children where relationship.name == "relationship" {
                for key in ["minCount", "maxCount"] {
                    guard let text = relationship[key] else { continue }
                    if let count = Int(text), (0...Relationship.largestCount).contains(count) { continue }
                    valid = false
                    diagnostics.error(
                        "'\(key)' of relationship '\(entity["name"] ?? "").\(relationship["name"] ?? "")' must be a whole number from 0 to \(Relationship.largestCount), found '\(text)'",
                        at: SourceLocation(file: path, line: relationship.line, column: relationship.column))
                }
            }
        }
        return valid
    }
}
