#if !canImport(CoreData)
extension NSManagedObject {
    /// The primary key of the object's row, without making its ID: from its ID when it has one,
    /// else from the fetch or save that listed its key (see ``batches``); nil while the object
    /// has no row yet. Writing a save's rows asks this for every object and every to-one
    /// destination, so objects saved for the first time need no ID object unless someone asks
    /// for their `objectID`.
    var rowKey: Int64? {
        if let idStorage { return idStorage.primaryKey }
        if let batches { return batches.keys[Int(batchPosition)] }
        return nil
    }
}
#endif
