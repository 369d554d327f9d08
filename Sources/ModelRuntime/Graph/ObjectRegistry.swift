#if !canImport(CoreData)
import ModelQuery
import Synchronization

/// The objects a context has registered, one per identity (``ObjectKey``: store, table and
/// primary key, or a temporary identity), so fetching or resolving an ID twice gives the same
/// object.
///
/// As in Core Data (`retainsRegisteredObjects` false, its default), the registry does not keep
/// its objects alive: the context holds inserted, updated and deleted objects through its change
/// sets, everything else lives as long as the application (or another object) refers to it, and
/// an object leaves the registry when it is freed. With `retainsRegisteredObjects` the registry
/// holds every object strongly.
///
/// An open-addressing table with linear probing, keyed by the two words of ``ObjectKey`` and
/// holding unretained references, behind a lock: objects remove themselves when they are freed,
/// which may happen on any thread.
///
/// The hollow objects a batched fetch makes are not entered in the table: the fetch's
/// ``FetchBatches`` lists them by position next to its keys (one word a row instead of a table
/// entry), and a lookup the table cannot answer asks the live batched fetches of the key's store
/// and root entity (see ``FetchBatches/position(of:where:)``). A fetch without a batch size does
/// the same for its rows after the first ``tableRowsPerFetch``: registering, looking up and
/// forgetting a large result's objects then walks its list in order instead of touching a table
/// entry at a random place per row (a cache miss each once the table outgrows the cache). At most
/// ``maximumPages`` fetches list objects at a time, so a lookup asks a bounded number of them.
/// Every operation here treats both kinds of registration alike, so uniquing holds across them.
///
/// An object is listed until its `deinit` reaches ``forget(_:key:page:position:)``, which waits
/// for the lock: between the object's last release (on whatever thread) and that moment it is
/// listed but already being freed. Every reference handed out is therefore taken under the lock
/// with ``retained(_:)`` (the runtime's `swift_tryRetain`, the same atomic
/// update a retain is), which refuses such an object: it counts as not registered, so the caller
/// makes a new one, and its `deinit` then finds another object listed and leaves it. A reference
/// taken after unlocking, or a plain retain under the lock, would hold an object whose memory is
/// freed when its `deinit` ends.
final class ObjectRegistry: @unchecked Sendable {
    private struct Entry {
        var key: ObjectKey
        var object: Unmanaged<NSManagedObject>?
    }

    private let lock = Mutex(())
    /// ``swiftTryRetain``, kept here so the hot lookups read a field (not a lazy global).
    private let tryRetain = swiftTryRetain
    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
    /// A power of two, 2^(64 − `shift`).
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var shift: UInt64
    @exclusivity(unchecked) private(set) var count = 0
    /// Whether the registry holds its objects strongly (`retainsRegisteredObjects`).
    @exclusivity(unchecked) private var retains = false
    /// The live batched fetches whose objects are registered by position, unretained: a fetch
    /// leaves when it is freed (``removePage(_:)``).
    @exclusivity(unchecked) private var pages: [Unmanaged<FetchBatches>] = [] {
        didSet { hasPages = !pages.isEmpty }
    }
    /// Whether ``pages`` has any (read on every lookup the table misses).
    @exclusivity(unchecked) private var hasPages = false

    init() {
        capacity = 16
        shift = 64 - 4
        entries = Self.allocate(capacity)
    }

    deinit {
        if retains {
            for index in 0..<capacity { entries[index].object?.release() }
        }
        entries.deinitialize(count: capacity)
        entries.deallocate()
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Entry> {
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        entries.initialize(repeating: Entry(key: ObjectKey(table: 0, number: 0), object: nil), count: capacity)
        return entries
    }

    /// A strong reference to `object`, unless it is being freed (its last reference was released
    /// and its `deinit` runs, or is about to reach ``forget(_:key:page:position:)``): nil then.
    /// Called with the lock held, which keeps a listed object's memory from being freed until its
    /// `deinit` has left the registry.
    @inline(__always)
    private func retained(_ object: Unmanaged<NSManagedObject>) -> NSManagedObject? {
        guard tryRetain(object.toOpaque()) != nil else { return nil }
        return object.takeRetainedValue()
    }

    /// The key's first slot, from its two words mixed (consecutive primary keys spread over the
    /// table, so no long runs form: removing an entry shifts back only the rest of its run).
    @inline(__always)
    private func home(_ key: ObjectKey) -> Int { Int(truncatingIfNeeded: key.mixed >> shift) }

    /// The index of `key`'s entry, or of the empty entry that ends its probe sequence.
    @inline(__always)
    private func find(_ key: ObjectKey) -> (index: Int, found: Bool) {
        let mask = capacity - 1
        var index = home(key)
        while entries[index].object != nil {
            if entries[index].key == key { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    subscript(key: ObjectKey) -> NSManagedObject? {
        get { object(for: key, excluding: nil) }
        set {
            if let newValue { insert(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// The object registered under `key`, not looking among the rows of `page` (a fetch asking
    /// for each of its rows whether it is registered already: its own rows are distinct, and its
    /// key index would have to be remade on every row).
    func object(for key: ObjectKey, excluding excluded: FetchBatches?) -> NSManagedObject? {
        nonisolated(unsafe) var object: NSManagedObject?
        lock.withLock { _ in
            let (index, found) = find(key)
            if found {
                object = entries[index].object.flatMap(retained)
            } else if hasPages {
                object = pagedObject(key, excluding: excluded)?.object
            }
        }
        return object
    }

    /// How many rows of a fetch without a batch size are registered in the table before the rest
    /// are registered by position in the fetch's ``FetchBatches`` (see ``register(_:row:in:)``).
    static let tableRowsPerFetch = 64
    /// How many fetches may have their objects registered by position; registering one more
    /// moves the objects of the oldest fetch without a batch size into the table, so a lookup
    /// the table misses asks a bounded number of fetches.
    static let maximumPages = 32

    /// Registers a new object of a fetch without a batch size as the row `key` of `page` (the
    /// fetch's keys), which the object takes as its ``NSManagedObject/batches``. The first rows go
    /// into the table; the rest are registered by position, which costs a word a row written in
    /// order instead of a table entry at a random place (and the same when the object is freed).
    func register(_ object: NSManagedObject, row key: ObjectKey, in page: FetchBatches) {
        let inTable: Bool = lock.withLock { _ in
            if page.slots == nil, !retains, page.count >= Self.tableRowsPerFetch {
                page.makeSlots(registry: self)
                addPage(page)
            }
            let position = page.append(key.number)
            object.setBatches(page, position: position)
            guard let slots = page.slots, !retains else { return true }
            slots[Int(position)] = Unmanaged.passUnretained(object)
            return false
        }
        if inTable { insert(object, forKey: key) }
    }

    /// Adds a fetch whose objects are registered by position (lock held).
    private func addPage(_ page: FetchBatches) {
        if pages.count >= Self.maximumPages, let oldest = pages.firstIndex(where: { !$0.takeUnretainedValue().isPaging }) {
            let moved = pages.remove(at: oldest).takeUnretainedValue()
            moveToTable(moved)
        }
        pages.append(Unmanaged.passUnretained(page))
    }

    private func insert(_ object: NSManagedObject, forKey key: ObjectKey) {
        let replaced: Unmanaged<NSManagedObject>? = lock.withLock { _ in
            if (count + 1) * 4 > capacity * 3 { grow(to: capacity * 2) }
            let (index, found) = find(key)
            let previous = found ? entries[index].object : nil
            if !found { count += 1 }
            let new = Unmanaged.passUnretained(object)
            if retains { _ = new.retain() }
            entries[index] = Entry(key: key, object: new)
            // A batched fetch's object under the same key is registered here from now on.
            if !found, hasPages, let (page, position) = pagedEntry(key, excluding: nil) { page.slots![position] = nil }
            return retains ? previous : nil
        }
        replaced?.release()
    }

    @discardableResult
    func removeValue(forKey key: ObjectKey) -> NSManagedObject? {
        let (removed, owned): (NSManagedObject?, Bool) = lock.withLock { _ in
            let (index, found) = find(key)
            guard found, let object = entries[index].object else {
                guard hasPages, let (page, position, object) = pagedObject(key, excluding: nil) else { return (nil, false) }
                page.slots![position] = nil
                return (object, false)
            }
            remove(at: index)
            // Held strongly, the object cannot be being freed; otherwise it may be.
            return retains ? (object.takeUnretainedValue(), true) : (retained(object), false)
        }
        // The strong reference the registry held moves to the caller.
        if owned, let removed { Unmanaged.passUnretained(removed).release() }
        return removed
    }

    /// Removes `object` when it is the one registered under `key`, or at `position` of the
    /// batched fetch `page` (a freed object leaving).
    func forget(_ object: NSManagedObject, key: ObjectKey, page: FetchBatches? = nil, position: Int = 0) {
        lock.withLock { _ in
            if let page, let slots = page.slots, slots[position]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() {
                slots[position] = nil
                return
            }
            let (index, found) = find(key)
            if found, entries[index].object?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() { remove(at: index) }
        }
    }

    /// Empties `index` and moves later entries of the probe sequence back (no tombstones).
    private func remove(at index: Int) {
        let mask = capacity - 1
        var hole = index
        var next = (index + 1) & mask
        while entries[next].object != nil {
            let wanted = home(entries[next].key)
            // The entry may fill the hole when the hole lies between its home and its slot.
            let distanceToHole = (hole - wanted) & mask
            let distanceToNext = (next - wanted) & mask
            if distanceToHole < distanceToNext {
                entries[hole] = entries[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        entries[hole].object = nil
        count -= 1
    }

    private func grow(to newCapacity: Int) {
        let old = entries
        let oldCapacity = capacity
        capacity = newCapacity
        shift = UInt64(64 - newCapacity.trailingZeroBitCount)
        entries = Self.allocate(newCapacity)
        let mask = newCapacity - 1
        for index in 0..<oldCapacity {
            guard old[index].object != nil else { continue }
            var slot = home(old[index].key)
            while entries[slot].object != nil { slot = (slot + 1) & mask }
            entries[slot] = old[index]
        }
        old.deinitialize(count: oldCapacity)
        old.deallocate()
    }

    /// The registered objects.
    var values: [NSManagedObject] {
        lock.withLock { _ in
            var objects: [NSManagedObject] = []
            objects.reserveCapacity(count)
            for index in 0..<capacity { if let object = entries[index].object.flatMap(retained) { objects.append(object) } }
            for page in pages {
                let page = page.takeUnretainedValue()
                guard let slots = page.slots else { continue }
                for position in 0..<page.count { if let object = slots[position].flatMap(retained) { objects.append(object) } }
            }
            return objects
        }
    }

    func removeAll() {
        let owned: [Unmanaged<NSManagedObject>] = lock.withLock { _ in
            var owned: [Unmanaged<NSManagedObject>] = []
            for index in 0..<capacity {
                if retains, let object = entries[index].object { owned.append(object) }
                entries[index].object = nil
            }
            count = 0
            // The batched fetches' objects leave too, and lookups stop asking those fetches.
            for page in pages { page.takeUnretainedValue().clearSlots() }
            pages.removeAll()
            return owned
        }
        for object in owned { object.release() }
    }

    /// Holds every registered object strongly from now on, or stops doing so.
    func setRetainsObjects(_ flag: Bool) {
        let released: [Unmanaged<NSManagedObject>] = lock.withLock { _ in
            guard flag != retains else { return [] }
            retains = flag
            // Objects held strongly are not worth the saving: the table takes the batched
            // fetches' objects.
            if flag { movePagesToTable() }
            var objects: [Unmanaged<NSManagedObject>] = []
            var freed: [ObjectKey] = []
            for index in 0..<capacity {
                guard let object = entries[index].object else { continue }
                if !flag {
                    objects.append(object)
                } else if let alive = retained(object) {
                    // The registry's reference from now on.
                    _ = Unmanaged.passRetained(alive)
                } else {
                    // Being freed: it leaves now (its `deinit` will find nothing to remove).
                    freed.append(entries[index].key)
                }
            }
            for key in freed {
                let (index, found) = find(key)
                if found { remove(at: index) }
            }
            return objects
        }
        for object in released { object.release() }
    }

    // MARK: Batched fetches

    /// Registers `object` as the row at `position` of the batched fetch `page` (or in the table
    /// while the registry holds its objects strongly). An object registered by another batched
    /// fetch moves to this one, as does its ``NSManagedObject/batches``.
    func register(_ object: NSManagedObject, in page: FetchBatches, at position: Int) {
        let key = page.key(at: position, root: page.entity(at: position).rootNumber)
        // Kept until the lock is released: the object may hold the last reference to its former
        // fetch, which leaves the registry when freed.
        let former = object.batches
        defer { withExtendedLifetime(former) {} }
        let inTable: Bool = lock.withLock { _ in
            if retains {
                object.setBatches(page, position: Int32(position))
                return true
            }
            if page.slots == nil {
                page.makeSlots(registry: self)
                addPage(page)
            }
            if let previous = former, previous !== page, let slots = previous.slots {
                let old = Int(object.batchPosition)
                if slots[old]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() { slots[old] = nil }
            }
            object.setBatches(page, position: Int32(position))
            if find(key).found { return false }
            page.slots![position] = Unmanaged.passUnretained(object)
            return false
        }
        if inTable { self[key] = object }
    }

    /// The object registered for the row at `position` of `page`: by position, else in the table.
    func object(in page: FetchBatches, at position: Int) -> NSManagedObject? {
        nonisolated(unsafe) var object: NSManagedObject?
        lock.withLock { _ in
            if let slots = page.slots, let registered = slots[position] {
                object = retained(registered)
            } else {
                let (index, found) = find(page.key(at: position, root: page.entity(at: position).rootNumber))
                object = found ? entries[index].object.flatMap(retained) : nil
            }
        }
        return object
    }

    /// How many fetches list objects by position now.
    var pageCount: Int { lock.withLock { _ in pages.count } }

    /// A freed batched fetch leaving.
    func removePage(_ page: FetchBatches) {
        lock.withLock { _ in pages.removeAll { $0.toOpaque() == Unmanaged.passUnretained(page).toOpaque() } }
    }

    /// The live object registered by position under `key`, with its fetch and position,
    /// `excluded` aside (lock held), retained for the caller. Two fetches may list a key at once:
    /// an object freed on another thread stays in its fetch's list until its `deinit` takes it
    /// out, and meanwhile a fetch on the context's queue registers the row's new object in its
    /// own list. The freed object is passed over, so the new one is found and stays the row's
    /// only object.
    private func pagedObject(
        _ key: ObjectKey, excluding excluded: FetchBatches?
    ) -> (page: FetchBatches, position: Int, object: NSManagedObject)? {
        var live: NSManagedObject?
        let entry = pagedEntry(key, excluding: excluded) { slot in
            live = slot.flatMap(retained)
            return live != nil
        }
        guard let entry, let live else { return nil }
        return (entry.0, entry.1, live)
    }

    /// The fetch and position where `key`'s object is registered by position, `excluded` aside
    /// (lock held): the first listed whose entry `accept`s (by default, any entry).
    private func pagedEntry(
        _ key: ObjectKey, excluding excluded: FetchBatches?,
        accept: (Unmanaged<NSManagedObject>?) -> Bool = { $0 != nil }
    ) -> (FetchBatches, Int)? {
        guard key.table & 1 == 0 else { return nil }
        let store = UInt32(truncatingIfNeeded: key.table >> 32)
        let root = Int((key.table >> 1) & 0x7fff_ffff)
        let skipped = excluded.map { Unmanaged.passUnretained($0).toOpaque() }
        // Asked for every row a fetch makes: the fetches are visited without reference counting
        // (the lock keeps them listed, and a listed fetch is alive).
        for index in pages.indices where pages[index].toOpaque() != skipped {
            let position = pages[index]._withUnsafeGuaranteedRef { page -> Int? in
                guard page.storeNumber == store, page.entity.rootNumber == root, let slots = page.slots else { return nil }
                return page.position(of: key.number, where: { accept(slots[$0]) })
            }
            if let position { return (pages[index].takeUnretainedValue(), position) }
        }
        return nil
    }

    /// Enters every batched fetch's objects in the table (lock held). The fetches are visited
    /// without reference counting, as lookups visit them: a retain and release here could be the
    /// last release of a fetch another thread let go, whose `deinit` then needs the lock held here.
    private func movePagesToTable() {
        for page in pages { page._withUnsafeGuaranteedRef { moveToTable($0) } }
    }

    /// Enters the objects `page` lists by position in the table (lock held). The fetch keeps its
    /// slots, empty: its objects' lookups fall back to the table.
    private func moveToTable(_ page: FetchBatches) {
        guard let slots = page.slots else { return }
        for position in 0..<page.count {
            guard let object = slots[position] else { continue }
            slots[position] = nil
            let key = page.key(at: position, root: page.entity(at: position).rootNumber)
            if (count + 1) * 4 > capacity * 3 { grow(to: capacity * 2) }
            let (index, found) = find(key)
            if !found { count += 1 }
            entries[index] = Entry(key: key, object: object)
        }
    }
}

/// `swift_tryRetain` of the Swift runtime: raises the object's strong count unless its `deinit`
/// has begun, and answers nil then. Exported by the runtime on every platform (it is how `weak`
/// references are read) but not part of the standard library's API, so it is looked up once.
private let swiftTryRetain: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_tryRetain") else {
        preconditionFailure("the Swift runtime exports no swift_tryRetain")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?).self)
}()
#endif
