// On Apple platforms the runtime is Core Data itself; the Linux implementation in this folder is
// compiled only where Core Data does not exist.
#if canImport(CoreData)
@_exported import CoreData
#endif
