#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// A transformer as apps write one: secure unarchiving limited to their classes.
final class TagListTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override class var allowedTopLevelClasses: [AnyClass] { [NSArray.self, NSString.self] }
}

/// Transformable attributes through their value transformer, and Foundation's `ValueTransformer`
/// API on Linux.
struct ValueTransformerTests {
    /// A model whose `Note` has a transformable `payload` naming `transformer`.
    private func model(transformer: String) -> NSManagedObjectModel {
        let note = NSEntityDescription()
        note.name = "Note"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        let payload = NSAttributeDescription()
        payload.name = "payload"
        payload.attributeType = .transformableAttributeType
        payload.valueTransformerName = transformer
        note.properties = [title, payload]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    private func save(_ payload: Any, model: NSManagedObjectModel, at url: URL) throws {
        let (_, context) = try EngineTestModel.stack(model: model, url: url)
        try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("n", forKey: "title")
            note.setValue(payload, forKey: "payload")
            try context.save()
        }
    }

    private func readPayload(model: NSManagedObjectModel, at url: URL) throws -> Any? {
        let (_, context) = try EngineTestModel.stack(model: model, url: url)
        return try context.performAndWait {
            try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first).value(forKey: "payload")
        }
    }

    @Test func aRegisteredTransformerStoresItsDataAndGivesObjectsBack() throws {
        let name = NSValueTransformerName("TagListTransformer-\(UUID().uuidString)")
        ValueTransformer.setValueTransformer(TagListTransformer(), forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let folder = EngineTestModel.Folder()
        let model = model(transformer: name.rawValue)
        try save(["swift", "linux"], model: model, at: folder.store)
        let payload = try readPayload(model: model, at: folder.store)
        #expect(payload as? [String] == ["swift", "linux"])

        // In the store: a keyed archive, as Core Data writes with this transformer.
        ValueTransformer.setValueTransformer(nil, forName: name)
        let data = try #require(try readPayload(model: model, at: folder.store) as? Data)
        let archived = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: data)
        #expect(archived as? [String] == ["swift", "linux"])
    }

    @Test func theBuiltInSecureUnarchiveTransformerRoundTripsPropertyListValues() throws {
        let folder = EngineTestModel.Folder()
        let model = model(transformer: "NSSecureUnarchiveFromData")
        try save(["answer": 42, "name": "x"] as [String: Any], model: model, at: folder.store)
        let payload = try #require(try readPayload(model: model, at: folder.store) as? [String: Any])
        #expect(payload["answer"] as? Int == 42 && payload["name"] as? String == "x")
    }

    @Test func anUnregisteredTransformerLeavesTheValueAsData() throws {
        let folder = EngineTestModel.Folder()
        let model = model(transformer: "NoSuchTransformer-\(UUID().uuidString)")
        try save(Data([1, 2, 3]), model: model, at: folder.store)
        #expect(try readPayload(model: model, at: folder.store) as? Data == Data([1, 2, 3]))
    }

    @Test func foundationsTransformerAPI() throws {
        let names = ValueTransformer.valueTransformerNames()
        #expect(names.contains(.secureUnarchiveFromDataTransformerName) && names.contains(.negateBooleanTransformerName))
        let negate = try #require(ValueTransformer(forName: .negateBooleanTransformerName))
        #expect(negate.transformedValue(true) as? Bool == false)
        #expect(ValueTransformer(forName: .isNilTransformerName)?.transformedValue(nil) as? Bool == true)
        #expect(ValueTransformer(forName: NSValueTransformerName("Missing-\(UUID().uuidString)")) == nil)
        let secure = NSSecureUnarchiveFromDataTransformer()
        let data = try #require(secure.transformedValue("text") as? Data)
        #expect(secure.reverseTransformedValue(data) as? String == "text")
        // Bad input gives nil, never a stop: bytes that are no archive, a damaged archive, a
        // value the archiver cannot write.
        #expect(secure.reverseTransformedValue(Data([1, 2, 3])) == nil)
        // Every byte of the archive damaged in turn: each gives nil or a string, never a stop.
        for index in data.indices {
            var damaged = data
            damaged[index] ^= 0xFF
            let value = secure.reverseTransformedValue(damaged)
            #expect(value == nil || value is String)
        }
        struct NotArchivable { let x = 1 }
        #expect(secure.transformedValue(NotArchivable()) == nil)
        #expect(secure.transformedValue(["nested": [NotArchivable()]]) == nil)
        // A class outside the allowed ones is refused.
        let tags = TagListTransformer()
        let dictionary = try #require(secure.transformedValue(["k": "v"]) as? Data)
        #expect(tags.reverseTransformedValue(dictionary) == nil)
    }
}
#endif
