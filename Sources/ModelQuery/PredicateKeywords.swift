#if !canImport(CoreData)
import Foundation

enum PredicateKeywords {
    /// The reserved word `token` spells (upper-cased), if it is an unescaped identifier.
    static func keyword(of token: PredicateToken) -> String? {
        guard case .identifier(let name) = token.kind else { return nil }
        let upper = name.uppercased()
        return reserved.contains(upper) ? upper : nil
    }

    /// Foundation's reserved words (case-insensitive); as keys they need a `#` prefix.
    static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE",
        "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]
}
#endif
