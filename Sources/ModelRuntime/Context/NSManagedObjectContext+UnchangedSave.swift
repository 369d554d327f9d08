#if !canImport(CoreData)
extension NSManagedObjectContext {
    /// A save that finds nothing to write: every object written since the last save holds its
    /// committed values again (a value set to what it was, or set back). Those objects are what
    /// the store holds, so they leave the context's updated objects as a save's do — nothing is
    /// written and no save is reported. Otherwise each later fetch would evaluate them again as
    /// pending changes, and `hasChanges` compare them again, however many round trips ago they
    /// were written.
    func settleUnchangedObjects() {
        graph.settleUnchanged()
    }
}
#endif
