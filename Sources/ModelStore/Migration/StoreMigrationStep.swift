import ModelSchema

/// Rewrites an open store from one version's layout to the next one's, as lightweight migration
/// does on Core Data's SQLite layout: every entity table and join table of the source is renamed
/// aside, the destination's tables are created with their exact DDL, rows are copied with the
/// inferred mapping (renamed properties keep their values, new attributes take their default,
/// entity numbers are renumbered; derived attributes' triggers, created first, compute their
/// values), the old tables are dropped, the destination's indexes are created, and `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE` are rewritten for the destination
/// (keeping the store UUID and the app's own metadata keys). Persistent history keeps its rows,
/// its entity numbers and property references rewritten for the destination (``HistoryRemapper``).
///
/// Runs inside the caller's transaction; see ``StoreMigrationSession`` for the copy-and-swap
/// that makes a migration all or nothing.
public struct StoreMigrationStep {
    public let source: ModelVersion
    public let destination: ModelVersion
    public let mapping: VersionMapping
    let sourceLayout: StoreLayout
    let destinationLayout: StoreLayout
    let sourceLookup: VersionLookup
    let destinationLookup: VersionLookup
    /// Source entity number → destination entity number, for mapped entities.
    let entityNumbers: [Int: Int]

    public init(from source: ModelVersion, to destination: ModelVersion) {
        self.init(from: source, to: destination, sourceLayout: StoreLayout(source))
    }

    /// The step for a store laid out as `sourceLayout` (read from the store itself).
    init(from source: ModelVersion, to destination: ModelVersion, sourceLayout: StoreLayout) {
        self.source = source
        self.destination = destination
        mapping = VersionMapping(from: source, to: destination)
        self.sourceLayout = sourceLayout
        destinationLayout = StoreLayout(destination)
        sourceLookup = VersionLookup(source)
        destinationLookup = VersionLookup(destination)
        var numbers: [Int: Int] = [:]
        for entity in destinationLayout.entities {
            if let name = mapping.sourceEntity(of: entity.name), let old = sourceLayout.entity(named: name) {
                numbers[old.entityNumber] = entity.entityNumber
            }
        }
        entityNumbers = numbers
    }

    /// The reasons lightweight migration cannot infer this step (empty when it can).
    public var obstacles: [String] {
        MigrationPlanner.step(from: source, to: destination).obstacles.map { entity, property, change in
            let subject = property.map { "'\(entity.name).\($0.name)'" } ?? "entity '\(entity.name)'"
            return "\(subject): \(change.obstacle ?? "")"
        }
    }

    /// Rewrites the store. The caller holds a transaction and has checked that the store was
    /// written by ``source``. `rowsCopied` hears the number of rows copied so far as they are.
    public func apply(to connection: StoreConnection, rowsCopied: ((Int) -> Void)? = nil) throws {
        // The store is read through its own layout: its column order, join-table names and
        // entity numbers as they are in the file.
        let existing = try StoreSchema.existingLayout(of: connection, version: source)
        guard existing.differences.isEmpty else {
            throw StoreMigrationError(
                .sourceMismatch,
                "the store's tables differ from version '\(source.name)': " + existing.differences.joined(separator: "; "))
        }
        if existing.differsFromNewStores {
            try StoreMigrationStep(from: source, to: destination, sourceLayout: existing.layout).rewrite(connection, rowsCopied: rowsCopied)
        } else {
            try rewrite(connection, rowsCopied: rowsCopied)
        }
    }

    private func rewrite(_ connection: StoreConnection, rowsCopied: ((Int) -> Void)?) throws {
        let primaryKeys = try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
        try dropIndexesAndTriggers(connection)
        let renamed = try renameSourceTables(connection)
        let statements = StoreSchema.statements(for: destinationLayout)
        let tableCount = destinationLayout.tables.count + destinationLayout.joinTables.count
        for statement in statements.prefix(tableCount) { try connection.execute(statement) }
        // Derived attributes' triggers before the rows arrive, so the store computes their values
        // for the copied rows as it does for inserted ones.
        for statement in DerivedAttributeTriggers.statements(for: destination, layout: destinationLayout) {
            try connection.execute(statement)
        }
        var writer = RowCopier(step: self, connection: connection, renamed: renamed, rowsCopied: rowsCopied)
        try writer.copyEntityRows()
        try writer.copyJoinTables()
        for name in renamed.values.sorted() { try connection.execute("DROP TABLE \(quoted(name))") }
        for statement in statements[tableCount..<(statements.count - 3)] { try connection.execute(statement) }
        try writer.clearDanglingKeys()
        try writer.fillOrderColumns()
        _ = connection.takeDerivedValueChanges()
        try HistoryRemapper(step: self, connection: connection).apply()
        try writePrimaryKeys(connection, previous: primaryKeys)
        try writeMetadataAndCache(connection)
    }

    /// The source tables' indexes and triggers (the destination's indexes are created after the
    /// rows are copied; a new store has no triggers).
    private func dropIndexesAndTriggers(_ connection: StoreConnection) throws {
        let tables = Set(sourceLayout.tables.map(\.name) + sourceLayout.joinTables.map(\.name))
        for row in try connection.rows(
            "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL")
        where tables.contains(row[2].textValue ?? "") {
            try connection.execute("DROP \(row[0].textValue == "trigger" ? "TRIGGER" : "INDEX") \(quoted(row[1].textValue ?? ""))")
        }
    }

    /// Renames every source table aside (`Z_MIGRATION_n`), so a destination table may take any
    /// name, including a source table's. Returns source table name → temporary name.
    private func renameSourceTables(_ connection: StoreConnection) throws -> [String: String] {
        let existing = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].textValue })
        var renamed: [String: String] = [:]
        for (offset, name) in (sourceLayout.tables.map(\.name) + sourceLayout.joinTables.map(\.name)).enumerated() {
            guard existing.contains(name) else {
                throw StoreMigrationError(.sourceMismatch, "the store has no table \(name), which version '\(source.name)' stores rows in")
            }
            let temporary = "Z_MIGRATION_\(offset)"
            try connection.execute("ALTER TABLE \(quoted(name)) RENAME TO \(quoted(temporary))")
            renamed[name] = temporary
        }
        return renamed
    }

    /// One row per destination entity. A root's `Z_MAX` is at least the largest key any source
    /// tree feeding it had handed out (keys stay unique even for deleted rows) and at least its
    /// largest key. A renamed entity keeps the name its row had when its number is unchanged and
    /// that name is its renaming identifier (as Core Data left it in a migrated fixture store).
    private func writePrimaryKeys(_ connection: StoreConnection, previous: [[SQLiteValue]]) throws {
        var oldRows: [Int: (name: String, max: Int64)] = [:]
        for row in previous {
            guard let number = row[0].integerValue.map(Int.init) else { continue }
            oldRows[number] = (row[1].textValue ?? "", row[3].integerValue ?? 0)
        }
        try connection.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        let insert = try connection.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
        for entity in destinationLayout.entities {
            var name = entity.name
            let sourceEntity = mapping.sourceEntity(of: entity.name).flatMap { sourceLayout.entity(named: $0) }
            if let sourceEntity, sourceEntity.entityNumber == entity.entityNumber, let old = oldRows[entity.entityNumber],
                old.name == destinationLookup.entity(named: entity.name)?.renamingIdentifier
            {
                name = old.name
            }
            var maximum: Int64 = 0
            if entity.superEntityNumber == 0 {
                let table = destinationLayout.table(of: entity)
                maximum = try connection.rows("SELECT MAX(Z_PK) FROM \(quoted(table.name))").first?.first?.integerValue ?? 0
                for member in destinationLayout.entities where member.rootEntityNumber == entity.entityNumber {
                    guard let sourceName = mapping.sourceEntity(of: member.name), let old = sourceLayout.entity(named: sourceName),
                        let oldMaximum = oldRows[old.rootEntityNumber]?.max
                    else { continue }
                    maximum = max(maximum, oldMaximum)
                }
            }
            insert.reset()
            insert.bind([.integer(Int64(entity.entityNumber)), .text(name), .integer(Int64(entity.superEntityNumber)), .integer(maximum)])
            try insert.step()
        }
    }

    /// The destination's metadata with the store's UUID and the keys the app set itself, and the
    /// destination model in `Z_MODELCACHE`.
    private func writeMetadataAndCache(_ connection: StoreConnection) throws {
        let fresh = StoreMetadataPlist.make(for: destination)
        guard case .dictionary(var members) = fresh else { return }
        let old = try StoreMetadataTable.read(connection)
        if case .dictionary(let oldMembers)? = old?.plist {
            let written = Set(members.map(\.key))
            members += oldMembers.filter { !written.contains($0.key) && !Self.modelKeys.contains($0.key) }
        }
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        try StoreMetadataTable.write(.init(storeUUID: old?.storeUUID ?? "", plist: .dictionary(members)), to: connection)
        let hasCache = !(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'")).isEmpty
        if hasCache {
            try connection.execute("DELETE FROM Z_MODELCACHE")
        } else {
            try connection.execute(StoreSchema.modelCacheTable)
        }
        let cache = try connection.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
        cache.bind(bytes: try ModelCache.encode(destination), at: 1)
        try cache.step()
    }

    /// Metadata keys that describe the model; replaced, never carried over.
    static let modelKeys: Set<String> = [
        "NSStoreModelVersionHashes", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey",
        "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesVersion",
    ]
}

/// An SQL identifier in double quotes.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
