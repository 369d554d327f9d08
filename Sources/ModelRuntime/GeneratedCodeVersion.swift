#if !canImport(CoreData)
/// Version 1 of the API that modelgen's generated classes use on platforms without Core Data:
/// the slot accessors (`value(atSlot:)`, `value(atSlot:as:)`, `primitiveValue(atSlot:)`,
/// `setValue(_:atSlot:)`), `SlotTable` and `KeyPathStringConvertible`. Each generated model file
/// declares a type conforming to it, as swift-protobuf's generated code checks its runtime's
/// version. A `ModelRuntime` that changes that API incompatibly replaces this protocol by
/// `_ModelgenGeneratedCodeVersion2`, so sources generated for another version stop the build at
/// that declaration, whose comment says to generate them again, instead of failing at some
/// member; members added to it (as `value(atSlot:as:)` for a `SlotReference` was) keep older
/// generated sources building.
///
/// For generated code only; not part of the documented API.
public protocol _ModelgenGeneratedCodeVersion1 {}
#endif
