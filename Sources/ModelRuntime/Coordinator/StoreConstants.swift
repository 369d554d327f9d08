// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Foundation

public let NSSQLiteStoreType = "SQLite"
/// An SQLite database in memory, with exactly the file store's behaviour.
public let NSInMemoryStoreType = "InMemory"
public let NSBinaryStoreType = "Binary"

public let NSStoreTypeKey = "NSStoreType"
public let NSStoreUUIDKey = "NSStoreUUID"
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"

public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
public let NSPersistentStoreFileProtectionKey = "NSPersistentStoreFileProtectionKey"

extension NSPersistentStore {
    /// A store type (`NSPersistentStore.StoreType`, iOS 15).
    /// Not `Sendable`, as in Core Data's overlay.
    public struct StoreType: Hashable, Equatable, RawRepresentable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public typealias RawValue = String
    }
}
extension NSPersistentStore.StoreType {
    public static var sqlite: NSPersistentStore.StoreType { .init(rawValue: NSSQLiteStoreType) }
    public static var inMemory: NSPersistentStore.StoreType { .init(rawValue: NSInMemoryStoreType) }
    public static var binary: NSPersistentStore.StoreType { .init(rawValue: NSBinaryStoreType) }
}
#endif
