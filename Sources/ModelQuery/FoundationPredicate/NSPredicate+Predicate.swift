#if !canImport(CoreData)
import Foundation

extension PredicateFormatInitializable {
    /// The `NSPredicate` form of a Foundation `Predicate` (`#Predicate`), as Foundation's
    /// `NSPredicate(_:)` gives on Apple platforms; nil when a part of it does not translate.
    /// `init(translating:)` says which part.
    public init?<Input>(_ predicate: Predicate<Input>) {
        guard let translated = try? PredicateTranslator.translate(predicate), let typed = translated as? Self else { return nil }
        self = typed
    }

    /// The `NSPredicate` form of a Foundation `Predicate` (`#Predicate`), throwing an error that
    /// names the part that does not translate. Not in Foundation.
    public init<Input>(translating predicate: Predicate<Input>) throws(PredicateTranslationError) {
        let translated = try PredicateTranslator.translate(predicate)
        guard let typed = translated as? Self else {
            throw PredicateTranslationError(part: "\(predicate)", reason: "it translates to \(type(of: translated)), not \(Self.self)")
        }
        self = typed
    }
}
#endif
