#if !canImport(CoreData)
import ModelQuery

// Foundation's block-based key-value observing (`observe(_:options:changeHandler:)`) with
// Apple's names and shapes, which Linux's Foundation lacks: there is no Objective-C runtime to
// swap in notifying setters, so only objects that announce their own changes can be observed.
// Here that is `NSMigrationManager`, whose `migrationProgress` and `currentEntityMapping` apps
// follow during a mapping migration.

/// What an observer asks to be told (Foundation's `NSKeyValueObservingOptions`, same raw values).
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Each change carries the value after it.
    public static var new: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x01) }
    /// Each change carries the value before it.
    public static var old: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x02) }
    /// One call with the current value as `observe` registers the handler, before it returns.
    public static var initial: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x04) }
    /// One more call before each change (`isPrior`), without the value after it.
    public static var prior: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x08) }
}

/// The kind of a change (Foundation's `NSKeyValueChange`). Every change reported here is a
/// `.setting`: the observable properties are not collections.
public enum NSKeyValueChange: UInt, Sendable {
    case setting = 1
    case insertion = 2
    case removal = 3
    case replacement = 4
}

/// One call of an observation's handler (Foundation's `NSKeyValueObservedChange`): `newValue`
/// is there only when the options hold `.new` (never in a prior call), `oldValue` only when they
/// hold `.old` (never in the initial call).
public struct NSKeyValueObservedChange<Value> {
    public typealias Kind = NSKeyValueChange
    public let kind: Kind
    public let newValue: Value?
    public let oldValue: Value?
    /// The changed indexes of an ordered to-many property; always nil here.
    public let indexes: IndexSet?
    /// Whether the call comes before the change (options with `.prior`).
    public let isPrior: Bool
}

extension NSKeyValueObservedChange: Sendable where Value: Sendable {}

/// A registered handler (Foundation's `NSKeyValueObservation`, made only by `observe`): its
/// handler is called until ``invalidate()`` or until the observation is released. It holds the
/// observed object weakly, as key-value observing does: the object may go first, and the
/// observation then simply has nothing left to report.
public class NSKeyValueObservation: NSObject {
    private let lock = NSLock()
    private weak var observers: KeyValueObservers?
    private var id: Int?

    init(observers: KeyValueObservers, id: Int) {
        self.observers = observers
        self.id = id
        super.init()
    }

    /// Stops the handler's calls; the second and later calls do nothing.
    public func invalidate() {
        let id = lock.withLock {
            defer { self.id = nil }
            return self.id
        }
        if let id { observers?.remove(id) }
    }

    deinit { invalidate() }
}

extension NSKeyValueObservation: @unchecked Sendable {}

/// The protocol that carries `observe(_:options:changeHandler:)` (Foundation's
/// `_KeyValueCodingAndObserving`).
///
/// Foundation conforms `NSObject`, so every object can be observed there. Here only
/// `NSMigrationManager` conforms: without the Objective-C runtime an object is observable only
/// where it reports its own changes, and conforming `NSObject` would offer `observe` on every
/// object while calling the handler for none of their changes. Call sites are spelt as in Core
/// Data (`manager.observe(\.migrationProgress, options: [.new]) { manager, change in … }`,
/// subclasses of `NSMigrationManager` included).
public protocol _KeyValueCodingAndObserving {}

extension NSMigrationManager: _KeyValueCodingAndObserving {}

extension _KeyValueCodingAndObserving where Self: NSMigrationManager {
    /// Calls `changeHandler` on every change of the property at `keyPath`, synchronously, on the
    /// thread that changes it, after the change (and also before it with `.prior`), until the
    /// returned observation is invalidated or released. Every setting is reported, an equal
    /// value included.
    ///
    /// `migrationProgress` and `currentEntityMapping` report their changes (the migration sets
    /// them at each step of each entity mapping). A key path of any other property is accepted
    /// but only ever gives the `.initial` call. A key path is recognised by equality with
    /// `\Self.migrationProgress` or `\Self.currentEntityMapping`; a `final` subclass that
    /// overrides one of the two gives key paths that name its override, which are not recognised.
    @preconcurrency
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        // Key paths of different roots never compare equal: both sides are built from `Self`.
        let key: String? =
            if keyPath == \Self.migrationProgress {
                "migrationProgress"
            } else if keyPath == \Self.currentEntityMapping {
                "currentEntityMapping"
            } else {
                nil
            }
        // The handler's registration holds the object weakly: the object keeps its observers, so
        // a strong reference would keep it alive as long as its own observation.
        let id = keyValueObservers.add(key: key) { [weak self] in
            guard let self else { return nil }
            let oldValue = options.contains(.old) ? self[keyPath: keyPath] : nil
            if options.contains(.prior) {
                changeHandler(
                    self, NSKeyValueObservedChange(kind: .setting, newValue: nil, oldValue: oldValue, indexes: nil, isPrior: true))
            }
            return {
                let newValue = options.contains(.new) ? self[keyPath: keyPath] : nil
                changeHandler(
                    self, NSKeyValueObservedChange(kind: .setting, newValue: newValue, oldValue: oldValue, indexes: nil, isPrior: false))
            }
        }
        if options.contains(.initial) {
            let newValue = options.contains(.new) ? self[keyPath: keyPath] : nil
            changeHandler(self, NSKeyValueObservedChange(kind: .setting, newValue: newValue, oldValue: nil, indexes: nil, isPrior: false))
        }
        return NSKeyValueObservation(observers: keyValueObservers, id: id)
    }
}

/// The observers of one object's observable properties, by key (the property's name). The
/// object calls ``changing(_:_:)`` around each change of one of them.
final class KeyValueObservers: @unchecked Sendable {
    /// Called before a change: makes the prior call if asked, reads the old value, and returns
    /// what to call after the change (nil when the observed object is gone).
    typealias WillChange = () -> (() -> Void)?

    private struct Entry {
        let id: Int
        let key: String?
        let willChange: WillChange
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var nextID = 0

    /// Registers `willChange` for the changes of `key`; nil (a property that reports no changes)
    /// never matches.
    func add(key: String?, willChange: @escaping WillChange) -> Int {
        lock.withLock {
            nextID += 1
            entries.append(Entry(id: nextID, key: key, willChange: willChange))
            return nextID
        }
    }

    func remove(_ id: Int) {
        lock.withLock { entries.removeAll { $0.id == id } }
    }

    private func isRegistered(_ id: Int) -> Bool {
        lock.withLock { entries.contains { $0.id == id } }
    }

    /// Runs `change`, the setting of the property `key`, with its observers' calls around it.
    /// The handlers run outside the lock (one may invalidate an observation or add one); an
    /// observation invalidated meanwhile gets no further call.
    func changing(_ key: String, _ change: () -> Void) {
        let observers = lock.withLock { entries.isEmpty ? [] : entries.filter { $0.key == key } }
        if observers.isEmpty {
            change()
            return
        }
        var afterwards: [(id: Int, call: () -> Void)] = []
        for observer in observers where isRegistered(observer.id) {
            if let call = observer.willChange() { afterwards.append((observer.id, call)) }
        }
        change()
        for (id, call) in afterwards where isRegistered(id) { call() }
    }
}
#endif
