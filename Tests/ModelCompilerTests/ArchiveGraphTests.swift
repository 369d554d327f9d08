import ModelSchema
import Testing

/// The archive walk the compiler tests compare `.mom` files with stays finite on corrupt
/// archives (found by modelgen-fuzz).
struct ArchiveGraphTests {
    @Test func anArrayThatContainsItselfIsWalkedOnce() {
        let archive = PropertyList.dictionary([
            ("$top", .dictionary([("root", .uid(1))])),
            (
                "$objects",
                .array([
                    .string("$null"),
                    .dictionary([("NS.objects", .array([.uid(1)])), ("$class", .uid(2))]),
                    .dictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray")]))]),
                ])
            ),
        ])
        _ = ArchiveGraph(archive)
    }

    @Test func referencesPastTheObjectsAndHugeRealsAreNotFollowed() {
        let archive = PropertyList.dictionary([
            ("$top", .dictionary([("root", .uid(1))])),
            (
                "$objects",
                .array([
                    .string("$null"),
                    .dictionary([("NSEntity", .uid(99)), ("NSValue", .real(1e300)), ("$class", .uid(2))]),
                    .dictionary([("$classname", .string("NSAttributeDescription"))]),
                ])
            ),
        ])
        _ = ArchiveGraph(archive)
    }
}
