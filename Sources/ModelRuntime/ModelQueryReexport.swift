#if !canImport(CoreData)
// The query types (`NSPredicate`, `NSExpression`, `NSSortDescriptor` and the rest) are the
// ModelQuery module's; apps see them through `import ModelRuntime`, as Core Data apps see
// Foundation's through `import CoreData`. Linux's Foundation declares classes of the same names,
// which ModelQuery's shadow; the aliases keep `ModelRuntime.NSPredicate` meaning the runtime's
// class (the qualification generated code and apps use to pick it), and every name the
// runtime's own declarations.
@_exported import ModelQuery

/// Ambiguous beside Foundation's? Add `typealias NSPredicate = ModelRuntime.NSPredicate` to the module.
public typealias NSPredicate = ModelQuery.NSPredicate
/// Ambiguous beside Foundation's? Add `typealias NSComparisonPredicate = ModelRuntime.NSComparisonPredicate` to the module.
public typealias NSComparisonPredicate = ModelQuery.NSComparisonPredicate
/// Ambiguous beside Foundation's? Add `typealias NSCompoundPredicate = ModelRuntime.NSCompoundPredicate` to the module.
public typealias NSCompoundPredicate = ModelQuery.NSCompoundPredicate
/// Ambiguous beside Foundation's? Add `typealias NSExpression = ModelRuntime.NSExpression` to the module.
public typealias NSExpression = ModelQuery.NSExpression
/// Ambiguous beside Foundation's? Add `typealias NSFetchRequestExpression = ModelRuntime.NSFetchRequestExpression` to the module.
public typealias NSFetchRequestExpression = ModelQuery.NSFetchRequestExpression
/// Ambiguous beside Foundation's? Add `typealias NSSortDescriptor = ModelRuntime.NSSortDescriptor` to the module.
public typealias NSSortDescriptor = ModelQuery.NSSortDescriptor
public typealias KeyPathStringConvertible = ModelQuery.KeyPathStringConvertible
public typealias KeyValueReadable = ModelQuery.KeyValueReadable
public typealias PredicateComparableValue = ModelQuery.PredicateComparableValue
public typealias PredicateFormatInitializable = ModelQuery.PredicateFormatInitializable
public typealias PredicateFormatError = ModelQuery.PredicateFormatError
public typealias PredicateTranslationError = ModelQuery.PredicateTranslationError
/// Ambiguous beside Foundation's? Add `typealias Selector = ModelRuntime.Selector` to the module.
public typealias Selector = ModelQuery.Selector
public typealias FetchSQL = ModelQuery.FetchSQL
public typealias FetchSQLError = ModelQuery.FetchSQLError
public typealias FetchSQLGrouping = ModelQuery.FetchSQLGrouping
public typealias FetchSQLRequest = ModelQuery.FetchSQLRequest
public typealias FetchSQLTranslator = ModelQuery.FetchSQLTranslator
public typealias StoreRow = ModelQuery.StoreRow
public typealias StoreRowReferencing = ModelQuery.StoreRowReferencing
#endif
