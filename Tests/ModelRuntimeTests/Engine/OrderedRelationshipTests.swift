#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Ordered to-many relationships keep their order in the store (`Z_FOK_` columns).
struct OrderedRelationshipTests {
    static func names(_ value: Any?) -> [String] {
        ((value as? NSOrderedSet)?.array ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
    }

    /// Reads `key` of the only `entity` object through a new coordinator on the same file.
    static func reloaded(_ folder: EngineTestModel.Folder, model: NSManagedObjectModel, entity: String, key: String) throws -> [String] {
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        return try context.performAndWait { () throws in
            let owner = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).first)
            return names(owner.value(forKey: key))
        }
    }

    @Test func reorderedOneToManyKeepsItsOrderInANewCoordinator() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Loop"])
            let stops = ["c", "a", "d", "b"].map { EngineTestModel.insert("Stop", into: context, ["name": $0]) }
            trip.setValue(NSOrderedSet(array: stops), forKey: "stops")
            try context.save()
        }
        #expect(try Self.reloaded(folder, model: model, entity: "Trip", key: "stops") == ["c", "a", "d", "b"])
        try context.performAndWait { () throws in
            let trip = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            let stops = ((trip.value(forKey: "stops") as? NSOrderedSet)?.array as? [NSManagedObject]) ?? []
            trip.setValue(NSOrderedSet(array: [stops[3], stops[1], stops[0]]), forKey: "stops")
            try context.save()
        }
        #expect(try Self.reloaded(folder, model: model, entity: "Trip", key: "stops") == ["b", "a", "c"])
    }

    /// The read order of an ordered to-many comes from its stored positions, and new rows get
    /// their keys in insertion order, so neither depends on the context's hash order (the cause of
    /// an intermittent order failure before positions were written and keys allocated in order).
    @Test func keysFollowInsertionOrderAndPositionsAreStored() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        let names = (0..<40).map { "s\($0)" }
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Loop"])
            let stops = names.map { EngineTestModel.insert("Stop", into: context, ["name": $0]) }
            trip.setValue(NSOrderedSet(array: stops.reversed()), forKey: "stops")
            try context.save()
            let keys = stops.map { Int($0.objectID.uriRepresentation().lastPathComponent.dropFirst()) ?? 0 }
            #expect(keys == Array(1...40))
        }
        let reversed = Array(names.reversed())
        #expect(try Self.reloaded(folder, model: EngineTestModel.make(), entity: "Trip", key: "stops") == reversed)
    }

    static func manyToManyModel() -> NSManagedObjectModel {
        let list = NSEntityDescription()
        list.name = "List"
        let song = NSEntityDescription()
        song.name = "Song"
        let songs = EngineTestModel.relationship("songs", to: song, toMany: true, ordered: true)
        let lists = EngineTestModel.relationship("lists", to: list, toMany: true)
        songs.inverseRelationship = lists
        lists.inverseRelationship = songs
        list.properties = [EngineTestModel.attribute("name", .stringAttributeType), songs]
        song.properties = [EngineTestModel.attribute("name", .stringAttributeType), lists]
        let model = NSManagedObjectModel()
        model.entities = [list, song]
        return model
    }

    @Test func reorderedManyToManyKeepsItsOrderInANewCoordinator() throws {
        let folder = EngineTestModel.Folder()
        let model = Self.manyToManyModel()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait { () throws in
            let list = EngineTestModel.insert("List", into: context, ["name": "Mix"])
            let songs = ["z", "x", "y"].map { EngineTestModel.insert("Song", into: context, ["name": $0]) }
            list.setValue(NSOrderedSet(array: songs), forKey: "songs")
            try context.save()
        }
        #expect(try Self.reloaded(folder, model: model, entity: "List", key: "songs") == ["z", "x", "y"])
        try context.performAndWait { () throws in
            let list = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "List")).first)
            let songs = ((list.value(forKey: "songs") as? NSOrderedSet)?.array as? [NSManagedObject]) ?? []
            list.setValue(NSOrderedSet(array: [songs[2], songs[0], songs[1]]), forKey: "songs")
            try context.save()
        }
        #expect(try Self.reloaded(folder, model: model, entity: "List", key: "songs") == ["y", "z", "x"])
    }
}
#endif
