#if !canImport(CoreData)
import ModelQuery

/// What `mutableSetValue(forKey:)` returns: an `NSMutableSet` that is the relationship itself.
/// It overrides `NSSet`'s primitive methods (`count`, `member(_:)`, `objectEnumerator()`) and
/// `NSMutableSet`'s (`add(_:)`, `remove(_:)`), so every read shows the relationship's current
/// members and every change (also `addObjects(from:)`, `removeAllObjects()`, `union(_:)`, …,
/// which Foundation builds on the primitives) changes the relationship and its inverse, as
/// Core Data's mutable set proxy does.
final class ToManyMutableSet: NSMutableSet {
    let owner: NSManagedObject
    let slot: Int

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(objects: nil, count: 0)
    }

    required init(capacity numItems: Int) {
        preconditionFailure("a relationship's mutable set is made by mutableSetValue(forKey:)")
    }

    override init(objects: UnsafePointer<AnyObject>!, count cnt: Int) {
        preconditionFailure("a relationship's mutable set is made by mutableSetValue(forKey:)")
    }

    private var members: [NSManagedObject] { owner.objects(atSlot: slot) }

    override var count: Int { members.count }

    override func member(_ object: Any) -> Any? {
        guard let candidate = object as? NSManagedObject else { return nil }
        return owner.loadedToMany(slot).contains(candidate) ? candidate : nil
    }

    override func objectEnumerator() -> NSEnumerator {
        NSArray(array: members).objectEnumerator()
    }

    override func add(_ object: Any) {
        owner.addToManyMember(object, atSlot: slot)
    }

    override func remove(_ object: Any) {
        owner.removeToManyMember(object, atSlot: slot)
    }
}

/// What `mutableOrderedSetValue(forKey:)` returns: an `NSMutableOrderedSet` that changes the
/// relationship and its inverse. The open methods read and change the relationship itself; the
/// methods Foundation on Linux does not let a subclass override (iteration, `array`,
/// `firstObject`, `lastObject`, `objectEnumerator()`) read a copy of the members that is
/// renewed after every change made through this set and whenever `count`, `object(at:)` or
/// `index(of:)` is read.
final class ToManyMutableOrderedSet: NSMutableOrderedSet {
    let owner: NSManagedObject
    let slot: Int
    private var renewing = false

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(objects: nil, count: 0)
        renew()
    }

    override init(objects: UnsafePointer<AnyObject>?, count cnt: Int) {
        preconditionFailure("a relationship's mutable ordered set is made by mutableOrderedSetValue(forKey:)")
    }

    override init(capacity numItems: Int) {
        preconditionFailure("a relationship's mutable ordered set is made by mutableOrderedSetValue(forKey:)")
    }

    required convenience init(arrayLiteral elements: Any...) {
        preconditionFailure("a relationship's mutable ordered set is made by mutableOrderedSetValue(forKey:)")
    }

    required convenience init?(coder aDecoder: NSCoder) {
        preconditionFailure("a relationship's mutable ordered set is made by mutableOrderedSetValue(forKey:)")
    }

    private var members: [NSManagedObject] { owner.objects(atSlot: slot) }

    /// Copies the relationship's members into Foundation's storage of the set.
    private func renew() {
        renewing = true
        defer { renewing = false }
        super.removeAllObjects()
        super.addObjects(from: members)
    }

    /// Makes `list` the relationship's members, in order.
    private func apply(_ list: [NSManagedObject]) {
        owner.setValue(list, atSlot: slot)
        renew()
    }

    override var count: Int {
        if !renewing { renew() }
        return members.count
    }

    override func object(at idx: Int) -> Any {
        let list = members
        precondition(list.indices.contains(idx), "index \(idx) beyond bounds [0 .. \(list.count - 1)]")
        return list[idx]
    }

    override func index(of object: Any) -> Int {
        guard let candidate = object as? NSManagedObject else { return NSNotFound }
        return members.firstIndex { $0 === candidate } ?? NSNotFound
    }

    override func contains(_ object: Any) -> Bool {
        if renewing { return super.contains(object) }
        guard let candidate = object as? NSManagedObject else { return false }
        return owner.loadedToMany(slot).contains(candidate)
    }

    override func insert(_ object: Any, at idx: Int) {
        var list = members
        guard let member = object as? NSManagedObject else { preconditionFailure("\(object) is not a managed object") }
        precondition(idx >= 0 && idx <= list.count, "index \(idx) beyond bounds [0 .. \(list.count)]")
        guard !list.contains(where: { $0 === member }) else { return }
        list.insert(member, at: idx)
        apply(list)
    }

    override func removeObject(at idx: Int) {
        var list = members
        precondition(list.indices.contains(idx), "index \(idx) beyond bounds [0 .. \(list.count - 1)]")
        list.remove(at: idx)
        apply(list)
    }

    override func replaceObject(at idx: Int, with obj: Any) {
        var list = members
        guard let member = obj as? NSManagedObject else { preconditionFailure("\(obj) is not a managed object") }
        precondition(list.indices.contains(idx), "index \(idx) beyond bounds [0 .. \(list.count - 1)]")
        let existing = list.firstIndex { $0 === member }
        guard existing != idx else { return }
        list[idx] = member
        if let existing { list.remove(at: existing) }
        apply(list)
    }

    override func add(_ object: Any) {
        owner.addToManyMember(object, atSlot: slot)
        renew()
    }

    override func add(_ objects: UnsafePointer<AnyObject>?, count: Int) {
        for object in UnsafeBufferPointer(start: objects, count: count) { owner.addToManyMember(object, atSlot: slot) }
        renew()
    }

    override func addObjects(from array: [Any]) {
        for object in array { owner.addToManyMember(object, atSlot: slot) }
        renew()
    }

    override func remove(_ val: Any) {
        owner.removeToManyMember(val, atSlot: slot)
        renew()
    }

    override func removeAllObjects() {
        apply([])
    }

    override func exchangeObject(at idx1: Int, withObjectAt idx2: Int) {
        var list = members
        list.swapAt(idx1, idx2)
        apply(list)
    }

    override func intersect(_ other: NSOrderedSet) {
        apply(members.filter { other.contains($0) })
    }

    override func sortRange(_ range: NSRange, options opts: NSSortOptions = [], usingComparator cmptr: (Any, Any) -> ComparisonResult) {
        var list = members
        guard let bounds = Range(range), bounds.lowerBound >= 0, bounds.upperBound <= list.count else {
            preconditionFailure("range \(range) beyond bounds [0 .. \(list.count)]")
        }
        let sorted = list[bounds].sorted { cmptr($0, $1) == .orderedAscending }
        list.replaceSubrange(bounds, with: sorted)
        apply(list)
    }

    /// Foundation's sort descriptors cannot be evaluated on Linux; sort with a comparator
    /// (`sort(comparator:)`) instead.
    override func sort(using sortDescriptors: [Foundation.NSSortDescriptor]) {
        preconditionFailure("sort(using:) is not available for a relationship on Linux; use sort(comparator:)")
    }
}

extension NSManagedObject {
    /// Adds a member to the to-many relationship at `slot` (the inverse follows).
    func addToManyMember(_ object: Any, atSlot slot: Int) {
        guard let member = object as? NSManagedObject else { preconditionFailure("\(object) is not a managed object") }
        if faultState != .materialized { fireFault() }
        addToMany(member, atSlot: slot)
    }

    /// Removes a member from the to-many relationship at `slot` (the inverse follows).
    func removeToManyMember(_ object: Any, atSlot slot: Int) {
        guard let member = object as? NSManagedObject else { return }
        if faultState != .materialized { fireFault() }
        removeFromToMany(member, atSlot: slot)
    }
}
#endif
