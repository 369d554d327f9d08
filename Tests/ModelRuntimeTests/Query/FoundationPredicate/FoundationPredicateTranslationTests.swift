#if !canImport(CoreData)
import ModelRuntime
import Testing

/// `#Predicate`s over the generated Trips classes, translated to `NSPredicate`: each check
/// states the `predicateFormat` and the objects the SQL fetch returns, and the fixture checks
/// both against Foundation's own evaluation of the `Predicate`.
struct FoundationPredicateTranslationTests {
    @Test func comparisonsWithCapturedConstantsBecomeComparisons() throws {
        let fixture = try TripsPredicateFixture()
        let limit: Int16 = 3
        let start = TripsPredicateFixture.day(20)
        let result = try fixture.trips(#Predicate { $0.rating > limit && $0.startDate < start })
        #expect(result.format == #"rating > 3 AND startDate < CAST(1728000.000000, "NSDate")"#)
        #expect(result.names == ["Algarve", "Cairo"])
        let either = try fixture.trips(#Predicate { $0.name == "Cairo" || $0.rating != 2 && $0.rating <= limit + 1 })
        #expect(either.format == #"name == "Cairo" OR (rating != 2 AND rating <= 4)"#)
        #expect(either.names == ["Algarve", "Cairo", "Oslo 10", "Oslo 9", "équateur"])
    }

    @Test func rangesBecomeBetweenOrBoundComparisons() throws {
        let fixture = try TripsPredicateFixture()
        let closed = try fixture.trips(#Predicate { (2...4).contains($0.rating) })
        #expect(closed.format == "rating BETWEEN {2, 4}")
        #expect(closed.names == ["Algarve", "Brittany", "Oslo 10"])
        let halfOpen = try fixture.trips(#Predicate { (2..<4).contains($0.rating) })
        #expect(halfOpen.format == "rating >= 2 AND rating < 4")
        #expect(halfOpen.names == ["Brittany", "Oslo 10"])
        let atLeast: PartialRangeFrom<Int16> = 4...
        let atMost: PartialRangeThrough<Int16> = ...0
        let partial = try fixture.trips(#Predicate { atLeast.contains($0.rating) || atMost.contains($0.rating) })
        #expect(partial.format == "rating >= 4 OR rating <= 0")
        #expect(partial.names == ["Algarve", "Cairo", "équateur"])
        let low: Int16 = 4
        let fromKeyPath = try fixture.trips(#Predicate { ($0.rating...5).contains(low) })
        #expect(fromKeyPath.format == "4 >= rating")
        #expect(fromKeyPath.names == ["Algarve", "Brittany", "Oslo 10", "Oslo 9", "équateur"])
    }

    @Test func booleanPropertiesAreConditionsAndNegate() throws {
        let fixture = try TripsPredicateFixture()
        let favorite = try fixture.trips(#Predicate { $0.isFavorite })
        #expect(favorite.format == "isFavorite == 1")
        #expect(favorite.names == ["Algarve", "équateur"])
        let others = try fixture.trips(#Predicate { !$0.isFavorite && $0.isFavorite == false })
        #expect(others.format == "(NOT isFavorite == 1) AND isFavorite == 0")
        #expect(others.names == ["Brittany", "Cairo", "Oslo 10", "Oslo 9"])
    }

    @Test func enumPropertiesCompareByTheirStoredRawValue() throws {
        let fixture = try TripsPredicateFixture()
        let active = TripStatus.active
        let result = try fixture.trips(#Predicate { $0.status == active })
        #expect(result.format == #"status == "active""#)
        #expect(result.names == ["Algarve", "Oslo 10"])
        let statuses: [TripStatus] = [.done, .planned]
        let listed = try fixture.trips(#Predicate { statuses.contains($0.status) })
        #expect(listed.format == #"status IN {"done", "planned"}"#)
        #expect(listed.names == ["Brittany", "Cairo", "Oslo 9", "équateur"])
    }

    @Test func nilChecksOfOptionalAttributes() throws {
        let fixture = try TripsPredicateFixture()
        let open = try fixture.trips(#Predicate { $0.endDate == nil })
        #expect(open.format == "endDate == nil")
        #expect(open.names == ["Brittany", "Oslo 9", "équateur"])
        let closed = try fixture.trips(#Predicate { $0.endDate != nil })
        #expect(closed.format == "endDate != nil")
        #expect(closed.names == ["Algarve", "Cairo", "Oslo 10"])
    }

    @Test func optionalChainsKeepSwiftsMeaningOfTrueFalseAndNil() throws {
        let fixture = try TripsPredicateFixture()
        let isTrue = try fixture.stops(#Predicate { $0.notes?.starts(with: "b") == true })
        #expect(isTrue.format == #"notes != nil AND notes BEGINSWITH "b""#)
        #expect(isTrue.names == ["Faro"])
        let isFalse = try fixture.stops(#Predicate { $0.notes?.starts(with: "b") == false })
        #expect(isFalse.format == #"notes != nil AND (NOT notes BEGINSWITH "b")"#)
        #expect(isFalse.names == ["Bergen", "Quito", "Rennes"])
        let notTrue = try fixture.stops(#Predicate { $0.notes?.starts(with: "b") != true })
        #expect(notTrue.names == ["Bergen", "Lagos", "Quito", "Rennes"])
        let isNil = try fixture.stops(#Predicate { $0.notes?.contains("e") == nil })
        #expect(isNil.format == "notes == nil")
        #expect(isNil.names == ["Lagos"])
        let defaulted = try fixture.stops(#Predicate { $0.notes?.isEmpty ?? true })
        #expect(defaulted.format == #"(notes != nil AND notes == "") OR notes == nil"#)
        #expect(defaulted.names == ["Lagos", "Quito"])
    }

    @Test func nilCoalescingAndTernariesExpandIntoAlternatives() throws {
        let fixture = try TripsPredicateFixture()
        let start = TripsPredicateFixture.day(20)
        let coalesced = try fixture.trips(#Predicate { ($0.endDate ?? start) >= start })
        #expect(coalesced.format == #"(endDate != nil AND endDate >= CAST(1728000.000000, "NSDate")) OR endDate == nil"#)
        #expect(coalesced.names == ["Brittany", "Oslo 10", "Oslo 9", "équateur"])
        let conditions = try fixture.trips(#Predicate { $0.isFavorite ? $0.rating > 3 : $0.rating < 2 })
        #expect(conditions.format == "(isFavorite == 1 AND rating > 3) OR ((NOT isFavorite == 1) AND rating < 2)")
        #expect(conditions.names == ["Algarve", "Oslo 9"])
        let values = try fixture.trips(#Predicate { ($0.isFavorite ? $0.rating : 0) >= 1 })
        #expect(values.format == "isFavorite == 1 AND rating >= 1")
        #expect(values.names == ["Algarve"])
    }

    @Test func forcedUnwrapsAndCastsReadThroughToTheObject() throws {
        let fixture = try TripsPredicateFixture()
        let day = TripsPredicateFixture.day(12)
        let unwrapped = try fixture.trips(#Predicate { $0.endDate != nil && $0.endDate! > day })
        #expect(unwrapped.names == ["Algarve", "Oslo 10"])
        let cast = try fixture.trips(#Predicate { $0.stops.contains { ($0 as? Stop)?.name == "Faro" } })
        #expect(cast.format == #"SUBQUERY(stops, $x, $x.name == "Faro").@count > 0"#)
        #expect(cast.names == ["Algarve"])
    }

    @Test func toOneKeyPathsJoinTheDestination() throws {
        let fixture = try TripsPredicateFixture()
        let named = try fixture.stops(#Predicate { $0.trip.name == "Algarve" })
        #expect(named.format == #"trip.name == "Algarve""#)
        #expect(named.names == ["Faro", "Lagos"])
        let done = TripStatus.done
        let mixed = try fixture.stops(#Predicate { $0.trip.status == done || $0.trip.rating > 3 })
        #expect(mixed.format == #"trip.status == "done" OR trip.rating > 3"#)
        #expect(mixed.names == ["Faro", "Lagos"])
    }

    @Test func containsIsInOnCollectionsAndContainsOnStrings() throws {
        let fixture = try TripsPredicateFixture()
        let names: Set<String> = ["Cairo"]
        let listed = try fixture.trips(#Predicate { names.contains($0.name) || ["Oslo 9"].contains($0.name) })
        #expect(listed.format == #"name IN {"Cairo"} OR name IN {"Oslo 9"}"#)
        #expect(listed.names == ["Cairo", "Oslo 9"])
        let substring = try fixture.trips(#Predicate { $0.name.contains("o") })
        #expect(substring.format == #"name CONTAINS "o""#)
        #expect(substring.names == ["Cairo", "Oslo 10", "Oslo 9"])
        let prefix = try fixture.trips(#Predicate { $0.name.starts(with: "Oslo") })
        #expect(prefix.format == #"name BEGINSWITH "Oslo""#)
        #expect(prefix.names == ["Oslo 10", "Oslo 9"])
        let matches = ["Oslo", "Cai"]
        let anyPrefix = try fixture.trips(#Predicate { trip in matches.contains { trip.name.starts(with: $0) } })
        #expect(anyPrefix.format == #"name BEGINSWITH "Oslo" OR name BEGINSWITH "Cai""#)
        #expect(anyPrefix.names == ["Cairo", "Oslo 10", "Oslo 9"])
    }

    @Test func localizedAndCaseInsensitiveStringComparisons() throws {
        let fixture = try TripsPredicateFixture()
        let search = try fixture.trips(#Predicate { $0.name.localizedStandardContains("EQUA") })
        #expect(search.format == #"name CONTAINS[cd] "EQUA""#)
        #expect(search.names == ["équateur"])
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        let equal = try fixture.trips(#Predicate { $0.name.caseInsensitiveCompare("CAIRO") == same })
        #expect(equal.format == #"name ==[c] "CAIRO""#)
        #expect(equal.names == ["Cairo"])
        let before = try fixture.trips(#Predicate { $0.name.caseInsensitiveCompare("c") == ascending })
        #expect(before.format == #"name <[c] "c""#)
        #expect(before.names == ["Algarve", "Brittany"])
        let notBefore = try fixture.trips(#Predicate { $0.name.caseInsensitiveCompare("c") != ascending })
        #expect(notBefore.format == #"name >=[c] "c""#)
        #expect(notBefore.names == ["Cairo", "Oslo 10", "Oslo 9", "équateur"])
    }

    @Test func countAndIsEmptyOfToManyRelationshipsUseCount() throws {
        let fixture = try TripsPredicateFixture()
        let tagged = try fixture.trips(#Predicate { $0.tags.count >= 2 })
        #expect(tagged.format == "tags.@count >= 2")
        #expect(tagged.names == ["Algarve", "équateur"])
        let noStops = try fixture.trips(#Predicate { $0.stops.count == 0 })
        #expect(noStops.format == "stops.@count == 0")
        #expect(noStops.names == ["Cairo", "Oslo 9"])
        let untagged = try fixture.trips(#Predicate { $0.tags.isEmpty })
        #expect(untagged.format == "tags.@count == 0")
        #expect(untagged.names == ["Cairo"])
    }

    @Test func containsWhereAndAllSatisfyBecomeSubqueryCounts() throws {
        let fixture = try TripsPredicateFixture()
        let wanted = "sun"
        let any = try fixture.trips(#Predicate { $0.tags.contains { $0.name == wanted } })
        #expect(any.format == #"SUBQUERY(tags, $tag, $tag.name == "sun").@count > 0"#)
        #expect(any.names == ["Algarve", "équateur"])
        let all = try fixture.trips(#Predicate { $0.tags.allSatisfy { $0.name.starts(with: "c") } })
        #expect(all.format == #"SUBQUERY(tags, $tag, NOT $tag.name BEGINSWITH "c").@count == 0"#)
        #expect(all.names == ["Brittany", "Cairo", "Oslo 10", "Oslo 9"])
        let throughToOne = try fixture.stops(#Predicate { $0.trip.tags.contains { $0.name == "coast" } })
        #expect(throughToOne.format == #"SUBQUERY(trip.tags, $tag, $tag.name == "coast").@count > 0"#)
        #expect(throughToOne.names == ["Faro", "Lagos", "Rennes"])
        let nested = try fixture.trips(
            #Predicate { trip in
                trip.tags.contains { tag in tag.trips.contains { $0.rating == 5 || $0.name == trip.name && tag.name == "x" } }
            })
        #expect(
            nested.format
                == #"SUBQUERY(tags, $tag, SUBQUERY($tag.trips, $trip, $trip.rating == 5 OR ($trip.name == name AND $tag.name == "x")).@count > 0).@count > 0"#
        )
        #expect(nested.names == [])
    }

    @Test func failableInitialiserAnswersLikeFoundations() throws {
        #expect(NSPredicate(#Predicate<Trip> { $0.rating > 2 })?.predicateFormat == "rating > 2")
        #expect(NSPredicate(#Predicate<Trip> { $0.rating + 1 > 2 }) == nil)
        #expect(NSComparisonPredicate(#Predicate<Trip> { $0.rating > 2 && $0.isFavorite }) == nil)
        #expect(NSCompoundPredicate(#Predicate<Trip> { $0.rating > 2 && $0.isFavorite }) != nil)
        #expect(NSPredicate(#Predicate<Trip> { _ in true })?.predicateFormat == "TRUEPREDICATE")
    }
}
#endif
