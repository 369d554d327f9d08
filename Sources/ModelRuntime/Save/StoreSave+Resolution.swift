#if !canImport(CoreData)
import ModelQuery

/// What a save writes after its merge policy resolved conflicts.
extension StoreSave {
    /// What the graph has to save after the merge policy changed it, found as the context's
    /// `save()` finds it: objects new to the save get `willSave()` and are validated, inserted
    /// ones get permanent IDs (their keys allocated inside the save's open `transactions`).
    func setsAfterResolution(_ previous: SaveSets, transactions: SaveTransactions) throws -> SaveSets {
        let before = Set((previous.inserted + previous.updated + previous.deleted).map(ObjectIdentifier.init))
        let sets = SaveSets(
            inserted: graph.insertedInOrder(),
            updated: graph.updatedToSave(),
            deleted: Array(graph.deleted.values))
        let new = SaveSets(
            inserted: sets.inserted.filter { !before.contains(ObjectIdentifier($0)) },
            updated: sets.updated.filter { !before.contains(ObjectIdentifier($0)) },
            deleted: sets.deleted.filter { !before.contains(ObjectIdentifier($0)) })
        try new.prepare()
        let model = coordinator.engineModel
        for object in new.inserted { object.rebind(to: model) }
        try KeyAllocation(graph: graph, coordinator: coordinator).givePermanentIDs(
            to: sets.inserted.filter { !$0.hasID || $0.id.isTemporaryID }, within: transactions)
        return sets
    }
}
#endif
