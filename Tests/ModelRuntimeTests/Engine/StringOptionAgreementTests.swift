#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Case- and diacritic-insensitive comparisons of non-ASCII text select the same objects in a
/// store fetch (SQL through the store's `NSCoreDataStringCompare`) as in `evaluate(with:)`.
struct StringOptionAgreementTests {
    static let names = [
        "é", "e", "E", "É", "f", "F", "ß", "ss", "SS", "straße", "Strasse", "STRASSE", "İstanbul", "istanbul", "Istanbul", "ı", "i",
        "I", "😀", "😀a", "a😀", "Ä", "äb", "ab", "z", "Z", "Æ", "ae", "ﬁ", "fi", "Ǆ", "ǆ", "_x", "[x", "Zebra", "zebra", "ö", "Ø",
    ]

    static func seeded() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for name in names { _ = EngineTestModel.insert("Trip", into: context, ["name": name]) }
            try context.save()
            context.reset()
        }
        return context
    }

    /// The names a fetch with `predicate` returns, and the names of the objects it holds for.
    static func both(_ predicate: NSPredicate, in context: NSManagedObjectContext, objects: [NSManagedObject]) throws -> (
        store: [String], memory: [String]
    ) {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        request.predicate = predicate
        let fetched = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }.sorted()
        let evaluated = objects.filter { predicate.evaluate(with: $0) }.compactMap { $0.value(forKey: "name") as? String }.sorted()
        return (fetched, evaluated)
    }

    @Test(arguments: ["c", "d", "cd"])
    func comparisonsWithOptionsAgreeBetweenStoreAndMemory(options: String) throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            try #require(objects.count == Self.names.count)
            var checked = 0
            for bound in ["é", "ß", "ss", "İstanbul", "ı", "😀", "Ä", "ae", "fi", "_x", "z", "Ø"] {
                for op in ["<", "<=", ">", ">=", "==", "!="] {
                    let predicate = NSPredicate(format: "name \(op)[\(options)] %@", bound)
                    let (store, memory) = try Self.both(predicate, in: context, objects: objects)
                    #expect(store == memory, "\(predicate)")
                    checked += 1
                }
            }
            for (low, high) in [("e", "f"), ("ß", "z"), ("İ", "ı"), ("a", "😀"), ("Æ", "Ø")] {
                let predicate = NSPredicate(format: "name BETWEEN[\(options)] %@", [low, high])
                let (store, memory) = try Self.both(predicate, in: context, objects: objects)
                #expect(store == memory, "\(predicate)")
                checked += 1
            }
            #expect(checked == 77)
        }
    }

    @Test func anAccentedNameSortsBeforeTheNextLetterCaseInsensitivelyInBothPaths() throws {
        // Foundation's comparison orders "é" with "e", before "f"; the code points order it after.
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            let (store, memory) = try Self.both(NSPredicate(format: "name <[c] %@", "f"), in: context, objects: objects)
            #expect(memory.contains("é") && memory.contains("É"))
            #expect(store == memory)
        }
    }
}
#endif
