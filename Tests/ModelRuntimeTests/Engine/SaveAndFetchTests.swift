#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Objects inserted and saved come back from the store with their values, identities and faults.
struct SaveAndFetchTests {
    @Test func attributesRoundTripThroughAFileStoreAndANewCoordinator() throws {
        let folder = EngineTestModel.Folder()
        let code = UUID()
        let start = Date(timeIntervalSinceReferenceDate: 12_345.5)
        let model = EngineTestModel.make()
        do {
            let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
            try context.performAndWait {
                _ = EngineTestModel.insert(
                    "Trip", into: context,
                    [
                        "name": "Alps", "start": start, "distance": 12.5, "legs": 3, "done": true, "code": code,
                        "price": Decimal(string: "19.5")!, "photo": Data([1, 2, 3]),
                    ])
                #expect(context.hasChanges)
                try context.save()
                #expect(!context.hasChanges)
            }
        }
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait {
            let trips = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(trips.count == 1)
            let trip = try #require(trips.first)
            #expect(trip.isFault)
            #expect(trip.value(forKey: "name") as? String == "Alps")
            #expect(!trip.isFault)
            #expect(trip.value(forKey: "start") as? Date == start)
            #expect(trip.value(forKey: "distance") as? Double == 12.5)
            #expect(trip.value(forKey: "legs") as? Int64 == 3)
            #expect(trip.value(forKey: "done") as? Bool == true)
            #expect(trip.value(forKey: "code") as? UUID == code)
            #expect(trip.value(forKey: "price") as? Decimal == Decimal(string: "19.5"))
            #expect(trip.value(forKey: "photo") as? Data == Data([1, 2, 3]))
            #expect(trip.value(forKey: "note") == nil)
        }
    }

    @Test func objectIDsAreTemporaryUntilSavedThenPermanentWithCoreDataURIs() throws {
        let (coordinator, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            #expect(trip.objectID.isTemporaryID)
            #expect(trip.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Trip/t"))
            try context.save()
            let id = trip.objectID
            #expect(!id.isTemporaryID)
            let store = try #require(coordinator.persistentStores.first)
            #expect(id.persistentStore === store)
            #expect(id.uriRepresentation().absoluteString == "x-coredata://\(store.identifier!)/Trip/p1")
            let back = try #require(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
            #expect(back == id && back.hashValue == id.hashValue)
            #expect(context.object(with: back) === trip)
            #expect(context.registeredObject(for: id) === trip)
        }
    }

    @Test func temporaryIDsAreDistinctAndShapedLikeCoreDatas() throws {
        let (_, context) = try EngineTestModel.stack()
        context.performAndWait {
            let first = EngineTestModel.insert("Trip", into: context, ["name": "A"]).objectID
            let second = EngineTestModel.insert("Trip", into: context, ["name": "B"]).objectID
            #expect(first != second && first.isTemporaryID && second.isTemporaryID)
            for id in [first, second] {
                // `t`, a UUID (36 characters), then a counter.
                let last = id.uriRepresentation().lastPathComponent
                #expect(last.hasPrefix("t") && last.count > 37)
                #expect(UUID(uuidString: String(last.dropFirst().prefix(36))) != nil)
                #expect(UInt64(last.dropFirst(37)) != nil)
            }
            #expect(first.uriRepresentation() != second.uriRepresentation())
        }
    }

    @Test func fetchingTwiceGivesTheSameObjectAndFaultsLoadOnFirstRead() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, writer) = try EngineTestModel.stack(model: model, url: folder.store)
        let tripID: NSManagedObjectID = try writer.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: writer, ["name": "B", "legs": 7])
            try writer.save()
            return trip.objectID
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = writer.persistentStoreCoordinator
        try reader.performAndWait {
            let fault = reader.object(with: tripID)
            #expect(fault.isFault)
            #expect(fault.value(forKey: "legs") as? Int64 == 7)
            let fetched = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(fetched.first === fault)
            #expect(try reader.existingObject(with: tripID) === fault)
        }
    }

    @Test func defaultValuesAreSetOnInsertAndRequiredValuesAreValidated() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context)
            #expect(trip.value(forKey: "legs") as? Int64 == 1)
            #expect(trip.value(forKey: "done") as? Bool == false)
            #expect(trip.isInserted && context.insertedObjects.contains(trip))
            #expect(throws: NSError.self) { try context.save() }
            do {
                try context.save()
            } catch let error as NSError {
                #expect(error.code == NSValidationMissingMandatoryPropertyError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === trip)
            }
            #expect(trip.isInserted && context.hasChanges)
            trip.setValue("Fixed", forKey: "name")
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) == 1)
        }
    }

    @Test func severalValidationFailuresAreOneMultipleErrorsError() throws {
        let (_, context) = try EngineTestModel.stack()
        context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context)
            _ = EngineTestModel.insert("Tag", into: context)
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                #expect(error.code == NSValidationMultipleErrorsError)
                let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(details.count == 2 && details.allSatisfy { $0.code == NSValidationMissingMandatoryPropertyError })
            }
        }
    }

    @Test func updatesAndDeletesReachTheStore() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait {
            let a = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            let b = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            try context.save()
            a.setValue("A2", forKey: "name")
            #expect(a.isUpdated && a.changedValues().keys.sorted() == ["name"])
            #expect(a.committedValues(forKeys: ["name"])["name"] as? String == "A")
            context.delete(b)
            #expect(b.isDeleted && context.deletedObjects.contains(b))
            try context.save()
            #expect(!a.hasChanges && b.managedObjectContext == nil)
        }
        let (_, other) = try EngineTestModel.stack(model: model, url: folder.store)
        try other.performAndWait {
            let names = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).compactMap {
                $0.value(forKey: "name") as? String
            }
            #expect(names == ["A2"])
        }
    }

    @Test func rollbackAndResetDiscardChanges() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            try context.save()
            trip.setValue("changed", forKey: "name")
            let extra = EngineTestModel.insert("Trip", into: context, ["name": "X"])
            context.rollback()
            #expect(trip.value(forKey: "name") as? String == "A")
            #expect(!context.hasChanges && extra.managedObjectContext == nil)
            context.reset()
            #expect(context.registeredObjects.isEmpty && trip.managedObjectContext == nil)
            #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) == 1)
        }
    }

    @Test func aStoreWrittenByAnotherModelVersionFailsWithTheIncompatibleVersionHashError() throws {
        let folder = EngineTestModel.Folder()
        _ = try EngineTestModel.stack(url: folder.store)
        let changed = EngineTestModel.make()
        changed.entitiesByName["Stop"]!.properties.append(EngineTestModel.attribute("extra", .stringAttributeType))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changed)
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: folder.store, options: nil)
            Issue.record("the store should not load")
        } catch let error as NSError {
            #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
            #expect(error.localizedDescription.contains("Stop"))
        }
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func metadataIsReadableWithoutAddingTheStore() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (coordinator, _) = try EngineTestModel.stack(model: model, url: folder.store)
        let store = try #require(coordinator.persistentStores.first)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: folder.store)
        #expect(metadata[NSStoreUUIDKey] as? String == store.identifier)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        var edited = coordinator.metadata(for: store)
        edited["AppKey"] = "v1"
        coordinator.setMetadata(edited, for: store)
        let reread = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: folder.store)
        #expect(reread["AppKey"] as? String == "v1")
    }

    @Test func theDevNullURLGivesAnInMemorySQLiteStore() throws {
        let (coordinator, context) = try EngineTestModel.stack(url: URL(fileURLWithPath: "/dev/null"))
        #expect(coordinator.persistentStores.count == 1)
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "M"])
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }
}
#endif
