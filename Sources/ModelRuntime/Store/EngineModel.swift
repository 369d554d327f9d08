#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore
import Synchronization

/// What the engine derives once from a model in use: Core Data's store layout, and for every
/// entity its slots (the object storage indexes), the column each slot reads and writes, and the
/// SQL of its statements. Objects keep their values in a flat array indexed by slot; a row is
/// read into it by column index, so no property name is looked up per row.
final class EngineModel: @unchecked Sendable {
    /// A number no other engine model of the process has (an address can be reused).
    let serial = EngineModel.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<Int>(0)
    let layout: StoreLayout
    let version: ModelVersion
    /// Translated fetch statements by request shape.
    let fetchPlans = FetchPlanCache()
    /// By `Z_ENT` − 1.
    private(set) var entities: [EngineEntity] = []
    private var byName: [String: EngineEntity] = [:]
    private var byDescription: [ObjectIdentifier: EngineEntity] = [:]

    convenience init(_ model: NSManagedObjectModel) {
        let version = ModelSchemaBridge.version(of: model)
        self.init(model, version: version, layout: StoreLayout(version))
    }

    /// The engine model of `model` over `layout`, a layout of `version` (an existing store's).
    init(_ model: NSManagedObjectModel, version: ModelVersion, layout: StoreLayout) {
        self.version = version
        self.layout = layout
        let descriptions = model.entitiesByName
        for entityLayout in layout.entities {
            guard let description = descriptions[entityLayout.name] else { continue }
            let entity = EngineEntity(description: description, layout: entityLayout, table: layout.table(of: entityLayout))
            entities.append(entity)
            byName[entityLayout.name] = entity
            byDescription[ObjectIdentifier(description)] = entity
        }
        for entity in entities { entity.link(in: self) }
        for entity in entities { entity.uniquenessConstraints = RowWriter.constraints(of: entity) }
    }

    static func of(_ model: NSManagedObjectModel) -> EngineModel {
        model.engineData(EngineModel.self) { EngineModel($0) }
    }

    /// The engine model for a store laid out as `existing` (read from the store): the model's
    /// own when the store has the names and numbers a new store gets, else one made for that
    /// layout, kept with the model so every store laid out alike shares it.
    static func of(_ model: NSManagedObjectModel, existing: ExistingStoreLayout) -> EngineModel {
        let created = of(model)
        guard existing.differsFromNewStores else { return created }
        return model.engineData(StoreEngineModels.self) { _ in StoreEngineModels() }.model(for: existing.layout) {
            EngineModel(model, version: created.version, layout: existing.layout)
        }
    }

    func entity(named name: String) -> EngineEntity? { byName[name] }

    func entity(number: Int) -> EngineEntity? {
        number >= 1 && number <= entities.count ? entities[number - 1] : nil
    }

    func entity(for description: NSEntityDescription) -> EngineEntity? {
        byDescription[ObjectIdentifier(description)] ?? description.name.flatMap { byName[$0] }
    }
}

/// The engine models of one managed object model made for existing stores laid out otherwise
/// than new stores (see ``EngineModel/of(_:existing:)``).
final class StoreEngineModels: @unchecked Sendable {
    private let lock = NSLock()
    private var models: [EngineModel] = []

    func model(for layout: StoreLayout, make: () -> EngineModel) -> EngineModel {
        lock.withLock {
            if let known = models.first(where: { $0.layout.hasSameNames(as: layout) }) { return known }
            let made = make()
            models.append(made)
            return made
        }
    }
}

/// How one slot of an entity's objects is kept and stored.
enum SlotKind {
    /// An attribute: its type and the table column holding it (nil when transient).
    case attribute(NSAttributeType, column: Int32?)
    /// A composite attribute: its leaves (path from the attribute, type) and their columns.
    case composite(leaves: [(path: [String], type: NSAttributeType)], columns: [Int32])
    /// A to-one relationship: key column, destination-entity column, order column.
    case toOne(key: Int32?, entity: Int32?)
    /// A to-many relationship whose inverse is a to-one: the inverse's key column in the
    /// destination table, and the destination table's order column for ordered ones.
    case toManyByInverseKey
    /// A to-many relationship kept in a join table.
    case toManyByJoinTable(Int)
    /// A transient relationship.
    case transientRelationship
}

/// One entity as the engine uses it.
///
/// Nothing refers to an engine entity weakly: every object holds its entity strongly, and a
/// class instance that has ever been the target of a `weak` reference keeps its reference counts
/// in a side table, which makes every retain and release of it several times dearer (a fetch
/// retains the entity of each object it makes). Caches that must not keep an entity alive key
/// it by ``serial`` and ask ``isLive(_:)``.
///
/// The fields set while the model links its entities (``link(in:)``: destinations, inverses,
/// join and order statements, the model's serial, the uniqueness constraints) are
/// `@exclusivity(unchecked)`: they are written only then, before the model is published, and
/// only read afterwards, on any thread, so no two accesses can conflict and the dynamic check
/// each read would make (an access record per read, on every save and fetch) guards nothing.
final class EngineEntity: @unchecked Sendable {
    let description: NSEntityDescription
    /// A number no other engine entity of the process has (slot tables key their entries by it;
    /// an address can be reused).
    let serial = EngineEntity.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<Int>(0)
    /// The serials of the engine entities not yet freed, guarded by ``liveLock`` (a pthread
    /// mutex, which the thread sanitizer understands; `Mutex` on Linux is a futex it cannot see).
    nonisolated(unsafe) private static var live = Set<Int>()
    private static let liveLock = NSLock()

    /// Whether the engine entity numbered `serial` still exists.
    static func isLive(_ serial: Int) -> Bool { liveLock.withLock { live.contains(serial) } }
    let name: String
    let number: Int
    let rootNumber: Int
    let entityNumbers: ClosedRange<Int>
    let table: StoreLayout.Table
    let slotCount: Int
    let properties: [NSPropertyDescription]
    let slotKinds: [SlotKind]
    let slotsByName: [String: Int]
    /// Attribute slots in slot order, relationship slots in slot order.
    let attributeSlots: [Int]
    let relationshipSlots: [Int]
    /// Per slot: whether it holds a to-many relationship (a ``ToMany`` or ``ToManyUnloaded``), so
    /// reads of other slots return the stored value without inspecting its type.
    let toManySlots: [Bool]
    /// A value array with every slot nil: the values of an object without a state.
    let emptyValues: ContiguousArray<Any?>
    /// Where objects of the entity keep their values (see ``ValueLayout``).
    let valueLayout: ValueLayout
    /// The shapes of ``valueLayout`` and of ``ValueLayout/empty`` (a state without values): what
    /// making a state reads, as plain values.
    let valueShape: ValueLayout.Shape
    let noValuesShape = ValueLayout.empty.shape
    /// Per relationship slot: the destination entity and the inverse's slot there. The inverse's
    /// slot is the destination entity's: an object of one of its sub-entities, which numbers its
    /// slots afresh (inherited properties among its own, by name), keeps the inverse elsewhere,
    /// so relating two objects goes through ``inverseSlot(_:on:)``.
    @exclusivity(unchecked) private(set) var destinations: [Int: EngineEntity] = [:]
    @exclusivity(unchecked) private(set) var inverseSlots: [Int: Int] = [:]
    /// Per relationship slot with an inverse: the inverse's slot in each entity of the
    /// destination's family, by entity number − the first of the family's numbers.
    @exclusivity(unchecked) private var familyInverseSlots: [Int: [Int]] = [:]
    /// Per relationship slot with an inverse: the inverse's name, for objects of entities of
    /// another engine model.
    @exclusivity(unchecked) private var inverseNames: [Int: String] = [:]
    /// Per relationship slot: whether this side writes the join-table rows.
    @exclusivity(unchecked) private(set) var writesJoinRows: [Int: Bool] = [:]
    /// Per join-table slot: (this side's column, the destination's column).
    @exclusivity(unchecked) private(set) var joinColumns: [Int: (mine: String, other: String, table: String)] = [:]
    /// Columns this entity writes (table column indexes, in table order) and their slots.
    let writtenColumns: [(column: Int32, slot: Int, leaf: Int?)]
    /// Every column of the table, in table order (`Z_PK`, `Z_ENT`, `Z_OPT` first).
    let selectColumns: String
    let selectSQL: String
    let selectByKeySQL: String
    /// Where ``selectSQL``'s rows hold each column.
    let tableShape: RowShape
    /// Per to-many slot: `SELECT Z_PK, Z_ENT` of the destinations, bound to the source's key.
    @exclusivity(unchecked) private(set) var toManySQL: [Int: String] = [:]
    /// Ordered to-many slots: the statement writing one destination's order value, binding the
    /// order, then the destination's key (by inverse key) or this object's and the destination's
    /// keys (join table, `join` true).
    @exclusivity(unchecked) private(set) var orderSQL: [Int: (sql: String, join: Bool)] = [:]
    private(set) weak var model: EngineModel?
    /// The ``EngineModel/serial`` of the engine model the entity belongs to (read without
    /// loading the weak ``model``).
    @exclusivity(unchecked) private(set) var modelSerial = 0
    /// The uniqueness constraints of the entity and its ancestors, as the save checks them.
    @exclusivity(unchecked) fileprivate(set) var uniquenessConstraints: [RowWriter.Constraint] = []
    let insertSQL: String
    /// `UPDATE` of `Z_OPT` and every written column (see ``RowWriter`` for the narrower ones).
    let updateSQL: String
    /// `UPDATE`s of `Z_OPT` and some written columns, by the bits (positions in
    /// ``writtenColumns``) of the columns they set; made once each (``RowWriter/updateSQL(of:columns:)``).
    let partialUpdateSQL = LockedCache<[UInt64: String]>([:])
    let deleteSQL: String
    /// `Z_ENT` restriction of the entity and its sub-entities.
    let entityRestriction: String
    /// What inserting and saving check per object: the slots validation looks at, and the
    /// attribute default values inserted objects start with.
    let writeChecks: WriteChecks

    deinit {
        let serial = self.serial
        _ = Self.liveLock.withLock { Self.live.remove(serial) }
    }

    init(description: NSEntityDescription, layout: StoreLayout.EntityLayout, table: StoreLayout.Table) {
        self.description = description
        name = layout.name
        number = layout.entityNumber
        rootNumber = layout.rootEntityNumber
        entityNumbers = layout.entityNumbers
        self.table = table
        slotCount = layout.properties.count
        let byName = description.propertiesByName
        var properties: [NSPropertyDescription] = []
        var kinds: [SlotKind] = []
        var written: [(column: Int32, slot: Int, leaf: Int?)] = []
        for property in layout.properties {
            let described = byName[property.name] ?? NSPropertyDescription()
            properties.append(described)
            switch property.storage {
            case .none:
                kinds.append(
                    property.isRelationship
                        ? .transientRelationship
                        : .attribute((described as? NSAttributeDescription)?.attributeType ?? .undefinedAttributeType, column: nil))
            case .column(let column):
                kinds.append(
                    .attribute((described as? NSAttributeDescription)?.attributeType ?? .undefinedAttributeType, column: Int32(column)))
                // A derived attribute's column belongs to the store's triggers: never written.
                if !(described is NSDerivedAttributeDescription) { written.append((Int32(column), property.slot, nil)) }
            case .composite(let columns):
                let leaves = Self.leaves(of: described as? NSCompositeAttributeDescription)
                kinds.append(.composite(leaves: leaves, columns: columns.map { Int32($0) }))
                for (leaf, column) in columns.enumerated() { written.append((Int32(column), property.slot, leaf)) }
            case .toOne(let key, let entity, _):
                kinds.append(.toOne(key: Int32(key), entity: entity.map { Int32($0) }))
                written.append((Int32(key), property.slot, nil))
                if let entity { written.append((Int32(entity), property.slot, -1)) }
            case .inverseOfToOne:
                kinds.append(.toManyByInverseKey)
            case .joinTable(let index):
                kinds.append(.toManyByJoinTable(index))
            }
        }
        written.sort { $0.column < $1.column }
        self.properties = properties
        slotKinds = kinds
        writtenColumns = written
        slotsByName = Dictionary(layout.properties.map { ($0.name, $0.slot) }) { first, _ in first }
        attributeSlots = layout.properties.filter { !$0.isRelationship }.map(\.slot)
        relationshipSlots = layout.properties.filter(\.isRelationship).map(\.slot)
        toManySlots = kinds.indices.map { slot in
            switch kinds[slot] {
            case .toManyByInverseKey, .toManyByJoinTable: true
            case .transientRelationship: (properties[slot] as? NSRelationshipDescription)?.isToMany ?? false
            default: false
            }
        }
        emptyValues = ContiguousArray(repeating: nil, count: layout.properties.count)
        valueLayout = ValueLayout.of(kinds)
        valueShape = valueLayout.shape
        let columns = table.columns.map { "t." + $0.name }.joined(separator: ", ")
        selectColumns = columns
        selectSQL = "SELECT \(columns) FROM \(table.name) t"
        selectByKeySQL = selectSQL + " WHERE t.Z_PK = ?"
        tableShape = RowShape.table(table)
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + written.map { table.columns[Int($0.column)].name }
        insertSQL =
            "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        let assignments = (["Z_OPT"] + written.map { table.columns[Int($0.column)].name }).map { "\($0) = ?" }
        updateSQL = "UPDATE \(table.name) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
        deleteSQL = "DELETE FROM \(table.name) WHERE Z_PK = ? AND Z_OPT = ?"
        entityRestriction =
            entityNumbers.count == 1
            ? "t.Z_ENT = \(number)" : "t.Z_ENT >= \(entityNumbers.lowerBound) AND t.Z_ENT <= \(entityNumbers.upperBound)"
        writeChecks = WriteChecks(properties: properties, kinds: kinds, written: written)
        let serial = self.serial
        _ = Self.liveLock.withLock { Self.live.insert(serial) }
    }

    static func leaves(of composite: NSCompositeAttributeDescription?, path: [String] = []) -> [(path: [String], type: NSAttributeType)] {
        guard let composite else { return [] }
        return composite.elements.filter { !$0.isTransient }.flatMap { element -> [(path: [String], type: NSAttributeType)] in
            if let nested = element as? NSCompositeAttributeDescription { return leaves(of: nested, path: path + [element.name]) }
            return [(path + [element.name], element.attributeType)]
        }
    }

    func link(in model: EngineModel) {
        self.model = model
        modelSerial = model.serial
        for slot in relationshipSlots {
            guard let relationship = properties[slot] as? NSRelationshipDescription,
                let destinationName = relationship.destinationEntity?.name, let destination = model.entity(named: destinationName)
            else { continue }
            destinations[slot] = destination
            if let inverseName = relationship.inverseRelationship?.name, let inverse = destination.slotsByName[inverseName] {
                inverseSlots[slot] = inverse
                inverseNames[slot] = inverseName
                familyInverseSlots[slot] = destination.entityNumbers.map { number in
                    model.entity(number: number).flatMap { Self.relationshipSlot(named: inverseName, in: $0) } ?? -1
                }
            }
            if case .toManyByJoinTable(let index) = slotKinds[slot] {
                let joinTable = model.layout.joinTables[index]
                // A side names the relationship of the other entity that leads to its entity.
                let otherIsFirst = joinTable.first.relationshipName == relationship.name
                let other = otherIsFirst ? joinTable.first : joinTable.second
                let mine = otherIsFirst ? joinTable.second : joinTable.first
                joinColumns[slot] = (mine.column, other.column, joinTable.name)
                writesJoinRows[slot] = inverseSlots[slot] == nil || !otherIsFirst || joinTable.second.relationshipName == relationship.name
                let orderColumn = "Z_FOK_" + other.column.dropFirst(2)
                let ordered = relationship.isOrdered && joinTable.orderColumns.contains(orderColumn)
                let order = ordered ? "j.\(orderColumn), t.Z_PK" : "t.Z_PK"
                if ordered {
                    orderSQL[slot] = (
                        "UPDATE \(joinTable.name) SET \(orderColumn) = ? WHERE \(mine.column) = ? AND \(other.column) = ?", true
                    )
                }
                toManySQL[slot] =
                    "SELECT t.Z_PK, t.Z_ENT FROM \(destination.table.name) t JOIN \(joinTable.name) j ON j.\(other.column) = t.Z_PK "
                    + "WHERE j.\(mine.column) = ? ORDER BY \(order)"
            }
        }
        for slot in relationshipSlots {
            if case .toManyByInverseKey = slotKinds[slot], let inverse = inverseKeyColumn(forToManySlot: slot) {
                toManySQL[slot] =
                    "SELECT t.Z_PK, t.Z_ENT FROM \(inverse.table) t WHERE t.\(inverse.key) = ? ORDER BY "
                    + (inverse.order.map { "t.\($0), t.Z_PK" } ?? "t.Z_PK")
                if let order = inverse.order, (properties[slot] as? NSRelationshipDescription)?.isOrdered == true {
                    orderSQL[slot] = ("UPDATE \(inverse.table) SET \(order) = ? WHERE Z_PK = ?", false)
                }
            }
        }
    }

    func inverseKeyColumn(forToManySlot slot: Int) -> (table: String, key: String, order: String?)? {
        guard let destination = destinations[slot], let inverse = inverseSlots[slot],
            case .toOne(let key?, _) = destination.slotKinds[inverse]
        else { return nil }
        let orderColumn = destination.table.columns.first {
            if case .order(_, let property) = $0.role { property == destination.properties[inverse].name } else { false }
        }
        return (destination.table.name, destination.table.columns[Int(key)].name, orderColumn?.name)
    }

    func isRelationshipToMany(_ slot: Int) -> Bool { toManySlots[slot] }

    /// The slot of the inverse of the relationship at `slot` in objects of `other` (the entity of
    /// the object at the other end: the destination entity or one of its sub-entities); nil when
    /// the relationship has no inverse or `other` has no such relationship.
    @inline(__always)
    func inverseSlot(_ slot: Int, on other: EngineEntity) -> Int? {
        if other === destinations[slot] { return inverseSlots[slot] }
        return inverseSlot(slot, onOther: other)
    }

    private func inverseSlot(_ slot: Int, onOther other: EngineEntity) -> Int? {
        if other.modelSerial == modelSerial, let destination = destinations[slot], let family = familyInverseSlots[slot],
            destination.entityNumbers.contains(other.number)
        {
            let found = family[other.number - destination.entityNumbers.lowerBound]
            return found >= 0 ? found : nil
        }
        // An entity of another engine model (of the same managed object model, or one with the
        // same entity names): by name.
        return inverseNames[slot].flatMap { Self.relationshipSlot(named: $0, in: other) }
    }

    private static func relationshipSlot(named name: String, in entity: EngineEntity) -> Int? {
        guard let slot = entity.slotsByName[name], entity.properties[slot] is NSRelationshipDescription else { return nil }
        return slot
    }
}
#endif
