#if !canImport(CoreData)
import Foundation

/// An Objective-C selector name. Linux has no Objective-C runtime, so `#selector` is not
/// available; write `Selector("localizedStandardCompare:")` (which also compiles on Apple
/// platforms). Sort descriptors understand the comparison selectors listed on `NSSortDescriptor`.
public struct Selector: Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    public var description: String { name }
}

/// How to order objects by the value at a key path, Foundation's `NSSortDescriptor`: values
/// compare as in predicates (numbers across types, strings, dates), nil before every value when
/// ascending. Selectors: `compare:`, `caseInsensitiveCompare:`, `localizedCompare:`,
/// `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`.
///
/// Linux Foundation has its own `NSSortDescriptor`; a file importing Foundation too finds both
/// ("ambiguous for type lookup"): add `typealias NSSortDescriptor = ModelRuntime.NSSortDescriptor` to the module.
open class NSSortDescriptor: NSObject, NSCopying, @unchecked Sendable {
    public let key: String?
    public let ascending: Bool
    public let selector: Selector?
    /// The Swift key path the descriptor was made from, if any.
    public let keyPath: AnyKeyPath?
    package let components: [String]
    package let block: Comparator?

    static let supportedSelectors: Set<String> = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:", "localizedStandardCompare:",
    ]

    init(key: String?, keyPath: AnyKeyPath?, ascending: Bool, selector: Selector?, comparator: Comparator?) {
        if let selector, !Self.supportedSelectors.contains(selector.name) {
            fatalError(
                "NSSortDescriptor: unsupported selector \(selector.name) (use \(Self.supportedSelectors.sorted().joined(separator: ", ")))")
        }
        self.key = key
        self.keyPath = keyPath
        self.ascending = ascending
        self.selector = selector
        block = comparator
        components = key.map(KeyPathReader.components) ?? []
        super.init()
    }

    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, keyPath: nil, ascending: ascending, selector: nil, comparator: nil)
    }

    public convenience init(key: String?, ascending: Bool, selector: Selector?) {
        self.init(key: key, keyPath: nil, ascending: ascending, selector: selector, comparator: nil)
    }

    public convenience init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.init(key: key, keyPath: nil, ascending: ascending, selector: nil, comparator: cmptr)
    }

    /// A descriptor on a Swift key path of a type that names its key paths (generated classes
    /// adopt `KeyPathStringConvertible`). A key path without a name is a programming error.
    public convenience init<Root: KeyPathStringConvertible, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: Self.name(of: keyPath), keyPath: keyPath, ascending: ascending, selector: nil, comparator: nil)
    }

    public convenience init<Root: KeyPathStringConvertible, Value>(
        keyPath: KeyPath<Root, Value>, ascending: Bool, comparator cmptr: @escaping Comparator
    ) {
        self.init(key: Self.name(of: keyPath), keyPath: keyPath, ascending: ascending, selector: nil, comparator: cmptr)
    }

    private static func name<Root, Value>(of keyPath: KeyPath<Root, Value>) -> String {
        guard let name = keyPathString(keyPath) else {
            fatalError("NSSortDescriptor(keyPath:): \(Root.self) gives no string key for \(keyPath)")
        }
        return name
    }

    /// The comparison of two values (not objects) this descriptor applies, ascending.
    open var comparator: Comparator {
        { [self] lhs, rhs in compareValues(lhs, rhs) }
    }

    /// The same descriptor in the opposite direction.
    open var reversedSortDescriptor: Any {
        NSSortDescriptor(key: key, keyPath: keyPath, ascending: !ascending, selector: selector, comparator: block)
    }

    /// The order of two objects by the values at the descriptor's key.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        compareSortValues(sortValue(of: object1), sortValue(of: object2))
    }

    /// The value an object is sorted by (the object itself without a key), normalized.
    func sortValue(of object: Any) -> Any? {
        QueryValues.normalized(key == nil ? object : KeyPathReader.value(at: components, of: object))
    }

    /// The order of two sort values in the descriptor's direction.
    func compareSortValues(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        let result = compareValues(lhs, rhs)
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    private func compareValues(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        let lhs = QueryValues.normalized(lhs)
        let rhs = QueryValues.normalized(rhs)
        if let block, let lhs, let rhs { return block(lhs, rhs) }
        if let selector, selector.name != "compare:", let lhs, let rhs, let l = QueryValues.string(lhs), let r = QueryValues.string(rhs) {
            switch selector.name {
            case "caseInsensitiveCompare:": return l.caseInsensitiveCompare(r)
            case "localizedCompare:": return l.localizedCompare(r)
            case "localizedCaseInsensitiveCompare:": return l.localizedCaseInsensitiveCompare(r)
            default: return l.localizedStandardCompare(r)
            }
        }
        return QueryValues.compareNormalized(lhs, rhs) ?? .orderedSame
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String {
        "(\(key ?? "SELF"), \(ascending ? "ascending" : "descending"), \(selector?.name ?? "compare:"))"
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        return self === other
            || (key == other.key && ascending == other.ascending && selector == other.selector && block == nil && other.block == nil)
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(ascending)
        hasher.combine(selector)
        return hasher.finalize()
    }
}
#endif
