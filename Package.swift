// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "modelgen",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "modelgen", targets: ["modelgen"]),
        .library(name: "ModelSchema", targets: ["ModelSchema"]),
        .library(name: "ModelCompiler", targets: ["ModelCompiler"]),
        .library(name: "ModelStore", targets: ["ModelStore"]),
        .library(name: "ModelRuntime", targets: ["ModelRuntime"]),
        .plugin(name: "ModelgenPlugin", targets: ["ModelgenPlugin"]),
        .plugin(name: "ModelgenCommandPlugin", targets: ["ModelgenCommandPlugin"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // SHA-2 comes from CryptoKit on Apple platforms and from OpenSSL's libcrypto elsewhere.
        .target(
            name: "ModelSchema",
            dependencies: [.target(name: "CCrypto", condition: .when(platforms: [.linux, .android, .windows, .openbsd]))]
        ),
        .target(name: "Mustache"),
        // Core Data's SQLite store format: metadata, model matching, layout, schema, SQL functions.
        .target(name: "ModelStore", dependencies: ["ModelSchema", "CSQLite", "CZlib"]),
        // Predicates, expressions and sort descriptors (Core Data's query types on Linux), their
        // evaluation, `#Predicate` translation and SQL translation. Knows no context or store.
        .target(name: "ModelQuery", dependencies: ["ModelStore"]),
        // The runtime apps link: reads compiled models, matches stores. Never links the compiler.
        .target(name: "ModelRuntime", dependencies: ["ModelSchema", "ModelStore", "ModelQuery"]),
        .plugin(name: "ModelgenPlugin", capability: .buildTool(), dependencies: ["modelgen-plugin-tool"]),
        .plugin(
            name: "ModelgenCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "generate-model-sources",
                    description: "Write the Swift sources and compiled .momd of every model in a target into the target"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated sources and the compiled model into the target")]
            ),
            dependencies: ["modelgen-plugin-tool"]
        ),
        .executableTarget(name: "TemplateEmbedder"),
        .target(
            name: "ModelCompiler",
            dependencies: ["CYAML", "ModelSchema", "Mustache"]
        ),
        .target(name: "ModelgenCLI", dependencies: ["ModelCompiler", "ModelSchema", "ModelStore"]),
        // Runs migrate-store's steps through mapping models with the runtime.
        .target(name: "ModelgenMigrationEngine", dependencies: ["ModelgenCLI", "ModelSchema", "ModelRuntime"]),
        .executableTarget(name: "modelgen", dependencies: ["ModelgenCLI", "ModelgenMigrationEngine"]),
        // The plugins' modelgen: the same commands without the runtime, which a package using the
        // plugins then never builds for its build machine.
        .executableTarget(name: "modelgen-plugin-tool", dependencies: ["ModelgenCLI"], path: "Sources/ModelgenPluginTool"),
        .executableTarget(
            name: "modelgen-benchmark",
            dependencies: ["CYAML", "ModelCompiler"],
            path: "Benchmarks/GenerateBenchmark"
        ),
        .executableTarget(
            name: "modelgen-fuzz",
            dependencies: ["CSQLite", "ModelCompiler", "ModelSchema", "ModelStore"],
            path: "Benchmarks/Fuzz"
        ),
        .executableTarget(name: "modelruntime-query-benchmark", dependencies: ["ModelRuntime"], path: "Benchmarks/QueryBenchmark"),
        .executableTarget(name: "modelruntime-benchmark", dependencies: ["ModelRuntime", "CSQLite"], path: "Benchmarks/RuntimeBenchmark"),
        // Saves until killed: the child process of the runtime's crash-safety test.
        .executableTarget(name: "modelruntime-crash-child", dependencies: ["ModelRuntime"], path: "Benchmarks/CrashChild"),
        // Migrates a store until killed: the child process of the store migration's crash, lock and memory tests.
        .executableTarget(
            name: "modelstore-migration-child", dependencies: ["ModelSchema", "ModelStore", "ModelRuntime"],
            path: "Benchmarks/MigrationChild"),
        // What every test target shares: fixture paths, temporary folders, the swiftc runner, golden files.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ModelSchemaTests", dependencies: ["ModelSchema", "TestSupport"]),
        .testTarget(name: "ModelStoreTests", dependencies: ["ModelStore", "ModelSchema", "ModelCompiler", "CSQLite", "TestSupport"]),
        // The compiler is linked by the tests only, to compare code-built models with compiled YAML.
        .testTarget(
            name: "ModelRuntimeTests",
            dependencies: ["ModelRuntime", "ModelQuery", "ModelSchema", "ModelCompiler", "ModelStore", "TestSupport"]),
        // Core Data behaviour through Core Data's public API only, so the same files run against
        // Apple's Core Data (see Tests/CoreDataConformanceTests/Conformance.swift).
        .testTarget(name: "CoreDataConformanceTests", dependencies: ["ModelRuntime"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        .testTarget(
            name: "ModelCompilerTests",
            dependencies: ["ModelCompiler", "ModelSchema", "TestSupport"],
            resources: [.copy("Golden")]
        ),
        .testTarget(
            name: "ModelgenCLITests",
            dependencies: ["ModelgenCLI", "ModelgenMigrationEngine", "ModelRuntime", "ModelCompiler", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
