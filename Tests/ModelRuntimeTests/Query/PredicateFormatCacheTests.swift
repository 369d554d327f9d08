#if !canImport(CoreData)
@testable import ModelQuery
@testable import ModelRuntime
import Testing

/// A format parsed again (its tokens come from the cache) takes its new arguments, and reports
/// the same errors as a first parse.
struct PredicateFormatCacheTests {
    @Test func aRepeatedFormatTakesItsNewArguments() throws {
        let format = "name == %@ AND age > %d AND %K BEGINSWITH[c] %@ AND tag IN %@ and not flag == %@"
        let first = NSPredicate(format: format, "Ana", 30, "city", "Pa", ["a", "b"], true)
        let second = NSPredicate(format: format, "Ben", 40, "country", "Fr", ["c", "d", "e"], false)
        #expect(first.predicateFormat != second.predicateFormat)
        let uncached = try NSPredicate(parsing: second.predicateFormat)
        #expect(second.predicateFormat == uncached.predicateFormat)
        #expect(second.predicateFormat.contains("country BEGINSWITH[c] \"Fr\""))
        #expect(second.predicateFormat.contains("{\"c\", \"d\", \"e\"}"))
        let ben: [String: Any] = ["name": "Ben", "age": 41, "country": "France", "tag": "d", "flag": true]
        #expect(second.evaluate(with: ben))
        #expect(!first.evaluate(with: ben))
    }

    @Test func aRepeatedFormatReportsTheErrorsOfItsNewArguments() throws {
        let format = "name == %@ AND %K == %d"
        _ = try NSPredicate(parsing: format, arguments: ["a", "age", 3])
        #expect(throws: PredicateFormatError.self) { try NSPredicate(parsing: format, arguments: ["a", "age"]) }
        do {
            _ = try NSPredicate(parsing: format, arguments: ["a", "not..a.path", 3])
            Issue.record("an invalid %K argument should fail")
        } catch {
            #expect(error.message == "the argument for %K (\"not..a.path\") is not a key path")
        }
        do {
            _ = try NSPredicate(parsing: format, arguments: ["a", "age", "three"])
            Issue.record("a %d argument that is not a number should fail")
        } catch {
            #expect(error.message == "the argument for %d must be an integer")
        }
    }

    @Test func aFormatThatDoesNotParseFailsTheSameWayEachTime() {
        for _ in 0..<2 {
            for (format, message, offset) in PredicateFormatErrorTests.errors {
                do {
                    _ = try NSPredicate(parsing: format, arguments: [])
                    Issue.record("\(format) should fail")
                } catch {
                    #expect(error.message == message && error.offset == offset, "\(format)")
                }
            }
        }
    }

    @Test func theCacheStaysBounded() {
        for index in 0..<(PredicateFormatCache.capacity + 10) { _ = NSPredicate(format: "value == \(index)") }
        #expect(PredicateFormatCache.count <= PredicateFormatCache.capacity)
    }
}
#endif
