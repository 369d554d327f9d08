#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// The controller's results: sections from the section key path, index paths, index titles,
/// and Core Data's refusals.
struct FetchedResultsControllerTests {
    /// Trips named and noted as given (the note is the section), saved.
    static func context(_ trips: [(name: String, note: String?, legs: Int)]) throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for trip in trips {
                var values: [String: Any] = ["name": trip.name, "legs": trip.legs]
                if let note = trip.note { values["note"] = note }
                _ = EngineTestModel.insert("Trip", into: context, values)
            }
            try context.save()
        }
        return context
    }

    static func request(sortedBy keys: [String] = ["note", "name"]) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        request.sortDescriptors = keys.map { NSSortDescriptor(key: $0, ascending: true) }
        return request
    }

    static func names(_ objects: [Any]?) -> [String] {
        (objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
    }

    static let trips: [(name: String, note: String?, legs: Int)] = [
        ("d", "beach", 1), ("a", "alps", 2), ("c", "beach", 3), ("b", "alps", 4), ("e", "city", 5), ("f", "Bay", 6),
    ]

    @Test func sectionsFollowTheSectionKeyPathInFetchOrder() throws {
        let context = try Self.context(Self.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Self.request(), managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            #expect(controller.fetchedObjects == nil)
            #expect(controller.sections == nil)
            try controller.performFetch()
            let sections = try #require(controller.sections)
            #expect(sections.map(\.name) == ["Bay", "alps", "beach", "city"])
            #expect(sections.map(\.numberOfObjects) == [1, 2, 2, 1])
            #expect(sections.map { Self.names($0.objects) } == [["f"], ["a", "b"], ["c", "d"], ["e"]])
            #expect(sections.map(\.indexTitle) == ["B", "A", "B", "C"])
            #expect(Self.names(controller.fetchedObjects) == ["f", "a", "b", "c", "d", "e"])
            let c = controller.object(at: IndexPath(row: 0, section: 2))
            #expect(c.value(forKey: "name") as? String == "c")
            #expect(controller.indexPath(forObject: c) == IndexPath(item: 0, section: 2))
            #expect(controller.sectionIndexTitles == ["B", "A", "C"])
            #expect(controller.sectionIndexTitle(forSectionName: "zurich") == "Z")
            #expect(controller.section(forSectionIndexTitle: "A", at: 1) == 1)
            #expect(controller.section(forSectionIndexTitle: "Q", at: 0) == NSNotFound)
            #expect(controller.fetchRequest.entityName == "Trip")
            #expect(controller.managedObjectContext === context)
            #expect(controller.sectionNameKeyPath == "note")
            #expect(controller.cacheName == nil)
        }
    }

    @Test func withoutASectionKeyPathThereIsOneSectionEvenWhenEmpty() throws {
        let context = try Self.context([])
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Self.request(), managedObjectContext: context, sectionNameKeyPath: nil, cacheName: "Trips")
            try controller.performFetch()
            #expect(controller.sections?.count == 1)
            #expect(controller.sections?.first?.name == "")
            #expect(controller.sections?.first?.numberOfObjects == 0)
            #expect(controller.fetchedObjects?.isEmpty == true)
            #expect(controller.sectionIndexTitles.isEmpty)
            NSFetchedResultsController<NSManagedObject>.deleteCache(withName: "Trips")
            NSFetchedResultsController<NSManagedObject>.deleteCache(withName: nil)
        }
    }

    @Test func aSectionKeyPathOverNoObjectsGivesNoSections() throws {
        let context = try Self.context([])
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Self.request(), managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.count == 0)
        }
    }

    @Test func numbersAndNilNameSectionsByTheirDescription() throws {
        let context = try Self.context([("a", "x", 2), ("b", nil, 1), ("c", "x", 1)])
        try context.performAndWait { () throws in
            let byLegs = NSFetchedResultsController(
                fetchRequest: Self.request(sortedBy: ["legs", "name"]), managedObjectContext: context, sectionNameKeyPath: "legs",
                cacheName: nil)
            try byLegs.performFetch()
            #expect(byLegs.sections?.map(\.name) == ["1", "2"])
            let byNote = NSFetchedResultsController(
                fetchRequest: Self.request(sortedBy: ["note", "name"]), managedObjectContext: context, sectionNameKeyPath: "note",
                cacheName: nil)
            try byNote.performFetch()
            #expect(byNote.sections?.map(\.name) == ["", "x"])
            #expect(byNote.sections?.first?.indexTitle == nil)
        }
    }

    @Test func aRequestWithoutSortDescriptorsIsRefused() throws {
        let context = try Self.context(Self.trips)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let error = try #require(throws: NSError.self) { try controller.performFetch() }
            #expect(error.localizedDescription.contains("requires a fetch request with sort descriptors"))
            #expect(controller.fetchedObjects == nil)
            request.sortDescriptors = []
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 6)
        }
    }

    @Test func sectionNamesOutOfSortOrderAreAnError() throws {
        let context = try Self.context(Self.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Self.request(sortedBy: ["legs"]), managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            let error = try #require(throws: NSError.self) { try controller.performFetch() }
            #expect(error.localizedDescription.contains("object at index 2 has an out of order section name 'beach'"))
        }
    }

    @Test func objectIDResultsGetSectionsAndIndexPaths() throws {
        let context = try Self.context(Self.trips)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Trip")
            request.resultType = .managedObjectIDResultType
            request.sortDescriptors = [NSSortDescriptor(key: "note", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["Bay", "alps", "beach", "city"])
            let id = controller.object(at: IndexPath(item: 1, section: 1))
            #expect(context.object(with: id).value(forKey: "name") as? String == "b")
            #expect(controller.indexPath(forObject: id) == IndexPath(item: 1, section: 1))
        }
    }

    @Test func indexPathsHaveSectionsRowsAndItems() {
        var path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1)
        #expect(path.row == 3)
        #expect(path.item == 3)
        path.item = 5
        path.section = 2
        #expect(path == IndexPath(item: 5, section: 2))
        #expect(Array(path) == [2, 5])
    }
}
#endif
