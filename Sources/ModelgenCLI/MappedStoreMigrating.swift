import ModelSchema

/// Migrates a store some of whose steps go through mapping models. Running a mapping model takes
/// the runtime (`NSMigrationManager` and `NSEntityMigrationPolicy` over managed objects), which
/// this module does not link: the `modelgen` executable passes the runtime's migrator
/// (`ModelgenMigrationEngine`) in its ``Console``; the plugins' tool, which links no runtime,
/// passes none, and `migrate-store` then refuses such steps.
public protocol MappedStoreMigrating: Sendable {
    /// Migrates the store at `path`, written by `versions[0]`, to the last of `versions`, one
    /// consecutive pair at a time: step `index` through `mappings[index]` when it has one,
    /// lightweight otherwise. All or nothing: when it throws, the store's files are as they were.
    /// `progress` hears each step as it starts and ends.
    func migrate(storeAt path: String, through versions: [ModelVersion], mappings: [Int: MappingModel], progress: ProgressHandler?)
        throws
}
