#if !canImport(CoreData)
import ModelQuery

/// How to add a store (`NSPersistentStoreDescription`). Not `Sendable`, as Core Data's is not.
open class NSPersistentStoreDescription: NSObject, NSCopying {
    open var type: String = NSSQLiteStoreType
    open var configuration: String?
    open var url: URL?
    open private(set) var options: [String: NSObject] = [:]
    open var isReadOnly: Bool = false
    open var timeout: TimeInterval = 240
    /// The `NSSQLitePragmasOption` dictionary: pragma names and their values.
    open var sqlitePragmas: [String: NSObject] {
        guard let pragmas = options[NSSQLitePragmasOption] else { return [:] }
        if let dictionary = pragmas as? [String: NSObject] { return dictionary }
        var result: [String: NSObject] = [:]
        for (key, value) in (pragmas as? NSDictionary) ?? [:] {
            if let key = key as? String, let value = value as? NSObject { result[key] = value }
        }
        return result
    }
    open var shouldAddStoreAsynchronously: Bool = false
    open var shouldMigrateStoreAutomatically: Bool = true
    open var shouldInferMappingModelAutomatically: Bool = true

    public override init() {
        super.init()
    }

    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    open func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

    /// Sets (or, with nil, removes) one pragma of `NSSQLitePragmasOption`.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        options[NSSQLitePragmasOption] = pragmas.isEmpty ? nil : NSDictionary(dictionary: pragmas)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreDescription()
        copy.type = type
        copy.configuration = configuration
        copy.url = url
        copy.options = options
        copy.isReadOnly = isReadOnly
        copy.timeout = timeout
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        copy.shouldMigrateStoreAutomatically = shouldMigrateStoreAutomatically
        copy.shouldInferMappingModelAutomatically = shouldInferMappingModelAutomatically
        return copy
    }

    open override var description: String {
        "<NSPersistentStoreDescription: type: \(type), url: \(url?.absoluteString ?? "(null)")>"
    }
}
#endif
