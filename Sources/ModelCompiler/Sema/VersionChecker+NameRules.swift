import ModelSchema

extension VersionChecker {
    /// The naming rules a model follows. Everything else is checked the same way for both.
    enum NameRules {
        /// The YAML format's: entity, composite and enum names are Swift type names in Swift's
        /// style, class names one of the forms generated code can name, property names in
        /// lower camel case (other spellings Swift accepts are style warnings).
        case modelFormat
        /// Core Data's, for Xcode models: names are present, entities and composites declared
        /// once, no property takes the name of a no-parameter method of `NSObject` or
        /// `NSManagedObject` (Apple's `NSPropertyDescription` documentation: "you cannot give a
        /// property the name 'description'") or cannot be spelled in Swift at all. No style
        /// warnings: an Xcode model's names are part of its stores. Whether the Swift generated
        /// from the names compiles is checked on the names the generator prints
        /// (``GeneratedCodeChecker``).
        case coreData
    }

    /// Core Data's rules for entity and composite names: present and unique. Class names are
    /// not declarations of the model there (generic entities share `NSManagedObject`).
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

    /// A property name's problem under the rules in force; nil when it is fine.
    func propertyNameProblem(_ name: String, kind: String) -> (message: String, isError: Bool)? {
        guard let problem = Names.propertyNameProblem(name, kind: kind) else { return nil }
        switch rules {
        case .modelFormat: return problem
        case .coreData: return problem.isError || Names.metatypeMemberNames.contains(name) ? problem : nil
        }
    }
}
