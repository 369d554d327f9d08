import Foundation
import Testing

@testable import ModelSchema

/// Validation rules in compiled models: written as Core Data's validation predicates with error
/// codes as warnings, read back as the same rules, and never part of a version hash.
struct ValidationRuleTests {
    static let item = Entity(
        name: "Item",
        attributes: [
            Attribute(
                name: "name", type: .string,
                validation: AttributeValidation(minimumLength: 2, maximumLength: 5, regularExpression: "[a-z]+\"x\\d")),
            Attribute(name: "rating", type: .integer16, validation: AttributeValidation(minimum: .integer(1), maximum: .integer(5))),
            Attribute(name: "price", type: .decimal, validation: AttributeValidation(minimum: .number("0.50"))),
            Attribute(
                name: "due", type: .date,
                validation: AttributeValidation(minimum: .date("2020-01-01T00:00:00Z"), maximum: .date("2030-06-30T12:00:00.5Z"))),
            Attribute(name: "blob", type: .binaryData, validation: AttributeValidation(maximumLength: 3)),
            Attribute(name: "plain", type: .string),
        ])
    static let version = ModelVersion(name: "V", entities: [item])

    static func property(_ name: String, in bytes: [UInt8]) throws -> [(key: String, value: PropertyList)] {
        guard case .dictionary(let root) = try BinaryPropertyList.decode(bytes), case .array(let objects)? = root[field: "$objects"]
        else { throw ValidationRuleTestsFailure() }
        for object in objects {
            if case .dictionary(let fields) = object, case .uid(let uid)? = fields[field: "NSPropertyName"],
                objects[Int(uid)] == .string(name)
            {
                return fields
            }
        }
        throw ValidationRuleTestsFailure()
    }

    struct ValidationRuleTestsFailure: Error {}

    @Test func rulesBecomeCoreDataPredicatesWithErrorCodesAsWarnings() {
        let name = Self.item.attributes[0]
        #expect(
            name.validation.rules(for: .string).map(\.predicateFormat) == ["length >= 2", "length <= 5", #"SELF MATCHES "[a-z]+\"x\\d""#])
        #expect(name.validation.rules(for: .string).map(\.errorCode) == [1670, 1660, 1680])
        #expect(Self.item.attributes[1].validation.rules(for: .integer16).map(\.predicateFormat) == ["SELF >= 1", "SELF <= 5"])
        #expect(Self.item.attributes[1].validation.rules(for: .integer16).map(\.errorCode) == [1620, 1610])
        #expect(Self.item.attributes[2].validation.rules(for: .decimal).map(\.predicateFormat) == ["SELF >= 0.5"])
        let due = Self.item.attributes[3].validation.rules(for: .date)
        #expect(due.map(\.subject) == [.referenceDateSeconds, .referenceDateSeconds])
        #expect(due.map(\.constant) == [.real(599_529_600), .real(930_744_000.5)])
        #expect(due.map(\.errorCode) == [1640, 1630])
        #expect(Self.item.attributes[4].validation.rules(for: .binaryData).map(\.predicateFormat) == ["length <= 3"])
        // Rules that do not apply to the type are not written.
        #expect(AttributeValidation(minimum: .integer(1), regularExpression: "x").rules(for: .boolean).isEmpty)
    }

    @Test func theArchiveCarriesPredicatesAndWarningsAndClearsTheirAbsenceFlags() throws {
        let bytes = CompiledModel.mom(for: Self.version)
        let name = try Self.property("name", in: bytes)
        guard case .integer(let flags)? = name[field: "_P"] else {
            Issue.record("no _P")
            return
        }
        #expect(flags & 0x30 == 0)
        #expect(name[field: "NSValidationPredicates"] != nil)
        #expect(name[field: "NSValidationWarnings"] != nil)
        let plain = try Self.property("plain", in: bytes)
        guard case .integer(let plainFlags)? = plain[field: "_P"] else {
            Issue.record("no _P")
            return
        }
        #expect(plainFlags & 0x30 == 0x30)
        #expect(plain[field: "NSValidationPredicates"] == nil)
    }

    @Test func rulesReadBackFromTheArchive() throws {
        let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: Self.version), versionName: "V").version
        #expect(decoded == CompiledModel.momContent(of: Self.version))
        let item = try #require(decoded.entity(named: "Item"))
        #expect(item.attribute(named: "name")?.validation == Self.item.attributes[0].validation)
        #expect(item.attribute(named: "rating")?.validation == Self.item.attributes[1].validation)
        #expect(item.attribute(named: "price")?.validation == AttributeValidation(minimum: .number("0.5")))
        #expect(
            item.attribute(named: "due")?.validation
                == AttributeValidation(minimum: .date("2020-01-01T00:00:00Z"), maximum: .date("2030-06-30T12:00:00.500Z")))
        #expect(item.attribute(named: "blob")?.validation == AttributeValidation(maximumLength: 3))
        #expect(item.attribute(named: "plain")?.validation.isEmpty == true)
    }

    /// The class name of each operator object in the archive, with its type.
    static func operators(in archive: PropertyList) -> [(className: String, type: Int64)] {
        guard case .array(let objects)? = archive["$objects"] else { return [] }
        return objects.compactMap { object in
            guard case .integer(let type)? = object["NSOperatorType"], case .uid(let classUID)? = object["$class"],
                let name = objects[Int(classUID)]["$classname"]?.stringValue
            else { return nil }
            return (name, type)
        }
    }

    /// The archive with each object passed through `change`, and `extra` objects appended.
    static func editing(_ archive: PropertyList, extra: [PropertyList] = [], _ change: (PropertyList) -> PropertyList) -> PropertyList {
        guard case .dictionary(let top) = archive else { return archive }
        return .dictionary(
            top.map { entry in
                guard entry.key == "$objects", case .array(let objects) = entry.value else { return entry }
                return (entry.key, .array(objects.map(change) + extra))
            })
    }

    @Test func operatorsAreTheObjectsFoundationMakesForThem() throws {
        let archive = try BinaryPropertyList.decode(CompiledModel.mom(for: Self.version))
        let operators = Self.operators(in: archive)
        #expect(operators.filter { $0.type == 6 }.map(\.className) == ["NSMatchingPredicateOperator"])
        #expect(Set(operators.filter { $0.type != 6 }.map(\.className)) == ["NSComparisonPredicateOperator"])
        #expect(Set(operators.map(\.type)) == [1, 3, 6])
    }

    @Test func patternsEarlierVersionsArchivedWithTypeSevenReadBackAsPatterns() throws {
        let archive = try BinaryPropertyList.decode(CompiledModel.mom(for: Self.version))
        let earlier = Self.editing(archive) { object in
            guard case .dictionary(let fields) = object, case .integer(6)? = object["NSOperatorType"] else { return object }
            return .dictionary(fields.map { $0.key == "NSOperatorType" ? ($0.key, .integer(7)) : $0 })
        }
        let decoded = try CompiledModel.decodeMom(BinaryPropertyList.encode(earlier), versionName: "V").version
        #expect(decoded.entity(named: "Item")?.attribute(named: "name")?.validation == Self.item.attributes[0].validation)
    }

    @Test func aKeyWrappedInAKeyPathSpecifierReadsBackAsTheSameRule() throws {
        let archive = try BinaryPropertyList.decode(CompiledModel.mom(for: Self.version))
        guard case .array(let objects)? = archive["$objects"] else { throw ValidationRuleTestsFailure() }
        // The constant `length` arguments become NSKeyPathSpecifierExpression objects.
        let specifierClass = UInt64(objects.count)
        let specifier = PropertyList.dictionary([
            ("$classes", .array([.string("NSKeyPathSpecifierExpression"), .string("NSExpression"), .string("NSObject")])),
            ("$classname", .string("NSKeyPathSpecifierExpression")),
        ])
        let edited = Self.editing(archive, extra: [specifier]) { object in
            guard case .uid(let value)? = object["NSConstantValue"], objects[Int(value)] == .string("length") else { return object }
            return .dictionary([("NSKeyPath", .uid(value)), ("NSExpressionType", .integer(10)), ("$class", .uid(specifierClass))])
        }
        let decoded = try CompiledModel.decodeMom(BinaryPropertyList.encode(edited), versionName: "V").version
        #expect(decoded.entity(named: "Item")?.attribute(named: "name")?.validation == Self.item.attributes[0].validation)
        #expect(decoded.entity(named: "Item")?.attribute(named: "blob")?.validation == AttributeValidation(maximumLength: 3))
    }

    @Test func validationRulesAreNotPartOfVersionHashes() {
        var bare = Self.item
        for index in bare.attributes.indices { bare.attributes[index].validation = AttributeValidation() }
        let withRules = VersionHashes(Self.version)
        let without = VersionHashes(ModelVersion(name: "V", entities: [bare]))
        #expect(withRules == without)
        #expect(VersionHashes.propertyHashes(Self.version) == VersionHashes.propertyHashes(ModelVersion(name: "V", entities: [bare])))
    }
}
