import ModelSchema
import ModelgenCLI

#if canImport(CoreData)
import Foundation
#else
import ModelRuntime
#endif

/// `modelgen migrate-store`'s migrator for steps with mapping models: on Linux, ModelRuntime's
/// `NSMigrationManager` runs each mapping model, and its lightweight migration the other steps,
/// on one copy of the store swapped in at the end, as automatic migration does when an app opens
/// the store. Apple platforms' ModelRuntime is Core Data itself, which runs mapping models from
/// its own compiled models: there the command refuses these steps and the app migrates the store.
public struct RuntimeStoreMigrator: MappedStoreMigrating {
    public init() {}

    public func migrate(
        storeAt path: String, through versions: [ModelVersion], mappings: [Int: MappingModel], progress: ProgressHandler?
    ) throws {
        #if canImport(CoreData)
        throw Unsupported(
            message:
                "this build of modelgen runs no mapping model on Apple platforms; open the store in the app with automatic migration")
        #else
        try MappedStoreMigration.migrate(storeAt: path, through: versions, mappings: mappings, progress: progress)
        #endif
    }

    #if canImport(CoreData)
    struct Unsupported: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
    #endif
}
