import ModelSchema

/// The SQL triggers Core Data creates in a store for derived attributes: the store computes
/// the values, and each trigger reports the rows it changed through
/// `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue` / `NSCoreDataDATriggerUpdatedAffectedObjectValue`
/// so the saving connection can hand the new values to the object graph.
///
/// Shapes (learned from Core Data's trigger generator; names are
/// `Z_DA_<table>_<entity>_<attribute>[_SOURCE|_PARAMETER]_<event>`):
/// - `now()`, an attribute of the same entity (`name`) and `lowercase:` / `uppercase:` /
///   `canonical:` of one: `_INSERT` (when the source column is not NULL) and `_UPDATE` (of the
///   source column; `Z_OPT` for `now()`) set the column to `NSCoreDataNow()`, `NEW.ZNAME`,
///   `NSCoreDataToLower(NEW.ZNAME)`, …;
/// - `count:(toMany)` / `toMany.@count` and `toMany.@sum.x` over a one-to-many relationship:
///   `_PARAMETER_INSERT`, `_UPDATE_INCREMENT`, `_UPDATE_DECREMENT`, `_DELETE` on the destination's
///   table keep the value up to date by steps, `_SOURCE_INSERT` computes it for a new row;
/// - `count:` over a many-to-many relationship: `_PARAMETER_INSERT` / `_DELETE` on the join table
///   and `_SOURCE_INSERT`.
///
/// - `trip.name` and string functions of it (an attribute of a to-one's destination):
///   `_SOURCE_INSERT` / `_SOURCE_UPDATE` on the entity's table, `_PARAMETER_INSERT` /
///   `_PARAMETER_UPDATE` on the destination's.
///
/// Not generated (``unsupported(_:)`` names them): `@min` / `@max` / `@avg`, longer key paths,
/// and anything else.
public enum DerivedAttributeTriggers {
    /// The `CREATE TRIGGER` statements of every derived attribute of `version`, in entity and
    /// attribute order.
    public static func statements(for version: ModelVersion, layout: StoreLayout) -> [String] {
        var result: [String] = []
        for entity in version.entities {
            for attribute in entity.attributes where attribute.isDerived && !attribute.isTransient {
                if let statements = statements(for: attribute, of: entity, version: version, layout: layout) {
                    result += statements
                }
            }
        }
        return result
    }

    /// `Entity.attribute` of every derived attribute whose derivation gets no triggers.
    public static func unsupported(_ version: ModelVersion, layout: StoreLayout) -> [String] {
        var result: [String] = []
        for entity in version.entities {
            for attribute in entity.attributes where attribute.isDerived && !attribute.isTransient {
                if statements(for: attribute, of: entity, version: version, layout: layout) == nil {
                    result.append("\(entity.name).\(attribute.name)")
                }
            }
        }
        return result
    }

    /// A derivation in the forms the triggers cover.
    enum Derivation: Equatable {
        case now
        case attribute(String, function: String?)
        /// `trip.name`, `lowercase:(trip.name)`: an attribute of a to-one's destination.
        case toOne(String, String, function: String?)
        case count(String)
        case sum(String, String)

        init?(_ text: String) {
            let expression = DerivationExpression.predicateFormat(of: text)
            if expression == "now()" {
                self = .now
                return
            }
            for (function, sqlName) in [
                ("lowercase", "NSCoreDataToLower"), ("uppercase", "NSCoreDataToUpper"), ("canonical", "NSCoreDataCanonical"),
            ]
            where expression.hasPrefix(function + ":(") && expression.hasSuffix(")") {
                let argument = String(expression.dropFirst(function.count + 2).dropLast())
                let path = argument.split(separator: ".").map(String.init)
                switch path.count {
                case 1: self = .attribute(argument, function: sqlName)
                case 2: self = .toOne(path[0], path[1], function: sqlName)
                default: return nil
                }
                return
            }
            if expression.hasPrefix("count:("), expression.hasSuffix(")") {
                let argument = String(expression.dropFirst(7).dropLast())
                guard !argument.contains(".") else { return nil }
                self = .count(argument)
                return
            }
            let parts = expression.split(separator: ".").map(String.init)
            if parts.count == 3, parts[1] == "@sum" {
                self = .sum(parts[0], parts[2])
                return
            }
            if expression.hasPrefix("sum:("), expression.hasSuffix(")") {
                let path = String(expression.dropFirst(5).dropLast()).split(separator: ".").map(String.init)
                guard path.count == 2 else { return nil }
                self = .sum(path[0], path[1])
                return
            }
            if parts.count == 1, DerivationExpression.isKeyPathText(expression) {
                self = .attribute(expression, function: nil)
                return
            }
            if parts.count == 2, DerivationExpression.isKeyPathText(expression) {
                self = .toOne(parts[0], parts[1], function: nil)
                return
            }
            return nil
        }
    }

    /// The statements for one attribute; nil when its derivation is not covered.
    static func statements(for attribute: Attribute, of entity: Entity, version: ModelVersion, layout: StoreLayout) -> [String]? {
        guard let expression = attribute.derivationExpression, let derivation = Derivation(expression),
            let entityLayout = layout.entity(named: entity.name), let column = column(of: attribute.name, in: entityLayout, layout: layout)
        else { return nil }
        let table = layout.table(of: entityLayout).name
        let context = Context(
            table: table, column: column, entityName: entity.name, attributeName: attribute.name, entity: entityLayout, layout: layout)
        switch derivation {
        case .now:
            return context.ownRowTriggers(value: "NSCoreDataNow()", sourceColumn: "Z_OPT")
        case .attribute(let name, let function):
            guard let source = Self.column(of: name, in: entityLayout, layout: layout) else { return nil }
            let value = function.map { "\($0)(NEW.\(source))" } ?? "NEW.\(source)"
            return context.ownRowTriggers(value: value, sourceColumn: source)
        case .toOne(let relationship, let key, let function):
            return context.toOneTriggers(relationship: relationship, key: key, function: function)
        case .count(let relationship):
            return context.toManyTriggers(relationship: relationship, summing: nil)
        case .sum(let relationship, let key):
            return context.toManyTriggers(relationship: relationship, summing: key)
        }
    }

    /// The column of an attribute stored in one column.
    static func column(of property: String, in entity: StoreLayout.EntityLayout, layout: StoreLayout) -> String? {
        guard let slot = entity.slot(of: property), case .column(let index) = entity.properties[slot].storage else { return nil }
        return layout.table(of: entity).columns[index].name
    }

    struct Context {
        let table: String
        let column: String
        let entityName: String
        let attributeName: String
        let entity: StoreLayout.EntityLayout
        let layout: StoreLayout

        var name: String { "Z_DA_\(table)_\(entityName)_\(attributeName)" }

        /// `SELECT <report>('<table>', Z_ENT, Z_PK, '<attribute>', <column>) FROM <table> WHERE Z_PK = <key><restriction>;`
        func report(_ function: String, key: String, restriction: String = "") -> String {
            " SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attributeName)', \(column)) FROM \(table) WHERE Z_PK = \(key)\(restriction);"
        }

        static let inserted = "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"
        static let updated = "NSCoreDataDATriggerUpdatedAffectedObjectValue"

        /// The entity's rows within its table: empty for a root, else `<a> <= Z_ENT AND Z_ENT <= <b>`
        /// (or `<n> = Z_ENT`), with `prefix` for the row (`NEW.`) when given.
        func entityRange(_ prefix: String = "") -> String? {
            guard entity.superEntityNumber != 0 else { return nil }
            let range = entity.entityNumbers
            if range.lowerBound >= range.upperBound { return "\(range.lowerBound) = \(prefix)Z_ENT" }
            return "\(range.lowerBound) <= \(prefix)Z_ENT AND \(prefix)Z_ENT <= \(range.upperBound)"
        }

        func ownRowTriggers(value: String, sourceColumn: String) -> [String] {
            let set = " UPDATE \(table) SET \(column) = \(value) WHERE Z_PK = NEW.Z_PK;"
            return [
                "CREATE TRIGGER IF NOT EXISTS \(name)_INSERT AFTER INSERT ON \(table) FOR EACH ROW WHEN (NEW.\(sourceColumn) NOT NULL)"
                    + " BEGIN" + set + report(Self.inserted, key: "NEW.Z_PK") + " END",
                "CREATE TRIGGER IF NOT EXISTS \(name)_UPDATE AFTER UPDATE OF \(sourceColumn) ON \(table) FOR EACH ROW"
                    + " BEGIN" + set + report(Self.updated, key: "NEW.Z_PK") + " END",
            ]
        }

        /// `trip.name`: `_SOURCE_INSERT` and `_SOURCE_UPDATE` (of the key column) on the entity's
        /// table read the destination's value; `_PARAMETER_INSERT` and `_PARAMETER_UPDATE` (of the
        /// destination's column) on the destination's table push it to the rows pointing at it.
        func toOneTriggers(relationship: String, key: String, function: String?) -> [String]? {
            guard let slot = entity.slot(of: relationship), entity.properties[slot].isRelationship,
                case .toOne(let keyIndex, _, _) = entity.properties[slot].storage,
                let destinationNumber = entity.properties[slot].destinationEntityNumber,
                let destination = layout.entity(number: destinationNumber),
                let source = DerivedAttributeTriggers.column(of: key, in: destination, layout: layout)
            else { return nil }
            let foreignKey = layout.table(of: entity).columns[keyIndex].name
            let parameterTable = layout.table(of: destination).name
            let read = function.map { "\($0)(\(source))" } ?? source
            let pushed = function.map { "\($0)(NEW.\(source))" } ?? "NEW.\(source)"
            let newRow = entityRange("NEW.").map { " AND \($0)" } ?? ""
            let when = entityRange("NEW.").map { " WHEN \($0)" } ?? ""
            let rows = entityRange().map { " AND \($0)" } ?? ""
            let sourceName = "\(name)_SOURCE"
            let parameterName = "Z_DA_\(parameterTable)_\(entityName)_\(attributeName)_PARAMETER"
            let copy =
                " UPDATE \(table) SET \(column) = (SELECT \(read) FROM \(parameterTable) WHERE Z_PK = NEW.\(foreignKey)) WHERE Z_PK = NEW.Z_PK"
            let push = " UPDATE \(table) SET \(column) = \(pushed) WHERE \(foreignKey) = NEW.Z_PK\(rows);"
            func reportPointing(_ function: String) -> String {
                " SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attributeName)', \(column)) FROM \(table) WHERE \(foreignKey) = NEW.Z_PK\(rows);"
            }
            return [
                "CREATE TRIGGER IF NOT EXISTS \(sourceName)_INSERT AFTER INSERT ON \(table) FOR EACH ROW BEGIN" + copy + newRow + ";"
                    + report(Self.inserted, key: "NEW.Z_PK", restriction: newRow) + " END",
                "CREATE TRIGGER IF NOT EXISTS \(sourceName)_UPDATE AFTER UPDATE OF \(foreignKey) ON \(table) FOR EACH ROW\(when) BEGIN"
                    + copy + ";" + report(Self.updated, key: "NEW.Z_PK") + " END",
                "CREATE TRIGGER IF NOT EXISTS \(parameterName)_INSERT AFTER INSERT ON \(parameterTable) FOR EACH ROW BEGIN" + push
                    + reportPointing(Self.inserted) + " END",
                "CREATE TRIGGER IF NOT EXISTS \(parameterName)_UPDATE AFTER UPDATE OF \(source) ON \(parameterTable) FOR EACH ROW BEGIN"
                    + push + reportPointing(Self.updated) + " END",
            ]
        }

        func toManyTriggers(relationship: String, summing key: String?) -> [String]? {
            guard let slot = entity.slot(of: relationship), entity.properties[slot].isRelationship,
                let destinationNumber = entity.properties[slot].destinationEntityNumber,
                let destination = layout.entity(number: destinationNumber)
            else { return nil }
            let property = entity.properties[slot]
            let restriction = entityRange().map { " AND \($0)" } ?? ""
            let sourceWhen = entityRange("NEW.").map { " WHEN \($0)" } ?? ""
            switch property.storage {
            case .inverseOfToOne:
                guard let inverse = property.inverseName, let inverseSlot = destination.slot(of: inverse),
                    case .toOne(let keyIndex, _, _) = destination.properties[inverseSlot].storage
                else { return nil }
                let parameterTable = layout.table(of: destination).name
                let foreignKey = layout.table(of: destination).columns[keyIndex].name
                let increment: String
                let decrement: String
                let updatedColumns: String
                let aggregate: String
                if let key {
                    guard let summed = DerivedAttributeTriggers.column(of: key, in: destination, layout: layout) else { return nil }
                    increment = "+ NEW.\(summed)"
                    decrement = "- OLD.\(summed)"
                    updatedColumns = "\(foreignKey), \(summed)"
                    aggregate = "SUM(\(summed))"
                } else {
                    increment = "+ 1"
                    decrement = "- 1"
                    updatedColumns = foreignKey
                    aggregate = "COUNT(\(foreignKey))"
                }
                let parameter = "Z_DA_\(parameterTable)_\(entityName)_\(attributeName)_PARAMETER"
                func step(_ trigger: String, _ event: String, row: String, change: String, firstValue: Bool = false) -> String {
                    let current = firstValue ? "IFNULL(\(column), 0)" : column
                    return "CREATE TRIGGER IF NOT EXISTS \(parameter)_\(trigger) AFTER \(event) ON \(parameterTable) FOR EACH ROW"
                        + " WHEN (\(row).\(foreignKey) NOT NULL) BEGIN UPDATE \(table) SET \(column) = \(current) \(change)"
                        + " WHERE Z_PK = \(row).\(foreignKey)\(restriction);"
                        + report(Self.updated, key: "\(row).\(foreignKey)", restriction: restriction) + " END"
                }
                return [
                    step("INSERT", "INSERT", row: "NEW", change: increment, firstValue: true),
                    step("UPDATE_INCREMENT", "UPDATE OF \(updatedColumns)", row: "NEW", change: increment),
                    step("UPDATE_DECREMENT", "UPDATE OF \(updatedColumns)", row: "OLD", change: decrement),
                    step("DELETE", "DELETE", row: "OLD", change: decrement),
                    "CREATE TRIGGER IF NOT EXISTS \(name)_SOURCE_INSERT AFTER INSERT ON \(table) FOR EACH ROW\(sourceWhen) BEGIN"
                        + " UPDATE \(table) SET \(column) = (SELECT IFNULL(\(aggregate), 0) FROM \(parameterTable)"
                        + " WHERE \(foreignKey) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK;" + report(Self.inserted, key: "NEW.Z_PK") + " END",
                ]
            case .joinTable(let index):
                guard key == nil else { return nil }
                let joinTable = layout.joinTables[index]
                // The column holding this entity's keys: the side the relationship does not lead to.
                let own = joinTable.first.relationshipName == relationship ? joinTable.second : joinTable.first
                let parameter = "Z_DA_\(joinTable.name)_\(entityName)_\(attributeName)_PARAMETER"
                return [
                    "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(joinTable.name) FOR EACH ROW BEGIN"
                        + " UPDATE \(table) SET \(column) = IFNULL(\(column), 0) + 1 WHERE Z_PK = NEW.\(own.column)\(restriction);"
                        + report(Self.updated, key: "NEW.\(own.column)", restriction: restriction) + " END",
                    "CREATE TRIGGER IF NOT EXISTS \(parameter)_DELETE AFTER DELETE ON \(joinTable.name) FOR EACH ROW BEGIN"
                        + " UPDATE \(table) SET \(column) = \(column) - 1 WHERE Z_PK = OLD.\(own.column)\(restriction);"
                        + report(Self.updated, key: "OLD.\(own.column)", restriction: restriction) + " END",
                    "CREATE TRIGGER IF NOT EXISTS \(name)_SOURCE_INSERT AFTER INSERT ON \(table) FOR EACH ROW\(sourceWhen) BEGIN"
                        + " UPDATE \(table) SET \(column) = (SELECT IFNULL(COUNT(\(own.column)), 0) FROM \(joinTable.name)"
                        + " WHERE \(own.column) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK;" + report(Self.updated, key: "NEW.Z_PK") + " END",
                ]
            default:
                return nil
            }
        }
    }
}
