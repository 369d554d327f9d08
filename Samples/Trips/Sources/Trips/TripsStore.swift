import Foundation
import ModelRuntime

/// Where the Trips model lives at run time.
public enum TripsStore {
    /// The compiled `Trips.momd` the modelgen plugin built into this module's resources.
    public static func compiledModel() throws -> CompiledModelBundle {
        try CompiledModelBundle(named: TripsModel.name, in: .module)
    }
}

extension TripsStore {
    /// The compiled model in this module's resources; throws when the bundle has no `Trips.momd`.
    public static func managedObjectModel() throws -> NSManagedObjectModel {
        guard let model = TripsModel.managedObjectModel(in: .module) else {
            throw CocoaError(
                .fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "No \(TripsModel.name).momd in \(Bundle.module.bundlePath)"])
        }
        return model
    }
}
