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
        // Only for the generate-model-sources command plugin; no target links modelgen.
        .package(name: "modelgen", path: "../..")
    ],
    targets: [
        .target(
            name: "Notes",
            exclude: ["Notes.model.yaml", "modelgen.yaml"],
            resources: [.copy("Notes.momd")]
        ),
        .testTarget(name: "NotesTests", dependencies: ["Notes"]),
    ]
)
