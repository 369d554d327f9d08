// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import ModelQuery

// Core Data's error codes (NSCocoaErrorDomain) and user-info keys, with Apple's values.

public let NSManagedObjectValidationError = 1550
public let NSManagedObjectConstraintValidationError = 1551
public let NSValidationMultipleErrorsError = 1560
public let NSValidationMissingMandatoryPropertyError = 1570
public let NSValidationRelationshipLacksMinimumCountError = 1580
public let NSValidationRelationshipExceedsMaximumCountError = 1590
public let NSValidationRelationshipDeniedDeleteError = 1600
public let NSValidationNumberTooLargeError = 1610
public let NSValidationNumberTooSmallError = 1620
public let NSValidationDateTooLateError = 1630
public let NSValidationDateTooSoonError = 1640
public let NSValidationInvalidDateError = 1650
public let NSValidationStringTooLongError = 1660
public let NSValidationStringTooShortError = 1670
public let NSValidationStringPatternMatchingError = 1680
public let NSValidationInvalidURIError = 1690
public let NSManagedObjectContextLockingError = 132000
public let NSPersistentStoreCoordinatorLockingError = 132010
public let NSManagedObjectReferentialIntegrityError = 133000
public let NSManagedObjectExternalRelationshipError = 133010
public let NSManagedObjectMergeError = 133020
public let NSManagedObjectConstraintMergeError = 133021
public let NSPersistentStoreInvalidTypeError = 134000
public let NSPersistentStoreTypeMismatchError = 134010
public let NSPersistentStoreIncompatibleSchemaError = 134020
public let NSPersistentStoreSaveError = 134030
public let NSPersistentStoreIncompleteSaveError = 134040
public let NSPersistentStoreSaveConflictsError = 134050
public let NSCoreDataError = 134060
public let NSPersistentStoreOperationError = 134070
public let NSPersistentStoreOpenError = 134080
public let NSPersistentStoreTimeoutError = 134090
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
public let NSPersistentStoreIncompatibleVersionHashError = 134100
public let NSMigrationError = 134110
public let NSSQLiteError = 134180

public let NSDetailedErrorsKey = "NSDetailedErrors"
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
public let NSValidationValueErrorKey = "NSValidationErrorValue"
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"

/// Errors the engine throws: `NSError`s in `NSCocoaErrorDomain` with Core Data's codes.
enum CoreDataError {
    static func make(_ code: Int, _ description: String, _ userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = description
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// `error` naming the store file at `url`: `NSFilePathErrorKey` added when it has none, and
    /// the path appended to the description when it does not mention it. Errors of other domains
    /// (a migration handler's own) are returned as they are.
    static func naming(_ error: any Error, store url: URL) -> any Error {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain else { return error }
        var info = error.userInfo
        if info[NSFilePathErrorKey] == nil { info[NSFilePathErrorKey] = url.path }
        let description = (info[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription
        guard !description.contains(url.path) || info.count != error.userInfo.count else { return error }
        info[NSLocalizedDescriptionKey] = description.contains(url.path) ? description : "\(description) (store file \(url.path))"
        return NSError(domain: error.domain, code: error.code, userInfo: info)
    }
}
#endif
