#if !canImport(CoreData)
import ModelQuery

/// A key of the rows a dictionary fetch returns, made once per fetch and shared by its rows.
///
/// It is an immutable `NSString` that keeps its Swift string and its hash: an `NSDictionary`
/// copies and hashes each key it is made with, and for this key the copy is the key itself and
/// the hash is computed once per fetch, not once per row. It hashes and compares equal as the plain `NSString` of the same text does, so rows are
/// read with any string key; it bridges to `String` and archives as an `NSString`.
final class DictionaryRowKey: NSString {
    let string: String
    /// The text's UTF-16 code units, which Foundation reads one at a time when it bridges the
    /// key to a `String` or compares an ordinary string with it.
    private let units: [unichar]
    private let storedHash: Int

    init(_ string: String) {
        self.string = string
        units = Array(string.utf16)
        storedHash = NSString(string: string).hash
        var none: unichar = 0
        super.init(characters: &none, length: 0)
    }

    required convenience init(string aString: String) { self.init(aString) }

    required convenience init?(coder aDecoder: NSCoder) {
        guard let decoded = NSString(coder: aDecoder) else { return nil }
        self.init(String._unconditionallyBridgeFromObjectiveC(decoded))
    }

    required convenience init(stringLiteral value: StaticString) { self.init(value.description) }
    required convenience init(extendedGraphemeClusterLiteral value: StaticString) { self.init(value.description) }
    required convenience init(unicodeScalarLiteral value: StaticString) { self.init(value.description) }

    override var length: Int { units.count }

    override func character(at index: Int) -> unichar { units[index] }

    override var hash: Int { storedHash }

    override func isEqual(_ object: Any?) -> Bool {
        guard let object else { return false }
        // Another key (making a row compares its keys) or a plain `NSString` (reading a row by a
        // `String` key) is told by its class and read from the existential without a dynamic
        // cast, which would cost more than the comparison (see `StoredValueCast`).
        if StoredValueCast.layoutHolds {
            let dynamicType = type(of: object)
            if dynamicType == DictionaryRowKey.self {
                let key = StoredValueCast.load(object, as: DictionaryRowKey.self)
                return key === self || key.string == string
            }
            if dynamicType == NSString.self {
                return string == String._unconditionallyBridgeFromObjectiveC(StoredValueCast.load(object, as: NSString.self))
            }
        }
        // One cast from the existential; telling a key from another string is a class cast.
        guard let other = object as? NSString else { return false }
        if other === self { return true }
        if let key = other as? DictionaryRowKey { return key.string == string }
        return string == String._unconditionallyBridgeFromObjectiveC(other)
    }

    override func copy(with zone: NSZone? = nil) -> Any { self }
    override var description: String { string }
    override var classForCoder: AnyClass { NSString.self }
}
#endif
