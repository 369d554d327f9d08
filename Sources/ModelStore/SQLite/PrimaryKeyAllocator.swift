/// Hands out primary keys the way Core Data does: per inheritance root, through `Z_PRIMARYKEY`,
/// in a transaction of its own before the data transaction. The new maximum is written with a
/// compare-and-swap (`UPDATE OR FAIL … WHERE Z_ENT = ? AND Z_MAX = ?`), so two writers can never
/// receive the same keys; a crash after allocating leaves only a gap.
public struct PrimaryKeyAllocator {
    public let connection: StoreConnection

    public init(connection: StoreConnection) {
        self.connection = connection
    }

    public struct AllocationError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Reserves `count` consecutive keys for the inheritance tree whose root has entity number
    /// `rootEntityNumber`; returns the first. Must not be called inside another transaction.
    public func allocate(_ count: Int, rootEntityNumber: Int) throws -> Int64 {
        precondition(count > 0, "allocate at least one key")
        let select = try connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        let update = try connection.cachedStatement("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
        for _ in 0..<8 {
            let swapped: Int64? = try connection.transaction(.exclusive) {
                select.reset()
                select.bind(Int64(rootEntityNumber), at: 1)
                guard try select.step() else {
                    throw AllocationError(message: "Z_PRIMARYKEY has no row for entity \(rootEntityNumber)")
                }
                let current = select.int64(at: 0)
                select.reset()
                let (maximum, overflow) = current.addingReportingOverflow(Int64(count))
                guard !overflow else { throw AllocationError(message: "primary keys of entity \(rootEntityNumber) are exhausted") }
                update.reset()
                update.bind(maximum, at: 1)
                update.bind(Int64(rootEntityNumber), at: 2)
                update.bind(current, at: 3)
                try update.step()
                update.reset()
                return connection.changes == 1 ? current + 1 : nil
            }
            if let first = swapped { return first }
        }
        throw AllocationError(message: "Z_PRIMARYKEY kept changing while allocating keys for entity \(rootEntityNumber)")
    }

    /// Reserves `count` consecutive keys as ``allocate(_:rootEntityNumber:)`` does, inside the
    /// write transaction the caller holds open on the connection: the new maximum is part of
    /// that transaction, kept when it commits and gone when it rolls back (no other writer can
    /// allocate meanwhile, as the transaction holds the database's write lock).
    public func allocateInOpenTransaction(_ count: Int, rootEntityNumber: Int) throws -> Int64 {
        precondition(count > 0, "allocate at least one key")
        precondition(connection.isInTransaction, "allocateInOpenTransaction needs an open write transaction")
        let select = try connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        defer { select.reset() }
        select.bind(Int64(rootEntityNumber), at: 1)
        guard try select.step() else { throw AllocationError(message: "Z_PRIMARYKEY has no row for entity \(rootEntityNumber)") }
        let current = select.int64(at: 0)
        select.reset()
        let (maximum, overflow) = current.addingReportingOverflow(Int64(count))
        guard !overflow else { throw AllocationError(message: "primary keys of entity \(rootEntityNumber) are exhausted") }
        let update = try connection.cachedStatement("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
        defer { update.reset() }
        update.bind(maximum, at: 1)
        update.bind(Int64(rootEntityNumber), at: 2)
        update.bind(current, at: 3)
        try update.step()
        guard connection.changes == 1 else {
            throw AllocationError(message: "Z_PRIMARYKEY changed inside the transaction allocating keys for entity \(rootEntityNumber)")
        }
        return current + 1
    }
}
