#if !canImport(CoreData)
import ModelCompiler
import ModelRuntime
import ModelSchema
import Testing

/// Validation rules written in a YAML model reach the runtime through the compiled `.mom`: the
/// loaded properties carry Core Data's predicates and error codes, and a save enforces them.
struct CompiledValidationTests {
    static let modelText = """
        entities:
          Item:
            attributes:
              name: { type: String, minLength: 2, maxLength: 5, regex: "[a-z]+" }
              rating: { type: Integer 16, min: 1, max: 5, default: 3 }
              price: { type: Double?, min: 0.5 }
              due: { type: Date?, min: 2020-01-01T00:00:00Z, max: 2030-01-01T00:00:00Z }
              blob: { type: Binary?, maxLength: 3 }
        """

    static func model() throws -> NSManagedObjectModel {
        let loaded = Pipeline.load(text: modelText, path: "Rules.model.yaml")
        let version = try #require(loaded.model?.versions.first, "\(loaded.diagnostics)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-rules-\(UUID().uuidString).mom")
        try Data(CompiledModel.mom(for: version)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try #require(NSManagedObjectModel(contentsOf: url))
    }

    static func failure(_ values: [String: Any]) throws -> NSError? {
        let (_, context) = try EngineTestModel.stack(model: model())
        return context.performAndWait {
            _ = EngineTestModel.insert("Item", into: context, ["name": "abc"].merging(values) { $1 })
            do {
                try context.save()
                return nil
            } catch {
                return error as NSError
            }
        }
    }

    /// The codes and keys of a failed save, one pair per error.
    static func codes(_ error: NSError?) -> [String: Int] {
        guard let error else { return [:] }
        let errors = error.code == NSValidationMultipleErrorsError ? error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [] : [error]
        var result: [String: Int] = [:]
        for error in errors {
            let key = error.userInfo[NSValidationKeyErrorKey] as? String ?? "?"
            result[key, default: 0] = result[key] == nil ? error.code : -1
        }
        return result
    }

    @Test func loadedPropertiesCarryCoreDataPredicatesAndErrorCodes() throws {
        let item = try #require(try Self.model().entitiesByName["Item"])
        let name = try #require(item.attributesByName["name"])
        #expect(name.validationPredicates.map(\.predicateFormat) == ["length >= 2", "length <= 5", #"SELF MATCHES "[a-z]+""#])
        #expect(name.validationWarnings.compactMap { ($0 as? NSNumber)?.intValue } == [1670, 1660, 1680])
        let rating = try #require(item.attributesByName["rating"])
        #expect(rating.validationPredicates.map(\.predicateFormat) == ["SELF >= 1", "SELF <= 5"])
        #expect(rating.validationWarnings.compactMap { ($0 as? NSNumber)?.intValue } == [1620, 1610])
        let due = try #require(item.attributesByName["due"])
        #expect(
            due.validationPredicates.map(\.predicateFormat)
                == ["timeIntervalSinceReferenceDate >= 599529600", "timeIntervalSinceReferenceDate <= 915148800"])
    }

    @Test func aValidObjectSaves() throws {
        #expect(
            try Self.failure(["rating": 5, "price": 0.5, "due": Date(timeIntervalSinceReferenceDate: 7e8), "blob": Data([1, 2, 3])]) == nil)
    }

    @Test func eachRuleFailsTheSaveWithItsCodeAndKey() throws {
        #expect(Self.codes(try Self.failure(["name": "a"])) == ["name": NSValidationStringTooShortError])
        #expect(Self.codes(try Self.failure(["name": "abcdef"])) == ["name": NSValidationStringTooLongError])
        #expect(Self.codes(try Self.failure(["name": "ab1"])) == ["name": NSValidationStringPatternMatchingError])
        #expect(Self.codes(try Self.failure(["rating": 0])) == ["rating": NSValidationNumberTooSmallError])
        #expect(Self.codes(try Self.failure(["rating": 6])) == ["rating": NSValidationNumberTooLargeError])
        #expect(Self.codes(try Self.failure(["price": 0.25])) == ["price": NSValidationNumberTooSmallError])
        #expect(Self.codes(try Self.failure(["due": Date(timeIntervalSinceReferenceDate: 0)])) == ["due": NSValidationDateTooSoonError])
        #expect(Self.codes(try Self.failure(["due": Date(timeIntervalSinceReferenceDate: 1e9)])) == ["due": NSValidationDateTooLateError])
        #expect(Self.codes(try Self.failure(["blob": Data([1, 2, 3, 4])])) == ["blob": NSValidationStringTooLongError])
    }

    @Test func severalBrokenRulesFailTogetherWithTheFailingPredicate() throws {
        let error = try #require(try Self.failure(["name": "A", "rating": 9]))
        #expect(error.code == NSValidationMultipleErrorsError)
        #expect(Self.codes(error) == ["name": -1, "rating": NSValidationNumberTooLargeError])
        let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
        let predicates = details.compactMap { ($0.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)?.predicateFormat }
        #expect(Set(predicates) == ["length >= 2", #"SELF MATCHES "[a-z]+""#, "SELF <= 5"])
    }
}
#endif
