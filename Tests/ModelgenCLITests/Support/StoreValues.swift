#if !canImport(CoreData)
import Foundation
import ModelRuntime
import TestSupport

/// The values of the CoreDataPlus sample's stores, read through the runtime with the version of
/// the fixture's compiled model that wrote them.
enum StoreValues {
    struct Car: Equatable {
        var entity: String
        var model: String?
        var markedForDeletion: Date?
        var owner: String?
        var previousOwners: Set<String>
    }

    static func context(_ path: String, version: String) throws -> NSManagedObjectContext {
        try context(path, model: Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/\(version).mom"))
    }

    /// A private-queue context reading the store at `path`, opened read-only with the `.mom` at `url`.
    static func context(_ path: String, model url: URL) throws -> NSManagedObjectContext {
        guard let model = NSManagedObjectModel(contentsOf: url) else { throw CocoaError(.fileReadCorruptFile) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: URL(fileURLWithPath: path),
            options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// A person by first name, last name and update date.
    static func person(_ object: Any?) -> String? {
        guard let person = object as? NSManagedObject else { return nil }
        let date = (person.value(forKey: "updatedAt") as? Date)?.timeIntervalSinceReferenceDate ?? 0
        return "\(person.value(forKey: "firstName") as? String ?? "") \(person.value(forKey: "lastName") as? String ?? "") \(date)"
    }

    /// Every car by number plate.
    static func cars(at path: String, version: String) throws -> [String: Car] {
        let context = try context(path, version: version)
        return try context.performAndWait {
            var result: [String: Car] = [:]
            for car in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car")) {
                let previous =
                    car.entity.propertiesByName["previousOwners"] != nil
                    ? car.value(forKey: "previousOwners") as? Set<NSManagedObject> ?? [] : []
                result[car.value(forKey: "numberPlate") as? String ?? ""] = Car(
                    entity: car.entity.name ?? "", model: car.value(forKey: "model") as? String,
                    markedForDeletion: car.value(forKey: "markedForDeletionAsOf") as? Date, owner: person(car.value(forKey: "owner")),
                    previousOwners: Set(previous.compactMap { person($0) }))
            }
            return result
        }
    }

    /// Each person of a version 3 store with the number plates of their cars and previous cars.
    static func previousCars(at path: String) throws -> [String: (current: Set<String>, previous: Set<String>)] {
        let context = try context(path, version: "SampleModel3")
        return try context.performAndWait {
            func plates(_ value: Any?) -> Set<String> {
                Set((value as? Set<NSManagedObject> ?? []).compactMap { $0.value(forKey: "numberPlate") as? String })
            }
            var result: [String: (current: Set<String>, previous: Set<String>)] = [:]
            for person in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) {
                result[Self.person(person) ?? ""] = (plates(person.value(forKey: "cars")), plates(person.value(forKey: "previousCars")))
            }
            return result
        }
    }
}
#endif
