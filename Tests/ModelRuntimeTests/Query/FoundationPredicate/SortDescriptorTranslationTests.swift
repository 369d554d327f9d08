#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Foundation's `SortDescriptor` as `NSSortDescriptor`, and the generated
/// `fetchRequest(_:sortBy:)` that takes both.
struct SortDescriptorTranslationTests {
    @Test func keyPathOrderAndLexicalComparatorBecomeKeyAscendingAndSelector() throws {
        let rating = try NSSortDescriptor(translating: SortDescriptor(\Trip.rating, order: .reverse))
        #expect(rating.key == "rating" && !rating.ascending && rating.selector == nil)
        #expect(rating.keyPath == \Trip.rating)
        let name = NSSortDescriptor(SortDescriptor(\Trip.name, comparator: .lexical))
        #expect(name.key == "name" && name.ascending && name.selector == Selector("compare:"))
        let optional = try NSSortDescriptor(translating: SortDescriptor(\Stop.notes))
        #expect(optional.key == "notes" && optional.ascending)
    }

    @Test func keyPathsWithoutANameAreRefused() {
        #expect(throws: PredicateTranslationError.self) { try NSSortDescriptor(translating: SortDescriptor(\Trip.statusRawValue)) }
        #expect(throws: PredicateTranslationError.self) { try NSSortDescriptor(translating: SortDescriptor(\Stop.trip.name)) }
    }

    @Test func generatedFetchRequestFiltersAndSortsInTheStore() throws {
        let fixture = try TripsPredicateFixture()
        let minimum: Int16 = 1
        let request = try Trip.fetchRequest(
            #Predicate { $0.rating >= minimum && !$0.tags.isEmpty },
            sortBy: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.name, comparator: .lexical, order: .reverse)])
        #expect(request.entityName == "Trip")
        #expect(request.predicate?.predicateFormat == "rating >= 1 AND (NOT tags.@count == 0)")
        #expect(request.sortDescriptors?.map(\.description) == ["(rating, descending, compare:)", "(name, descending, compare:)"])
        let names = try fixture.context.performAndWait { () throws in try fixture.context.fetch(request).map(\.name) }
        #expect(names == ["Algarve", "Oslo 10", "Brittany", "Oslo 9"])
    }

    @Test func generatedFetchRequestNamesWhatDoesNotTranslate() {
        #expect {
            _ = try Trip.fetchRequest(#Predicate { $0.rating - 1 > 2 })
        } throws: { error in
            (error as? PredicateTranslationError)?.part == "PredicateExpressions.Arithmetic"
        }
    }
}
#endif
