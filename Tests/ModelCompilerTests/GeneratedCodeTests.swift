import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// The generated Swift sources are specified by golden files (reviewed by reading them as a Core
/// Data developer would), parse with `swiftc -parse`, and typecheck warning-free in the Swift 6
/// language mode against a stand-in of the Core Data API (`Golden/CoreDataStandIn.swift`).
struct GeneratedCodeTests {
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let modelPath: URL
        let access: SwiftGenerator.AccessLevel
        let layout: SwiftGenerator.Layout
        /// Where the expected files are; by default `Golden/Generated/<name>`.
        var goldenFolder: URL? = nil
        /// The bundle of the compiled model (`modelgen build --model-bundle`, as the build plugin runs it).
        var modelBundle: SwiftGenerator.ModelBundle? = nil
        /// Whether the model file declares the query type aliases (one model per module may).
        var declaresQueryTypealiases = true
        var description: String { name }
    }

    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    static let cases: [Case] = [
        Case(name: "Trips", modelPath: Fixtures.samples.appendingPathComponent("Trips/Trips.modeld"), access: .public, layout: .entity),
        Case(
            name: "Trips-internal-one-file", modelPath: Fixtures.samples.appendingPathComponent("Trips/Trips.modeld"), access: .internal,
            layout: .model),
        Case(
            name: "Trips-plugin", modelPath: Fixtures.samples.appendingPathComponent("Trips/Trips.modeld"), access: .public,
            layout: .model, modelBundle: .module),
        Case(
            name: "Notes", modelPath: Fixtures.samples.appendingPathComponent("CheckedIn/Sources/Notes/Notes.model.yaml"), access: .public,
            layout: .entity,
            // The checked-in sample's sources are this case's golden files.
            goldenFolder: Fixtures.samples.appendingPathComponent("CheckedIn/Sources/Notes/Generated")),
        Case(
            name: "Drawings", modelPath: Fixtures.golden.appendingPathComponent("Models/Drawings.model.yaml"), access: .public,
            layout: .entity),
        // A custom migration step between lightweight ones; compiled into ModelRuntimeTests
        // beside Trips, so it leaves the module's aliases to Trips.
        Case(
            name: "Itinerary", modelPath: Fixtures.golden.appendingPathComponent("Models/Itinerary.modeld"), access: .internal,
            layout: .model, declaresQueryTypealiases: false),
        // A step a mapping model migrates, which staged migration leaves to automatic migration.
        Case(
            name: "Orders", modelPath: Fixtures.golden.appendingPathComponent("Models/Orders.modeld"), access: .internal,
            layout: .model, declaresQueryTypealiases: false),
        Case(
            name: "SampleModel", modelPath: coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"),
            access: .public, layout: .entity),
        Case(
            name: "SampleModel3", modelPath: coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld"),
            access: .package, layout: .entity),
        Case(
            name: "CoreDataMigration_Example",
            modelPath: coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld"),
            access: .public, layout: .entity),
        Case(
            name: "MomXML", modelPath: coredata.appendingPathComponent("composite-xml/phimage-MomXML-Tests-Model.contents"),
            access: .public,
            layout: .entity),
        Case(
            name: "CoreDataEvolution",
            modelPath: coredata.appendingPathComponent("composite-xml/fatbobman-CoreDataEvolution-GeneratedFlowModel.contents"),
            access: .public, layout: .entity),
        // Patterns of real apps' Xcode models (Tests/Fixtures/xcode-patterns).
        patternCase("ModuleClasses"), patternCase("GenericEntities"), patternCase("CapitalisedNames"),
        patternCase("UndefinedAttributes"), patternCase("FetchedProperties"),
    ]

    static func patternCase(_ name: String) -> Case {
        Case(
            name: name, modelPath: Fixtures.root.appendingPathComponent("xcode-patterns/\(name).xcdatamodel"), access: .public,
            layout: .entity)
    }

    static func generate(_ testCase: Case) throws -> [SwiftGenerator.File] {
        let result = Pipeline.load(testCase.modelPath.path)
        let model = try #require(result.model, "\(result.diagnostics)")
        var options = SwiftGenerator.Options()
        options.accessLevel = testCase.access
        options.layout = testCase.layout
        options.sourceName = testCase.modelPath.lastPathComponent
        options.modelBundle = testCase.modelBundle
        options.declaresQueryTypealiases = testCase.declaresQueryTypealiases
        return try SwiftGenerator.generate(model, options: options)
    }

    static func temporaryFolder() throws -> URL {
        try Fixtures.temporaryFolder("generated")
    }

    @Test(arguments: cases)
    func generatedSourcesMatchGoldenFiles(_ testCase: Case) throws {
        let files = try Self.generate(testCase)
        let folder = testCase.goldenFolder ?? Fixtures.golden.appendingPathComponent("Generated/\(testCase.name)")
        if Golden.isUpdating {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files { try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
        }
        let expectedNames = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.map(\.name) == expectedNames)
        for file in files {
            let expected = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(file.contents == expected, "\(testCase.name)/\(file.name)")
        }
    }

    @Test(arguments: cases)
    func generatingTwiceGivesTheSameBytes(_ testCase: Case) throws {
        #expect(try Self.generate(testCase) == Self.generate(testCase))
    }

    @Test(arguments: cases)
    func generatedSourcesParse(_ testCase: Case) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.generate(testCase)
        for file in files { try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
        let result = try Swiftc.run(["-parse"] + files.map(\.name), in: folder)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// The modules of this package's debug build (`ModelRuntime` among them): `.build/debug`,
    /// or the platform folder it links to (`.build/x86_64-unknown-linux-gnu/debug`).
    static let builtModules: URL = {
        let build = Fixtures.packageRoot.appendingPathComponent(".build")
        let platforms = ((try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []).filter { $0.contains("-") }.sorted()
        let candidates = ["debug"] + platforms.map { "\($0)/debug" }
        let folders = candidates.map { build.appendingPathComponent($0).appendingPathComponent("Modules") }
        return folders.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("ModelRuntime.swiftmodule").path) }
            ?? folders[0]
    }()

    /// `-I` flags for the built Swift modules and the package's system library module maps, which
    /// `ModelRuntime`'s module needs to be imported.
    static func runtimeSearchPaths() -> [String] {
        let sources = Fixtures.packageRoot.appendingPathComponent("Sources")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
        let moduleMaps = names.map { sources.appendingPathComponent($0) }.filter {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("module.modulemap").path)
        }
        return ([builtModules] + moduleMaps).flatMap { ["-I", $0.path] }
    }

    /// Without Core Data (as on Linux), the generated sources typecheck warning-free in the Swift 6
    /// language mode against the real `ModelRuntime` module of this package's build: the
    /// `#else` branch's classes, accessors and aliases, and what stays outside the `#if`.
    @Test(arguments: cases)
    func generatedSourcesTypecheckAgainstModelRuntime(_ testCase: Case) throws {
        let modules = Self.builtModules.path
        try #require(
            FileManager.default.fileExists(atPath: Self.builtModules.appendingPathComponent("ModelRuntime.swiftmodule").path),
            "build the package first: no ModelRuntime module in \(modules)")
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try #require(Pipeline.load(testCase.modelPath.path).model)
        for (module, classes) in Self.externalClasses(of: model) {
            let stub = "import ModelRuntime\n" + classes.map { "open class \($0): NSManagedObject {}\n" }.joined()
            try stub.write(to: folder.appendingPathComponent("\(module).swift"), atomically: true, encoding: .utf8)
            let built = try Swiftc.run(
                ["-emit-module", "-module-name", module, "-parse-as-library"] + Self.runtimeSearchPaths()
                    + ["\(module).swift", "-emit-module-path", "\(module).swiftmodule"], in: folder)
            #expect(built.status == 0, "\(built.output)")
        }
        let files = try Self.generate(testCase)
        let sources = folder.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for file in files { try file.contents.write(to: sources.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
        let customClasses = Set(model.versions.flatMap { $0.entities.flatMap { $0.attributes.compactMap(\.customClassName) } })
        let stubs = customClasses.sorted().map { "public final class \($0): NSObject {}\n" }.joined() + Self.bundleStub(testCase)
        try ("import Foundation\n" + stubs).write(to: sources.appendingPathComponent("AppTypes.swift"), atomically: true, encoding: .utf8)
        let result = try Swiftc.run(
            ["-typecheck", "-swift-version", "6", "-package-name", "Generated", "-I", "."] + Self.runtimeSearchPaths()
                + (files.map { "Sources/\($0.name)" } + ["Sources/AppTypes.swift"]), in: folder)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// Two models in one target: only the first declares the module-wide query typealiases
    /// (the build plugin passes `--no-query-typealiases` to the others), and together they
    /// typecheck against `ModelRuntime` — with both declaring them they would not.
    @Test func twoModelsInOneTargetTypecheckWithOneDeclarationOfTheTypealiases() throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.builtModules.appendingPathComponent("ModelRuntime.swiftmodule").path),
            "build the package first: no ModelRuntime module in \(Self.builtModules.path)")
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files = try Self.generate(Self.cases[0])
        let drawings = try #require(Self.cases.first { $0.name == "Drawings" })
        let model = try #require(Pipeline.load(drawings.modelPath.path).model)
        var options = SwiftGenerator.Options()
        options.sourceName = drawings.modelPath.lastPathComponent
        options.declaresQueryTypealiases = false
        let second = try SwiftGenerator.generate(model, options: options)
        #expect(!second.contains { $0.contents.contains("typealias NSPredicate") })
        files += second
        for file in files { try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
        let user = "import Foundation\nimport ModelRuntime\n\nlet userPredicate = NSPredicate(format: \"name == %@\", \"x\")\n"
        try user.write(to: folder.appendingPathComponent("User.swift"), atomically: true, encoding: .utf8)
        let result = try Swiftc.run(
            ["-typecheck", "-swift-version", "6", "-package-name", "Generated"] + Self.runtimeSearchPaths() + files.map(\.name)
                + ["User.swift"], in: folder)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// A file of another module that imports Foundation and ModelRuntime and names `NSPredicate`
    /// as a type finds Linux Foundation's too; the compiler's note on ModelRuntime's candidate
    /// shows the one-line remedy, and with it the same file compiles.
    @Test func ambiguousQueryTypesPointToTheModuleAlias() throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.builtModules.appendingPathComponent("ModelRuntime.swiftmodule").path),
            "build the package first: no ModelRuntime module in \(Self.builtModules.path)")
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = """
            import Foundation
            import ModelRuntime

            extension NSPredicate {
                static var always: NSPredicate { NSPredicate(value: true) }
            }
            func sorted(by descriptors: [NSSortDescriptor]) -> [NSSortDescriptor] { descriptors }

            """
        try user.write(to: folder.appendingPathComponent("User.swift"), atomically: true, encoding: .utf8)
        let ambiguous = try Swiftc.run(["-typecheck", "-swift-version", "6"] + Self.runtimeSearchPaths() + ["User.swift"], in: folder)
        #expect(ambiguous.status != 0)
        #expect(ambiguous.output.contains("'NSPredicate' is ambiguous for type lookup"), "\(ambiguous.output)")
        #expect(ambiguous.output.contains("typealias NSPredicate = ModelRuntime.NSPredicate"), "\(ambiguous.output)")
        #expect(ambiguous.output.contains("typealias NSSortDescriptor = ModelRuntime.NSSortDescriptor"), "\(ambiguous.output)")
        let aliases =
            "import ModelRuntime\n\ntypealias NSPredicate = ModelRuntime.NSPredicate\ntypealias NSSortDescriptor = ModelRuntime.NSSortDescriptor\n"
        try aliases.write(to: folder.appendingPathComponent("Aliases.swift"), atomically: true, encoding: .utf8)
        let fixed = try Swiftc.run(
            ["-typecheck", "-swift-version", "6"] + Self.runtimeSearchPaths() + ["User.swift", "Aliases.swift"], in: folder)
        #expect(fixed.status == 0 && fixed.output.isEmpty, "\(fixed.output)")
    }

    /// What the stand-in claims about Core Data (`Golden/CoreDataStandInClaims.swift`, client
    /// code that `Scripts/api-shape/check.sh` also typechecks against Apple's SDK) holds for the
    /// stand-in: the same code compiles against both.
    @Test func standInClaimsTypecheckAgainstTheStandIn() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try String(contentsOf: Fixtures.golden.appendingPathComponent("CoreDataStandIn.swift"), encoding: .utf8)
        try standIn.write(to: folder.appendingPathComponent("CoreData.swift"), atomically: true, encoding: .utf8)
        let module = try Swiftc.run(
            ["-emit-module", "-module-name", "CoreData", "-parse-as-library"] + Swiftc.objcInteropFlags
                + ["CoreData.swift", "-emit-module-path", "CoreData.swiftmodule"], in: folder)
        #expect(module.status == 0, "\(module.output)")
        let claims = try String(contentsOf: Fixtures.golden.appendingPathComponent("CoreDataStandInClaims.swift"), encoding: .utf8)
        try claims.write(to: folder.appendingPathComponent("Claims.swift"), atomically: true, encoding: .utf8)
        let result = try Swiftc.run(
            ["-typecheck", "-swift-version", "6", "-I", "."] + Swiftc.objcInteropFlags + ["Claims.swift"], in: folder)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// With the Core Data stand-in as the `CoreData` module, the managed object subclasses
    /// typecheck too: `@objc`, `@NSManaged` and the accessors are checked as on Apple platforms.
    @Test(arguments: cases)
    func generatedSourcesTypecheckAgainstCoreDataStandIn(_ testCase: Case) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try String(contentsOf: Fixtures.golden.appendingPathComponent("CoreDataStandIn.swift"), encoding: .utf8)
        try standIn.write(to: folder.appendingPathComponent("CoreData.swift"), atomically: true, encoding: .utf8)
        let module = try Swiftc.run(
            ["-emit-module", "-module-name", "CoreData", "-parse-as-library"] + Swiftc.objcInteropFlags
                + ["CoreData.swift", "-emit-module-path", "CoreData.swiftmodule"], in: folder)
        #expect(module.status == 0, "\(module.output)")
        // Classes of entities declared in other modules (`Data.Bookmark`) are the app's own;
        // declare each such module.
        let model = try #require(Pipeline.load(testCase.modelPath.path).model)
        for (module, classes) in Self.externalClasses(of: model) {
            let stub = "import CoreData\n" + classes.map { "open class \($0): NSManagedObject {}\n" }.joined()
            try stub.write(to: folder.appendingPathComponent("\(module).swift"), atomically: true, encoding: .utf8)
            let built = try Swiftc.run(
                ["-emit-module", "-module-name", module, "-parse-as-library", "-I", "."] + Swiftc.objcInteropFlags
                    + ["\(module).swift", "-emit-module-path", "\(module).swiftmodule"], in: folder)
            #expect(built.status == 0, "\(built.output)")
        }
        let files = try Self.generate(testCase)
        let sources = folder.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for file in files {
            let renamed = Self.replacingFoundationCollections(file.contents)
            try renamed.write(to: sources.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        }
        // Custom classes named by Transformable attributes are the app's own types; declare them.
        let customClasses = Set(model.versions.flatMap { $0.entities.flatMap { $0.attributes.compactMap(\.customClassName) } })
        let stubs = customClasses.sorted().map { "public final class \($0): NSObject {}\n" }.joined() + Self.bundleStub(testCase)
        try ("import Foundation\n" + stubs).write(to: sources.appendingPathComponent("AppTypes.swift"), atomically: true, encoding: .utf8)
        let result = try Swiftc.run(
            ["-typecheck", "-swift-version", "6", "-package-name", "Generated", "-I", "."] + Swiftc.objcInteropFlags
                + (files.map { "Sources/\($0.name)" } + ["Sources/AppTypes.swift"]), in: folder)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// `Bundle.module`, which SwiftPM declares in a target with resources, for sources that use it.
    static func bundleStub(_ testCase: Case) -> String {
        testCase.modelBundle == .module ? "extension Bundle { static var module: Bundle { .main } }\n" : ""
    }

    /// Module → class names, for entities whose class is `Module.Name`.
    static func externalClasses(of model: Model) -> [(String, [String])] {
        var classes: [String: Set<String>] = [:]
        for entity in model.versions.flatMap(\.entities) {
            let parts = entity.effectiveClassName.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 2, !parts[0].isEmpty { classes[String(parts[0]), default: []].insert(String(parts[1])) }
        }
        return classes.keys.sorted().map { ($0, classes[$0]!.sorted()) }
    }

    /// NSSet, NSOrderedSet and NSIndexSet → the stand-in's @objc classes (whole words only).
    static func replacingFoundationCollections(_ text: String) -> String {
        var result = text
        for (name, replacement) in [("NSOrderedSet", "StandInOrderedSet"), ("NSIndexSet", "StandInIndexSet"), ("NSSet", "StandInSet")] {
            result = result.replacingOccurrences(of: "\\b\(name)\\b", with: replacement, options: .regularExpression)
        }
        return result
    }
}
