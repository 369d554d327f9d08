#if !canImport(CoreData)
import Foundation

extension NSSortDescriptor {
    /// The `NSSortDescriptor` form of a Foundation `SortDescriptor`, as Foundation's
    /// `NSSortDescriptor(_:)` gives on Apple platforms. A key path without a name (a computed
    /// property) is a programming error; `init(translating:)` throws instead.
    public convenience init<Compared>(_ sortDescriptor: SortDescriptor<Compared>) {
        do {
            try self.init(translating: sortDescriptor)
        } catch {
            fatalError("NSSortDescriptor(_:): \(error)")
        }
    }

    /// The `NSSortDescriptor` form of a Foundation `SortDescriptor`: the key path's name, the
    /// order, and the string comparator as a selector (`.lexical` → `compare:`, a localized
    /// comparator → `localizedCompare:`, `localizedCaseInsensitiveCompare:` or
    /// `localizedStandardCompare:`, a case-insensitive one → `caseInsensitiveCompare:`).
    public convenience init<Compared>(translating sortDescriptor: SortDescriptor<Compared>) throws(PredicateTranslationError) {
        guard let keyPath = sortDescriptor.keyPath else {
            throw PredicateTranslationError(part: "\(sortDescriptor)", reason: "the sort descriptor has no key path")
        }
        guard let named = Compared.self as? any KeyPathStringConvertible.Type else {
            throw PredicateTranslationError(
                part: "\(keyPath)",
                reason: "\(Compared.self) does not name its key paths (generated managed object classes adopt KeyPathStringConvertible)")
        }
        guard let name = named.keyPathString(for: keyPath) else {
            throw PredicateTranslationError(part: "\(keyPath)", reason: "the key path names no modeled property of \(Compared.self)")
        }
        let selector = try sortDescriptor.stringComparator.map { comparator throws(PredicateTranslationError) in
            try Self.selector(for: comparator)
        }
        self.init(key: name, keyPath: keyPath, ascending: sortDescriptor.order == .forward, selector: selector, comparator: nil)
    }

    /// The comparison selector of a string comparator, read from its options and locale.
    static func selector(for comparator: String.StandardComparator) throws(PredicateTranslationError) -> Selector {
        let details = String.Comparator(comparator)
        var options = details.options
        let localized = details.locale != nil
        let caseInsensitive = options.remove(.caseInsensitive) != nil
        let numeric = options.remove(.numeric) != nil
        options.remove(.diacriticInsensitive)
        options.remove(.widthInsensitive)
        switch (localized, numeric, caseInsensitive) {
        case (false, false, false) where options.isEmpty: return "compare:"
        case (false, false, true) where options.isEmpty: return "caseInsensitiveCompare:"
        case (true, true, _): return "localizedStandardCompare:"
        case (true, false, true): return "localizedCaseInsensitiveCompare:"
        case (true, false, false): return "localizedCompare:"
        default:
            throw PredicateTranslationError(
                part: "\(comparator)",
                reason: "no sort selector compares strings with these options (compare:, caseInsensitiveCompare:, localizedCompare:, "
                    + "localizedCaseInsensitiveCompare:, localizedStandardCompare: are supported)")
        }
    }
}
#endif
