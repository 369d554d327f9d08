#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Runs one batch update in one `BEGIN IMMEDIATE` transaction of one store: the rows the
/// entity and predicate select (translated by `FetchSQLTranslator`, so the predicate is SQL)
/// get the new values, and their `Z_OPT` goes up by one as a saved update's does. Values are
/// constants or `NSExpression`s computed by SQL per row: constants, the row's own attributes
/// (`price`), arithmetic (`add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`,
/// `modulus:by:`, `abs:`) and `now()`. Validation rules are not applied, as in Core Data.
struct BatchUpdateWriter {
    let entity: EngineEntity
    let store: NSPersistentStore
    /// The executing context, for a tracked store's history (nil records none).
    var history: HistoryOrigin? = nil
    var connection: StoreConnection { store.engine.connection }

    /// A value's SQL and the binders of its parameters, in order.
    private struct Term {
        var sql: String
        var binders: [(Statement, Int32) -> Void]
    }

    /// Updates the selected rows; returns their (entity number, key)s.
    func run(_ request: NSBatchUpdateRequest) throws -> [(entity: Int, key: Int64)] {
        guard !store.isReadOnly else { throw NSPersistentStore.readOnlyError(store) }
        let assignments = try self.assignments(request.propertiesToUpdate ?? [:])
        guard !assignments.isEmpty else {
            throw CoreDataError.make(NSCoreDataError, "A batch update needs propertiesToUpdate with at least one attribute")
        }
        guard let model = entity.model, let layout = model.layout.entity(named: entity.name) else {
            throw CoreDataError.make(NSCoreDataError, "The entity \(entity.name) is not in the store's layout")
        }
        let selection: FetchSQL
        do {
            selection = try FetchSQLTranslator.translate(
                FetchSQLRequest(
                    entity: layout, predicate: request.predicate, selection: .objectIDs, includesSubentities: request.includesSubentities),
                layout: model.layout)
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreUnsupportedRequestTypeError, "The batch update's predicate cannot be translated to SQL: \(error.message)")
        }
        let entityColumn = Int32(selection.resultColumns.firstIndex(of: .entityNumber) ?? 0)
        let keyColumn = Int32(selection.resultColumns.firstIndex(of: .primaryKey) ?? 1)
        let sql =
            "UPDATE \(entity.table.name) SET Z_OPT = Z_OPT + 1, "
            + assignments.map { "\($0.column) = \($0.term.sql)" }.joined(separator: ", ") + " WHERE Z_PK = ?"
        return try store.engine.wrap {
            try connection.transaction(.immediate) {
                var rows: [(entity: Int, key: Int64)] = []
                let select = try connection.cachedStatement(selection.sql)
                select.bind(selection.bindings)
                while try select.step() { rows.append((Int(select.int64(at: entityColumn)), select.int64(at: keyColumn))) }
                select.reset()
                try HistoryBatchRecorder(store: store, origin: history)?.recordUpdate(
                    selection: selection, count: rows.count, names: assignments.map(\.name))
                let update = try connection.cachedStatement(sql)
                defer { update.reset() }
                // `reset()` clears the bindings too: bind every row's parameters anew.
                for row in rows {
                    var index: Int32 = 1
                    for assignment in assignments {
                        for binder in assignment.term.binders {
                            binder(update, index)
                            index += 1
                        }
                    }
                    update.bind(row.key, at: index)
                    try update.step()
                    update.reset()
                }
                return rows
            }
        }
    }

    /// The columns to set and their values, by property name (for a deterministic statement).
    private func assignments(_ properties: [AnyHashable: Any]) throws -> [(name: String, column: String, term: Term)] {
        var result: [(name: String, column: String, term: Term)] = []
        for (key, value) in properties {
            let name = (key.base as? String) ?? (key.base as? NSPropertyDescription)?.name ?? "\(key.base)"
            guard let slot = entity.slotsByName[name] else {
                throw CoreDataError.make(NSCoreDataError, "The entity \(entity.name) has no property named '\(name)'")
            }
            guard case .attribute(let type, let column?) = entity.slotKinds[slot],
                !(entity.properties[slot] is NSDerivedAttributeDescription)
            else {
                throw CoreDataError.make(
                    NSCoreDataError, "A batch update can set stored attributes only; '\(name)' of \(entity.name) is not one")
            }
            let term: Term
            if let expression = value as? NSExpression, expression.constantValueIfKnown == nil {
                term = try self.term(expression)
            } else {
                let constant = (value as? NSExpression)?.constantValueIfKnown?.value ?? value
                term = Term(sql: "?", binders: [{ StoreValueCodec.bind(constant, as: type, to: $0, at: $1) }])
            }
            result.append((name, entity.table.columns[Int(column)].name, term))
        }
        return result.sorted { $0.name < $1.name }
    }

    private func term(_ expression: NSExpression) throws -> Term {
        switch expression.kind {
        case .constant(let value):
            return Term(sql: "?", binders: [{ Self.bindNumber(value, to: $0, at: $1) }])
        case .keyPath(let path, _, nil):
            guard let slot = entity.slotsByName[path], case .attribute(_, let column?) = entity.slotKinds[slot] else {
                throw CoreDataError.make(
                    NSCoreDataError, "A batch update's expression can read stored attributes of \(entity.name) only, not '\(path)'")
            }
            return Term(sql: entity.table.columns[Int(column)].name, binders: [])
        case .function(let name, let arguments):
            let operators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "modulus:by:": "%"]
            if let op = operators[name], arguments.count == 2 {
                let left = try term(arguments[0])
                let right = try term(arguments[1])
                return Term(sql: "(\(left.sql) \(op) \(right.sql))", binders: left.binders + right.binders)
            }
            if name == "abs:", arguments.count == 1 {
                let operand = try term(arguments[0])
                return Term(sql: "abs(\(operand.sql))", binders: operand.binders)
            }
            if name == "now", arguments.isEmpty { return Term(sql: "NSCoreDataNow()", binders: []) }
            throw CoreDataError.make(NSCoreDataError, "A batch update cannot compute the function \(name) in SQL")
        default:
            throw CoreDataError.make(NSCoreDataError, "A batch update cannot compute \(expression) in SQL")
        }
    }

    /// A constant inside arithmetic: numbers as numbers, dates as seconds since 2001.
    private static func bindNumber(_ value: Any?, to statement: Statement, at index: Int32) {
        if let date = value as? Date { return statement.bind(date.timeIntervalSinceReferenceDate, at: index) }
        switch QueryValues.number(KeyPathReader.unwrapped(value) as Any) {
        case .integer(let number): statement.bind(number, at: index)
        case .double(let number): statement.bind(number, at: index)
        case .decimal(let number): statement.bind(NSDecimalNumber(decimal: number).doubleValue, at: index)
        case nil:
            if let text = value as? String { statement.bind(text, at: index) } else { statement.bindNull(at: index) }
        }
    }
}
#endif
