#if !canImport(CoreData)
extension NSManagedObjectContext {
    /// A save that finds nothing to write: every object written since the last save holds its
    /// committed values again (a value set to what it was, or set back). Those objects are what
    /// the store holds, so they leave the context's updated objects as a save's do — nothing is
    /// written and no save is reported. Otherwise each later fetch would evaluate them again as
    /// pending changes, and `hasChanges` compare them again, however many round trips ago they
    /// were written.
    func settleUnchangedObjects() {
        guard !graph.changed.isEmpty else { return }
        var settled = 0
        for (key, object) in graph.changed where !object.deletedFlag && !object.insertedFlag && !object.hasPersistentChangedValues {
            object.settleValues()
            graph.changed.removeValue(forKey: key)
            settled += 1
        }
        // As after a save: what the last change report held is settled, and holding the objects
        // for the next report would keep them alive.
        if settled > 0, graph.changed.isEmpty { graph.processedChanges = ProcessedChanges() }
    }
}
#endif
