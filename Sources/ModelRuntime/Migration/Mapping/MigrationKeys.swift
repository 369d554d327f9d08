// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
/// The variables a mapping's expressions read (`$manager`, `$source`, …), by Core Data's names.
public let NSMigrationManagerKey = "manager"
public let NSMigrationSourceObjectKey = "source"
public let NSMigrationDestinationObjectKey = "destination"
public let NSMigrationEntityMappingKey = "entityMapping"
public let NSMigrationPropertyMappingKey = "propertyMapping"
public let NSMigrationEntityPolicyKey = "entityPolicy"
#endif
