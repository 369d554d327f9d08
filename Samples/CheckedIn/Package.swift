// swift-tools-version: 6.0
import PackageDescription

// The checked-in sample: the generated sources and the compiled model are committed, so building
// needs neither modelgen nor its plugin. They are kept up to date with
//   swift package --allow-writing-to-package-directory generate-model-sources
// and CI runs `modelgen generate --check` to catch a model edited without regenerating.
let package = Package(
    name: "CheckedIn",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "Notes", targets: ["Notes"])],
    dependencies: [
        // For the generate-model-sources command plugin, and ModelRuntime, which the generated
        // classes use where Core Data does not exist.
        .package(name: "modelgen", path: "../..")
    ],
    targets: [
        .target(
            name: "Notes",
            dependencies: [.product(name: "ModelRuntime", package: "modelgen")],
            exclude: ["Notes.model.yaml", "modelgen.yaml"],
            resources: [.copy("Notes.momd")]
        ),
        .testTarget(name: "NotesTests", dependencies: ["Notes"]),
    ]
)
