import ModelSchema

/// The parts of ``VersionChecker`` that depend on its naming rules.
extension VersionChecker {
    /// Core Data's rules: entity and composite names are present and unique. Class names are
    /// not model names there (generic entities share `NSManagedObject`); the generated-code
    /// check sees them as the generator maps them.
    func checkCoreDataTypeNames() {
        for (kind, declarations) in [
            ("entity", version.entities.map { ($0.name, $0.location) }), ("composite", version.composites.map { ($0.name, $0.location) }),
        ] {
            var first: [String: SourceLocation?] = [:]
            for (name, location) in declarations {
                let here = location ?? version.location ?? .file("")
                if name.isEmpty {
                    diagnostics.error("\(kind) has no name", at: here)
                } else if let earlier = first[name] {
                    diagnostics.error("\(kind) '\(name)' is declared twice", at: here)
                    if let earlier { diagnostics.note("'\(name)' is first declared here", at: earlier) }
                } else {
                    first[name] = location
                }
            }
        }
    }

    func propertyNameProblem(_ name: String, kind: String) -> String? {
        switch rules {
        case .modelFormat: return Names.propertyNameProblem(name, kind: kind)
        case .coreData: return Names.coreDataPropertyNameProblem(name, kind: kind)
        }
    }
}
