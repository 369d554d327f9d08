#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// History requests read back what saves recorded, by token, date, transaction and fetch request.
struct HistoryRequestTests {
    /// A tracked file store with three saves: insert two trips (author "app"), update one
    /// (author "widget"), delete the other (author "app").
    static func recorded(_ folder: EngineTestModel.Folder) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let (coordinator, context) = try HistoryTestSupport.stack(model: HistoryTestSupport.model(), url: folder.store, name: "main")
        try context.performAndWait {
            context.transactionAuthor = "app"
            let alps = EngineTestModel.insert("Trip", into: context, ["name": "Alps"])
            let coast = EngineTestModel.insert("Trip", into: context, ["name": "Coast"])
            try context.save()
            context.transactionAuthor = "widget"
            alps.setValue("cold", forKey: "note")
            try context.save()
            context.transactionAuthor = "app"
            context.delete(coast)
            try context.save()
        }
        return (coordinator, context)
    }

    static func transactions(_ result: NSPersistentStoreResult) throws -> [NSPersistentHistoryTransaction] {
        try #require((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
    }

    @Test func fetchAfterNilTokenReturnsEveryTransactionWithItsChanges() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try Self.recorded(folder)
        try context.performAndWait {
            let all = try Self.transactions(
                context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)))
            #expect(all.map(\.transactionNumber) == [1, 2, 3])
            #expect(all.map(\.author) == ["app", "widget", "app"])
            #expect(all.allSatisfy { $0.contextName == "main" && $0.storeID == coordinator.persistentStores[0].identifier })
            #expect(all[0].changes?.map(\.changeType) == [.insert, .insert])
            let update = try #require(all[1].changes?.first)
            #expect(update.changeType == .update)
            #expect(update.updatedProperties?.map(\.name) == ["note"])
            #expect(update.transaction === all[1])
            let delete = try #require(all[2].changes?.first)
            #expect(delete.changeType == .delete && delete.tombstone?["name"] as? String == "Coast")
            #expect(delete.changedObjectID.uriRepresentation().lastPathComponent == "p2")
        }
    }

    @Test func fetchAfterTokenOrTransactionReturnsOnlyLaterTransactions() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try Self.recorded(folder)
        try context.performAndWait {
            let all = try Self.transactions(
                context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)))
            let later = try Self.transactions(context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: all[0].token)))
            #expect(later.map(\.transactionNumber) == [2, 3])
            let last = try Self.transactions(context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: all[1])))
            #expect(last.map(\.transactionNumber) == [3])
            let current = try #require(coordinator.currentPersistentHistoryToken(fromStores: nil))
            #expect(current == all[2].token)
            #expect(all[0].token.storeTokens.allSatisfy { $0.value < current.storeTokens[$0.key, default: 0] })
            #expect(try Self.transactions(context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: current))).isEmpty)
            let beforeAll = try Self.transactions(
                context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: all[0].timestamp.addingTimeInterval(-1))))
            #expect(beforeAll.count == 3)
        }
    }

    @Test func fetchWithTransactionFetchRequestFiltersSortsAndLimits() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try Self.recorded(folder)
        try context.performAndWait {
            let fetch = try #require(NSPersistentHistoryTransaction.fetchRequest)
            fetch.predicate = NSPredicate(format: "author == %@", "app")
            fetch.sortDescriptors = [NSSortDescriptor(key: "transactionNumber", ascending: false)]
            let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
            #expect(try Self.transactions(context.execute(request)).map(\.transactionNumber) == [3, 1])
            fetch.fetchLimit = 1
            #expect(try Self.transactions(context.execute(request)).map(\.transactionNumber) == [3])
            let changes = try #require(NSPersistentHistoryChange.fetchRequest)
            changes.predicate = NSPredicate(format: "changeType == 2")
            let changeRequest = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: changes)
            changeRequest.resultType = .changesOnly
            let result = try #require(
                (context.execute(changeRequest) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryChange])
            #expect(result.map(\.changeType) == [.delete])
        }
    }

    @Test func resultTypesShapeTheResult() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try Self.recorded(folder)
        try context.performAndWait {
            func run(_ type: NSPersistentHistoryResultType) throws -> Any? {
                let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
                request.resultType = type
                return (try context.execute(request) as? NSPersistentHistoryResult)?.result
            }
            #expect(try run(.statusOnly) as? Bool == true)
            #expect(try run(.count) as? Int == 4)
            #expect((try run(.objectIDs) as? [NSManagedObjectID])?.count == 4)
            #expect((try run(.changesOnly) as? [NSPersistentHistoryChange])?.count == 4)
            let bare = try #require(try run(.transactionsOnly) as? [NSPersistentHistoryTransaction])
            #expect(bare.count == 3 && bare.allSatisfy { $0.changes == nil })
        }
    }

    @Test func deleteBeforeTokenRemovesEarlierHistoryAndExpiresOlderTokens() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try Self.recorded(folder)
        try context.performAndWait {
            let all = try Self.transactions(
                context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)))
            let delete = NSPersistentHistoryChangeRequest.deleteHistory(before: all[2].token)
            delete.resultType = .count
            // Two inserts and an update were in the deleted transactions.
            #expect((try context.execute(delete) as? NSPersistentHistoryResult)?.result as? Int == 3)
            let left = try Self.transactions(
                context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)))
            #expect(left.map(\.transactionNumber) == [3])
            #expect(left[0].changes?.count == 1)
            // A token inside the deleted history has expired; the one at its end has not.
            let error = #expect(throws: NSError.self) {
                try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: all[0].token))
            }
            #expect(error?.code == NSPersistentHistoryTokenExpiredError)
            #expect(try Self.transactions(context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: all[1].token))).count == 1)
            _ = try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date().addingTimeInterval(60)))
            #expect(
                try Self.transactions(
                    context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
                ).isEmpty)
        }
    }

    @Test func historyRequestOnAnUntrackedStoreFailsWithUnsupportedRequestType() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try HistoryTestSupport.stack(model: HistoryTestSupport.model(), url: folder.store, options: [:])
        context.performAndWait {
            let error = #expect(throws: NSError.self) {
                try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
            }
            #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
        }
    }

    @Test func tokenRoundTripsThroughKeyedArchiver() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, _) = try Self.recorded(folder)
        let token = try #require(coordinator.currentPersistentHistoryToken(fromStores: nil))
        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data))
        #expect(back == token)
        #expect(back.storeTokens == token.storeTokens)
    }

    @Test func objectIDNotificationMergesIntoAnotherContext() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try Self.recorded(folder)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait {
            let all = try Self.transactions(
                other.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)))
            let ids = all[1].objectIDNotification().userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObjectID>
            #expect(ids?.count == 1)
            let alps = other.object(with: try #require(ids?.first))
            #expect(alps.value(forKey: "note") as? String == "cold")
            let deletedID = try #require(all[2].changes?.first?.changedObjectID)
            // Kept alive: the registry holds unchanged objects weakly.
            let deleted = other.object(with: deletedID)
            #expect(other.registeredObject(for: deletedID) != nil)
            other.mergeChanges(fromContextDidSave: all[2].objectIDNotification())
            #expect(other.registeredObject(for: deletedID) == nil)
            withExtendedLifetime(deleted) {}
        }
        _ = context
    }
}
#endif
