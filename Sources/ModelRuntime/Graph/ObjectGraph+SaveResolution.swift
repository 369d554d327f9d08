#if !canImport(CoreData)
/// What the merge policy decided during the save under way beyond the objects' values
/// (``ObjectGraph/saveResolution``).
final class SaveResolution {
    /// Updated or marked objects whose row is gone: nothing of them is written (the built-in
    /// policies drop their changes; the save still counts them saved).
    var unwritten: [ObjectIdentifier: NSManagedObject] = [:]
}

/// What a merge policy decides during a save beyond the objects' values
/// (``ObjectGraph/saveResolution``), kept from the save's first write until it ends.
extension ObjectGraph {
    /// Starts the record of a save's resolutions, and returns it.
    func beginSaveResolution() -> SaveResolution {
        let resolution = SaveResolution()
        saveResolution = resolution
        return resolution
    }

    /// Ends the record of the save's resolutions (the save succeeded or failed).
    func endSaveResolution() {
        saveResolution = nil
    }

    /// `object`'s row is gone: the save under way writes nothing of it (outside a save, nothing
    /// is recorded).
    func markUnwritten(_ object: NSManagedObject) {
        saveResolution?.unwritten[ObjectIdentifier(object)] = object
    }
}
#endif
