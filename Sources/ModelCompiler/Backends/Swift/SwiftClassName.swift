import ModelSchema

/// What an entity's class name (`representedClassName`) means for generated Swift.
///
/// - `Folder`: a class generated here, exposed to Objective-C as `Folder` (`@objc(Folder)`).
/// - `.Folder`: a class of the current module, generated here without `@objc(…)`, so that its
///   runtime name is `<Module>.Folder` — the name Core Data looks up once the model is compiled
///   for that module (Xcode's "Current Product Module").
/// - `Data.Bookmark`: a class the app declares in module `Data`; nothing is generated for it and
///   accessors that reach it use the qualified name (or the bare name when the module's name
///   would resolve to a type generated code uses), with `import Data` added.
/// - `NSManagedObject`: a generic entity without a class of its own; nothing is generated and
///   accessors that reach it are typed `NSManagedObject`.
enum SwiftClassName: Hashable {
    case generated(name: String, objcName: String?)
    case external(module: String, name: String)
    case generic
    case invalid(String)

    init(_ className: String) {
        if className == "NSManagedObject" {
            self = .generic
            return
        }
        let parts = className.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where Names.isValidIdentifier(className) && !Names.swiftKeywords.contains(className):
            self = .generated(name: className, objcName: className)
        case 2 where parts[0].isEmpty && Self.isTypeName(parts[1]):
            self = .generated(name: parts[1], objcName: nil)
        case 2 where Self.isTypeName(parts[0]) && Self.isTypeName(parts[1]):
            self = .external(module: parts[0], name: parts[1])
        default:
            self = .invalid(className)
        }
    }

    init(of entity: Entity) {
        self.init(entity.effectiveClassName)
    }

    private static func isTypeName(_ text: String) -> Bool {
        Names.isValidIdentifier(text) && !Names.swiftKeywords.contains(text)
    }

    /// Whether generated code declares a class for the entity.
    var isGenerated: Bool {
        if case .generated = self { return true }
        return false
    }

    /// How generated code names the class in a type position.
    var swiftType: String {
        switch self {
        case .generated(let name, _): name
        case .external(let module, let name): Names.typesUsedByGeneratedCode.contains(module) ? name : "\(module).\(name)"
        case .generic: "NSManagedObject"
        case .invalid(let text): text
        }
    }

    /// The module generated files must import to name the class.
    var module: String? {
        if case .external(let module, _) = self { return module }
        return nil
    }
}
