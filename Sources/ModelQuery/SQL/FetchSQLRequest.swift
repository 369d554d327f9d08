#if !canImport(CoreData)
import Foundation
import ModelStore

/// The row an object is stored in: its entity number (`Z_ENT`) and primary key (`Z_PK`).
public struct StoreRow: Hashable, Sendable {
    public let entityNumber: Int
    public let primaryKey: Int64

    public init(entityNumber: Int, primaryKey: Int64) {
        self.entityNumber = entityNumber
        self.primaryKey = primaryKey
    }
}

/// A value that stands for a stored object in predicates translated to SQL (`SELF == %@`,
/// `owner IN %@`, `%@ IN tags`): managed objects and object IDs adopt it. `storeRow` is nil for
/// an object that has no row in the store being fetched from (not saved yet, or another
/// store's); such an object equals no row.
public protocol StoreRowReferencing {
    var storeRow: StoreRow? { get }
}

/// One fetch to translate: the entity, its predicate and sort descriptors, the page, and what to
/// select. `NSFetchRequest`'s properties map one to one.
public struct FetchSQLRequest: Sendable {
    /// What the statement returns.
    public enum Selection: Sendable, Equatable {
        /// `Z_ENT, Z_PK, Z_OPT` then the stored columns of the fetched entities (objects).
        case rows
        /// `Z_ENT, Z_PK` (object IDs).
        case objectIDs
        /// One row with the number of matching objects.
        case count
        /// The named properties (attributes, composite leaves or to-one relationships, also
        /// through to-one key paths), for dictionary results; each is one or more columns.
        case properties([String])
        /// Expressions and properties, aggregated over groups of rows (`GROUP BY`, `HAVING`).
        case grouped(FetchSQLGrouping)
    }

    public var entity: StoreLayout.EntityLayout
    public var predicate: NSPredicate?
    public var sortDescriptors: [NSSortDescriptor]
    /// 0 is no limit, as `fetchLimit`.
    public var limit: Int
    public var offset: Int
    public var selection: Selection
    public var includesSubentities: Bool

    public init(
        entity: StoreLayout.EntityLayout, predicate: NSPredicate? = nil, sortDescriptors: [NSSortDescriptor] = [], limit: Int = 0,
        offset: Int = 0, selection: Selection = .rows, includesSubentities: Bool = true
    ) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.limit = limit
        self.offset = offset
        self.selection = selection
        self.includesSubentities = includesSubentities
    }
}

/// What a grouped or aggregating dictionary fetch selects: named values, the expressions it
/// groups by, and the predicate the groups must satisfy.
public struct FetchSQLGrouping: Sendable, Equatable {
    /// One selected value: a key path expression (a property, selected as in `.properties`) or
    /// a computed expression, named as in the result dictionaries.
    public struct Value: Sendable, Equatable {
        public var name: String
        public var expression: NSExpression

        public init(name: String, expression: NSExpression) {
            self.name = name
            self.expression = expression
        }
    }

    public var values: [Value]
    /// Key path or computed expressions (`GROUP BY`); empty aggregates all rows into one.
    public var groupBy: [NSExpression]
    /// `HAVING`: key paths and `$variables` naming a selected value stand for that value.
    public var having: NSPredicate?

    public init(values: [Value], groupBy: [NSExpression] = [], having: NSPredicate? = nil) {
        self.values = values
        self.groupBy = groupBy
        self.having = having
    }
}

/// A translated fetch: one statement, its parameter values in order, and what each result
/// column holds, so a reader can map columns to slots once per statement shape.
public struct FetchSQL: Sendable, Equatable {
    /// What one result column holds.
    public enum ResultColumn: Sendable, Equatable {
        case entityNumber
        case primaryKey
        case optimisticLock
        case count
        /// A column of the fetched entity's table (an index into the table's `columns`).
        case tableColumn(Int)
        /// A selected property (`.properties`): its key path and the column read, with the
        /// column's description (an attribute or composite leaf value, a to-one's key or its
        /// destination entity number).
        case property(keyPath: String, column: StoreLayout.Column)
        /// The value of a selected expression (an aggregate or arithmetic), by its name.
        case expression(name: String)
    }

    public let sql: String
    public let bindings: [SQLiteValue]
    public let resultColumns: [ResultColumn]
}
#endif
