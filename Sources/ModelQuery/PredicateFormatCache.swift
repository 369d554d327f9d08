#if !canImport(CoreData)
/// The tokens of format strings already parsed, so `NSPredicate(format:)` with a format seen
/// before (typically the same string with new arguments, once per fetch) skips the lexer and
/// the keyword recognition.
/// Arguments are not part of the tokens: the parser substitutes them on every call, so results
/// and errors are those of a first parse. Formats that do not lex are not kept.
enum PredicateFormatCache {
    /// More distinct formats than this empties the cache (programs use a bounded set of
    /// literal formats; formats built from input should not grow memory without bound).
    static let capacity = 512
    private static let entries = LockedCache<[String: Lexed]>([:])

    /// A format's tokens and, per token, the reserved word it spells (upper-cased).
    struct Lexed {
        let tokens: [PredicateToken]
        let keywords: [String?]
    }

    static func tokens(_ format: String) throws(PredicateFormatError) -> Lexed {
        if let known = entries.withLock({ $0[format] }) { return known }
        let lexed = try PredicateFormatLexer.tokens(format)
        let tokens = Lexed(tokens: lexed, keywords: lexed.map(PredicateKeywords.keyword(of:)))
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
