#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Relationships: inverses maintained in memory, stored as keys and join rows, delete rules.
struct RelationshipTests {
    @Test func settingAToOneUpdatesTheInverseToManyAndBothSurviveAReload() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let first = EngineTestModel.insert("Stop", into: context, ["name": "one"])
            let second = EngineTestModel.insert("Stop", into: context, ["name": "two"])
            first.setValue(trip, forKey: "trip")
            second.setValue(trip, forKey: "trip")
            let stops = try #require(trip.value(forKey: "stops") as? NSOrderedSet)
            #expect(stops.count == 2 && stops.contains(first) && stops.contains(second))
            try context.save()
        }
        let (_, other) = try EngineTestModel.stack(model: model, url: folder.store)
        try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            let trip = try #require(try other.fetch(request).first)
            let stops = try #require(trip.value(forKey: "stops") as? NSOrderedSet)
            #expect(Set(stops.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }) == ["one", "two"])
            let stop = try #require(stops.firstObject as? NSManagedObject)
            #expect(stop.value(forKey: "trip") as? NSManagedObject === trip)
        }
    }

    @Test func movingAnObjectBetweenToManysUpdatesBothSides() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let a = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            let b = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            let stop = EngineTestModel.insert("Stop", into: context, ["trip": a])
            #expect((a.value(forKey: "stops") as? NSOrderedSet)?.count == 1)
            b.mutableOrderedSetValue(forKey: "stops").add(stop)
            #expect(stop.value(forKey: "trip") as? NSManagedObject === b)
            #expect((a.value(forKey: "stops") as? NSOrderedSet)?.count == 0)
            try context.save()
            stop.setValue(nil, forKey: "trip")
            #expect((b.value(forKey: "stops") as? NSOrderedSet)?.count == 0)
        }
    }

    @Test func manyToManyRelationshipsAreStoredInTheJoinTable() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let other = EngineTestModel.insert("Trip", into: context, ["name": "U"])
            let hiking = EngineTestModel.insert("Tag", into: context, ["name": "hiking"])
            let food = EngineTestModel.insert("Tag", into: context, ["name": "food"])
            trip.setValue(Set([hiking, food]), forKey: "tags")
            hiking.mutableSetValue(forKey: "trips").add(other)
            #expect((food.value(forKey: "trips") as? NSSet)?.contains(trip) == true)
            try context.save()
            trip.mutableSetValue(forKey: "tags").remove(food)
            try context.save()
        }
        let (_, reader) = try EngineTestModel.stack(model: model, url: folder.store)
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let tags = try reader.fetch(request)
            #expect(tags.map { $0.value(forKey: "name") as? String } == ["food", "hiking"])
            #expect((tags[0].value(forKey: "trips") as? NSSet)?.count == 0)
            let hikingTrips = (tags[1].value(forKey: "trips") as? NSSet)?.allObjects.compactMap {
                ($0 as? NSManagedObject)?.value(forKey: "name") as? String
            }
            #expect(Set(hikingTrips ?? []) == ["T", "U"])
        }
    }

    @Test func cascadeDeletesTheDestinationsAndNullifyClearsTheInverse() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let stop = EngineTestModel.insert("Stop", into: context, ["trip": trip])
            let tag = EngineTestModel.insert("Tag", into: context, ["name": "t"])
            tag.mutableSetValue(forKey: "trips").add(trip)
            try context.save()
            context.delete(trip)
            #expect(stop.isDeleted)
            #expect((tag.value(forKey: "trips") as? NSSet)?.count == 0)
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Stop")) == 0)
            #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Tag")) == 1)
        }
    }

    @Test func denyMakesTheSaveFailWhileDestinationsRemain() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            _ = EngineTestModel.insert("Driver", into: context, ["name": "D", "trip": trip])
            try context.save()
            context.delete(trip)
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                #expect(error.code == NSValidationRelationshipDeniedDeleteError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "travellers")
            }
            context.rollback()
            #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) == 1)
        }
    }

    @Test func subEntitiesShareTheRootTableAndFetchAsTheirEntity() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            _ = EngineTestModel.insert("Person", into: context, ["name": "P"])
            _ = EngineTestModel.insert("Driver", into: context, ["name": "D", "licence": "X1"])
            try context.save()
            context.reset()
            let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            #expect(people.map { $0.entity.name ?? "" }.sorted() == ["Driver", "Person"])
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.includesSubentities = false
            #expect(try context.fetch(request).count == 1)
            let drivers = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Driver"))
            #expect(drivers.first?.value(forKey: "licence") as? String == "X1")
        }
    }

    @Test(arguments: [true, false])
    func prefetchingLoadsDestinationsWithTheFetch(prefetch: Bool) throws {
        let (coordinator, context) = try EngineTestModel.stack()
        try context.performAndWait {
            for index in 0..<3 {
                let trip = EngineTestModel.insert("Trip", into: context, ["name": "T\(index)"])
                _ = EngineTestModel.insert("Stop", into: context, ["trip": trip, "name": "S\(index)"])
            }
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Stop")
            request.returnsObjectsAsFaults = false
            if prefetch { request.relationshipKeyPathsForPrefetching = ["trip"] }
            let stops = try context.fetch(request)
            let trips = stops.compactMap { $0.value(forKey: "trip") as? NSManagedObject }
            #expect(trips.count == 3)
            // With the store gone, only values already read with the fetch are there.
            try coordinator.remove(coordinator.persistentStores[0])
            let names = Set(trips.compactMap { $0.value(forKey: "name") as? String })
            #expect(names == (prefetch ? ["T0", "T1", "T2"] : []))
        }
    }
}
#endif
