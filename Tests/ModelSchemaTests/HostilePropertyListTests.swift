import Foundation
import Testing

@testable import ModelSchema

/// Binary property lists built by hand to attack the decoder: out-of-range UIDs, objects that
/// reference each other exponentially often, and reference cycles. Each is an error, quickly.
struct HostilePropertyListTests {
    /// A `bplist00` file of the given object bodies (object references are one byte).
    static func plist(_ objects: [[UInt8]], top: UInt8 = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top]
        bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        return bytes
    }

    static func decodingError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try BinaryPropertyList.decode(bytes)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func uidPastThirtyTwoBitsIsAnErrorAsInCoreFoundation() {
        let huge = Self.plist([[0x87, 0x80, 0, 0, 0, 0, 0, 0, 0]])
        #expect(Self.decodingError(huge) == "UID out of range")
        #expect(Self.decodingError(Self.plist([[0x84, 1, 0, 0, 0, 0]])) == "UID out of range")
        #expect(PropertyList.foundationObject(from: Data(huge)) == nil)
        #expect(throws: VersionInfo.FormatError(message: "not a valid binary property list: UID out of range")) {
            try VersionInfo(plist: Data(huge))
        }
    }

    @Test func widestUIDsThatFitDecode() throws {
        #expect(try BinaryPropertyList.decode(Self.plist([[0x83, 0xFF, 0xFF, 0xFF, 0xFF]])) == .uid(0xFFFF_FFFF))
        // Up to 16 bytes may hold the value, as long as the leading ones are zero.
        #expect(try BinaryPropertyList.decode(Self.plist([[0x8F] + [UInt8](repeating: 0, count: 15) + [7]])) == .uid(7))
    }

    @Test func uidValuesOfAnyWidthBecomeFoundationNumbersWithoutTrapping() {
        #expect(PropertyList.uid(5).foundationObject as? Int == 5)
        #expect(PropertyList.uid(.max).foundationObject as? UInt64 == .max)
    }

    @Test func objectsReferencedExponentiallyOftenAreRejectedQuickly() {
        // Object i is an array holding object i + 1 twice; the last is a string: 2^60 strings.
        var objects: [[UInt8]] = (0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x51, 0x78])
        let message = Self.decodingError(Self.plist(objects))
        #expect(message?.contains("too large") == true)
    }

    @Test func sharedObjectsWithinTheBudgetDecodeToTheFullTree() throws {
        var objects: [[UInt8]] = (0..<3).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x51, 0x78])
        let leaf = PropertyList.string("x")
        let pair = PropertyList.array([leaf, leaf])
        let quad = PropertyList.array([pair, pair])
        #expect(try BinaryPropertyList.decode(Self.plist(objects)) == .array([quad, quad]))
    }

    @Test func referenceCyclesAreAnError() {
        #expect(Self.decodingError(Self.plist([[0xA1, 0x00]])) == "reference cycle")
        #expect(Self.decodingError(Self.plist([[0xA1, 0x01], [0xD1, 0x02, 0x00], [0x51, 0x6B]])) == "reference cycle")
    }

    @Test func theExpansionBudgetIsLinearInTheFileSize() {
        #expect(BinaryPropertyList.expansionLimit(forFileSize: 100) == 1 << 20)
        #expect(BinaryPropertyList.expansionLimit(forFileSize: 1 << 30) == 64 << 30)
        #expect(BinaryPropertyList.expansionLimit(forFileSize: .max) == .max)
    }
}
