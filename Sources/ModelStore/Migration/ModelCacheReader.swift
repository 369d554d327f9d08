import ModelSchema

extension ModelCache {
    /// The model a store recorded in `Z_MODELCACHE`, decoded. Core Data archives a sub-entity
    /// there with its inherited properties too (a `.mom` from `momc` lists only its own); they are
    /// removed, so the version has the hashes of the model that wrote the store.
    public static func decode(_ content: [UInt8], versionName: String = "Store") throws -> ModelVersion {
        var version = try CompiledModel.decodeMom(try inflate(content), versionName: versionName).version
        let lookup = VersionLookup(version)
        for index in version.entities.indices {
            let inherited = lookup.ancestors(of: version.entities[index]).flatMap { ancestor in
                ancestor.attributes.map(\.name) + ancestor.relationships.map(\.name) + ancestor.fetchedProperties.map(\.name)
            }
            guard !inherited.isEmpty else { continue }
            let names = Set(inherited)
            version.entities[index].attributes.removeAll { names.contains($0.name) }
            version.entities[index].relationships.removeAll { names.contains($0.name) }
            version.entities[index].fetchedProperties.removeAll { names.contains($0.name) }
        }
        return version
    }
}
