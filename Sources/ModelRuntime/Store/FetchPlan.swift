#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Where a statement's result columns are: `Z_PK`, `Z_ENT`, `Z_OPT` and, per table column
/// index, the result column holding it (−1 when not selected). Computed once per statement.
struct RowShape {
    let primaryKey: Int32
    let entityNumber: Int32
    let optimisticLock: Int32
    let columns: [Int32]

    /// The engine's own row statements: every table column in table order.
    static func table(_ table: StoreLayout.Table) -> RowShape {
        RowShape(primaryKey: 0, entityNumber: 1, optimisticLock: 2, columns: table.columns.indices.map { Int32($0) })
    }

    init(primaryKey: Int32, entityNumber: Int32, optimisticLock: Int32, columns: [Int32]) {
        self.primaryKey = primaryKey
        self.entityNumber = entityNumber
        self.optimisticLock = optimisticLock
        self.columns = columns
    }

    init(_ result: [FetchSQL.ResultColumn], columnCount: Int) {
        var primaryKey: Int32 = -1
        var entityNumber: Int32 = -1
        var optimisticLock: Int32 = -1
        var columns = [Int32](repeating: -1, count: columnCount)
        for (index, column) in result.enumerated() {
            switch column {
            case .primaryKey: primaryKey = Int32(index)
            case .entityNumber: entityNumber = Int32(index)
            case .optimisticLock: optimisticLock = Int32(index)
            case .tableColumn(let table) where table < columnCount: columns[table] = Int32(index)
            default: break
            }
        }
        self.init(primaryKey: primaryKey, entityNumber: entityNumber, optimisticLock: optimisticLock, columns: columns)
    }
}

/// One fetch as SQL, made by the query layer's translator (`FetchSQLTranslator`): the only place
/// predicates and sort descriptors become SQL, so no fetch filters rows in Swift.
struct FetchPlan {
    let sql: FetchSQL
    let shape: RowShape
    let entityNumbers: ClosedRange<Int>
    let exactEntity: Int?

    init<T>(request: NSFetchRequest<T>, entity: EngineEntity, selection: FetchSQLRequest.Selection, paged: Bool) throws {
        guard let model = entity.model, let layout = model.layout.entity(named: entity.name) else {
            throw CoreDataError.make(NSCoreDataError, "The entity \(entity.name) is not in the store's layout")
        }
        let translated = FetchSQLRequest(
            entity: layout, predicate: request.predicate, sortDescriptors: request.sortDescriptors ?? [],
            limit: paged ? request.fetchLimit : 0, offset: paged ? request.fetchOffset : 0, selection: selection,
            includesSubentities: request.includesSubentities)
        do {
            sql = try model.fetchPlans.statement(for: translated, layout: model.layout)
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreUnsupportedRequestTypeError, "The fetch cannot be translated to SQL: \(error.message)",
                ["FetchSQLError": error.description])
        }
        shape = RowShape(sql.resultColumns, columnCount: entity.table.columns.count)
        entityNumbers = entity.entityNumbers
        exactEntity = request.includesSubentities ? nil : entity.number
    }

    func bind(_ statement: Statement) {
        statement.bind(sql.bindings)
    }

    func covers(_ entity: EngineEntity) -> Bool {
        if let exactEntity { return entity.number == exactEntity }
        return entityNumbers.contains(entity.number)
    }
}

extension NSManagedObject: StoreRowReferencing {
    /// The object's row, once it has a permanent ID.
    public var storeRow: StoreRow? { objectID.storeRow }
}

extension NSManagedObjectID: StoreRowReferencing {
    /// The ID's row (`Z_ENT`, `Z_PK`); nil while temporary.
    public var storeRow: StoreRow? {
        // The entity's number in the ID's store (an existing store keeps its own numbers).
        guard let key = primaryKey, let model = persistentStore?.engine.model ?? entity.managedObjectModel.map(EngineModel.of),
            let number = model.entity(for: entity)?.number
        else { return nil }
        return StoreRow(entityNumber: number, primaryKey: key)
    }
}
#endif
