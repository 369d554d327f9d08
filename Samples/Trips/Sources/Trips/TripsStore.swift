import Foundation
import ModelRuntime

/// Where the Trips model lives at run time.
public enum TripsStore {
    /// The compiled `Trips.momd` the modelgen plugin built into this module's resources.
    public static func compiledModel() throws -> CompiledModelBundle {
        try CompiledModelBundle(named: TripsModel.name, in: .module)
    }
}
