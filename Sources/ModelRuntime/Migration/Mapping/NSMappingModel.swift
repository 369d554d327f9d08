#if !canImport(CoreData)
import ModelQuery
import ModelSchema

/// The entity mappings that migrate a store of one model to another. Made in code, inferred
/// from two models (``inferredMappingModel(forSourceModel:destinationModel:)``), or loaded from
/// a compiled mapping model (`.cdm`).
open class NSMappingModel: NSObject {
    private var mappings: [NSEntityMapping] = []

    public override init() {
        super.init()
    }

    /// Run in this order.
    open var entityMappings: [NSEntityMapping]! {
        get { mappings }
        set { mappings = newValue ?? [] }
    }

    open var entityMappingsByName: [String: NSEntityMapping] {
        var result: [String: NSEntityMapping] = [:]
        for mapping in mappings { result[mapping.name] = mapping }
        return result
    }

    /// The mapping model lightweight migration infers between the two models: an entity mapping
    /// per destination entity (copy when the entity did not change, transform when it did, add
    /// when it is new) and per source entity the destination drops (remove), pairing entities
    /// and properties by renaming identifier as Core Data does. Throws
    /// `NSInferredMappingModelError` when a change cannot be inferred (such as an attribute
    /// whose type changed).
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel)
        throws -> NSMappingModel
    {
        try InferredMappingModel.make(from: sourceModel, to: destinationModel)
    }

    open override var description: String {
        "<NSMappingModel: \(mappings.map { $0.name ?? "" }.joined(separator: ", "))>"
    }
}
#endif
