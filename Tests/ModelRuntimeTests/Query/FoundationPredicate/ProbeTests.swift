#if !canImport(CoreData)
import ModelRuntime
import Testing

struct ProbeTests {
    @Test func probe() throws {
        let f = try TripsPredicateFixture()
        let limit: Int16 = 3
        let names = ["Cairo", "Oslo 9"]
        let tagName = "sun"
        let active = TripStatus.active
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        let done = TripStatus.done
        let start = TripsPredicateFixture.day(20)
        let cases: [(String, () throws -> (format: String, names: [String]))] = [
            ("cmp", { try f.trips(#Predicate { $0.rating > limit && $0.startDate < start }) }),
            ("eq", { try f.trips(#Predicate { $0.name == "Cairo" || $0.rating != 2 }) }),
            ("bool", { try f.trips(#Predicate { $0.isFavorite }) }),
            ("notbool", { try f.trips(#Predicate { !$0.isFavorite }) }),
            ("enum", { try f.trips(#Predicate { $0.status == active }) }),
            ("nil", { try f.trips(#Predicate { $0.endDate == nil }) }),
            ("notnil", { try f.trips(#Predicate { $0.endDate != nil }) }),
            ("in", { try f.trips(#Predicate { names.contains($0.name) }) }),
            ("contains", { try f.trips(#Predicate { $0.name.contains("o") }) }),
            ("starts", { try f.trips(#Predicate { $0.name.starts(with: "Oslo") }) }),
            ("lsc", { try f.trips(#Predicate { $0.name.localizedStandardContains("EQUA") }) }),
            ("cic", { try f.trips(#Predicate { $0.name.caseInsensitiveCompare("CAIRO") == same }) }),
            ("cic<", { try f.trips(#Predicate { $0.name.caseInsensitiveCompare("c") == ascending }) }),
            ("count", { try f.trips(#Predicate { $0.tags.count >= 2 }) }),
            ("stopcount", { try f.trips(#Predicate { $0.stops.count == 0 }) }),
            ("isEmpty", { try f.trips(#Predicate { $0.tags.isEmpty }) }),
            ("any", { try f.trips(#Predicate { $0.tags.contains { $0.name == tagName } }) }),
            ("all", { try f.trips(#Predicate { $0.tags.allSatisfy { $0.name.starts(with: "c") } }) }),
            ("ternary", { try f.trips(#Predicate { $0.isFavorite ? $0.rating > 3 : $0.rating < 2 }) }),
            ("ternaryValue", { try f.trips(#Predicate { ($0.isFavorite ? $0.rating : 5) >= 4 }) }),
            ("range", { try f.trips(#Predicate { (2...4).contains($0.rating) }) }),
            ("range2", { try f.trips(#Predicate { (2..<4).contains($0.rating) }) }),
            ("coalesce", { try f.trips(#Predicate { ($0.endDate ?? start) >= start }) }),
            ("tripname", { try f.stops(#Predicate { $0.trip.name == "Algarve" }) }),
            ("notes", { try f.stops(#Predicate { $0.notes?.starts(with: "b") == true }) }),
            ("notesfalse", { try f.stops(#Predicate { $0.notes?.starts(with: "b") == false }) }),
            ("notesNotTrue", { try f.stops(#Predicate { $0.notes?.starts(with: "b") != true }) }),
            ("notesEmpty", { try f.stops(#Predicate { $0.notes?.isEmpty ?? true }) }),
            ("notesforce", { try f.stops(#Predicate { $0.notes!.contains("e") }) }),
            ("nestedany", { try f.stops(#Predicate { $0.trip.tags.contains { $0.name == "coast" } }) }),
            ("tripStatus", { try f.stops(#Predicate { $0.trip.status == done || $0.trip.rating > 3 }) }),
        ]
        for (label, run) in cases {
            do {
                let r = try run()
                print("PROBE \(label): \(r.format) -> \(r.names)")
            } catch {
                print("PROBE \(label): ERROR \(error)")
            }
        }
    }
}
#endif
