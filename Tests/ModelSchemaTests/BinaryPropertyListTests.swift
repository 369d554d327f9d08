import Foundation
import Testing

@testable import ModelSchema

struct BinaryPropertyListTests {
    static let fixtures = Fixtures.coredata

    static let sample: PropertyList = .dictionary([
        ("name", .string("Trips")), ("count", .integer(300)), ("negative", .integer(-2)), ("ratio", .real(0.5)),
        ("flag", .boolean(true)), ("bytes", .data([1, 2, 3])), ("unicode", .string("Café ☕")),
        ("list", .array([.string("a"), .string("a"), .uid(17), .dictionary([])])), ("long", .string(String(repeating: "x", count: 40))),
    ])

    @Test func encodingThenDecodingGivesTheSameValue() throws {
        #expect(try BinaryPropertyList.decode(BinaryPropertyList.encode(Self.sample)) == Self.sample)
    }

    @Test func encodingIsDeterministicAndFoundationReadsIt() throws {
        let bytes = BinaryPropertyList.encode(Self.sample)
        #expect(bytes == BinaryPropertyList.encode(Self.sample))
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any]
        #expect(object?["name"] as? String == "Trips")
        #expect(object?["count"] as? Int == 300)
        #expect(object?["unicode"] as? String == "Café ☕")
    }

    @Test func momcWrittenFilesDecode() throws {
        let info = try BinaryPropertyList.decode(
            [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd/VersionInfo.plist")))
        )
        #expect(info["NSManagedObjectModel_CurrentVersionName"]?.stringValue == "SampleModel3")
        let mom = try BinaryPropertyList.decode(
            [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd/SampleModel3.mom"))))
        #expect(mom["$archiver"]?.stringValue == "NSKeyedArchiver")
        #expect(mom["$top"]?["root"] == .uid(1))
    }

    @Test func corruptInputIsAnErrorNotACrash() throws {
        let original = [UInt8](
            try Data(contentsOf: Self.fixtures.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd/SampleModel3.mom")))
        var state: UInt64 = 42
        var rejected = 0
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[Int(state >> 33) % bytes.count] = UInt8(truncatingIfNeeded: state >> 17)
            }
            if (try? BinaryPropertyList.decode(bytes)) == nil { rejected += 1 }
        }
        #expect(rejected > 0)
        #expect(throws: BinaryPropertyList.FormatError.self) { try BinaryPropertyList.decode(Array("bplist00".utf8)) }
    }
}
