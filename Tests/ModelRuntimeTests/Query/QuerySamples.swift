#if !canImport(CoreData)
import ModelRuntime

/// Key-value objects the query tests evaluate against.
final class SampleObject: KeyValueReadable, KeyPathStringConvertible, CustomStringConvertible, @unchecked Sendable {
    let values: [String: Any]

    init(_ values: [String: Any]) { self.values = values }

    func value(forKey key: String) -> Any? { values[key] }

    var name: String? { values["name"] as? String }
    var age: Int? { values["age"] as? Int }
    var trip: SampleObject? { values["trip"] as? SampleObject }

    static func keyPathString(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \SampleObject.name: return "name"
        case \SampleObject.age: return "age"
        case \SampleObject.trip: return "trip"
        case \SampleObject.trip?.name: return "trip.name"
        default: return nil
        }
    }

    var description: String { name ?? "?" }
}

enum QuerySamples {
    static let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)

    static let paris = SampleObject(["name": "Paris", "country": "France", "days": 4])
    static let rome = SampleObject(["name": "Rome", "country": "Italy", "days": 2])

    /// A person with scalars of every kind, a to-one `trip` and a to-many `trips`.
    static let ana = SampleObject([
        "name": "Ana Müller",
        "nickname": "Ána",
        "age": 34,
        "height": 1.72,
        "balance": Decimal(string: "10.50")!,
        "active": true,
        "born": reference,
        "id": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        "tags": ["swift", "travel"],
        "scores": Set([3, 5, 8]),
        "trip": paris,
        "trips": [paris, rome],
    ])

    static let bob = SampleObject([
        "name": "bob",
        "age": 17,
        "height": 1.8,
        "active": false,
        "tags": [String](),
        "trips": [SampleObject](),
    ])
}
#endif
