#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// The dictionary a batch insert hands its dictionary handler: it reads back, counts, copies,
/// enumerates and describes as an ordinary `NSMutableDictionary` filled the same way, keys
/// naming no property are kept but not inserted, removed keys are not inserted, and a dictionary
/// the handler keeps stays as the handler left it.
struct BatchInsertDictionaryHandlerTests {
    typealias B = BatchTestModel

    /// Fills `dictionary` with one value of each kind the tests use.
    static func fill(_ dictionary: NSMutableDictionary) {
        dictionary["name"] = "Ann"
        dictionary["age"] = Int64(40)
        dictionary["score"] = 2.5
        dictionary["since"] = Date(timeIntervalSinceReferenceDate: 1_000)
        dictionary["active"] = false
        dictionary["nickname"] = "A"
        dictionary.setObject(7, forKey: "lucky" as NSString)
    }

    @Test func theHandlersDictionaryReadsBackAsAnOrdinaryDictionary() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        let ordinary = NSMutableDictionary()
        Self.fill(ordinary)
        try context.performAndWait { () throws in
            var calls = 0
            let request = NSBatchInsertRequest(entityName: "Owner") { (dictionary: NSMutableDictionary) -> Bool in
                calls += 1
                guard calls == 1 else { return true }
                #expect(dictionary.count == 0)
                Self.fill(dictionary)
                #expect(dictionary.count == ordinary.count)
                for key in ["name", "age", "score", "since", "active", "nickname", "lucky", "missing"] {
                    let mine = dictionary[key]
                    let theirs = ordinary[key]
                    #expect((mine as? NSObject)?.isEqual(theirs) ?? (theirs == nil), "\(key)")
                    #expect(mine.map { "\(type(of: $0))" } == theirs.map { "\(type(of: $0))" }, "\(key)")
                    #expect(dictionary.object(forKey: key as NSString).map { "\($0)" } == theirs.map { "\($0)" }, "\(key)")
                }
                let keys = dictionary.allKeys.compactMap { $0 as? String }.sorted()
                #expect(keys == ordinary.allKeys.compactMap { $0 as? String }.sorted())
                var enumerated: [String] = []
                for (key, _) in dictionary { enumerated.append(key as? String ?? "?") }
                #expect(enumerated.sorted() == keys)
                let copy = try? #require(dictionary.copy() as? NSDictionary)
                #expect(copy?.isEqual(ordinary) == true)
                #expect(ordinary.isEqual(copy) == true)
                #expect(dictionary.isEqual(ordinary))
                #expect((dictionary.copy() as? [String: Any])?.count == ordinary.count)
                let mutable = dictionary.mutableCopy() as? NSMutableDictionary
                #expect(mutable?.isEqual(ordinary) == true)
                #expect(dictionary.description.contains("name = Ann;"))
                return false
            }
            request.resultType = .count
            #expect((try context.execute(request) as? NSBatchInsertResult)?.result as? Int == 1)
            let owner = try #require(try B.fetch(context, "Owner").first)
            #expect(owner.value(forKey: "name") as? String == "Ann")
            #expect(owner.value(forKey: "age") as? Int64 == 40)
            #expect(owner.value(forKey: "score") as? Double == 2.5)
            #expect(owner.value(forKey: "since") as? Date == Date(timeIntervalSinceReferenceDate: 1_000))
            #expect(owner.value(forKey: "active") as? Bool == false)
        }
    }

    @Test func removedKeysAreNotInsertedAndDefaultsApply() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            var calls = 0
            let request = NSBatchInsertRequest(entityName: "Owner") { (dictionary: NSMutableDictionary) -> Bool in
                calls += 1
                switch calls {
                case 1:
                    Self.fill(dictionary)
                    dictionary["age"] = nil
                    dictionary.removeObject(forKey: "active" as NSString)
                    dictionary.removeObject(forKey: "nickname")
                    #expect(dictionary.count == 4)
                    #expect(dictionary["age"] == nil && dictionary["active"] == nil && dictionary["nickname"] == nil)
                case 2:
                    Self.fill(dictionary)
                    dictionary.removeAllObjects()
                    #expect(dictionary.count == 0)
                    dictionary["name"] = "Bob"
                default:
                    // Values set in the call that stops the insert are not inserted.
                    dictionary["name"] = "Never"
                    return true
                }
                return false
            }
            request.resultType = .count
            #expect((try context.execute(request) as? NSBatchInsertResult)?.result as? Int == 2)
            let owners = try B.fetch(context, "Owner", sortedBy: "name")
            #expect(owners.map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
            #expect(owners.map { $0.value(forKey: "age") as? Int64 } == [0, 0])
            #expect(owners.map { $0.value(forKey: "active") as? Bool } == [true, true])
            #expect(owners.map { $0.value(forKey: "score") as? Double } == [2.5, nil])
        }
    }

    @Test func valuesOfOtherTypesAreInsertedAsFromAnOrdinaryDictionary() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            var calls = 0
            let request = NSBatchInsertRequest(entityName: "Owner") { (dictionary: NSMutableDictionary) -> Bool in
                calls += 1
                guard calls == 1 else { return true }
                dictionary["name"] = NSString(string: "Cy")
                dictionary["age"] = 41
                dictionary["score"] = Int32(3)
                dictionary["since"] = NSDate(timeIntervalSinceReferenceDate: 2_000)
                dictionary["active"] = NSNumber(value: false)
                return false
            }
            _ = try context.execute(request)
            let wheels = NSBatchInsertRequest(entityName: "Wheel") { (dictionary: NSMutableDictionary) -> Bool in
                calls += 1
                guard calls == 3 else { return true }
                dictionary["position"] = 3
                return false
            }
            _ = try context.execute(wheels)
            let owner = try #require(try B.fetch(context, "Owner").first)
            #expect(owner.value(forKey: "name") as? String == "Cy")
            #expect(owner.value(forKey: "age") as? Int64 == 41)
            #expect(owner.value(forKey: "score") as? Double == 3)
            #expect(owner.value(forKey: "since") as? Date == Date(timeIntervalSinceReferenceDate: 2_000))
            #expect(owner.value(forKey: "active") as? Bool == false)
            #expect(try B.fetch(context, "Wheel").first?.value(forKey: "position") as? Int16 == 3)
        }
    }

    @Test func aDictionaryTheHandlerKeepsStaysAsTheHandlerLeftIt() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            var kept: [NSMutableDictionary] = []
            var calls = 0
            let request = NSBatchInsertRequest(entityName: "Pet") { (dictionary: NSMutableDictionary) -> Bool in
                calls += 1
                #expect(dictionary.count == 0)
                guard calls <= 3 else { return true }
                dictionary["name"] = "p\(calls)"
                if calls != 2 { kept.append(dictionary) }
                return false
            }
            request.resultType = .count
            #expect((try context.execute(request) as? NSBatchInsertResult)?.result as? Int == 3)
            #expect(kept.count == 2 && kept[0] !== kept[1])
            #expect(kept.map { $0["name"] as? String } == ["p1", "p3"])
            #expect(kept.map(\.count) == [1, 1])
            #expect(try B.fetch(context, "Pet", sortedBy: "name").map { $0.value(forKey: "name") as? String } == ["p1", "p2", "p3"])
        }
    }

    @Test func aToOneTakesAnObjectIDFromTheHandler() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            let countries = NSBatchInsertRequest(entityName: "Country", objects: [["code": "FR"]])
            countries.resultType = .objectIDs
            let france = try #require(((try context.execute(countries) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])?.first)
            var done = false
            let owners = NSBatchInsertRequest(entityName: "Owner") { (dictionary: NSMutableDictionary) -> Bool in
                guard !done else { return true }
                done = true
                dictionary["name"] = "Dee"
                dictionary["country"] = france
                #expect(dictionary["country"] as? NSManagedObjectID == france)
                return false
            }
            _ = try context.execute(owners)
            let owner = try #require(try B.fetch(context, "Owner").first)
            #expect((owner.value(forKey: "country") as? NSManagedObject)?.objectID == france)
        }
    }
}
#endif
