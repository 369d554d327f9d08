// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "modelgen",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "modelgen", targets: ["modelgen"]),
        .library(name: "ModelSchema", targets: ["ModelSchema"]),
        .library(name: "ModelCompiler", targets: ["ModelCompiler"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "ModelSchema"),
        .target(name: "ModelCompiler", dependencies: ["CYAML", "ModelSchema"]),
        .target(name: "ModelgenCLI", dependencies: ["ModelCompiler", "ModelSchema"]),
        .executableTarget(name: "modelgen", dependencies: ["ModelgenCLI"]),
        .testTarget(
            name: "ModelCompilerTests",
            dependencies: ["ModelCompiler", "ModelSchema"],
            resources: [.copy("Golden")]
        ),
        .testTarget(name: "ModelgenCLITests", dependencies: ["ModelgenCLI", "ModelCompiler"]),
    ],
    swiftLanguageModes: [.v6]
)
