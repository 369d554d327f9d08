import Foundation
import Testing

// Code written against Core Data's declarations, which must compile (and behave) unchanged here.
// Evidence: the iOS 17.4 SDK's Core Data interface (Objective-C headers and the Swift overlay's
// `CoreData.swiftmodule`): `NSPersistentContainer.init(name:managedObjectModel:)` is its
// designated initialiser and `init(name:)` a convenience one; `NSManagedObject.init(context:)` and
// `NSPersistentStoreCoordinator.init(managedObjectModel:)` are Objective-C initialisers, callable
// through `Self` and from a convenience initialiser; `NSManagedObjectContextConcurrencyType` is a
// top-level enum and the overlay's `NSManagedObjectContext.ConcurrencyType` a struct wrapping it,
// with `.privateQueue`, `.mainQueue` and `NSManagedObjectContext(_:)`.

/// A container subclass that declares nothing but the directory of its stores, as apps write it.
final class ShapeStack: NSPersistentContainer, @unchecked Sendable {
    nonisolated(unsafe) static var directory = FileManager.default.temporaryDirectory

    override class func defaultDirectoryURL() -> URL { directory }
}

extension NSManagedObject {
    /// A factory through `Self`, as Core Data code writes one in an extension.
    static func make(in context: NSManagedObjectContext) -> Self { Self(context: context) }
}

final class ShapeItem: NSManagedObject {}

extension NSPersistentStoreCoordinator {
    /// A convenience initialiser delegating to the designated one, as Core Data code writes one.
    convenience init(shapeModel model: NSManagedObjectModel, name: String) {
        self.init(managedObjectModel: model)
        self.name = name
    }
}

/// A function over the top-level concurrency type, as Core Data code writes one.
func shapeChild(of parent: NSManagedObjectContext, _ type: NSManagedObjectContextConcurrencyType) -> NSManagedObjectContext {
    let child = NSManagedObjectContext(concurrencyType: type)
    child.parent = parent
    return child
}

struct APIShapeTests {
    static func itemModel() -> NSManagedObjectModel {
        let item = ModelBuilder.entity("ShapeItem", [ModelBuilder.attribute("title", .stringAttributeType)])
        item.managedObjectClassName = NSStringFromClass(ShapeItem.self)
        return ModelBuilder.model([item])
    }

    @Test func aContainerSubclassInheritsBothInitialisersAndItsDirectory() throws {
        let folder = TemporaryFolder()
        ShapeStack.directory = folder.url
        let stack = ShapeStack(name: "M", managedObjectModel: Self.itemModel())
        #expect(stack.name == "M")
        #expect(stack.persistentStoreDescriptions.first?.url == folder.url.appendingPathComponent("M.sqlite"))
        var failure: (any Error)?
        stack.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("M.sqlite").path))
        // `init(name:)` is inherited too: without a compiled model named so, loading fails.
        let unnamed = ShapeStack(name: "NoSuchModelAnywhere")
        #expect(unnamed.name == "NoSuchModelAnywhere")
        unnamed.loadPersistentStores { _, error in failure = error }
        #expect(failure != nil)
    }

    @Test func selfFactoryMakesAnObjectOfTheReceiversClass() throws {
        let (_, context) = try makeStack(Self.itemModel())
        try context.performAndWait { () throws in
            let item = ShapeItem.make(in: context)
            #expect(type(of: item) == ShapeItem.self)
            #expect(item.entity.name == "ShapeItem")
            #expect(item.isInserted)
            try context.save()
        }
    }

    @Test func aConvenienceInitialiserOfAnExtensionDelegatesToTheCoordinatorsOwn() {
        let coordinator = NSPersistentStoreCoordinator(shapeModel: Self.itemModel(), name: "shape")
        #expect(coordinator.name == "shape")
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func bothSpellingsOfTheConcurrencyTypeMakeContextsOnTheirQueues() {
        let main = NSManagedObjectContext(.mainQueue)
        #expect(main.concurrencyType == .mainQueueConcurrencyType)
        let background = NSManagedObjectContext(.privateQueue)
        #expect(background.concurrencyType == .privateQueueConcurrencyType)
        let classic = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(classic.concurrencyType == .privateQueueConcurrencyType)
        let child = shapeChild(of: classic, .privateQueueConcurrencyType)
        #expect(child.parent === classic)
        let wrapped = NSManagedObjectContext.ConcurrencyType(rawValue: .mainQueueConcurrencyType)
        #expect(wrapped == .mainQueue)
        #expect(wrapped.rawValue == .mainQueueConcurrencyType)
        #expect(NSManagedObjectContext.ConcurrencyType.privateQueue.rawValue.rawValue == 1)
        #expect(NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType.rawValue == 2)
    }

    @Test func errorCodesHaveCoreDatasValues() {
        // CoreDataErrors.h of the iOS 17.4 SDK.
        #expect(NSMigrationConstraintViolationError == 134111)
        #expect(NSExternalRecordImportError == 134200)
    }
}
