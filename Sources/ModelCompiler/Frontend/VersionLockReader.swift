import ModelSchema

/// A version entry of `versions.lock`, with where it was written.
struct LockEntry {
    let version: LockedVersion
    let location: SourceLocation
}

/// Reads `versions.lock` (written by ``VersionLockWriter``). A damaged lock is an error at the
/// place it is damaged; the entries that read correctly are still returned.
struct VersionLockReader {
    let diagnostics: DiagnosticCollector

    func read(_ root: YAMLNode) -> [LockEntry] {
        guard let versions = MappingReader(root, context: "the lock", diagnostics: diagnostics) else { return [] }
        var entries: [LockEntry] = []
        for (name, key) in versions.keys {
            guard let node = versions[name], let version = readVersion(name, node) else { continue }
            entries.append(LockEntry(version: version, location: key.location))
        }
        return entries
    }

    private func readVersion(_ name: String, _ node: YAMLNode) -> LockedVersion? {
        let context = "the lock of version '\(name)'"
        guard let reader = MappingReader(node, context: context, diagnostics: diagnostics) else { return nil }
        reader.rejectUnknownKeys(allowed: ["checksum", "entities"], diagnostics: diagnostics)
        guard let checksumNode = reader["checksum"], let checksum = text(checksumNode, "'checksum'") else {
            diagnostics.error("\(context) needs 'checksum'", at: node.location)
            return nil
        }
        var entities: [LockedEntity] = []
        if let entitiesNode = reader["entities"],
            let entityReader = MappingReader(entitiesNode, context: "'entities'", diagnostics: diagnostics)
        {
            for (entityName, _) in entityReader.keys {
                if let entityNode = entityReader[entityName], let entity = readEntity(entityName, entityNode) { entities.append(entity) }
            }
        }
        return LockedVersion(name: name, checksum: checksum, entities: entities)
    }

    private func readEntity(_ name: String, _ node: YAMLNode) -> LockedEntity? {
        guard let reader = MappingReader(node, context: "the lock of entity '\(name)'", diagnostics: diagnostics) else { return nil }
        reader.rejectUnknownKeys(allowed: ["hash", "facts", "properties"], diagnostics: diagnostics)
        guard let hashNode = reader["hash"], let hash = text(hashNode, "'hash'") else {
            diagnostics.error("the lock of entity '\(name)' needs 'hash'", at: node.location)
            return nil
        }
        let facts = reader["facts"].flatMap { readFacts($0, context: "the facts of entity '\(name)'") } ?? []
        var properties: [LockedProperty] = []
        if let propertiesNode = reader["properties"],
            let propertyReader = MappingReader(propertiesNode, context: "the properties of entity '\(name)'", diagnostics: diagnostics)
        {
            for (propertyName, key) in propertyReader.keys {
                guard let propertyNode = propertyReader[propertyName],
                    var propertyFacts = readFacts(propertyNode, context: "the lock of property '\(name).\(propertyName)'")
                else { continue }
                guard let hashIndex = propertyFacts.firstIndex(where: { $0.key == "hash" }) else {
                    diagnostics.error("the lock of property '\(name).\(propertyName)' needs 'hash'", at: key.location)
                    continue
                }
                let propertyHash = propertyFacts.remove(at: hashIndex).value
                properties.append(LockedProperty(name: propertyName, hash: propertyHash, facts: propertyFacts))
            }
        }
        return LockedEntity(name: name, hash: hash, facts: facts, properties: properties)
    }

    private func readFacts(_ node: YAMLNode, context: String) -> [LockFact]? {
        guard let reader = MappingReader(node, context: context, diagnostics: diagnostics) else { return nil }
        return reader.keys.compactMap { name, _ in reader[name].flatMap { text($0, "'\(name)'") }.map { LockFact(name, $0) } }
    }

    private func text(_ node: YAMLNode, _ what: String) -> String? {
        guard let value = node.scalarValue, !node.isNull else {
            diagnostics.error("\(what) must be a scalar, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return value
    }
}
