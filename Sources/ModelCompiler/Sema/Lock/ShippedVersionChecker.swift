import ModelSchema

/// Checks that every shipped version still hashes to the checksum recorded when it shipped.
/// A changed shipped version is an error at its `shipped` entry, with one note per entity or
/// property whose hash changed (explained from `versions.lock`), and the fix.
struct ShippedVersionChecker {
    let model: Model
    let shipped: [ShippedEntry]
    let lock: [LockEntry]
    let diagnostics: DiagnosticCollector

    func check() {
        let locked = Dictionary(lock.map { ($0.version.name, $0) }) { first, _ in first }
        let shippedNames = Set(shipped.map(\.name))
        for entry in lock where !shippedNames.contains(entry.version.name) {
            diagnostics.warning(
                "versions.lock records version '\(entry.version.name)', which the manifest's 'shipped' does not list", at: entry.location)
        }
        for entry in shipped {
            guard let version = model.versions.first(where: { $0.name == entry.name }) else { continue }
            let lockEntry = locked[entry.name]
            if let recorded = entry.checksum, let lockEntry, lockEntry.version.checksum != recorded {
                diagnostics.error(
                    "versions.lock records checksum '\(lockEntry.version.checksum)' for shipped version '\(entry.name)', but versions.yaml records '\(recorded)'; restore both files from the commit that shipped it",
                    at: lockEntry.location)
                continue
            }
            guard let recorded = entry.checksum ?? lockEntry?.version.checksum else {
                diagnostics.warning(
                    "shipped version '\(entry.name)' has no recorded checksum, so changes to it go unnoticed; run 'modelgen ship <model> \"\(entry.name)\"' to record it",
                    at: entry.location)
                continue
            }
            let current = VersionHashes(version).versionChecksum
            guard current != recorded else { continue }
            diagnostics.error(
                "shipped version '\(entry.name)' has changed since it shipped (checksum \(recorded), now \(current)); stores created with it would no longer open: restore it and add a new version for these changes",
                at: entry.location)
            guard let lockEntry else {
                diagnostics.note(
                    "versions.lock has no entry for '\(entry.name)', so what changed cannot be shown",
                    at: version.location ?? entry.location)
                continue
            }
            let changes = LockComparison.changes(from: lockEntry.version, to: version).map {
                (message: $0.message, location: $0.location ?? version.location ?? entry.location)
            }
            for change in changes.sorted(by: { ($0.location, $0.message) < ($1.location, $1.message) }) {
                diagnostics.note(change.message, at: change.location)
            }
        }
    }
}
