#if !canImport(CoreData)
import Synchronization

/// The tokens of format strings already parsed, so `NSPredicate(format:)` with a format seen
/// before (typically the same string with new arguments, once per fetch) skips the lexer.
/// Arguments are not part of the tokens: the parser substitutes them on every call, so results
/// and errors are those of a first parse. Formats that do not lex are not kept.
enum PredicateFormatCache {
    /// More distinct formats than this empties the cache (programs use a bounded set of
    /// literal formats; formats built from input should not grow memory without bound).
    static let capacity = 512
    private static let entries = Mutex<[String: [PredicateToken]]>([:])

    static func tokens(_ format: String) throws(PredicateFormatError) -> [PredicateToken] {
        if let known = entries.withLock({ $0[format] }) { return known }
        let tokens = try PredicateFormatLexer.tokens(format)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[format] = tokens
        }
        return tokens
    }

    /// How many formats are kept (for tests).
    static var count: Int { entries.withLock { $0.count } }
}
#endif
