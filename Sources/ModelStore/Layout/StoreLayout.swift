import ModelSchema

/// Core Data's SQLite layout of one model version, computed once per model and shared: entity
/// numbers, one table per inheritance root with its columns in Core Data's order, join tables,
/// indexes, and for every entity its properties' slots and column indexes so an engine binds and
/// reads by index. See docs/StoreFormat.md for each convention and the fixture that confirms it.
public struct StoreLayout: Sendable {
    /// Entities in `Z_ENT` order; `entities[n - 1]` has entity number `n`.
    public let entities: [EntityLayout]
    /// One table per inheritance root, in root-name order.
    public let tables: [Table]
    public let joinTables: [JoinTable]
    public let indexes: [Index]
    let entityNumbersByName: [String: Int]

    public func entity(named name: String) -> EntityLayout? {
        entityNumbersByName[name].map { entities[$0 - 1] }
    }

    public func entity(number: Int) -> EntityLayout? {
        number >= 1 && number <= entities.count ? entities[number - 1] : nil
    }

    public func table(of entity: EntityLayout) -> Table { tables[entity.tableIndex] }

    /// The `Z_FOK_` value of the member at `position` (from 0) of an ordered to-many written
    /// whole: 2048, 3072, 4096, …, as Core Data wrote every ordered relationship of the fixture
    /// stores (`Bookmarks_V1`…`V5`). Readers only compare the values.
    public static func orderValue(at position: Int) -> Int64 { orderSpacing * (Int64(position) + 2) }

    /// The step between consecutive ``orderValue(at:)``s.
    public static let orderSpacing: Int64 = 1024

    /// The SQL column types Core Data declares.
    public enum ColumnType: String, Sendable {
        case integer = "INTEGER"
        case float = "FLOAT"
        case decimal = "DECIMAL"
        case timestamp = "TIMESTAMP"
        case varchar = "VARCHAR"
        case blob = "BLOB"
    }

    public struct Column: Sendable, Equatable {
        public enum Role: Sendable, Equatable {
            case primaryKey
            case entityNumber
            case optimisticLock
            /// An attribute's value, or a composite attribute's leaf (`path` from the attribute).
            case attribute(entity: String, property: String, path: [String])
            /// A to-one relationship's destination primary key.
            case foreignKey(entity: String, property: String)
            /// The destination's `Z_ENT`, when the destination has sub-entities.
            case foreignEntity(entity: String, property: String)
            /// The position in the inverse ordered to-many relationship (`Z_FOK_`).
            case order(entity: String, property: String)
        }

        public let name: String
        public let type: ColumnType
        public let role: Role
    }

    public struct Table: Sendable {
        public let name: String
        public let rootEntityNumber: Int
        /// Entity numbers stored in the table (the root and all its sub-entities).
        public let entityNumbers: ClosedRange<Int>
        public let columns: [Column]
    }

    /// A many-to-many (or inverse-less to-many) relationship's table.
    public struct JoinTable: Sendable, Equatable {
        public struct Side: Sendable, Equatable {
            /// The entity whose primary keys this column holds.
            public let entityName: String
            public let column: String
            /// The relationship of the *other* entity that leads to this one.
            public let relationshipName: String
        }

        public let name: String
        public let first: Side
        public let second: Side
        /// `Z_FOK_` columns of ordered sides, after the two key columns.
        public let orderColumns: [String]
    }

    public struct Index: Sendable, Equatable {
        public struct Element: Sendable, Equatable {
            public let column: String
            /// Core Data writes `COLLATE BINARY ASC|DESC` for uniqueness constraints and fetch
            /// indexes, and nothing for its own key and entity indexes.
            public let ordering: String?
        }

        public let name: String
        public let table: String
        public let elements: [Element]
        public let isUnique: Bool
    }

    public struct EntityLayout: Sendable {
        public let name: String
        public let entityNumber: Int
        /// 0 for a root.
        public let superEntityNumber: Int
        public let rootEntityNumber: Int
        /// This entity and all its sub-entities (depth-first numbering makes them contiguous).
        public let entityNumbers: ClosedRange<Int>
        public let tableIndex: Int
        /// All properties including inherited ones: attributes by name, then relationships by
        /// name. A property's slot is its index here.
        public let properties: [PropertyLayout]
        let slotsByName: [String: Int]

        public func slot(of property: String) -> Int? { slotsByName[property] }
    }

    public struct PropertyLayout: Sendable {
        public enum Storage: Sendable, Equatable {
            /// Not stored (transient).
            case none
            /// One column (an attribute).
            case column(Int)
            /// A composite attribute: one column per leaf, in leaf order.
            case composite([Int])
            /// A to-one: key column, optional destination-entity column, optional order column.
            case toOne(key: Int, entity: Int?, order: Int?)
            /// A to-many whose inverse is a to-one: stored on the destination's key column.
            case inverseOfToOne
            /// A to-many stored in a join table (index into ``StoreLayout/joinTables``).
            case joinTable(Int)
        }

        public let name: String
        public let slot: Int
        public let isRelationship: Bool
        /// The entity number of a relationship's destination.
        public let destinationEntityNumber: Int?
        public let storage: Storage
        /// A relationship's inverse relationship on the destination entity, if it has one (a
        /// one-to-many relationship is read through its inverse's key column).
        public internal(set) var inverseName: String? = nil
    }
}
