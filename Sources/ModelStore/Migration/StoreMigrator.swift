import ModelSchema

/// Migrates a store file through consecutive model versions, as staged migration does: each
/// step is a lightweight migration, so properties renamed in several versions in turn keep their
/// values. All or nothing (see ``StoreMigrationSession``).
public enum StoreMigrator {
    /// The versions of `model` from `source` to `destination` in the model's order, both
    /// included; nil when either is missing or `destination` comes first.
    public static func path(in model: Model, from source: String, to destination: String) -> [ModelVersion]? {
        guard let first = model.versions.firstIndex(where: { $0.name == source }),
            let last = model.versions.firstIndex(where: { $0.name == destination }), first <= last
        else { return nil }
        return Array(model.versions[first...last])
    }

    /// Migrates the store at `path`, written by `versions[0]`, to the last version, one
    /// consecutive pair at a time. Throws ``StoreMigrationError`` and leaves the store as it was
    /// when the store was written by another version, a step cannot be inferred, or anything fails.
    /// Waits while another process migrates the store, unless the caller holds its `lock`.
    ///
    /// `progress` hears each step as it starts and ends — the copy of the store, each version
    /// step (with the rows it has copied), the swap — `completed` counting from 0 to `total`.
    public static func migrate(
        storeAt path: String, through versions: [ModelVersion], holding lock: StoreMigrationLock? = nil,
        progress: ProgressHandler? = nil
    ) throws {
        guard versions.count > 1 else { return }
        let total = versions.count + 1
        progress?(WorkProgress(completed: 0, total: total, step: "copying the store"))
        let session = try StoreMigrationSession(storeAt: path, holding: lock)
        do {
            for (offset, (source, destination)) in zip(versions, versions.dropFirst()).enumerated() {
                let step = "migrating '\(source.name)' to '\(destination.name)'"
                progress?(WorkProgress(completed: offset + 1, total: total, step: step))
                try session.migrate(from: source, to: destination) { rows in
                    progress?(WorkProgress(completed: offset + 1, total: total, step: step, rowsCopied: rows))
                }
            }
            progress?(WorkProgress(completed: total - 1, total: total, step: "replacing the store"))
            try session.commit()
            progress?(WorkProgress(completed: total, total: total, step: "migrated"))
        } catch {
            session.discard()
            throw error
        }
    }
}
