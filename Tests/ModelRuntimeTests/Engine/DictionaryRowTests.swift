#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// The rows of a dictionary fetch behave as Foundation dictionaries in every use: their values
/// bridge to the attributes' Swift types and to Foundation classes, they equal, describe, copy,
/// enumerate and archive as ordinary `NSDictionary`s with the same contents, and their keys work
/// as ordinary strings.
struct DictionaryRowTests {
    static let start = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
    static let code = UUID(uuidString: "6E1A2B3C-4D5E-4F60-8172-839405A6B7C8")!

    /// A trip with every attribute type set (but `note`), one stop and one tag.
    static func seeded() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert(
                "Trip", into: context,
                [
                    "name": "Alps", "start": start, "distance": 12.5, "legs": Int64(3), "done": true, "code": code,
                    "price": Decimal(string: "19.95")!, "photo": Data([1, 2, 3]),
                ])
            let stop = EngineTestModel.insert("Stop", into: context, ["name": "Chamonix", "order": Int16(2)])
            stop.setValue(trip, forKey: "trip")
            _ = EngineTestModel.insert("Tag", into: context, ["name": "snow", "uses": Int32(7)])
            try context.save()
            context.reset()
        }
        return context
    }

    static func rows(_ entity: String, _ properties: [String], in context: NSManagedObjectContext) throws -> [NSDictionary] {
        let request = NSFetchRequest<NSDictionary>(entityName: entity)
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = properties
        return try context.fetch(request)
    }

    static let tripProperties = ["name", "start", "distance", "legs", "done", "code", "price", "photo", "note"]

    /// What the row should equal: the trip's values in an ordinary dictionary (nil `note` absent).
    static var expected: NSDictionary {
        NSDictionary(dictionary: [
            "name": "Alps", "start": start, "distance": 12.5, "legs": Int64(3), "done": true, "code": code,
            "price": Decimal(string: "19.95")!, "photo": Data([1, 2, 3]),
        ])
    }

    @Test func rowValuesBridgeToTheAttributesSwiftTypesAndFoundationClasses() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try Self.rows("Trip", Self.tripProperties, in: context).first)
            // Exactly NSDictionary: on Linux only that class bridges to a Swift dictionary.
            #expect(type(of: row) == NSDictionary.self)
            #expect(row["name"] as? String == "Alps")
            #expect(row["name"] as? NSString == NSString(string: "Alps"))
            #expect(row["start"] as? Date == Self.start)
            #expect((row["start"] as? NSDate)?.timeIntervalSinceReferenceDate == Self.start.timeIntervalSinceReferenceDate)
            #expect(row["distance"] as? Double == 12.5)
            #expect(row["legs"] as? Int64 == 3)
            #expect(row["legs"] as? Int == 3)
            #expect((row["legs"] as? NSNumber)?.int64Value == 3)
            #expect(row["done"] as? Bool == true)
            #expect((row["done"] as? NSNumber)?.boolValue == true)
            #expect(row["code"] as? UUID == Self.code)
            #expect(row["price"] as? Decimal == Decimal(string: "19.95"))
            #expect(row["photo"] as? Data == Data([1, 2, 3]))
            // A nil value leaves its key out.
            #expect(row["note"] == nil && row.object(forKey: "note") == nil)
            #expect(row.count == 8)

            let stop = try #require(try Self.rows("Stop", ["order"], in: context).first)
            #expect(stop["order"] as? Int16 == 2)
            #expect((stop["order"] as? NSNumber)?.objCType == NSNumber(value: Int16(2)).objCType)
            let tag = try #require(try Self.rows("Tag", ["uses"], in: context).first)
            #expect(tag["uses"] as? Int32 == 7)
            #expect((tag["uses"] as? NSNumber)?.objCType == NSNumber(value: Int32(7)).objCType)
        }
    }

    @Test func rowsEqualOrdinaryDictionariesWithTheSameContentsBothWays() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try Self.rows("Trip", Self.tripProperties, in: context).first)
            #expect(row.isEqual(Self.expected))
            #expect(Self.expected.isEqual(row))
            #expect(row == Self.expected && Self.expected == row)
            #expect(row.hash == Self.expected.hash)
            let other = try #require(Self.expected.mutableCopy() as? NSMutableDictionary)
            other["legs"] = Int64(4)
            #expect(!row.isEqual(other) && !other.isEqual(row))
            let bridged = try #require(row as? [String: Any])
            #expect(NSDictionary(dictionary: bridged).isEqual(Self.expected))
            #expect(bridged.keys.sorted() == ["code", "distance", "done", "legs", "name", "photo", "price", "start"])
        }
    }

    @Test func rowsDescribeTheirKeysAndValuesAsOrdinaryDictionariesDo() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try Self.rows("Trip", ["name", "legs", "done"], in: context).first)
            let plain = NSDictionary(dictionary: ["name": "Alps", "legs": Int64(3), "done": true])
            let lines = { (dictionary: NSDictionary) in dictionary.description.split(separator: "\n").map(String.init).sorted() }
            #expect(lines(row) == lines(plain))
            #expect(lines(row).contains("    name = Alps;"))
            #expect(lines(row).contains("    legs = 3;"))
        }
    }

    @Test func rowsCopyIntoDictionariesThatKeepTheirKeys() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try Self.rows("Trip", Self.tripProperties, in: context).first)
            let copy = try #require(row.copy() as? NSDictionary)
            #expect(copy.isEqual(Self.expected) && copy.count == 8)
            let mutable = try #require(row.mutableCopy() as? NSMutableDictionary)
            // Setting an existing key by a new string replaces the row's value under its key.
            mutable["name"] = "Andes"
            mutable.setObject("later", forKey: NSString(string: "note"))
            #expect(mutable.count == 9)
            #expect(mutable["name"] as? String == "Andes" && mutable["note"] as? String == "later")
            mutable.removeObject(forKey: "legs")
            #expect(mutable.count == 8 && mutable["legs"] == nil)
            #expect(row["name"] as? String == "Alps" && row.count == 8)
        }
    }

    @Test func rowsEnumerateTheirKeysAsStrings() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try Self.rows("Trip", ["name", "legs", "note"], in: context).first)
            var seen: [String: Any] = [:]
            for (key, value) in row { seen[try #require(key as? String)] = value }
            #expect(seen.keys.sorted() == ["legs", "name"])
            #expect(seen["legs"] as? Int64 == 3)
            var enumerated: [String] = []
            row.enumerateKeysAndObjects { key, _, _ in enumerated.append(key as? String ?? "?") }
            #expect(enumerated.sorted() == ["legs", "name"])
            #expect((row.allKeys as? [String])?.sorted() == ["legs", "name"])
            #expect(row.allValues.count == 2)
            var fromEnumerator: [String] = []
            let keys = row.keyEnumerator()
            while let key = keys.nextObject() { fromEnumerator.append(key as? String ?? "?") }
            #expect(fromEnumerator.sorted() == ["legs", "name"])
        }
    }

    @Test func rowKeysAreEqualHashAndArchiveAsOrdinaryStrings() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try Self.rows("Trip", ["name"], in: context).first)
            let key = try #require(row.allKeys.first as? NSString)
            let plain = NSString(string: "name")
            #expect(key.isEqual(plain) && plain.isEqual(key))
            #expect(key.hash == plain.hash)
            #expect(!key.isEqual(NSString(string: "nam")) && !key.isEqual(nil) && !key.isEqual(NSNumber(value: 1)))
            #expect(key.length == 4 && key.character(at: 1) == unichar(UInt8(ascii: "a")))
            #expect(key.description == "name" && key as String == "name")
            #expect(key.hasPrefix("na") && key.appending("s") == "names")
            #expect(key.compare("nam") == .orderedDescending && key.compare("name") == .orderedSame)
            let json = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
            #expect(String(decoding: json, as: UTF8.self) == #"{"name":"Alps"}"#)
            let archived = try NSKeyedArchiver.archivedData(withRootObject: row, requiringSecureCoding: false)
            let restored = try #require(
                try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSString.self], from: archived) as? NSDictionary)
            #expect(restored.isEqual(row) && restored["name"] as? String == "Alps")
            #expect(restored.allKeys.allSatisfy { type(of: $0 as AnyObject) == NSString.self })
        }
    }

    @Test func toOneValuesAreObjectIDsInBridgedRowsToo() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let trip = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            let rows = try Self.rows("Stop", ["name", "trip"], in: context)
            let row = try #require(rows.first as? [String: Any])
            #expect(row["trip"] as? NSManagedObjectID == trip.objectID)
            #expect(rows.first?.isEqual(NSDictionary(dictionary: ["name": "Chamonix", "trip": trip.objectID])) == true)
        }
    }

    @Test func groupedAggregateRowsEqualOrdinaryDictionaries() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for (index, name) in ["a", "b", "a", "c", "a"].enumerated() {
                _ = EngineTestModel.insert("Trip", into: context, ["name": name, "legs": Int64(index + 1)])
            }
            try context.save()
            let total = NSExpressionDescription()
            total.name = "total"
            total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "legs")])
            total.expressionResultType = .integer64AttributeType
            let request = NSFetchRequest<NSDictionary>(entityName: "Trip")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", total]
            request.propertiesToGroupBy = ["name"]
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let rows = try context.fetch(request)
            #expect(rows.map { $0["name"] as? String } == ["a", "b", "c"])
            #expect(rows.map { $0["total"] as? Int } == [9, 2, 4])
            #expect(rows[0].isEqual(NSDictionary(dictionary: ["name": "a", "total": Int64(9)])))
            let bridged = try #require(rows as? [[String: Any]])
            #expect(bridged.map { $0["total"] as? Int64 } == [9, 2, 4])
        }
    }
    @Test func keysWithTextBeyondASCIIBridgeCompareAndReadAsOrdinaryStrings() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            _ = EngineTestModel.insert("Trip", into: context, ["name": "a", "legs": Int64(4)])
            try context.save()
            let longest = NSExpressionDescription()
            longest.name = "größte·Länge 🏔"
            longest.expression = NSExpression(forFunction: "max:", arguments: [NSExpression(forKeyPath: "legs")])
            longest.expressionResultType = .integer64AttributeType
            let request = NSFetchRequest<NSDictionary>(entityName: "Trip")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = [longest]
            let row = try #require(try context.fetch(request).first)
            #expect(row["größte·Länge 🏔"] as? Int64 == 4)
            #expect(row[NSString(string: "größte·Länge 🏔")] as? Int64 == 4)
            let key = try #require(row.allKeys.first as? NSString)
            let plain = NSString(string: "größte·Länge 🏔")
            #expect(key.length == plain.length && key.isEqual(plain) && plain.isEqual(key) && key.hash == plain.hash)
            #expect((0..<plain.length).allSatisfy { key.character(at: $0) == plain.character(at: $0) })
            #expect((row as? [String: Any])?["größte·Länge 🏔"] as? Int64 == 4)
            #expect(row.isEqual(NSDictionary(dictionary: ["größte·Länge 🏔": Int64(4)])))
        }
    }

    /// Hands rows to another thread.
    final class Handoff: @unchecked Sendable {
        var rows: [NSDictionary] = []
        var equal = false
        var name: String?
    }

    @Test func rowsOutliveTheirContextAndReadOnAnotherThread() throws {
        let handoff = Handoff()
        do {
            let context = try Self.seeded()
            handoff.rows = try context.performAndWait { try Self.rows("Trip", Self.tripProperties, in: context) }
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            handoff.equal = handoff.rows.first?.isEqual(Self.expected) == true
            handoff.name = (handoff.rows.first as? [String: Any])?["name"] as? String
            handoff.rows = []
            done.signal()
        }.start()
        done.wait()
        #expect(handoff.equal && handoff.name == "Alps")
    }
}
#endif
