import Mustache

/// The data templates receive, declared once as types: the generator builds these values, and
/// their shape (`MustacheShape(of:)`, from the synthesized `Decodable` conformance) is what
/// strict rendering checks templates against and what `docs/Generation.md` documents. An
/// optional property is a key that is declared but may be null.
enum SwiftTemplateContext {
    /// The bottom of every template's stack.
    struct Common: Codable {
        var generatedNotice: String
        var imports: [String]
        /// Modules that declare classes of entities, imported where Core Data is.
        var classModules: [String]
    }

    struct Entity: Codable {
        var access: String
        var name: String
        var entityNameLiteral: String
        var className: String
        /// Null for `.Name` classes.
        var objcName: String?
        var superclass: String
        var isAbstract: Bool
        var documentationLines: [String]
        var attributes: [Attribute]
        var relationships: [Relationship]
        var toManyRelationships: [Relationship]
        var fetchedProperties: [FetchedProperty]
        var keys: [PropertyKey]
        var hasSuperclassKeys: Bool
        /// The superclass is a generated class, whose key path table the runtime branch extends.
        var hasSuperclassKeyPathNames: Bool
        /// The properties the class declares, for the runtime branch.
        var slots: [Slot]
        /// The name of the class's slot table: `table`, with underscores appended until no
        /// property is named so.
        var slotTableName: String
        var batchFields: [BatchField]
        var batchLinks: [BatchLink]
        var hasBatchLinks: Bool
        var batchInitParameters: String
        var batchKeys: String
    }

    struct PropertyKey: Codable {
        var name: String
        var literal: String
    }

    struct Slot: Codable {
        var name: String
        var literal: String
        /// The property's place in the slot table.
        var index: String
    }

    struct Attribute: Codable {
        var name: String
        var swiftType: String
        var documentationLines: [String]
        var setterAccess: String
        var isManaged: Bool
        var isComputed: Bool
        /// Only for computed attributes.
        var read: String?
        /// Null for a read-only (or managed) attribute.
        var write: String?
        var runtimeRead: String
        var runtimeWrite: String?
        var rawValueAccessor: RawValueAccessor?
        var spaced: Bool
    }

    struct RawValueAccessor: Codable {
        var name: String
        var type: String
        var read: String
        var runtimeRead: String
        var attributeName: String
    }

    struct Relationship: Codable {
        var name: String
        var capitalizedName: String
        var destination: String
        var swiftType: String
        var isOrdered: Bool
        var isToMany: Bool
        var documentationLines: [String]
        var spaced: Bool
        var runtimeRead: String
        var runtimeWrite: String
        var mutableCollectionMethod: String
        var collectionType: String
    }

    /// A fetched property: a read-only array of its destination's objects.
    struct FetchedProperty: Codable {
        var name: String
        var literal: String
        var destination: String
        var documentationLines: [String]
    }

    struct BatchField: Codable {
        var name: String
        var swiftType: String
        var literal: String
        var position: String
        var storedValue: String
    }

    struct BatchLink: Codable {
        var name: String
        var position: String
        var relationshipName: String
    }

    struct Model: Codable {
        var access: String
        var modelName: String
        var modelNameText: String
        var typeName: String
        var versions: [Version]
        var currentCase: String
        var enums: [Enum]
        var composites: [Composite]
        /// Empty unless the layout is `model`.
        var entities: [Entity]
        var queryTypealiases: [String]
        /// `ModelgenVersion.generatedCodeAPI`.
        var generatedCodeAPI: Int
        var modelBundle: String?
        /// Null for a model with one version.
        var migration: Migration?
    }

    struct Version: Codable {
        var caseName: String
        var name: String
        var checksum: String
        var isCurrent: Bool
    }

    struct Enum: Codable {
        var access: String
        var name: String
        var rawType: String
        var cases: [EnumCase]
        var documentationLines: [String]
    }

    struct EnumCase: Codable {
        var name: String
        /// Null when it is the case name.
        var rawValue: String?
    }

    struct Composite: Codable {
        var access: String
        var name: String
        var fields: [CompositeField]
        var hasFields: Bool
        var initParameters: String
        var documentationLines: [String]
    }

    struct CompositeField: Codable {
        var name: String
        var key: String
        var swiftType: String
        var decode: String
        var encode: String
        var isOptional: Bool
        var documentationLines: [String]
    }

    struct Migration: Codable {
        var stages: [Stage]
        var customSteps: [CustomStep]
        var hasCustomSteps: Bool
    }

    /// Exactly one of the three is set.
    struct Stage: Codable {
        var lightweight: LightweightStage?
        var custom: CustomStep?
        /// A step lightweight migration cannot infer that is not declared custom, for a comment.
        var uninferable: String?
        /// A step a mapping model migrates that is not declared custom, for a comment.
        var mapped: MappedStep?
    }

    struct MappedStep: Codable {
        /// `V1 → V2`.
        var step: String
        /// The mapping model's name.
        var mappingModel: String
    }

    struct LightweightStage: Codable {
        /// Up to two versions, on one line; null for more.
        var checksums: String?
        /// One per version when there are more than two.
        var checksumLines: [String]
    }

    struct CustomStep: Codable {
        var fromCase: String
        var toCase: String
        var fromName: String
        var toName: String
        var willMethod: String
        var didMethod: String
    }

    // MARK: Shapes

    /// The stack of an entity file (`entity.mustache`, layout `entity`): common, then the entity.
    static let entityFileShape: [MustacheShape] = [shape(of: Common.self), shape(of: Entity.self)]

    /// The stack of the model file (`model.mustache`): common, then the model.
    static let modelFileShape: [MustacheShape] = [shape(of: Common.self), shape(of: Model.self)]

    /// The stack each template that is rendered as a file (not only as a partial) receives.
    static let fileShapes: [String: [MustacheShape]] = ["entity": entityFileShape, "model": modelFileShape]

    /// An empty object if the shape cannot be worked out (only a type containing itself cannot):
    /// strict rendering then rejects every key, and the tests fail.
    static func shape<T: Decodable>(of type: T.Type) -> MustacheShape {
        (try? MustacheShape(of: type)) ?? .object([:])
    }

    /// The context value of `value`; encoding these plain structs into memory cannot fail.
    static func value(_ value: some Encodable) -> MustacheValue {
        (try? MustacheValue(encoding: value)) ?? .null
    }
}
