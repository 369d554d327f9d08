import ModelRuntime

// Parses predicate formats, evaluates predicates and sorts with sort descriptors over
// synthetic key-value objects, next to the same work written as plain Swift closures in the
// same process, so each figure is a ratio that holds on a noisy machine.
// Run: swift run -c release modelruntime-query-benchmark

#if canImport(CoreData)
print("The query benchmark measures the Linux implementation; on Apple platforms Foundation provides it.")
#else
final class Row: KeyValueReadable {
    let name: String
    let age: Int
    let city: Row?
    let tags: [String]

    init(name: String, age: Int, city: Row?, tags: [String]) {
        self.name = name
        self.age = age
        self.city = city
        self.tags = tags
    }

    func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "age": return age
        case "city": return city
        case "tags": return tags
        default: return nil
        }
    }
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let cities = (0..<50).map { Row(name: "City \($0)", age: 0, city: nil, tags: []) }
let rows = (0..<200_000).map { index in
    Row(
        name: "Person \(index % 9973) Müller", age: index % 90, city: cities[index % 50], tags: index % 7 == 0 ? ["swift", "linux"] : ["c"])
}

let formats = [
    "age > 30 AND name BEGINSWITH[c] 'person 1'",
    "city.name == 'City 7' OR age BETWEEN {10, 20}",
    "ANY tags == 'swift' AND NOT name CONTAINS[cd] 'MULLER 5'",
    "name LIKE[c] '*9 m*'",
    "name MATCHES 'Person [0-9]+ M.*'",
]

var parsed: [NSPredicate] = []
let parseTime = seconds {
    for _ in 0..<2_000 {
        parsed = formats.map { NSPredicate(format: $0) }
    }
}
print(
    "parse: \(formats.count * 2_000) formats in \(String(format: "%.3f", parseTime)) s"
        + " (\(String(format: "%.1f", parseTime / Double(formats.count * 2_000) * 1e6)) µs each)")

let handWritten: [(Row) -> Bool] = [
    { $0.age > 30 && $0.name.lowercased().hasPrefix("person 1") },
    { $0.city?.name == "City 7" || (10...20).contains($0.age) },
    {
        $0.tags.contains("swift") && !$0.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).contains("muller 5")
    },
    { $0.name.lowercased().contains("9 m") },
    { $0.name.hasPrefix("Person ") },
]

for (index, predicate) in parsed.enumerated() {
    var matched = 0
    let predicateTime = seconds { matched = rows.count { predicate.evaluate(with: $0) } }
    var expected = 0
    let closureTime = seconds { expected = rows.count(where: handWritten[index]) }
    print(
        "evaluate \"\(formats[index])\": \(rows.count) objects in \(String(format: "%.3f", predicateTime)) s,"
            + " \(matched) match; a Swift closure doing similar work: \(String(format: "%.3f", closureTime)) s (\(expected) match),"
            + " ratio \(String(format: "%.1f", predicateTime / closureTime))×")
}

let descriptors = [NSSortDescriptor(key: "city.name", ascending: true), NSSortDescriptor(key: "age", ascending: false)]
let sample = NSArray(array: Array(rows.prefix(50_000)))
var sorted: [Any] = []
let sortTime = seconds { sorted = sample.sortedArray(using: descriptors) }
var swiftSorted: [Row] = []
let swiftSortTime = seconds {
    swiftSorted = rows.prefix(50_000).sorted { ($0.city!.name, $1.age) < ($1.city!.name, $0.age) }
}
print(
    "sort 50,000 objects by city.name, age desc: \(String(format: "%.3f", sortTime)) s;"
        + " Swift sorted(by:) on the properties: \(String(format: "%.3f", swiftSortTime)) s,"
        + " ratio \(String(format: "%.1f", sortTime / swiftSortTime))× (\(sorted.count), \(swiftSorted.count))")

try benchmarkFetchSQL()
#endif
