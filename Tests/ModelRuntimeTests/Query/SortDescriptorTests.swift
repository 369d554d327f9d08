#if !canImport(CoreData)
import ModelRuntime
import Testing

struct SortDescriptorTests {
    static func sorted(_ objects: [Any], by descriptors: [NSSortDescriptor]) -> [Any] {
        objects.sorted { lhs, rhs in
            for descriptor in descriptors {
                switch descriptor.compare(lhs, to: rhs) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return false
        }
    }

    static func names(_ objects: [Any]) -> [String?] { objects.map { ($0 as? [String: Any])?["name"] as? String } }

    static var rows: [[String: Any]] {
        [
            ["name": "beta", "rank": 2],
            ["name": "Alpha", "rank": 10],
            ["rank": 1],
            ["name": "alpha", "rank": 2.5],
            ["name": "item 10", "rank": 2],
            ["name": "item 9", "rank": Decimal(3)],
        ]
    }

    @Test func nilSortsFirstAscendingAndLastDescending() {
        let ascending = Self.sorted(Self.rows, by: [NSSortDescriptor(key: "name", ascending: true)])
        #expect(Self.names(ascending) == [nil, "Alpha", "alpha", "beta", "item 10", "item 9"])
        let descending = Self.sorted(Self.rows, by: [NSSortDescriptor(key: "name", ascending: false)])
        #expect(Self.names(descending) == ["item 9", "item 10", "beta", "alpha", "Alpha", nil])
    }

    @Test func numbersCompareAcrossTypes() {
        let byRank = Self.sorted(Self.rows, by: [NSSortDescriptor(key: "rank", ascending: true)])
        #expect(byRank.map { "\(($0 as! [String: Any])["rank"]!)" } == ["1", "2", "2", "2.5", "3", "10"])
    }

    @Test func selectorsChooseTheStringComparison() {
        let caseInsensitive = NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))
        #expect(caseInsensitive.compare(["name": "alpha"], to: ["name": "Alpha"]) == .orderedSame)
        #expect(caseInsensitive.compare(["name": "alpha"], to: ["name": "Beta"]) == .orderedAscending)
        let standard = NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:")
        #expect(standard.compare(["name": "item 9"], to: ["name": "item 10"]) == .orderedAscending)
        let plain = NSSortDescriptor(key: "name", ascending: true, selector: "compare:")
        #expect(plain.compare(["name": "item 9"], to: ["name": "item 10"]) == .orderedDescending)
        #expect(
            NSSortDescriptor(key: "name", ascending: true, selector: "localizedCaseInsensitiveCompare:")
                .compare(["name": "b"], to: ["name": "A"]) == .orderedDescending)
        #expect(NSSortDescriptor(key: "name", ascending: true, selector: "localizedCompare:").selector == Selector("localizedCompare:"))
    }

    @Test func keyPathsThroughToOneRelationships() {
        let descriptor = NSSortDescriptor(key: "trip.name", ascending: true)
        #expect(descriptor.compare(QuerySamples.ana, to: QuerySamples.bob) == .orderedDescending)
        #expect(descriptor.key == "trip.name")
        #expect(descriptor.ascending)
    }

    @Test func swiftKeyPathsMapToTheirStringKeys() {
        let descriptor = NSSortDescriptor(keyPath: \SampleObject.age, ascending: false)
        #expect(descriptor.key == "age")
        #expect(descriptor.keyPath == \SampleObject.age)
        #expect(descriptor.compare(QuerySamples.ana, to: QuerySamples.bob) == .orderedAscending)
        #expect(NSSortDescriptor(keyPath: \SampleObject.trip?.name, ascending: true).key == "trip.name")
        #expect(NSExpression(forKeyPath: \SampleObject.name).keyPath == "name")
    }

    @Test func reversedDescriptorFlipsTheOrder() throws {
        let descriptor = NSSortDescriptor(key: "rank", ascending: true)
        let reversed = try #require(descriptor.reversedSortDescriptor as? NSSortDescriptor)
        #expect(!reversed.ascending)
        #expect(reversed.key == "rank")
        #expect(reversed.compare(["rank": 1], to: ["rank": 2]) == .orderedDescending)
        #expect(descriptor == NSSortDescriptor(key: "rank", ascending: true))
        #expect(descriptor != reversed)
    }

    @Test func comparatorsAndNilKeysCompareValues() {
        let byLength = NSSortDescriptor(key: nil, ascending: true) { lhs, rhs in
            let l = (lhs as! String).count
            let r = (rhs as! String).count
            return l < r ? .orderedAscending : l == r ? .orderedSame : .orderedDescending
        }
        #expect(byLength.compare("ccc", to: "a") == .orderedDescending)
        #expect(byLength.comparator("a", "bb") == .orderedAscending)
        #expect(NSSortDescriptor(key: nil, ascending: true).compare(QuerySamples.reference, to: Date.distantPast) == .orderedDescending)
    }
}
#endif

#if !canImport(CoreData)
struct CollectionFilteringTests {
    @Test func arraysFilterAndSortWithTheRuntimesTypes() {
        let rows = NSArray(array: SortDescriptorTests.rows)
        let named = rows.filtered(using: NSPredicate(format: "name != nil AND rank >= 2"))
        #expect(named.count == 5)
        let sorted = NSArray(array: named).sortedArray(using: [
            NSSortDescriptor(key: "rank", ascending: true), NSSortDescriptor(key: "name", ascending: false),
        ])
        #expect(SortDescriptorTests.names(sorted) == ["item 10", "beta", "alpha", "item 9", "Alpha"])
        let mutable = NSMutableArray(array: SortDescriptorTests.rows)
        mutable.filter(using: NSPredicate(format: "name BEGINSWITH[c] 'a'"))
        mutable.sort(using: [NSSortDescriptor(key: "name", ascending: true)])
        #expect(SortDescriptorTests.names(mutable.map { $0 }) == ["Alpha", "alpha"])
    }

    @Test func sortingKeepsTheOrderOfEqualElements() {
        let rows: [[String: Any]] = (0..<50).map { ["group": $0 % 3, "index": $0] }
        let sorted = NSArray(array: rows).sortedArray(using: [NSSortDescriptor(key: "group", ascending: true)])
        let indexes = sorted.map { ($0 as! [String: Any])["index"] as! Int }
        #expect(indexes == (0..<50).filter { $0 % 3 == 0 } + (0..<50).filter { $0 % 3 == 1 } + (0..<50).filter { $0 % 3 == 2 })
    }

    @Test func setsFilterTheirMembers() {
        let set = NSSet(array: [1, 5, 9])
        #expect(Set(set.filtered(using: NSPredicate(format: "SELF > 4")).compactMap { $0 as? Int }) == [5, 9])
        #expect(
            NSOrderedSet(array: [3, 1, 2]).filtered(using: NSPredicate(format: "SELF != 1")).array.compactMap { $0 as? Int } == [3, 2])
    }

    @Test func blockPredicatesEvaluateTheirClosure() {
        let predicate = NSPredicate { object, bindings in
            (object as? Int).map { $0 > (bindings?["min"] as? Int ?? 0) } ?? false
        }
        #expect(predicate.evaluate(with: 3))
        #expect(!predicate.evaluate(with: 3, substitutionVariables: ["min": 5]))
        #expect(predicate.predicateFormat.hasPrefix("BLOCKPREDICATE(0x"))
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: [predicate, NSPredicate(format: "SELF < 10")]).evaluate(with: 4))
    }
}
#endif
