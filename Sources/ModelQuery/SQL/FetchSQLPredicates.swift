#if !canImport(CoreData)
import Foundation
import ModelStore

/// One side of a comparison: a constant (an object reference stays as it is) or a key path.
enum SQLOperand {
    case constant(Any?)
    case path(ResolvedPath)
}

extension FetchSQLBuilder {
    func predicate(_ predicate: NSPredicate, in scope: SQLScope) throws(FetchSQLError) -> SQLFragment {
        if let compound = predicate as? NSCompoundPredicate {
            var parts: [SQLFragment] = []
            for subpredicate in compound.predicates { parts.append(try self.predicate(subpredicate, in: scope)) }
            switch compound.compoundPredicateType {
            case .and: return .combine(parts, and: true)
            case .or: return .combine(parts, and: false)
            case .not: return (parts.first ?? .alwaysFalse).negated
            }
        }
        if let comparison = predicate as? NSComparisonPredicate { return try self.comparison(comparison, in: scope) }
        if predicate.block != nil {
            throw FetchSQLError(.unsupported, "a block predicate evaluates in memory only; a fetch cannot translate it to SQL")
        }
        if let value = predicate.fixedValue { return .constant(value) }
        throw FetchSQLError(.unsupported, "predicate \(predicate) (\(type(of: predicate))) cannot be translated to SQL")
    }

    private func comparison(_ predicate: NSComparisonPredicate, in scope: SQLScope) throws(FetchSQLError) -> SQLFragment {
        let left = try operand(predicate.leftExpression, in: scope)
        let right = try operand(predicate.rightExpression, in: scope)
        let comparison = SQLComparison(builder: self, predicate: predicate)
        switch predicate.comparisonPredicateModifier {
        case .direct:
            return try comparison.compare(left, predicate.predicateOperatorType, right, in: scope)
        case .any, .all:
            guard case .path(.toMany(let row, let relationship, let rest)) = left else {
                throw FetchSQLError(
                    .unsupported, "\(predicate): ANY, ALL and NONE need a key path through a to-many relationship on the left")
            }
            let all = predicate.comparisonPredicateModifier == .all
            let found = try exists(relationship, from: row, rest: rest, in: scope, path: predicate.leftExpression.description) {
                (element: ResolvedPath, inner: SQLScope) throws(FetchSQLError) -> SQLFragment in
                let test = try comparison.compare(.path(element), predicate.predicateOperatorType, right, in: inner)
                return all ? test.negated : test
            }
            return all ? found.negated : found
        }
    }

    func operand(_ expression: NSExpression, in scope: SQLScope) throws(FetchSQLError) -> SQLOperand {
        switch expression.kind {
        case .constant(let value):
            return .constant(KeyPathReader.unwrapped(value))
        case .aggregate:
            guard let known = expression.constantValueIfKnown else {
                throw FetchSQLError(.unsupported, "aggregate \(expression) has elements that are not constants")
            }
            return .constant(known.value)
        case .evaluatedObject:
            return .path(.row(scope.outermost.row))
        case .variable(let name):
            if scope.variable(name) == nil, let named = try namedValueOperand(name, in: scope) { return named }
            guard let row = scope.variable(name) else {
                throw FetchSQLError(
                    .unsupported, "variable $\(name) is not bound; substitute it (withSubstitutionVariables) before fetching")
            }
            return .path(.row(row))
        case .keyPath(let path, let components, let base):
            switch base?.kind {
            case nil, .evaluatedObject?:
                if components.count == 1, let named = try namedValueOperand(path, in: scope) { return named }
                let outer = scope.outermost
                return .path(try resolve(components[...], from: outer.row, in: outer, path: path))
            case .variable(let name)?:
                guard let row = scope.variable(name) else {
                    throw FetchSQLError(
                        .unsupported, "variable $\(name) is not bound; substitute it (withSubstitutionVariables) before fetching")
                }
                return .path(try resolve(components[...], from: row, in: scope, path: "$\(name).\(path)"))
            case .constant(let value)?:
                // A key path of a constant (a substituted `$FETCH_SOURCE.alias`): read here.
                return .constant(KeyPathReader.unwrapped(KeyPathReader.value(at: components, of: value)))
            case .subquery(let collection, let variable, let predicate)?:
                guard components == ["@count"] else {
                    throw FetchSQLError(.unsupported, "\(expression): a SUBQUERY is only supported with .@count in a fetch")
                }
                return .path(.value(try subqueryCount(collection, variable: variable, predicate: predicate, in: scope), .integer))
            default:
                throw FetchSQLError(.unsupported, "\(expression): a key path of this expression cannot be translated to SQL")
            }
        case .function(let name, let arguments):
            return try functionOperand(name, arguments, expression, in: scope)
        case .subquery:
            throw FetchSQLError(.unsupported, "\(expression): a SUBQUERY is only supported with .@count in a fetch")
        case .call, .fetch:
            throw FetchSQLError(.unsupported, "\(expression): FUNCTION and FETCH expressions are evaluated in memory, not in a fetch")
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count` as a correlated `COUNT(*)`.
    private func subqueryCount(_ collection: NSExpression, variable: String, predicate: NSPredicate, in scope: SQLScope)
        throws(FetchSQLError)
        -> SQLFragment
    {
        guard case .path(.toMany(let row, let relationship, let rest)) = try operand(collection, in: scope), rest.isEmpty else {
            throw FetchSQLError(.unsupported, "SUBQUERY over \(collection): the collection must be a to-many relationship")
        }
        let source = try toManySource(relationship, from: row)
        let inner = SQLScope(row: source.element, parent: scope, variables: [variable: source.element])
        let test = try self.predicate(predicate, in: inner)
        if test.isAlwaysFalse { return SQLFragment(sql: "0") }
        let filter = test.isAlwaysTrue ? "" : " AND \(test.sql)"
        return SQLFragment(
            sql: "(SELECT COUNT(*) FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation)\(filter))", bindings: test.bindings)
    }
}
#endif
