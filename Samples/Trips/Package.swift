// swift-tools-version: 6.0
import PackageDescription

// The Trips sample: a library whose model, Trips.modeld, is compiled during the build by the
// modelgen plugin, and an executable that loads the compiled model from the library's bundle.
let package = Package(
    name: "Trips",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "modelgen", path: "../..")
    ],
    targets: [
        .target(
            name: "Trips",
            dependencies: [.product(name: "ModelRuntime", package: "modelgen")],
            plugins: [.plugin(name: "ModelgenPlugin", package: "modelgen")]
        ),
        .executableTarget(
            name: "trips-info",
            dependencies: ["Trips", .product(name: "ModelRuntime", package: "modelgen")]
        ),
    ]
)
