#if !canImport(CoreData)
import Foundation
import ModelStore

/// Translated fetches by request shape, so a fetch repeated with other constants (`id == %d`
/// once per round trip) reuses its SQL and binds the new values instead of translating again.
///
/// The shape is everything translation reads except the constants' values: the entity, the
/// predicate's structure (compound types, operators, modifiers, options, key paths) with each
/// constant reduced to its type (or nil), the sort descriptors, limit, offset, selection and
/// `includesSubentities`. A shape is kept only when translation bound every constant of the
/// predicate, in order, as one parameter converted for its column (`FetchSQLValues.binding`),
/// and nothing else: then the SQL does not depend on the values. Constants translated another
/// way (object references, `IN` lists, `BETWEEN` bounds, `[c]`/`[d]` string comparisons, values
/// folded to true or false) make the shape uncacheable and the request is translated each time.
/// A cached shape whose new constant does not convert for its column (where translation would
/// fold the comparison) is translated anew too.
package final class FetchPlanCache: Sendable {
    struct Entry {
        let sql: String
        let resultColumns: [FetchSQL.ResultColumn]
        /// Per bound constant, the column kind it is converted for.
        let kinds: [SQLValueKind]
    }

    /// More distinct shapes than this empties the cache.
    static let capacity = 256
    private let entries = LockedCache<[ShapeKey: Entry]>([:])

    package init() {}

    /// The statement for `request`, from the cache when its shape was translated before.
    package func statement(for request: FetchSQLRequest, layout: StoreLayout) throws(FetchSQLError) -> FetchSQL {
        guard let shape = Self.shape(of: request) else { return try FetchSQLTranslator.translate(request, layout: layout) }
        if let entry = entries.withLock({ $0[shape.key] }) {
            var bindings: [SQLiteValue] = []
            bindings.reserveCapacity(entry.kinds.count)
            for (constant, kind) in zip(shape.constants, entry.kinds) {
                guard let constant, let bound = FetchSQLValues.binding(constant, for: kind) else {
                    return try FetchSQLTranslator.translate(request, layout: layout)
                }
                bindings.append(bound)
            }
            return FetchSQL(sql: entry.sql, bindings: bindings, resultColumns: entry.resultColumns)
        }
        let builder = FetchSQLBuilder(layout: layout)
        let sql = try builder.statement(for: request)
        if let entry = Self.entry(sql, recorded: builder.boundConstants, constants: shape.constants) {
            entries.withLock { entries in
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[shape.key] = entry
            }
        }
        return sql
    }

    /// How many shapes are kept (for tests).
    var count: Int { entries.withLock { $0.count } }

    /// The entry for a translation, when its bindings are exactly the predicate's constants in
    /// order, each converted for its column.
    private static func entry(_ sql: FetchSQL, recorded: [(value: Any, kind: SQLValueKind)], constants: [Any?]) -> Entry? {
        guard recorded.count == constants.count, sql.bindings.count == constants.count else { return nil }
        for (index, constant) in constants.enumerated() {
            guard let constant, type(of: constant) == type(of: recorded[index].value),
                QueryValues.equal(constant, recorded[index].value),
                FetchSQLValues.binding(constant, for: recorded[index].kind) == sql.bindings[index]
            else { return nil }
        }
        return Entry(sql: sql.sql, resultColumns: sql.resultColumns, kinds: recorded.map(\.kind))
    }

    // MARK: Shapes

    /// A request's shape: numbers for its structure, with the names (key paths, sort keys,
    /// selected properties) it mentions in order; a code in `codes` marks where each name goes.
    struct ShapeKey: Hashable {
        var codes: [Int] = []
        var names: [String] = []

        mutating func add(_ code: Int) { codes.append(code) }

        mutating func add(name: String) {
            codes.append(Code.name)
            names.append(name)
        }
    }

    /// Codes of the structure; operator, modifier and option values follow their code.
    enum Code {
        static let name = -1
        static let rows = -2, objectIDs = -3, count = -4, properties = -5
        static let ascending = -6, descending = -7, predicate = -8
        static let compound = -9, end = -10, comparison = -11, truePredicate = -12, falsePredicate = -13
        static let constant = -14, null = -15, evaluatedObject = -16, keyPath = -17
    }

    struct Shape {
        var key: ShapeKey
        var constants: [Any?]
    }

    /// The request's shape key and its predicate's constants in translation order; nil when a
    /// part of the request is not described by shapes (it is then translated every time).
    static func shape(of request: FetchSQLRequest) -> Shape? {
        var shape = Shape(key: ShapeKey(), constants: [])
        shape.key.codes.reserveCapacity(24)
        shape.key.add(request.entity.entityNumber)
        shape.key.add(request.limit)
        shape.key.add(request.offset)
        shape.key.add(request.includesSubentities ? 1 : 0)
        switch request.selection {
        case .rows: shape.key.add(Code.rows)
        case .objectIDs: shape.key.add(Code.objectIDs)
        case .count: shape.key.add(Code.count)
        case .properties(let names):
            shape.key.add(Code.properties)
            shape.key.add(names.count)
            for name in names { shape.key.add(name: name) }
        case .grouped:
            // Expressions are not described by shapes: translated each time.
            return nil
        }
        for descriptor in request.sortDescriptors {
            guard descriptor.block == nil, let key = descriptor.key else { return nil }
            shape.key.add(descriptor.ascending ? Code.ascending : Code.descending)
            shape.key.add(name: key)
            shape.key.add(name: descriptor.selector?.name ?? "")
        }
        shape.key.add(Code.predicate)
        if let predicate = request.predicate {
            guard describe(predicate, into: &shape) else { return nil }
        }
        return shape
    }

    private static func describe(_ predicate: NSPredicate, into shape: inout Shape) -> Bool {
        if let compound = predicate as? NSCompoundPredicate {
            shape.key.add(Code.compound)
            shape.key.add(Int(compound.compoundPredicateType.rawValue))
            for subpredicate in compound.predicates {
                guard describe(subpredicate, into: &shape) else { return false }
            }
            shape.key.add(Code.end)
            return true
        }
        if let comparison = predicate as? NSComparisonPredicate {
            shape.key.add(Code.comparison)
            shape.key.add(Int(comparison.comparisonPredicateModifier.rawValue))
            shape.key.add(Int(comparison.predicateOperatorType.rawValue))
            shape.key.add(Int(comparison.options.rawValue))
            return describe(comparison.leftExpression, into: &shape) && describe(comparison.rightExpression, into: &shape)
        }
        guard predicate.block == nil, let value = predicate.fixedValue, type(of: predicate) == NSPredicate.self else { return false }
        shape.key.add(value ? Code.truePredicate : Code.falsePredicate)
        return true
    }

    private static func describe(_ expression: NSExpression, into shape: inout Shape) -> Bool {
        switch expression.kind {
        case .constant(let value):
            let unwrapped = KeyPathReader.unwrapped(value)
            shape.constants.append(unwrapped)
            if let unwrapped {
                // The type's metadata address: unique per type for the life of the process.
                shape.key.add(Code.constant)
                shape.key.add(unsafeBitCast(type(of: unwrapped) as Any.Type, to: Int.self))
            } else {
                shape.key.add(Code.null)
            }
            return true
        case .evaluatedObject:
            shape.key.add(Code.evaluatedObject)
            return true
        case .keyPath(let path, _, let operand):
            if let operand, case .evaluatedObject = operand.kind {} else if operand != nil { return false }
            shape.key.add(Code.keyPath)
            shape.key.add(name: path)
            return true
        case .variable, .function, .aggregate, .subquery, .call, .fetch:
            return false
        }
    }
}
#endif
