#if !canImport(CoreData)
import ModelQuery

extension NSFetchRequest {
    /// A fetch of `entityName` filtered by a Foundation `Predicate` (`#Predicate`) and sorted by
    /// Foundation `SortDescriptor`s, translated to `NSPredicate`/`NSSortDescriptor` now, so a
    /// part that does not translate is reported here, by name, rather than at fetch time.
    /// Generated classes wrap it as `Trip.fetchRequest(_:sortBy:)`.
    public convenience init(
        entityName: String, predicate: Predicate<ResultType>, sortBy sortDescriptors: [SortDescriptor<ResultType>] = []
    ) throws(PredicateTranslationError) {
        self.init(entityName: entityName)
        self.predicate = try NSPredicate(translating: predicate)
        var translated: [NSSortDescriptor] = []
        for descriptor in sortDescriptors { translated.append(try NSSortDescriptor(translating: descriptor)) }
        self.sortDescriptors = translated.isEmpty ? nil : translated
    }
}
#endif
