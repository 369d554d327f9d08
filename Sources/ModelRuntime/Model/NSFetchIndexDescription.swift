#if !canImport(CoreData)
import ModelQuery

/// A fetch index of an entity (`NSFetchIndexDescription`).
open class NSFetchIndexDescription: NSObject, NSCopying {
    weak var entityReference: NSEntityDescription?

    open var name: String {
        willSet { requireEditable(entityReference?.managedObjectModelReference, "fetch index '\(name)'") }
    }
    open var elements: [NSFetchIndexElementDescription] {
        willSet { requireEditable(entityReference?.managedObjectModelReference, "fetch index '\(name)'") }
        didSet { for element in elements { element.indexReference = self } }
    }

    /// Core Data declares it `unowned(unsafe)`; nil until the index belongs to an entity.
    open var entity: NSEntityDescription? { entityReference }

    /// Restricts the index to the rows matching the predicate (SQLite partial index).
    open var partialIndexPredicate: NSPredicate? {
        willSet { requireEditable(entityReference?.managedObjectModelReference, "fetch index '\(name)'") }
    }

    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        for element in self.elements { element.indexReference = self }
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexDescription(name: name, elements: elements.map { $0.copy(with: nil) as! NSFetchIndexElementDescription })
        copy.partialIndexPredicate = partialIndexPredicate
        return copy
    }

    open override var description: String {
        "(<NSFetchIndexDescription>), name \(name), elements (\(elements.map(\.description).joined(separator: ", ")))"
    }
}

/// One property of a fetch index (`NSFetchIndexElementDescription`).
open class NSFetchIndexElementDescription: NSObject, NSCopying {
    weak var indexReference: NSFetchIndexDescription?
    /// The element's property name as archived, used when the property object is not known.
    var storedPropertyName: String?

    open internal(set) var property: NSPropertyDescription? {
        didSet { storedPropertyName = property?.name }
    }
    open var propertyName: String? { property?.name ?? storedPropertyName }
    open var collationType: NSFetchIndexElementType
    open var isAscending: Bool = true

    /// Core Data declares it `unowned(unsafe)`; nil until the element belongs to an index.
    open var indexDescription: NSFetchIndexDescription? { indexReference }

    public init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        self.property = property
        self.storedPropertyName = property.name
        self.collationType = collationType
        super.init()
    }

    init(propertyName: String, collationType: NSFetchIndexElementType) {
        self.storedPropertyName = propertyName
        self.collationType = collationType
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexElementDescription(propertyName: propertyName ?? "", collationType: collationType)
        copy.property = property
        copy.isAscending = isAscending
        return copy
    }

    open override var description: String {
        "(<NSFetchIndexElementDescription>), property \(propertyName ?? "(null)"), collationType \(collationType == .rTree ? "RTree" : "Binary"), ascending \(isAscending ? "1" : "0")"
    }
}
#endif
