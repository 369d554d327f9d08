#if !canImport(CoreData)
import Foundation
import ModelStore

/// One comparison predicate's operator and options applied to translated operands, with the
/// semantics of in-memory evaluation: nil equals only nil, ordering with nil is false, a value
/// of another kind than the column's (a string against a number) never matches, string
/// operators use Core Data's SQL functions with the `[c]`/`[d]` options.
struct SQLComparison {
    let builder: FetchSQLBuilder
    let predicate: NSComparisonPredicate
    var options: NSComparisonPredicate.Options { predicate.options }

    private var folds: Bool { !options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]) }

    /// `NSString.CompareOptions` bits for `NSCoreDataStringSearch`/`NSCoreDataStringCompare`.
    private var compareOptions: Int {
        (options.contains(.caseInsensitive) ? 1 : 0) | (options.contains(.diacriticInsensitive) ? 128 : 0)
    }

    /// `[c]` 1, `[d]` 2 for `NSCoreDataLike`/`NSCoreDataMatches`.
    private var flags: Int {
        (options.contains(.caseInsensitive) ? 1 : 0) | (options.contains(.diacriticInsensitive) ? 2 : 0)
    }

    private func unsupported(_ why: String) -> FetchSQLError {
        FetchSQLError(.unsupported, "\(predicate): \(why)")
    }

    func compare(_ left: SQLOperand, _ op: NSComparisonPredicate.Operator, _ right: SQLOperand, in scope: SQLScope) throws(FetchSQLError)
        -> SQLFragment
    {
        if case .constant(let a) = left, case .constant(let b) = right {
            let constant = NSComparisonPredicate(
                leftExpression: NSExpression(forConstantValue: a), rightExpression: NSExpression(forConstantValue: b), modifier: .direct,
                type: op, options: options)
            return .constant(constant.evaluate(with: nil))
        }
        if case .path(.toMany) = op == .contains ? right : left, op == .in || op == .contains {
            throw unsupported("a to-many key path needs ANY, ALL, NONE, @count or SUBQUERY in a fetch")
        }
        switch op {
        case .contains: return try membership(right, left, in: scope)
        case .in: return try membership(left, right, in: scope)
        case .customSelector: throw unsupported("custom selectors cannot be translated to SQL")
        default: break
        }
        if case .constant = left {
            switch op {
            case .equalTo, .notEqualTo: return try compare(right, op, left, in: scope)
            case .lessThan: return try compare(right, .greaterThan, left, in: scope)
            case .lessThanOrEqualTo: return try compare(right, .greaterThanOrEqualTo, left, in: scope)
            case .greaterThan: return try compare(right, .lessThan, left, in: scope)
            case .greaterThanOrEqualTo: return try compare(right, .lessThanOrEqualTo, left, in: scope)
            case .beginsWith, .endsWith, .like, .matches: return try stringOperation(left, op, right)
            default: throw unsupported("a constant on the left of this operator is not supported")
            }
        }
        guard case .path(let path) = left else { throw unsupported("unexpected operand") }
        switch path {
        case .toMany:
            throw unsupported("a to-many key path needs ANY, ALL, NONE, @count or SUBQUERY in a fetch")
        case .composite:
            throw unsupported("a composite attribute cannot be compared as a whole; compare its elements (attribute.element)")
        default: break
        }
        switch op {
        case .equalTo, .notEqualTo: return try equality(path, right, negated: op == .notEqualTo)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: return try ordering(path, op, right)
        case .between: return try between(path, right)
        default: return try stringOperation(left, op, right)
        }
    }

    // MARK: Equality and order

    private static let symbols: [NSComparisonPredicate.Operator: String] = [
        .lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">", .greaterThanOrEqualTo: ">=",
    ]

    private func parameter(_ value: SQLiteValue) -> SQLFragment { SQLFragment(sql: "?", bindings: [value]) }

    /// `NSCoreDataStringCompare(lhs, rhs, operator, options, 0)`: NULL when either side is NULL.
    private func stringCompare(_ lhs: SQLFragment, _ rhs: SQLFragment, _ op: NSComparisonPredicate.Operator) -> SQLFragment {
        .concat(
            [.init(sql: "NSCoreDataStringCompare("), lhs, .init(sql: ", "), rhs, .init(sql: ", \(op.rawValue), \(compareOptions), 0)")],
            nullable: true)
    }

    private func equality(_ left: ResolvedPath, _ right: SQLOperand, negated: Bool) throws(FetchSQLError) -> SQLFragment {
        switch left {
        case .value(let value, let kind):
            switch right {
            case .constant(nil):
                return .concat([value, .init(sql: negated ? " IS NOT NULL" : " IS NULL")], nullable: false)
            case .constant(let constant?):
                if folds, kind == .text || kind == .any, let text = QueryValues.string(constant) {
                    let call = stringCompare(value, parameter(.text(text)), negated ? .notEqualTo : .equalTo)
                    // nil differs from every string.
                    return negated ? .concat([.init(sql: "IFNULL("), call, .init(sql: ", 1)")], nullable: false) : call
                }
                guard let bound = FetchSQLValues.binding(constant, for: kind) else { return .constant(negated) }
                if !folds { builder.boundConstants.append((constant, kind)) }
                return .concat([value, .init(sql: negated ? " IS NOT " : " = "), parameter(bound)], nullable: !negated && value.nullable)
            case .path(.value(let other, let otherKind)):
                if folds, kind == .text || kind == .any, otherKind == .text || otherKind == .any {
                    let call = stringCompare(value, other, negated ? .notEqualTo : .equalTo)
                    let bothNil = SQLFragment.concat([value, .init(sql: negated ? " IS NOT " : " IS "), other], nullable: false)
                    return .concat([.init(sql: "IFNULL("), call, .init(sql: ", "), bothNil, .init(sql: ")")], nullable: false)
                }
                return .concat([value, .init(sql: negated ? " IS NOT " : " IS "), other], nullable: false)
            case .path(.row), .path(.reference):
                return .constant(negated)
            case .path:
                throw unsupported("the right-hand side cannot be compared with a value")
            }
        case .row, .reference:
            let test = try identity(left, equals: right)
            return negated ? test.negated : test
        default:
            throw unsupported("the left-hand side cannot be compared")
        }
    }

    /// Primary key, entity column (if any) and possible entity numbers of an object operand.
    private func identity(_ path: ResolvedPath) -> (key: String, entity: String?, entities: ClosedRange<Int>, nullable: Bool)? {
        switch path {
        case .row(let row): return (row.primaryKey, row.entityNumber, row.entity.entityNumbers, false)
        case .reference(let key, let entity, let destination): return (key, entity, destination.entityNumbers, true)
        default: return nil
        }
    }

    private func identity(_ left: ResolvedPath, equals right: SQLOperand) throws(FetchSQLError) -> SQLFragment {
        guard let object = identity(left) else { throw unsupported("not an object") }
        switch right {
        case .constant(nil):
            return object.nullable ? SQLFragment(sql: "\(object.key) IS NULL") : .alwaysFalse
        case .constant(let constant?):
            guard let stored = FetchSQLValues.storeRow(constant) else { return .alwaysFalse }
            guard let row = stored, object.entities.contains(row.entityNumber) else { return .alwaysFalse }
            return rowTest(object, rows: [row])
        case .path(let other):
            guard let other = identity(other) else { return .alwaysFalse }
            var sql = "\(object.key) IS \(other.key)"
            if let entity = object.entity, let otherEntity = other.entity { sql = "(\(sql) AND \(entity) IS \(otherEntity))" }
            return SQLFragment(sql: sql)
        }
    }

    /// Lists of more primary keys than this are written as literals rather than bound.
    static let largestBoundKeyList = 500

    /// The object is one of `rows` (all within its entity range): keys grouped by entity.
    private func rowTest(_ object: (key: String, entity: String?, entities: ClosedRange<Int>, nullable: Bool), rows: [StoreRow])
        -> SQLFragment
    {
        func keys(_ rows: [StoreRow]) -> SQLFragment {
            if rows.count == 1 {
                return SQLFragment(sql: "\(object.key) = ?", bindings: [.integer(rows[0].primaryKey)], nullable: object.nullable)
            }
            if rows.count > Self.largestBoundKeyList {
                // SQLite limits the number of parameters; primary keys are integers, so a long
                // list is written into the text instead.
                return SQLFragment(
                    sql: "\(object.key) IN (" + rows.map { String($0.primaryKey) }.joined(separator: ", ") + ")", nullable: object.nullable)
            }
            return SQLFragment(
                sql: "\(object.key) IN (" + Array(repeating: "?", count: rows.count).joined(separator: ", ") + ")",
                bindings: rows.map { .integer($0.primaryKey) }, nullable: object.nullable)
        }
        guard let entity = object.entity, object.entities.count > 1 else { return keys(rows) }
        var groups: [(Int, [StoreRow])] = []
        for row in rows {
            if let index = groups.firstIndex(where: { $0.0 == row.entityNumber }) {
                groups[index].1.append(row)
            } else {
                groups.append((row.entityNumber, [row]))
            }
        }
        return .combine(
            groups.map { number, rows in
                .combine(
                    [SQLFragment(sql: "\(entity) = ?", bindings: [.integer(Int64(number))], nullable: object.nullable), keys(rows)],
                    and: true)
            }, and: false)
    }

    private func ordering(_ left: ResolvedPath, _ op: NSComparisonPredicate.Operator, _ right: SQLOperand) throws(FetchSQLError)
        -> SQLFragment
    {
        guard case .value(let value, let kind) = left else { throw unsupported("objects have no order") }
        let symbol = Self.symbols[op]!
        switch right {
        case .constant(nil):
            return .alwaysFalse
        case .constant(let constant?):
            if folds, kind == .text || kind == .any, let text = QueryValues.string(constant) {
                return stringCompare(value, parameter(.text(text)), op)
            }
            guard let bound = FetchSQLValues.binding(constant, for: kind) else { return .alwaysFalse }
            if !folds { builder.boundConstants.append((constant, kind)) }
            return .concat([value, .init(sql: " \(symbol) "), parameter(bound)], nullable: true)
        case .path(.value(let other, let otherKind)):
            if folds, kind == .text || kind == .any, otherKind == .text || otherKind == .any {
                return stringCompare(value, other, op)
            }
            return .concat([value, .init(sql: " \(symbol) "), other], nullable: true)
        case .path:
            throw unsupported("the right-hand side has no order")
        }
    }

    private func between(_ left: ResolvedPath, _ right: SQLOperand) throws(FetchSQLError) -> SQLFragment {
        guard case .value(let value, let kind) = left else { throw unsupported("objects have no order") }
        guard case .constant(let constant) = right else { throw unsupported("BETWEEN needs constant bounds {low, high}") }
        guard let constant, let bounds = QueryValues.collectionElements(constant), bounds.count == 2,
            let low = KeyPathReader.unwrapped(bounds[0]), let high = KeyPathReader.unwrapped(bounds[1])
        else { return .alwaysFalse }
        if folds, kind == .text || kind == .any, let lowText = QueryValues.string(low), let highText = QueryValues.string(high) {
            return .combine(
                [
                    stringCompare(value, parameter(.text(lowText)), .greaterThanOrEqualTo),
                    stringCompare(value, parameter(.text(highText)), .lessThanOrEqualTo),
                ], and: true)
        }
        guard let lowValue = FetchSQLValues.binding(low, for: kind), let highValue = FetchSQLValues.binding(high, for: kind) else {
            return .alwaysFalse
        }
        return .concat([value, .init(sql: " BETWEEN "), parameter(lowValue), .init(sql: " AND "), parameter(highValue)], nullable: true)
    }

    // MARK: Strings

    /// A string operand, nil when it can never be a string (nil, a number, a non-text column).
    private func text(_ operand: SQLOperand) throws(FetchSQLError) -> SQLFragment? {
        switch operand {
        case .constant(let value):
            return value.flatMap(QueryValues.string).map { parameter(.text($0)) }
        case .path(.value(let value, let kind)):
            return kind == .text || kind == .any ? value : nil
        case .path(.row), .path(.reference):
            return nil
        case .path:
            throw unsupported("a string operator needs an attribute key path (use ANY for to-many relationships)")
        }
    }

    private func stringOperation(_ left: SQLOperand, _ op: NSComparisonPredicate.Operator, _ right: SQLOperand) throws(FetchSQLError)
        -> SQLFragment
    {
        guard let subject = try text(left), let pattern = try text(right) else { return .alwaysFalse }
        switch op {
        case .beginsWith: return search(subject, pattern, extra: 8)
        case .endsWith: return search(subject, pattern, extra: 12)
        case .like:
            return .concat([.init(sql: "NSCoreDataLike("), subject, .init(sql: ", "), pattern, .init(sql: ", \(flags))")], nullable: false)
        case .matches:
            if case .constant(let value?) = right, let source = QueryValues.string(value),
                CoreDataStringSemantics.regex(source, flags: .init(rawValue: Int64(flags))) == nil
            {
                return .alwaysFalse  // an invalid pattern matches nothing, as in memory
            }
            return .concat(
                [.init(sql: "NSCoreDataMatches("), subject, .init(sql: ", "), pattern, .init(sql: ", \(flags))")], nullable: false)
        default:
            throw unsupported("operator \(op) cannot be translated to SQL")
        }
    }

    /// `NSCoreDataStringSearch(value, needle, options, 0)`: `value` contains `needle`
    /// (anchored at the start with 8, at the end with 12).
    private func search(_ value: SQLFragment, _ needle: SQLFragment, extra: Int) -> SQLFragment {
        .concat(
            [.init(sql: "NSCoreDataStringSearch("), value, .init(sql: ", "), needle, .init(sql: ", \(compareOptions | extra), 0)")],
            nullable: false)
    }

    // MARK: Membership

    /// `element IN container`: a to-many relationship, a constant collection, or a string
    /// (substring).
    private func membership(_ element: SQLOperand, _ container: SQLOperand, in scope: SQLScope) throws(FetchSQLError) -> SQLFragment {
        switch container {
        case .path(.toMany(let row, let relationship, let rest)):
            return try builder.exists(relationship, from: row, rest: rest, in: scope, path: predicate.description) {
                (member: ResolvedPath, inner: SQLScope) throws(FetchSQLError) -> SQLFragment in
                try compare(element, .equalTo, .path(member), in: inner)
            }
        case .constant(nil):
            return .alwaysFalse
        case .constant(let value?):
            if let elements = QueryValues.collectionElements(value) {
                guard case .path(let path) = element else { throw unsupported("unexpected operand") }
                return try list(path, elements.map { KeyPathReader.unwrapped($0) })
            }
            guard QueryValues.string(value) != nil, let needle = try text(element), let haystack = try text(container) else {
                return .alwaysFalse
            }
            return search(haystack, needle, extra: 0)
        case .path(.value):
            guard let needle = try text(element), let haystack = try text(container) else { return .alwaysFalse }
            return search(haystack, needle, extra: 0)
        case .path:
            throw unsupported("IN needs a collection, a string or a to-many relationship on the right")
        }
    }

    private func list(_ path: ResolvedPath, _ elements: [Any?]) throws(FetchSQLError) -> SQLFragment {
        switch path {
        case .value(let value, let kind):
            var tests: [SQLFragment] = []
            if elements.contains(where: { $0 == nil }) {
                tests.append(.concat([value, .init(sql: " IS NULL")], nullable: false))
            }
            let present = elements.compactMap { $0 }
            if folds, kind == .text || kind == .any {
                tests += present.compactMap(QueryValues.string).map { stringCompare(value, parameter(.text($0)), .equalTo) }
            } else {
                let bound = present.compactMap { FetchSQLValues.binding($0, for: kind) }
                if bound.count == 1 {
                    tests.insert(.concat([value, .init(sql: " = "), parameter(bound[0])], nullable: true), at: 0)
                } else if !bound.isEmpty {
                    let marks = Array(repeating: "?", count: bound.count).joined(separator: ", ")
                    tests.insert(.concat([value, SQLFragment(sql: " IN (\(marks))", bindings: bound)], nullable: true), at: 0)
                }
            }
            return .combine(tests, and: false)
        case .row, .reference:
            guard let object = identity(path) else { throw unsupported("not an object") }
            var tests: [SQLFragment] = []
            let rows = elements.compactMap { $0.flatMap(FetchSQLValues.storeRow) ?? nil }.filter {
                object.entities.contains($0.entityNumber)
            }
            if !rows.isEmpty { tests.append(rowTest(object, rows: rows)) }
            if object.nullable, elements.contains(where: { $0 == nil }) { tests.append(SQLFragment(sql: "\(object.key) IS NULL")) }
            return .combine(tests, and: false)
        default:
            throw unsupported("IN needs an attribute or an object on the left")
        }
    }
}
#endif
