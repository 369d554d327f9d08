#if !canImport(CoreData)
import ModelRuntime
import Testing

/// `#Predicate` forms a fetch cannot run are refused with an error naming the expression.
struct PredicateTranslationErrorTests {
    private func error<T>(_ predicate: Predicate<T>) -> PredicateTranslationError? {
        do {
            _ = try NSPredicate(translating: predicate)
            return nil
        } catch {
            return error
        }
    }

    @Test func arithmeticOnStoredValuesNamesArithmetic() throws {
        let found = try #require(error(#Predicate<Trip> { $0.rating * 2 > 5 }))
        #expect(found.part == "PredicateExpressions.Arithmetic")
        #expect(found.description.contains("arithmetic on stored values does not translate"))
    }

    @Test func arithmeticOnCapturedValuesIsComputedBeforeTheFetch() throws {
        let base: Int16 = 2
        #expect(try NSPredicate(translating: #Predicate<Trip> { $0.rating > base * 2 - 1 }).predicateFormat == "rating > 3")
    }

    @Test func regularExpressionsNameTheRegexMatch() throws {
        let found = try #require(error(#Predicate<Trip> { $0.name.contains(/O.+o/) }))
        #expect(found.part == "PredicateExpressions.StringContainsRegex")
        #expect(found.reason.contains("MATCHES"))
    }

    @Test func stringLengthIsRefused() throws {
        let found = try #require(error(#Predicate<Trip> { $0.name.count > 3 }))
        #expect(found.part == "PredicateExpressions.KeyPath")
        #expect(found.reason.contains("length of a string"))
    }

    @Test func filterOfARelationshipNamesFilter() throws {
        let found = try #require(error(#Predicate<Trip> { $0.tags.filter { $0.name == "sun" }.count > 0 }))
        #expect(found.part == "PredicateExpressions.Filter")
    }

    @Test func computedPropertiesAreNamedByTheirKeyPath() throws {
        let found = try #require(error(#Predicate<Trip> { $0.statusRawValue == "active" }))
        #expect(found.part.contains("Trip"))
        #expect(found.reason == "the key path names no modeled property of Trip")
    }

    @Test func localeOrderingIsRefused() throws {
        let same = ComparisonResult.orderedSame
        let found = try #require(error(#Predicate<Trip> { $0.name.localizedCompare("Oslo") == same }))
        #expect(found.part == "PredicateExpressions.StringLocalizedCompare")
        #expect(found.reason.contains("no locale-aware string comparison"))
    }

    @Test func theErrorIsACoreDataErrorForFetchReports() throws {
        let found = try #require(error(#Predicate<Trip> { $0.rating % 2 == 0 }))
        #expect(found.part == "PredicateExpressions.IntRemainder")
        #expect(found.nsError.domain == NSCocoaErrorDomain && found.nsError.code == 134060)
    }

    @Test func unsupportedPartsInsideSupportedOnesAreNamed() throws {
        let found = try #require(error(#Predicate<Trip> { $0.isFavorite && $0.tags.contains { -$0.name.count < 0 } }))
        #expect(found.part == "PredicateExpressions.UnaryMinus")
    }
}
#endif
