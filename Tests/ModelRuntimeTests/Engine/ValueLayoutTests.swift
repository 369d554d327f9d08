#if !canImport(CoreData)
import Foundation
import Testing

@testable import ModelRuntime

/// The standard library's memory layouts the engine reads directly (docs/runtime/Safety.md, "Layout
/// reads of the standard library"): where an `Any?` keeps a value and its type, that a class
/// reference is the first word of an `Any`, and that a dictionary is one reference to its storage.
/// On a platform whose layout differs, ``StoredValueCast/layoutHolds`` is false and the engine
/// takes the general paths; these tests say whether the fast paths are the ones this platform runs,
/// and that they give what the general paths give for every type they handle.
struct ValueLayoutTests {
    /// One value of each type read in place, and values of other types the general path takes.
    static var samples: [Any?] {
        [
            nil, Int64(-7), Int64.max, "short", "a string longer than fifteen bytes, kept out of line", 2.5,
            Date(timeIntervalSince1970: 86_400), true, Int32(-3), Int16(12), Float(1.25),
            UUID(uuidString: "5F1C7E0A-3B1D-4E6A-9C55-0123456789AB")!, Data([1, 2, 3]), Data(repeating: 9, count: 100), 42,
            NSNumber(value: 5), Decimal(string: "1.5")!, NSNull(), ["an", "array"],
        ]
    }

    @Test func anOptionalAnyHasTheLayoutTheEngineReadsOnThisPlatform() {
        #expect(StoredValueCast.layoutHolds)
        #expect(MemoryLayout<Any?>.size == 4 * MemoryLayout<UnsafeRawPointer>.size)
        #expect(StoredValueCast.metadata(of: nil) == nil)
        #expect(StoredValueCast.metadata(of: Int64(1)) == unsafeBitCast(Int64.self as Any.Type, to: UnsafeRawPointer.self))
        #expect(StoredValueCast.metadata(of: "text") == unsafeBitCast(String.self as Any.Type, to: UnsafeRawPointer.self))
    }

    /// `cast(_:to:)` and `copy(_:type:into:)` against `as?`, for each type read in place.
    @Test func readsInPlaceAgreeWithACastForEveryTypeTheyHandle() {
        func check<T: Equatable>(_ type: T.Type) {
            for sample in Self.samples {
                #expect(StoredValueCast.cast(sample, to: T.self) == sample as? T, "\(T.self) from \(String(describing: sample))")
                var slot: Any? = sample
                let copied = withUnsafeMutablePointer(to: &slot) { existential in
                    withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer -> T? in
                        let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
                        let copy = StoredValueCast.copy(
                            UnsafeRawPointer(existential), type: ObjectIdentifier(T.self), size: MemoryLayout<T>.size, into: destination,
                            layoutHolds: StoredValueCast.layoutHolds)
                        switch copy {
                        case .copied: return buffer.baseAddress!.move()
                        case .absent, .other: return nil
                        }
                    }
                }
                // A value of exactly `T` is copied; others are left to the cast.
                if let sample, Swift.type(of: sample) == T.self { #expect(copied == sample as? T) } else { #expect(copied == nil) }
            }
        }
        check(Int64.self)
        check(String.self)
        check(Double.self)
        check(Date.self)
        check(Bool.self)
        check(Int32.self)
        check(Int16.self)
        check(Float.self)
        check(UUID.self)
        check(Data.self)
        check(Int.self)
    }

    /// `destroy` releases exactly what the value holds (AddressSanitizer checks the memory; the
    /// class instance's count is checked here).
    @Test func destroyingValuesInPlaceReleasesWhatTheyHold() {
        final class Tracked {}
        weak var tracked: Tracked?
        let values = UnsafeMutablePointer<Any?>.allocate(capacity: Self.samples.count + 1)
        defer { values.deallocate() }
        do {
            let object = Tracked()
            tracked = object
            values.initialize(to: object)
            for (index, sample) in Self.samples.enumerated() { (values + index + 1).initialize(to: sample) }
        }
        #expect(tracked != nil)
        for index in 0...Self.samples.count { StoredValueCast.destroy(values + index, layoutHolds: StoredValueCast.layoutHolds) }
        #expect(tracked == nil)
    }

    /// Object identity reads the first word of an `Any` (a class reference's), and the
    /// change tracker compares two dictionaries' storage references.
    @Test func objectIdentityAndSharedDictionaryStorageAreReadFromTheirFirstWord() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "a"])
            let other = EngineTestModel.insert("Trip", into: context, ["name": "b"])
            #expect(trip.isEqual(trip) && !trip.isEqual(other) && !trip.isEqual(nil) && !trip.isEqual("a"))
            // A value whose first word happens to hold the object's address is not the object.
            let address = Int(bitPattern: ObjectIdentifier(trip))
            #expect(!trip.isEqual(address) && !trip.isEqual(UInt(bitPattern: address)))
            let table = [ObjectIdentifier(trip): trip]
            var copy = table
            #expect(ProcessedChanges.sameStorage(table, copy))
            copy[ObjectIdentifier(other)] = other
            #expect(!ProcessedChanges.sameStorage(table, copy))
        }
    }

    @Test func anObjectIDIsReadInPlaceOnlyWhenTheValueIsAnObjectID() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "a"])
            try context.save()
            let id = trip.objectID
            let same = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: id.uriRepresentation()))
            #expect(same !== id)
            // Boxed as the ID's own class, and as `NSObject` (how `==` passes it).
            #expect(id.isEqual(same) && id.isEqual(same as NSObject) && id.isEqual((same as NSObject) as Any?))
            // Other instances boxed as `NSObject`, and values whose first word holds the ID's address.
            #expect(!id.isEqual(NSObject()) && !id.isEqual(trip as NSObject) && !id.isEqual(NSString(string: "a") as NSObject))
            let address = Int(bitPattern: ObjectIdentifier(same))
            #expect(!id.isEqual(address) && !id.isEqual(UInt(bitPattern: address)) && !id.isEqual(nil as Any?))
        }
    }
}
#endif
