#if !canImport(CoreData)
import Foundation
import ModelStore

/// The one place a fetch request's predicate and sort descriptors become SQL. It translates
/// what the engine's own statements need (comparisons of an entity's attributes and to-one keys
/// with constants, `AND`/`OR`/`NOT`, string operators through Core Data's SQL functions, sorts
/// on attributes) and fails with an error naming the part it cannot translate, so no fetch ever
/// reads a whole table to filter it in Swift.
enum FetchSQLBridge {
    struct Clause {
        var sql: String
        var bindings: [(value: Any?, type: NSAttributeType)]
    }

    static func unsupported(_ what: String) -> NSError {
        CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "The predicate or sort cannot be translated to SQL: \(what)")
    }

    /// The `WHERE` condition of `predicate` over table alias `t` of `entity`.
    static func condition(_ predicate: NSPredicate, entity: EngineEntity) throws -> Clause {
        if let compound = predicate as? NSCompoundPredicate {
            let parts = try compound.predicates.map { try condition($0, entity: entity) }
            let bindings = parts.flatMap(\.bindings)
            switch compound.compoundPredicateType {
            case .and: return Clause(sql: parts.isEmpty ? "1" : "(" + parts.map(\.sql).joined(separator: " AND ") + ")", bindings: bindings)
            case .or: return Clause(sql: parts.isEmpty ? "0" : "(" + parts.map(\.sql).joined(separator: " OR ") + ")", bindings: bindings)
            case .not: return Clause(sql: "NOT (" + (parts.first?.sql ?? "0") + ")", bindings: bindings)
            }
        }
        if let comparison = predicate as? NSComparisonPredicate { return try self.comparison(comparison, entity: entity) }
        switch predicate.predicateFormat {
        case "TRUEPREDICATE": return Clause(sql: "1", bindings: [])
        case "FALSEPREDICATE": return Clause(sql: "0", bindings: [])
        default: throw unsupported(predicate.predicateFormat)
        }
    }

    private enum Operand {
        case column(String, NSAttributeType)
        case constant(Any?)
    }

    private static func operand(_ expression: NSExpression, entity: EngineEntity) throws -> Operand {
        if let known = expression.constantValueIfKnown { return .constant(known.value) }
        switch expression.expressionType {
        case .evaluatedObject:
            return .column("t.Z_PK", .objectIDAttributeType)
        case .keyPath:
            let path = expression.keyPath
            if path == "self" || path == "SELF" { return .column("t.Z_PK", .objectIDAttributeType) }
            guard let slot = entity.slotsByName[path] else {
                throw unsupported("the key path '\(path)' (only the entity's own attributes and to-one relationships are translated)")
            }
            switch entity.slotKinds[slot] {
            case .attribute(let type, let column?):
                return .column("t." + entity.table.columns[Int(column)].name, type)
            case .toOne(let key?, _):
                return .column("t." + entity.table.columns[Int(key)].name, .objectIDAttributeType)
            default:
                throw unsupported("the key path '\(path)' (transient, composite or to-many)")
            }
        default:
            throw unsupported(expression.description)
        }
    }

    /// An object, object ID or key as the primary key it stands for.
    private static func key(_ value: Any?) -> Any? {
        switch KeyPathReader.unwrapped(value) {
        case let object as NSManagedObject: return object.objectID.primaryKey ?? -1
        case let id as NSManagedObjectID: return id.primaryKey ?? -1
        case let other: return other
        }
    }

    private static func comparison(_ predicate: NSComparisonPredicate, entity: EngineEntity) throws -> Clause {
        guard predicate.comparisonPredicateModifier == .direct else { throw unsupported(predicate.predicateFormat) }
        var left = try operand(predicate.leftExpression, entity: entity)
        var right = try operand(predicate.rightExpression, entity: entity)
        var op = predicate.predicateOperatorType
        // Constant on the left of an order comparison: swap sides.
        if case .constant = left, case .column = right {
            swap(&left, &right)
            switch op {
            case .lessThan: op = .greaterThan
            case .lessThanOrEqualTo: op = .greaterThanOrEqualTo
            case .greaterThan: op = .lessThan
            case .greaterThanOrEqualTo: op = .lessThanOrEqualTo
            case .equalTo, .notEqualTo: break
            default: throw unsupported(predicate.predicateFormat)
            }
        }
        guard case .column(let column, let type) = left else { throw unsupported(predicate.predicateFormat) }
        let bindType: NSAttributeType = type == .objectIDAttributeType ? .integer64AttributeType : type
        func bound(_ value: Any?) -> (Any?, NSAttributeType) {
            (type == .objectIDAttributeType ? key(value) : value, bindType)
        }
        if case .column(let other, _) = right {
            let symbol = try sqlOperator(op, predicate)
            return Clause(sql: "\(column) \(symbol) \(other)", bindings: [])
        }
        guard case .constant(let constant) = right else { throw unsupported(predicate.predicateFormat) }
        let value = KeyPathReader.unwrapped(constant)
        let options = predicate.options
        let stringFlags = (options.contains(.caseInsensitive) ? 1 : 0) | (options.contains(.diacriticInsensitive) ? 2 : 0)
        switch op {
        case .equalTo, .notEqualTo:
            if value == nil { return Clause(sql: "\(column) IS \(op == .equalTo ? "" : "NOT ")NULL", bindings: []) }
            if stringFlags != 0 {
                let negate = op == .notEqualTo ? "NOT " : ""
                let compareOptions = (stringFlags & 1 != 0 ? 1 : 0) | (stringFlags & 2 != 0 ? 128 : 0)
                return Clause(sql: "\(negate)NSCoreDataStringCompare(\(column), ?, 4, \(compareOptions), 0)", bindings: [bound(value)])
            }
            return Clause(sql: "\(column) \(op == .equalTo ? "=" : "<>") ?", bindings: [bound(value)])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard value != nil else { return Clause(sql: "0", bindings: []) }
            return Clause(sql: "\(column) \(try sqlOperator(op, predicate)) ?", bindings: [bound(value)])
        case .in:
            guard let value, let elements = QueryValues.collectionElements(value) else { throw unsupported(predicate.predicateFormat) }
            if elements.isEmpty { return Clause(sql: "0", bindings: []) }
            return Clause(
                sql: "\(column) IN (" + elements.map { _ in "?" }.joined(separator: ", ") + ")", bindings: elements.map { bound($0) })
        case .between:
            guard let value, let bounds = QueryValues.collectionElements(value), bounds.count == 2 else {
                throw unsupported(predicate.predicateFormat)
            }
            return Clause(sql: "(\(column) >= ? AND \(column) <= ?)", bindings: [bound(bounds[0]), bound(bounds[1])])
        case .beginsWith, .endsWith, .contains:
            guard value != nil, type == .stringAttributeType else { throw unsupported(predicate.predicateFormat) }
            var compareOptions = (stringFlags & 1 != 0 ? 1 : 0) | (stringFlags & 2 != 0 ? 128 : 0)
            if op == .beginsWith { compareOptions |= 8 }
            if op == .endsWith { compareOptions |= 8 | 4 }
            return Clause(sql: "NSCoreDataStringSearch(\(column), ?, \(compareOptions), 0)", bindings: [(value, .stringAttributeType)])
        case .like:
            guard value != nil, type == .stringAttributeType else { throw unsupported(predicate.predicateFormat) }
            return Clause(sql: "NSCoreDataLike(\(column), ?, \(stringFlags))", bindings: [(value, .stringAttributeType)])
        case .matches:
            guard value != nil, type == .stringAttributeType else { throw unsupported(predicate.predicateFormat) }
            return Clause(sql: "NSCoreDataMatches(\(column), ?, \(stringFlags))", bindings: [(value, .stringAttributeType)])
        case .customSelector:
            throw unsupported(predicate.predicateFormat)
        }
    }

    private static func sqlOperator(_ op: NSComparisonPredicate.Operator, _ predicate: NSPredicate) throws -> String {
        switch op {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "="
        case .notEqualTo: "<>"
        default: throw unsupported(predicate.predicateFormat)
        }
    }

    /// The `ORDER BY` terms of `descriptors`.
    static func order(_ descriptors: [NSSortDescriptor], entity: EngineEntity) throws -> String {
        try descriptors.map { descriptor -> String in
            guard let key = descriptor.key, let slot = entity.slotsByName[key] else {
                throw unsupported("sort by '\(descriptor.key ?? "")' (only the entity's own attributes are translated)")
            }
            guard case .attribute(let type, let column?) = entity.slotKinds[slot] else {
                throw unsupported("sort by '\(key)' (transient, composite or relationship)")
            }
            var term = "t." + entity.table.columns[Int(column)].name
            if type == .stringAttributeType {
                switch descriptor.selector?.description {
                case "caseInsensitiveCompare:", "localizedCaseInsensitiveCompare:": term += " COLLATE NSCollateNoCase"
                case "localizedStandardCompare:": term += " COLLATE NSCollateFinderlike"
                case "localizedCompare:": term += " COLLATE NSCollateLocaleSensitive"
                default: break
                }
            }
            return term + (descriptor.ascending ? " ASC" : " DESC")
        }.joined(separator: ", ")
    }

    static func bind(_ bindings: [(value: Any?, type: NSAttributeType)], to statement: Statement, from first: Int32 = 1) {
        for (offset, binding) in bindings.enumerated() {
            StoreValueCodec.bind(binding.value, as: binding.type, to: statement, at: first + Int32(offset))
        }
    }
}
#endif
