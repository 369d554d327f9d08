#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Dictionary fetches: rows read as dictionaries, not objects.
extension StoreFetch {
    /// A fetch with `.dictionaryResultType`: one `NSDictionary` per row (per group for grouped
    /// and aggregate fetches), keyed by the properties' and expression descriptions' names, nil
    /// values left out. Each row is made with one `init(objects:forKeys:count:)` from keys made
    /// once per fetch (``DictionaryRowKey``) and values made as the objects they bridge to
    /// (``DictionaryRowColumn``).
    func dictionaries<T>(_ request: NSFetchRequest<T>, entity: EngineEntity) throws -> [NSDictionary] {
        let storedAttributes = {
            entity.attributeSlots.filter { if case .attribute(_, _?) = entity.slotKinds[$0] { true } else { false } }
                .map { entity.properties[$0].name }
        }
        let selection: FetchSQLRequest.Selection
        var resultTypes: [String: NSAttributeType] = [:]
        if DictionaryGrouping.applies(to: request) {
            selection = .grouped(try DictionaryGrouping.grouping(of: request, defaultNames: storedAttributes()))
            for case let description as NSExpressionDescription in request.propertiesToFetch ?? [] {
                resultTypes[description.name] = description.expressionResultType
            }
        } else {
            selection = .properties(
                request.propertiesToFetch?.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name } ?? storedAttributes())
        }
        let plan = try FetchPlan(request: request, entity: entity, selection: selection, paged: true)
        let model = entity.model
        // Per result column: the key path and how to read it.
        let readers: [(keyPath: String, type: NSAttributeType?, leaf: [String])] = plan.sql.resultColumns.map { column in
            if case .expression(let name) = column { return (name, resultTypes[name] ?? .undefinedAttributeType, []) }
            guard case .property(let keyPath, let described) = column else { return ("", nil, []) }
            switch described.role {
            case .attribute(let entityName, let property, let path):
                let owner = model?.entity(named: entityName)
                let slot = owner?.slotsByName[property]
                if let slot, let owner, case .composite(let leaves, _) = owner.slotKinds[slot] {
                    return (keyPath, leaves.first { $0.path == path }?.type ?? .undefinedAttributeType, path)
                }
                if let slot, let owner, case .attribute(let type, _) = owner.slotKinds[slot] { return (keyPath, type, []) }
                return (keyPath, .undefinedAttributeType, [])
            case .foreignKey:
                return (keyPath, .objectIDAttributeType, [])
            default:
                return ("", nil, [])
            }
        }
        // Per column: how its value is read (to-one columns give the IDs of the objects they refer to).
        let columns = plan.sql.resultColumns.enumerated().map { index, column in
            DictionaryRowColumn(
                type: readers[index].type,
                reference: DictionaryReference(column: column, among: plan.sql.resultColumns, in: model))
        }
        // The rows' keys, made once per fetch and shared by every row; a composite's columns
        // share their key.
        var keyNames: [String] = []
        var keyIndexes: [Int] = []
        for reader in readers {
            if let index = keyNames.firstIndex(of: reader.keyPath) {
                keyIndexes.append(index)
            } else {
                keyIndexes.append(keyNames.count)
                keyNames.append(reader.keyPath)
            }
        }
        let keyObjects: [NSObject] = keyNames.map { DictionaryRowKey($0) }
        let columnKeys = keyIndexes.map { keyObjects[$0] }
        let hasComposites = readers.contains { !$0.leaf.isEmpty }
        var rows: [NSDictionary] = []
        // One row's keys and values, made into its NSDictionary at once: at most one per column
        // and one per composite.
        let capacity = columns.count + keyObjects.count
        let rowKeys = UnsafeMutablePointer<NSObject>.allocate(capacity: capacity)
        let rowValues = UnsafeMutablePointer<AnyObject>.allocate(capacity: capacity)
        defer {
            rowKeys.deallocate()
            rowValues.deallocate()
        }
        try withStores(for: request) { store in
            let statement = try readConnection(store).cachedStatement(plan.sql.sql)
            plan.bind(statement)
            defer { statement.reset() }
            while try statement.step() {
                var count = 0
                var composites: [Int: [String: Any]] = [:]
                for index in columns.indices {
                    if hasComposites, !readers[index].leaf.isEmpty {
                        // A composite's leaf goes into its nested dictionary as a Swift value.
                        if let type = readers[index].type, let value = StoreValueCodec.read(statement, Int32(index), as: type) {
                            RowSnapshot.set(value, at: readers[index].leaf[...], in: &composites[keyIndexes[index], default: [:]])
                        }
                    } else if let value = columns[index].value(statement, Int32(index), store: store) {
                        (rowKeys + count).initialize(to: columnKeys[index])
                        (rowValues + count).initialize(to: value)
                        count += 1
                    }
                }
                if hasComposites {
                    for (key, composite) in composites.sorted(by: { $0.key < $1.key }) {
                        (rowKeys + count).initialize(to: keyObjects[key])
                        (rowValues + count).initialize(to: composite as AnyObject)
                        count += 1
                    }
                }
                rows.append(NSDictionary(objects: rowValues, forKeys: rowKeys, count: count))
                rowKeys.deinitialize(count: count)
                rowValues.deinitialize(count: count)
            }
        }
        return rows
    }
}
#endif
