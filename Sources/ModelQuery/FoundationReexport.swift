#if !canImport(CoreData)
// Core Data re-exports Foundation; so does the runtime. It matters for the query types: a file
// that sees Foundation only through `import ModelRuntime` gets the runtime's `NSPredicate`,
// `NSExpression` and `NSSortDescriptor`, which shadow Linux Foundation's unimplemented ones. A
// file that also writes `import Foundation` sees both and must drop that import (or qualify,
// `ModelRuntime.NSPredicate`).
@_exported import Foundation
#endif
