import ModelSchema

/// Keeps a store's persistent history (`ACHANGE`) true to the destination version when a step
/// migrates the store. The history tables themselves (`ATRANSACTION`, `ACHANGE`,
/// `ATRANSACTIONSTRING`) are not entity tables and keep their rows; what refers to the model is
/// rewritten:
///
/// - `ZENTITY`, the changed object's own entity number, is renumbered as the rows' `Z_ENT` are;
///   changes of an entity the destination no longer has are deleted (nothing could read them).
///   `ZENTITYPK` needs nothing: keys are kept.
/// - `ZCOLUMNS`, an update's bit map over the entity's non-transient attributes and
///   relationships sorted by name (bit *n* from the most significant bit of byte 0), is rebuilt
///   over the destination's properties: a renamed property's bit follows it, a removed one's is
///   dropped, a new one's is clear.
/// - `ZTOMBSTONE<n>`, a delete's preserved values in the name order of the entity's
///   preserve-after-deletion attributes, are moved to the destination's slots; a value whose
///   attribute is gone, no longer preserved or of another type is cleared. Missing tombstone
///   columns are added.
///
/// The layout of `ZCOLUMNS` and of the tombstone columns is the one the runtime records (see
/// docs/runtime/History.md, "Recording"); that Core Data rewrites history this way when it
/// migrates is inferred, not observed.
struct HistoryRemapper {
    let step: StoreMigrationStep
    let connection: StoreConnection

    static let deleteType: Int64 = 2
    /// Changes read and rewritten at a time, so history of any length takes bounded memory.
    static let batchSize = 512

    func apply() throws {
        guard try !connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ACHANGE'").isEmpty else { return }
        let columns = Set(try connection.rows("SELECT name FROM pragma_table_info('ACHANGE')").compactMap { $0[0].textValue })
        var sourceTombstones = 0
        while columns.contains("ZTOMBSTONE\(sourceTombstones)") { sourceTombstones += 1 }
        let destinationTombstones =
            step.destinationLayout.entities.compactMap { step.destinationLookup.entity(named: $0.name) }
            .map { Self.preservedAttributes(of: $0, in: step.destinationLookup).count }.max() ?? 0
        for index in sourceTombstones..<max(sourceTombstones, destinationTombstones) {
            try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(index) BLOB")
        }
        let tombstoneColumns = max(sourceTombstones, destinationTombstones)
        var renumbered: [(old: Int, new: Int)] = []
        for sourceEntity in step.sourceLayout.entities {
            let old = sourceEntity.entityNumber
            guard let new = step.entityNumbers[old], let source = step.sourceLookup.entity(named: sourceEntity.name),
                let destination = step.destinationLookup.entity(named: step.destinationLayout.entities[new - 1].name)
            else {
                _ = try connection.rows("DELETE FROM ACHANGE WHERE ZENTITY = ?", [.integer(Int64(old))])
                continue
            }
            try remapColumnBits(entityNumber: old, from: source, to: destination)
            try remapTombstones(entityNumber: old, from: source, to: destination, columns: tombstoneColumns)
            if old != new { renumbered.append((old, new)) }
        }
        guard !renumbered.isEmpty else { return }
        // One statement, so a number that is both an old and a new one is not renumbered twice.
        let cases = renumbered.map { "WHEN \($0.old) THEN \($0.new)" }.joined(separator: " ")
        let olds = renumbered.map { String($0.old) }.joined(separator: ", ")
        try connection.execute("UPDATE ACHANGE SET ZENTITY = CASE ZENTITY \(cases) END WHERE ZENTITY IN (\(olds))")
    }

    /// The names `ZCOLUMNS` bits stand for: non-transient attributes and relationships, inherited
    /// ones included, sorted by name.
    static func columnProperties(of entity: Entity, in lookup: VersionLookup) -> [String] {
        let properties = lookup.allProperties(of: entity)
        return
            (properties.attributes.filter { !$0.isTransient }.map(\.name)
            + properties.relationships.filter { !$0.isTransient }.map(\.name)).sorted()
    }

    /// The preserve-after-deletion attributes in tombstone-slot order (by name).
    static func preservedAttributes(of entity: Entity, in lookup: VersionLookup) -> [Attribute] {
        lookup.allProperties(of: entity).attributes.filter { $0.preservesValueInHistoryOnDeletion && !$0.isTransient }
            .sorted { $0.name < $1.name }
    }

    /// The source property each destination property takes its history from, by name.
    private func sourceName(of property: String, in destination: Entity) -> String? {
        step.mapping.sourceProperty(property, of: destination.name)
    }

    private func remapColumnBits(entityNumber: Int, from source: Entity, to destination: Entity) throws {
        let oldNames = Self.columnProperties(of: source, in: step.sourceLookup)
        let newNames = Self.columnProperties(of: destination, in: step.destinationLookup)
        let oldIndexes = Dictionary(oldNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sources: [Int?] = newNames.map { name in sourceName(of: name, in: destination).flatMap { oldIndexes[$0] } }
        guard sources != oldNames.indices.map(Optional.some) else { return }
        var last = Int64.min
        while true {
            let rows = try connection.rows(
                "SELECT Z_PK, ZCOLUMNS FROM ACHANGE WHERE ZENTITY = ? AND ZCOLUMNS IS NOT NULL AND Z_PK > ? ORDER BY Z_PK LIMIT \(Self.batchSize)",
                [.integer(Int64(entityNumber)), .integer(last)])
            guard let final = rows.last?[0].integerValue else { break }
            for row in rows {
                guard let key = row[0].integerValue, let bits = row[1].blobValue else { continue }
                var remapped = [UInt8](repeating: 0, count: (newNames.count + 7) / 8)
                for (new, old) in sources.enumerated() {
                    guard let old, old / 8 < bits.count, bits[old / 8] & (0x80 >> UInt8(old % 8)) != 0 else { continue }
                    remapped[new / 8] |= 0x80 >> UInt8(new % 8)
                }
                _ = try connection.rows("UPDATE ACHANGE SET ZCOLUMNS = ? WHERE Z_PK = ?", [.blob(remapped), .integer(key)])
            }
            last = final
        }
    }

    private func remapTombstones(entityNumber: Int, from source: Entity, to destination: Entity, columns: Int) throws {
        guard columns > 0 else { return }
        let old = Self.preservedAttributes(of: source, in: step.sourceLookup)
        let new = Self.preservedAttributes(of: destination, in: step.destinationLookup)
        var assignments: [String] = []
        var unchanged = true
        for slot in 0..<columns {
            var from: Int?
            if slot < new.count, let name = sourceName(of: new[slot].name, in: destination),
                let index = old.firstIndex(where: { $0.name == name }), old[index].type == new[slot].type
            {
                from = index
            }
            if from != slot && (from != nil || slot < old.count) { unchanged = false }
            assignments.append("ZTOMBSTONE\(slot) = " + (from.map { "ZTOMBSTONE\($0)" } ?? "NULL"))
        }
        guard !unchanged else { return }
        _ = try connection.rows(
            "UPDATE ACHANGE SET \(assignments.joined(separator: ", ")) WHERE ZENTITY = ? AND ZCHANGETYPE = ?",
            [.integer(Int64(entityNumber)), .integer(Self.deleteType)])
    }
}
